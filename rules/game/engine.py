"""Deciding what a player's action does: ``decide(state, side, command, dice)``.

Each tap on a phone is one command. ``decide`` checks it against the rules
and returns the events it produces (``IllegalAction`` otherwise, with nothing
changed). Every die comes from ``dice`` (the game's seeded dice, or the faces a
player entered from real dice) and every face is written into the events, so
``rules.game.evolve`` can replay the game without dice.

The turn (chapter 4): strategic phase (IV-A-1 sequences, IV-A-2 Tactics
roll), activation phase (IV-B-1 draws, IV-B-2 actions; shooting, movement and
disengagement from the initiation rules), combat phase (IV-C and the melee of
``rules.game.combat_phase``, from rules-data/melee-sources.md), upkeep (IV-D).
Tests follow II-A, wounds II-B.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.dice import DiceSource
from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.activation_phase import (
    declare,
    disengage,
    draw,
    end_activation,
    legal_declare,
    legal_disengage,
    legal_draw,
    legal_end_activation,
    legal_set_contact,
    legal_shoot,
    movement_cm,
    set_contact,
    shoot,
)
from rules.game.combat_phase import (
    ambidextrous,
    choose_combat,
    declare_attack,
    form_combats,
    initiative,
    legal_ambidextrous,
    legal_attack,
    legal_choose_combat,
    legal_form_combats,
    legal_initiative,
    legal_parry,
    legal_place_dice,
    legal_pursue,
    parry,
    place_dice,
    pursue,
)
from rules.game.common import Batch, Command, CountingDice, State, own_fighter
from rules.game.magic_phase import (
    call,
    cast,
    counter,
    legal_call,
    legal_cast,
    legal_counter,
)
from rules.game.pending import choice_odds, who_decides
from rules.game.rallying_cry import legal_rallying_cry, rallying_cry
from rules.game.roll_numbers import roll_key, roll_number
from rules.game.rolling import (
    decide_six,
    legal_keep,
    legal_reroll,
    legal_roll,
    roll_dice,
)
from rules.game.strategic_phase import (
    choose_first,
    choose_tactics_fighter,
    legal_choose_first,
    legal_choose_tactics_fighter,
    legal_set_sequence,
    set_sequence,
    tactics_candidates,
)
from rules.game.table_rolls import (
    characteristic_test,
    legal_characteristic_test,
    legal_scatter,
    scatter,
)
from rules.game.upkeep_phase import (
    end_effect,
    legal_end_effect,
    legal_record_effect,
    legal_tick_upkeep,
    record_effect,
    tick_upkeep,
    with_rally_item,
)
from rules.magic import MAX_GEMS, normal_reserve
from rules.melee import house_rulings


def _set_routed(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    fighter = own_fighter(state, side, command.get("fighter"))
    routed = bool(command.get("routed"))
    if fighter["routed"] == routed:
        raise IllegalAction(_("Nothing to change."))
    payload = {
        "fighter": command["fighter"],
        "label": fighter["label"],
        "changes": {"routed": routed},
    }
    if routed and state["phase"] == "upkeep":
        # Routed during the upkeep: its rally joins the checklist (IV-D-1).
        upkeep = with_rally_item(state, command["fighter"])
        if upkeep:
            payload["upkeep"] = upkeep
    batch.emit("fighter_changed", payload)


def _set_mystic(batch: Batch, side: str, command: Command) -> None:
    """Keep a magician's mana or a faithful's temporary faith up to date."""
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    fighter = own_fighter(state, side, command.get("fighter"))
    changes: dict[str, Any] = {}
    if command.get("gems") is not None:
        changes["gems"] = _gems_given(state, command["fighter"], command["gems"])
        if not fighter.get("gems_max"):
            # HR-M1: a reserve first given at the table is its maximum.
            changes["gems_max"] = sum(changes["gems"].values())
        if not st.card_of(state, command["fighter"]).get("elements"):
            # A card that names no element: the elements given are mastered.
            given = {e for e, n in changes["gems"].items() if n}
            known = set(fighter.get("elements") or [])
            if given - known:
                changes["elements"] = sorted(known | given)
    for key in ("mana", "faith"):
        if command.get(key) is None:
            continue
        value = command[key]
        if fighter[key] is None:
            raise IllegalAction(
                _("{fighter} has no such reserve."), fighter=fighter["label"]
            )
        if key == "mana" and (fighter.get("gems") is not None or "gems" in changes):
            raise IllegalAction(
                _("{fighter}'s mana is counted in gems: give them by element (X)."),
                fighter=fighter["label"],
            )
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 0 <= value <= 99
        ):
            raise IllegalAction(_("A mystic reserve counts 0 to 99."))
        changes[key] = value
    if not changes:
        raise IllegalAction(_("Nothing to change."))
    batch.emit(
        "fighter_changed",
        {"fighter": command["fighter"], "label": fighter["label"], "changes": changes},
    )


def _gems_given(state: State, fighter_id: str, gems: Any) -> dict[str, int]:
    """A magician's reserve of gems as the player gives it (X, HR-M1)."""
    fighter = state["fighters"][fighter_id]
    if fighter.get("gems") is None and st.base_value(state, fighter_id, "POU") is None:
        raise IllegalAction(
            _("{fighter} is not a magician: no gems of mana."),
            fighter=fighter["label"],
        )
    if not isinstance(gems, Mapping):
        raise IllegalAction(_("Give the gems by element."))
    try:
        reserve = normal_reserve(gems)
    except ValueError:
        raise IllegalAction(
            _(
                "Give 0 to 99 gems of each element (light, darkness, air, water, "
                "fire, earth)."
            )
        ) from None
    if any(count > MAX_GEMS for count in reserve.values()):
        raise IllegalAction(
            _(
                "Give 0 to 99 gems of each element (light, darkness, air, water, "
                "fire, earth)."
            )
        )
    return reserve


def _legal_set_routed(state: State, side: str) -> list[dict[str, Any]]:
    return [
        {
            "type": "set_routed",
            "fighter": fighter_id,
            "choices": {"routed": [not state["fighters"][fighter_id]["routed"]]},
        }
        for fighter_id in st.fighters_of(state, side)
    ]


def _legal_set_mystic(state: State, side: str) -> list[dict[str, Any]]:
    result = []
    for fighter_id in st.fighters_of(state, side):
        data = state["fighters"][fighter_id]
        fields = [key for key in ("mana", "faith") if data[key] is not None]
        if fields or data.get("gems") is not None:
            # The reserve itself (0 to 99) is typed by the player.
            result.append({"type": "set_mystic", "fighter": fighter_id})
    return result


def _legal_concede(state: State, side: str) -> list[dict[str, Any]]:
    return [{"type": "concede"}]


def _concede(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    batch.emit("game_finished", {"reason": "conceded", "winner": st.other(side)})


def _legal_call_time(state: State, side: str) -> list[dict[str, Any]]:
    # Like conceding, any time; the app sends it once both phones agreed.
    return [{"type": "call_time"}]


def _call_time(batch: Batch, side: str, command: Command) -> None:
    """The game ends before its last turn: the side that destroyed more army
    points wins, equal points are a draw (issue #29)."""
    if batch.state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    score_a, score_b = command.get("score_a", 0), command.get("score_b", 0)
    winner = "a" if score_a > score_b else "b" if score_b > score_a else None
    payload = {"reason": "time_called", "winner": winner}
    batch.emit("game_finished", {**payload, "score_a": score_a, "score_b": score_b})


Handler = Callable[[Batch, str, Command], None]
Legal = Callable[[State, str], list[dict[str, Any]]]


@dataclass(frozen=True)
class CommandKind:
    """One kind of command: how ``decide`` handles it, when it is legal.

    ``handle(batch, side, command, dice)`` emits the events (or raises
    ``IllegalAction``); ``legal(state, side)`` lists the commands of this kind
    ``side`` may send now, in the shape of ``rules.game.legal.legal_actions``.
    ``anytime`` kinds (conceding, keeping one's own fighters up to date) may
    be listed while the side waits.
    """

    handle: Callable[[Batch, str, Command, DiceSource], None]
    legal: Legal
    anytime: bool = False


def _no_dice(handler: Handler) -> Callable[[Batch, str, Command, DiceSource], None]:
    def handle(batch: Batch, side: str, command: Command, dice: DiceSource) -> None:
        handler(batch, side, command)

    return handle


COMMAND_TABLE: dict[str, CommandKind] = {}


def register_command(
    kind: str,
    handle: Callable[[Batch, str, Command, DiceSource], None],
    legal: Legal,
    *,
    anytime: bool = False,
) -> None:
    """Add (or replace) a command kind: the one extension point of ``decide``."""
    COMMAND_TABLE[kind] = CommandKind(handle, legal, anytime)


def _register_all() -> None:
    table: list[tuple[str, Handler, Legal, bool]] = [
        # Until the Tactics roll, a side may still correct its sequence or
        # its Tactics fighter while it waits for the other (IV-A-1, IV-A-2).
        ("set_sequence", set_sequence, legal_set_sequence, True),
        (
            "choose_tactics_fighter",
            choose_tactics_fighter,
            legal_choose_tactics_fighter,
            True,
        ),
        ("choose_first", choose_first, legal_choose_first, False),
        ("draw", draw, legal_draw, False),
        ("declare", declare, legal_declare, False),
        ("disengage", disengage, legal_disengage, False),
        ("shoot", shoot, legal_shoot, False),
        ("end_activation", end_activation, legal_end_activation, False),
        ("set_contact", set_contact, legal_set_contact, True),
        ("form_combats", form_combats, legal_form_combats, False),
        ("choose_combat", choose_combat, legal_choose_combat, False),
        ("initiative", initiative, legal_initiative, False),
        ("place_dice", place_dice, legal_place_dice, False),
        ("attack", declare_attack, legal_attack, False),
        ("parry", parry, legal_parry, False),
        ("ambidextrous", ambidextrous, legal_ambidextrous, False),
        # A freed fighter's pursuit (VII-C-6): listed to its side while the
        # next combat is picked, whoever picks it.
        ("pursue", pursue, legal_pursue, True),
        # X, XI: a spell, the adversary's answer to it, a miracle.
        ("cast", cast, legal_cast, False),
        ("counter", counter, legal_counter, False),
        ("call", call, legal_call, False),
        # Cri de ralliement (IX): at the start of a strategic phase.
        ("rallying_cry", rallying_cry, legal_rallying_cry, True),
        ("set_routed", _set_routed, _legal_set_routed, True),
        ("set_mystic", _set_mystic, _legal_set_mystic, True),
        ("concede", _concede, _legal_concede, True),
    ]
    register_command("roll", roll_dice, legal_roll)
    register_command(
        "reroll",
        lambda batch, side, command, dice: decide_six(batch, side, command, dice, True),
        legal_reroll,
    )
    register_command(
        "keep",
        lambda batch, side, command, dice: decide_six(
            batch, side, command, dice, False
        ),
        legal_keep,
    )
    for kind, handler, legal, anytime in table:
        register_command(kind, _no_dice(handler), legal, anytime=anytime)
    # The upkeep checklist: Régénération/X's roll comes from the game's dice.
    register_command("tick_upkeep", tick_upkeep, legal_tick_upkeep)
    # Tests rolled at the table (II-A), the scatter (II-C-5) and lasting
    # effects (II-C-3): a side may do them whenever nothing is under way.
    register_command(
        "characteristic_test",
        _no_dice(characteristic_test),
        legal_characteristic_test,
        anytime=True,
    )
    register_command("scatter", scatter, legal_scatter, anytime=True)
    register_command(
        "record_effect", _no_dice(record_effect), legal_record_effect, anytime=True
    )
    register_command("end_effect", _no_dice(end_effect), legal_end_effect, anytime=True)
    # Time called (issue #29): both phones agreed, the app sends it.
    register_command("call_time", _no_dice(_call_time), _legal_call_time, anytime=True)


_register_all()

# The handlers by kind, as before the command table (read-only view).
HANDLERS = {kind: entry.handle for kind, entry in COMMAND_TABLE.items()}
COMMANDS = frozenset(COMMAND_TABLE)


def decide(
    state: State, side: str, command: Command, dice: DiceSource
) -> list[dict[str, Any]]:
    """The events a command by ``side`` produces; ``IllegalAction`` if illegal.

    ``command`` is ``{"type": ..., ...}`` (see ``COMMANDS``). Events come as
    ``{"kind", "side", "payload"}``; the caller numbers them.
    """
    return decide_and_fold(state, side, command, dice)[0]


def decide_and_fold(
    state: State, side: str, command: Command, dice: DiceSource
) -> tuple[list[dict[str, Any]], State]:
    """``decide``'s companion: the events and the state they lead to.

    The state is folded once, while the events are made: the caller stores
    it instead of folding the events a second time.
    """
    if side not in st.SIDES:
        raise IllegalAction(_("Only the two players act in a game."))
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    kind = command.get("type") if isinstance(command, Mapping) else None
    entry = COMMAND_TABLE.get(kind) if isinstance(kind, str) else None
    if entry is None:
        raise IllegalAction(_("Unknown action."))
    batch = Batch(state, side)
    counted = CountingDice(dice)
    entry.handle(batch, side, command, counted)
    if counted.faces:
        # The game's dice are seeded by the roll's number (rules.game.
        # roll_numbers): a fresh one, or the number of the very roll an undo
        # took back when it is made again; logged with the roll's key.
        batch.emit(
            "dice_drawn",
            {
                "roll": roll_number(state, side, command),
                "faces": list(counted.faces),
                "key": roll_key(state, side, command),
            },
        )
    return batch.events, batch.state


def new_game_event(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The first event of a game's log: its whole initial state."""
    initial = st.new_state(setup)
    # The melee's house rulings in force (rules.melee.HOUSE_RULINGS): the
    # players' choices, the sources' default for the others.
    initial["house_rulings"] = house_rulings(setup.get("house_rulings"))
    initial.setdefault("engaged", [])
    initial.setdefault("defence_only", [])
    initial.setdefault("effects", [])
    initial.setdefault("rolls", 0)  # the next fresh roll number (never rewound)
    initial.setdefault("taken_back", [])  # rolls undone, kept for the same roll
    initial.setdefault("casts", {})
    return {"kind": "game_started", "side": None, "payload": {"state": initial}}


__all__ = [
    "COMMANDS",
    "COMMAND_TABLE",
    "HANDLERS",
    "CommandKind",
    "decide_and_fold",
    "register_command",
    "choice_odds",
    "decide",
    "movement_cm",
    "new_game_event",
    "tactics_candidates",
    "who_decides",
]
