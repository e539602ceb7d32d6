"""The combat phase (IV-C, Conf'Fédé ch.7): combats, Initiative, placement,
exchanges, attacks and parries.

Chapter 7 is not among the seeds: ``../shared/rules-data/melee-sources.md``
gathers what public sources establish of it (S1..S15, each fact tagged
[read], [inferred], [conflict] or [fan]). What they establish is played as the
rule; what they leave open is a house ruling (``rules.melee.HOUSE_RULINGS``),
chosen at the game's creation and named in the events it decides
(``"house_ruling": name``).

The course of one combat (melee-sources.md §8):

1. The Tactics winner splits the melees (VII-A, IV-C); the sides take turns
   to pick the next combat, the Tactics winner first (VII-B, S4, S8).
2. Each fighter has 1 die plus 1 per opponent in that combat (VII-C-1, S8).
3. Initiative (VII-C-2, S8): each side names one of its fighters; their
   opposed INI test (II-A-3) decides which side places its dice last and
   attacks first.
4. Placement (VII-C-1, S8): the side that lost the Initiative places its
   fighters' dice first, in attack or defence, then the winner, who sees
   them (``placement_order``: or both before the Initiative). A fighter whose
   disengagement failed this turn places none in attack, in every combat of
   the phase (S3).
5. Exchanges (VII-C-3, S8): the sides take turns, one attack each, the
   Initiative winner's side first (B, A, B, A...; a side with no attack
   left lets the other go on alone); which side opens the later exchanges is
   the house ruling ``exchange_opener`` (the sources are silent); a fighter
   attacks each of its opponents at most once in an exchange; a fighter that
   holds an attack die and an opponent it has not yet attacked in this
   exchange must attack.
   The combat ends when no attack die can be used any more.
6. An attack (VII-C-4): the target's side commits 0 or more defence dice
   before the attack test (1d6 + current ATT, II-A-4: a final result of 0 or
   less fails); the defence test (the dice committed, one kept, II-A-2, +
   current DEF) parries when it reaches the attack's result; an attack not
   parried goes to the wound roll (II-B) with the attacker's FOR.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules import odds
from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.common import (
    Batch,
    Command,
    State,
    fraction_text,
    label_of,
    own_fighter,
    require_no_pending,
    require_phase,
    require_tactics_winner,
    tactics_winner_at,
    wound_modifiers,
)
from rules.game.pending import (
    choice_pending,
    opposed_resolution,
    test_pending,
    test_resolution,
    wound_pending,
)
from rules.game.table_rolls import check_pending
from rules.game.upkeep_phase import start_upkeep
from rules.melee import (
    AMBIDEXTROUS,
    COUNTER_ATTACK,
    FIERCE,
    HOUSE_RULINGS,
    MASTER_STRIKE,
    WAR_FURY,
    Combat,
    ability,
    combat_dice,
    combats_from_choices,
    master_strike_strength,
    sequence_dice,
    suggest_combats,
    validate_combats,
    war_fury_qualifies,
)
from rules.several_dice import MAX_TEST_DICE, dice_test_success

# One parry rolls at most this many dice (II-A-2's exact odds enumerate every
# throw); more defence dice committed to one parry would change little.
MAX_PARRY_DICE = MAX_TEST_DICE


def ruling(state: State, name: str) -> str:
    """The house ruling in force (its default in a game created before it)."""
    return (state.get("house_rulings") or {}).get(name, HOUSE_RULINGS[name].default)


def start_combat_phase(batch: Batch) -> None:
    """Open the combat phase: the Tactics winner splits the melees (IV-C)."""
    state = batch.state
    if not state["contacts"]:
        batch.emit("combat_updated", {"combat": None, "pending": None})
        start_upkeep(batch)
        return
    winner = state["tactics"]["winner"]
    suggestion = [
        {"one": c.one, "many": list(c.many)} for c in suggest_combats(state["contacts"])
    ]
    batch.emit(
        "combat_updated",
        {
            "combat": {
                "combats": [],
                "suggestion": suggestion,
                "current": None,
                "picker": winner,
            },
            "pending": choice_pending(
                purpose="form_combats", side=winner, section="IV-C"
            ),
        },
    )


def new_combat(one: str, many: list[str]) -> dict[str, Any]:
    """A combat as the state keeps it (RULES_API "Melee").

    ``dice``: ``{fighter: {"total", "attack", "defence"}}``, the attack and
    defence dice still unspent (``None`` before placement), VII-C-1.
    """
    dice = {one: {"total": combat_dice(len(many)), "attack": None, "defence": None}}
    for fighter_id in many:
        dice[fighter_id] = {"total": combat_dice(1), "attack": None, "defence": None}
    return {
        "one": one,
        "many": list(many),
        "dice": dice,
        "initiative": None,
        "initiative_fighters": {"a": None, "b": None},
        "stage": None,  # "initiative", "placing", "fighting"
        "modifiers": {},  # Enchaînement: {fighter: {"ATT": -2k, "DEF": -2k}}
        "exchange": 1,
        "attacked": {},  # this exchange: {attacker: [targets]}
        "last_side": None,  # this exchange: the side that attacked last
        "done": False,
    }


def form_combats(batch: Batch, side: str, command: Command) -> None:
    state = batch.state
    require_phase(state, "combat", "forming")
    winner = require_tactics_winner(
        state, side, _("The Tactics winner (side {side}) splits the melees (IV-C).")
    )
    names = {f: d["label"] for f, d in state["fighters"].items()}
    raw = command.get("combats")
    if raw == "suggested":
        raw = state["combat"]["suggestion"]
    choices = command.get("choices")
    if isinstance(choices, dict) and choices:
        # "Who faces whom", as the Tactics winner set it on the phone.
        for fighter_id, target in choices.items():
            st.living_fighter(state, fighter_id)
            st.living_fighter(state, target)
        raw = [
            {"one": c.one, "many": list(c.many)}
            for c in combats_from_choices(choices, names)
        ]
    if not isinstance(raw, list) or not raw:
        raise IllegalAction(_("Send the combats: one fighter against one or several."))
    combats = []
    for item in raw:
        try:
            one, many = item["one"], list(item["many"])
        except (KeyError, TypeError):
            raise IllegalAction(
                _("Each combat is one fighter against others.")
            ) from None
        for fighter_id in [one, *many]:
            st.living_fighter(state, fighter_id)
        combats.append(Combat(one, tuple(many)))
    validate_combats(combats, state["contacts"], names)
    built = [new_combat(c.one, list(c.many)) for c in combats]
    combat_state = dict(state["combat"], combats=built, current=None, picker=winner)
    batch.emit(
        "combat_updated",
        {
            "combat": combat_state,
            "pending": _pick_pending(winner),
            "formed": [[c.one, *c.many] for c in combats],
        },
    )
    batch.emit("step_changed", {"step": "fighting"})
    _auto_choose(batch)


# --- questions about the combat under way -------------------------------------


def members(combat: Mapping[str, Any]) -> list[str]:
    return [combat["one"], *combat["many"]]


def combat_sides(state: State, combat: Mapping[str, Any]) -> list[str]:
    """The sides with fighters in this combat, A first."""
    present = {state["fighters"][f]["side"] for f in members(combat)}
    return [side for side in st.SIDES if side in present]


def opponents(state: State, combat: Mapping[str, Any], fighter_id: str) -> list[str]:
    """The living adversaries ``fighter_id`` fights in this combat."""
    targets = combat["many"] if fighter_id == combat["one"] else [combat["one"]]
    return [t for t in targets if not state["fighters"][t]["eliminated"]]


def attack_targets(state: State, combat: Mapping[str, Any], attacker: str) -> list[str]:
    """The opponents ``attacker`` may still attack in this exchange (VII-C-3:
    each opponent at most once an exchange), when it holds an attack die."""
    if state["fighters"][attacker]["eliminated"]:
        return []
    if (combat["dice"][attacker]["attack"] or 0) < 1:
        return []
    done = combat["attacked"].get(attacker, [])
    return [t for t in opponents(state, combat, attacker) if t not in done]


def _can_attack(state: State, combat: Mapping[str, Any], side: str) -> bool:
    return any(
        state["fighters"][f]["side"] == side and attack_targets(state, combat, f)
        for f in members(combat)
    )


def turn_side(state: State, combat: Mapping[str, Any]) -> str | None:
    """The side whose attack it is: the sides take turns, one attack each,
    the Initiative winner's side first in each exchange; a side with no
    attack left in this exchange lets the other go on alone (melee-sources
    §2.5 [read] S8: "The initiative winner's side attacks first. Attacks then
    alternate between the sides"). Which side opens the later exchanges the
    sources do not say: the house ruling ``exchange_opener`` (default: the
    winner's side, as in the first; or the alternation goes on)."""
    winner = combat["initiative"]
    if winner is None or combat["stage"] != "fighting":
        return None
    last = combat.get("last_side")
    first = winner if last is None else st.other(last)
    for side in (first, st.other(first)):
        if _can_attack(state, combat, side):
            return side
    return None


def attack_dice_held(state: State, combat: Mapping[str, Any]) -> bool:
    """Whether a living fighter holds an attack die and a living opponent."""
    return any(
        not state["fighters"][f]["eliminated"]
        and (combat["dice"][f]["attack"] or 0) > 0
        and opponents(state, combat, f)
        for f in members(combat)
    )


def unplaced(state: State, combat: Mapping[str, Any], side: str) -> list[str]:
    return [
        f
        for f in members(combat)
        if state["fighters"][f]["side"] == side
        and not state["fighters"][f]["eliminated"]
        and combat["dice"][f]["attack"] is None
    ]


def placing_sides(state: State, combat: Mapping[str, Any]) -> set[str]:
    """The sides that place their dice now (VII-C-1, S8: "The loser places his
    dice between attack and defence first. The winner places his after seeing
    them"; ``placement_order``: both, before the Initiative)."""
    if combat["stage"] != "placing":
        return set()
    if ruling(state, "placement_order") == "before_initiative":
        return {s for s in combat_sides(state, combat) if unplaced(state, combat, s)}
    loser = st.other(combat["initiative"])
    for side in (loser, combat["initiative"]):
        if unplaced(state, combat, side):
            return {side}
    return set()


def current_combat(state: State) -> dict[str, Any] | None:
    combat_state = state["combat"]
    if state["phase"] != "combat" or state["step"] != "fighting":
        return None
    if combat_state is None or combat_state["current"] is None:
        return None
    return combat_state["combats"][combat_state["current"]]


def combat_waits_for(state: State) -> set[str]:
    """The sides the combat under way waits on (VII-C): the sides still to
    name their Initiative fighter, to place their dice, or whose attack it
    is. A pending roll or choice is answered by ``waiting_for`` itself."""
    combat = current_combat(state)
    if combat is None or state["pending"]:
        return set()
    stage = combat["stage"]
    if stage == "initiative":
        return {
            s
            for s in combat_sides(state, combat)
            if combat["initiative_fighters"][s] is None
        }
    if stage == "placing":
        return placing_sides(state, combat)
    side = turn_side(state, combat)
    return {side} if side else set()


def combat_value(
    state: State, combat: Mapping[str, Any], fighter_id: str, characteristic: str
) -> int:
    """The current value in this combat: the card's with the wound penalties
    (II-A-4, II-B-4) and Enchaînement's -2 a die (never below 0, S5)."""
    value = st.value_of(state, fighter_id, characteristic) or 0
    malus = combat["modifiers"].get(fighter_id, {}).get(characteristic, 0)
    if malus:
        value = max(0, value + malus)
    return value


def skills_of(state: State, fighter_id: str) -> list[str]:
    return st.card_of(state, fighter_id)["skills"]


def has(state: State, fighter_id: str, name: str) -> bool:
    return ability(skills_of(state, fighter_id), name)[0]


# --- legal actions -------------------------------------------------------------


def legal_form_combats(state: State, side: str) -> list[dict[str, Any]]:
    if not tactics_winner_at(state, side, "combat", "forming"):
        return []
    return [{"type": "form_combats", "choices": {"combats": ["suggested"]}}]


def legal_choose_combat(state: State, side: str) -> list[dict[str, Any]]:
    combat_state = state["combat"]
    if (
        state["phase"] != "combat"
        or state["step"] != "fighting"
        or combat_state is None
        or combat_state["current"] is not None
        or combat_state["picker"] != side
    ):
        return []
    left = [i for i, c in enumerate(combat_state["combats"]) if not c["done"]]
    return [{"type": "choose_combat", "choices": {"combat": left}}] if left else []


def legal_initiative(state: State, side: str) -> list[dict[str, Any]]:
    combat = current_combat(state)
    if combat is None or state["pending"] or combat["stage"] != "initiative":
        return []
    if combat["initiative_fighters"].get(side, "none") is not None:
        return []
    fighters = [
        f
        for f in members(combat)
        if state["fighters"][f]["side"] == side
        and not state["fighters"][f]["eliminated"]
    ]
    return (
        [{"type": "initiative", "choices": {"fighter": fighters}}] if fighters else []
    )


def forced_defence(state: State, fighter_id: str) -> str | None:
    """Why the fighter places no die in attack: ``"disengagement"`` (S3), or
    ``"routed"`` under the ``cannot_flee`` ruling; None when free."""
    if fighter_id in state["defence_only"]:
        return "disengagement"
    if (
        state["fighters"][fighter_id]["routed"]
        and ruling(state, "cannot_flee") == "all_defence"
    ):
        return "routed"
    return None


def legal_place_dice(state: State, side: str) -> list[dict[str, Any]]:
    combat = current_combat(state)
    if combat is None or state["pending"] or side not in placing_sides(state, combat):
        return []
    result = []
    for fighter_id in unplaced(state, combat, side):
        total = combat["dice"][fighter_id]["total"]
        forced = forced_defence(state, fighter_id)
        fury = has(state, fighter_id, WAR_FURY)
        for extra in range(sequence_dice(skills_of(state, fighter_id)) + 1):
            dice = total + extra
            attack = [0] if forced else list(range(dice + 1))
            result.append(
                {
                    "type": "place_dice",
                    "fighter": fighter_id,
                    "choices": {
                        "attack": attack,
                        "sequence": [extra],
                        "war_fury": [False],
                    },
                }
            )
            qualifying = [a for a in attack if war_fury_qualifies(a, dice)]
            if fury and qualifying:
                result.append(
                    {
                        "type": "place_dice",
                        "fighter": fighter_id,
                        "choices": {
                            "attack": qualifying,
                            "sequence": [extra],
                            "war_fury": [True],
                        },
                    }
                )
    return result


def legal_attack(state: State, side: str) -> list[dict[str, Any]]:
    combat = current_combat(state)
    if combat is None or state["pending"] or turn_side(state, combat) != side:
        return []
    result = []
    for attacker in members(combat):
        if state["fighters"][attacker]["side"] != side:
            continue
        targets = attack_targets(state, combat, attacker)
        if not targets:
            continue
        strike = [False]
        if (
            has(state, attacker, MASTER_STRIKE)
            and combat["dice"][attacker]["attack"] > 1
        ):
            strike.append(True)
        result.append(
            {
                "type": "attack",
                "attacker": attacker,
                "choices": {"target": targets, "master_strike": strike},
            }
        )
    return result


def _parry_limit(state: State, combat: Mapping[str, Any], target: str) -> int:
    """The defence dice one parry may commit (``sustained_defence``)."""
    left = combat["dice"][target]["defence"] or 0
    if ruling(state, "sustained_defence") == "one_die":
        return min(left, 1)
    return min(left, MAX_PARRY_DICE)


def legal_parry(state: State, side: str) -> list[dict[str, Any]]:
    pending = state["pending"]
    if (
        not pending
        or pending.get("purpose") != "parry"
        or pending["kind"] != "choice"
        or pending["side"] != side
    ):
        return []
    limit = pending["max_dice"]
    entries = [
        {
            "type": "parry",
            "choices": {"dice": list(range(limit + 1)), "counter": [False]},
        }
    ]
    if pending["counter_allowed"] and limit > 0:
        entries.append(
            {
                "type": "parry",
                "choices": {"dice": list(range(1, limit + 1)), "counter": [True]},
            }
        )
    return entries


# --- the commands --------------------------------------------------------------


def _pick_pending(picker: str) -> dict[str, Any]:
    return choice_pending(purpose="choose_combat", side=picker, section="VII-B")


def _current(state: State) -> tuple[int, dict[str, Any]]:
    require_phase(state, "combat", "fighting")
    index = state["combat"]["current"]
    if index is None:
        raise IllegalAction(_("Pick a combat first."))
    return index, copy.deepcopy(state["combat"]["combats"][index])


def _emit(batch: Batch, index: int, combat: Mapping[str, Any], **extra: Any) -> None:
    """The combat under way changed: the whole combat state, and what
    happened (``extra``: ``placed``, ``attack_declared``...)."""
    combats = [dict(c) for c in batch.state["combat"]["combats"]]
    combats[index] = dict(combat)
    batch.emit(
        "combat_updated",
        {"combat": dict(batch.state["combat"], combats=combats), **extra},
    )


def choose_combat(batch: Batch, side: str, command: Command) -> None:
    """VII-B: the sides take turns to name the next combat, the Tactics
    winner first (S4, S8 [read])."""
    state = batch.state
    require_phase(state, "combat", "fighting")
    combat_state = state["combat"]
    if combat_state["current"] is not None:
        raise IllegalAction(_("Finish the combat under way first."))
    if side != combat_state["picker"]:
        raise IllegalAction(
            _("Side {side} picks the next combat."),
            side=combat_state["picker"].upper(),
        )
    index = command.get("combat")
    if (
        isinstance(index, bool)
        or not isinstance(index, int)
        or not 0 <= index < len(combat_state["combats"])
        or combat_state["combats"][index]["done"]
    ):
        raise IllegalAction(_("Pick a combat that has not been fought yet."))
    _choose(batch, index)


def _choose(batch: Batch, index: int, *, automatic: bool = False) -> None:
    """The combat ``index`` is fought now (VII-B); ``automatic``: the only
    one left, taken without a tap."""
    state = batch.state
    combat_state = state["combat"]
    combat = copy.deepcopy(combat_state["combats"][index])
    before = ruling(state, "placement_order") == "before_initiative"
    combat["stage"] = "placing" if before else "initiative"
    combats = [dict(c) for c in combat_state["combats"]]
    combats[index] = combat
    extra: dict[str, Any] = {"house_ruling": "placement_order"} if before else {}
    if automatic:
        extra["automatic"] = True
    batch.emit(
        "combat_updated",
        {
            "combat": dict(combat_state, combats=combats, current=index),
            "pending": None,
            "chosen": index,
            **extra,
        },
    )
    _auto_place(batch)
    _auto_initiative(batch)


def _auto_choose(batch: Batch) -> None:
    """Only one combat left to fight: it is fought next without a tap (the
    picker has no choice, VII-B)."""
    state = batch.state
    combat_state = state["combat"]
    if (
        state["phase"] != "combat"
        or state["step"] != "fighting"
        or combat_state is None
        or combat_state["current"] is not None
    ):
        return
    left = [i for i, c in enumerate(combat_state["combats"]) if not c["done"]]
    if len(left) == 1 and not any(legal_pursue(state, s) for s in st.SIDES):
        # (A freed fighter that may still pursue leaves the players time to
        # record it: the picker names the combat then.)
        _choose(batch, left[0], automatic=True)


def _lone_fighter(state: State, combat: Mapping[str, Any], side: str) -> str | None:
    """The side's only living fighter in this combat, if it has only one."""
    fighters = [
        f
        for f in members(combat)
        if state["fighters"][f]["side"] == side
        and not state["fighters"][f]["eliminated"]
    ]
    return fighters[0] if len(fighters) == 1 else None


def _auto_initiative(batch: Batch) -> None:
    """A side with a single fighter in the combat has no choice to make: that
    fighter is named for the Initiative without a tap (VII-C-2)."""
    state = batch.state
    combat = current_combat(state)
    if combat is None or state["pending"] or combat["stage"] != "initiative":
        return
    for side in combat_sides(state, combat):
        combat = current_combat(batch.state)
        if combat is None or combat["initiative_fighters"][side] is not None:
            continue
        lone = _lone_fighter(batch.state, combat, side)
        if lone is not None:
            _name_initiative(batch, side, lone, automatic=True)


def initiative(batch: Batch, side: str, command: Command) -> None:
    """VII-C-2 (S8 [read]): "Each player picks one of his fighters involved in
    the combat. These two make an Initiative test against each other." Both
    sides are waited on until both have named theirs; then the opposed test
    (current INI, II-A-3) waits to be rolled."""
    state = batch.state
    require_no_pending(state)
    index, combat = _current(state)
    if combat["stage"] != "initiative":
        raise IllegalAction(_("The Initiative of this combat is not asked now."))
    if side not in combat_sides(state, combat):
        raise IllegalAction(_("Only the players in this combat name a fighter."))
    if combat["initiative_fighters"][side] is not None:
        raise IllegalAction(
            _("Your side already named its fighter for the Initiative.")
        )
    fighter_id = command.get("fighter")
    own_fighter(state, side, fighter_id)
    if fighter_id not in members(combat):
        raise IllegalAction(_("That fighter is not in this combat."))
    _name_initiative(batch, side, fighter_id)


def _name_initiative(
    batch: Batch, side: str, fighter_id: str, *, automatic: bool = False
) -> None:
    """``side`` names ``fighter_id``; once both have, the opposed test."""
    state = batch.state
    index, combat = _current(state)
    combat["initiative_fighters"][side] = fighter_id
    named = combat["initiative_fighters"]
    extra: dict[str, Any] = {
        "initiative_named": {
            "side": side,
            "fighter": fighter_id,
            "label": label_of(state, fighter_id),
        }
    }
    if automatic:
        extra["initiative_named"]["automatic"] = True
    if all(named[s] for s in combat_sides(state, combat)):
        values = {s: st.value_of(state, named[s], "INI") or 0 for s in st.SIDES}
        extra["pending"] = {
            "kind": "opposed",
            "purpose": "initiative",
            "side": None,
            "section": "VII-C-2",
            "values": values,
            "odds": fraction_text(odds.opposed_win(values["a"], values["b"])),
            "roll": None,
            "context": {
                "combat": index,
                "fighters": dict(named),
                "characteristics": {"a": "INI", "b": "INI"},
                "use": "initiative",
            },
        }
    _emit(batch, index, combat, **extra)


def initiative_finished(batch: Batch, pending: Mapping[str, Any], roll: Any) -> None:
    """The opposed Initiative test has a winner (VII-C-2, II-A-3): its side
    places last and attacks first (S8 [read])."""
    state = batch.state
    result = roll.result()
    context = pending["context"]
    batch.emit(
        "opposed_resolved",
        {
            "purpose": "initiative",
            **opposed_resolution(state, pending, result),
            "section": "VII-C-2",
            "context": dict(context),
            "pending": None,
        },
    )
    index, combat = _current(batch.state)
    last = result.rounds[-1]
    winner = result.winner
    combat["initiative"] = winner
    placed = not any(unplaced(state, combat, s) for s in st.SIDES)
    combat["stage"] = "fighting" if placed else "placing"
    fighter_id = context["fighters"][winner]
    _emit(
        batch,
        index,
        combat,
        initiative_won={
            "side": winner,
            "fighter": fighter_id,
            "label": label_of(state, fighter_id),
            "margin": abs(last[0] - last[1]),
            "finals": {"a": last[0], "b": last[1]},
            # Each round's finals, side A first: the ties rolled again (II-A-3).
            "rounds": [list(r) for r in result.rounds],
        },
    )
    _auto_place(batch)
    settle_combat(batch)


def forced_placement(state: State, fighter_id: str) -> str | None:
    """Why the fighter's placement is no choice at all (all in defence, no
    Enchaînement die to take): ``"disengagement"`` or ``"routed"``; None when
    its player has something to decide."""
    forced = forced_defence(state, fighter_id)
    if forced and not sequence_dice(skills_of(state, fighter_id)):
        return forced
    return None


def _auto_place(batch: Batch) -> None:
    """A placement forced all in defence is made without a tap (RULES_API
    "Melee": where a step leaves no choice, the game takes it); the event
    says why (``forced``) and that nobody tapped (``automatic``)."""
    state = batch.state
    combat = current_combat(state)
    if combat is None or state["pending"] or combat["stage"] != "placing":
        return
    for side in sorted(placing_sides(state, combat)):
        for fighter_id in unplaced(state, combat, side):
            if forced_placement(state, fighter_id):
                place_dice(
                    batch,
                    side,
                    {"type": "place_dice", "fighter": fighter_id, "attack": 0},
                    automatic=True,
                )
                return  # place_dice goes on with the next forced one


def place_dice(
    batch: Batch, side: str, command: Command, *, automatic: bool = False
) -> None:
    """VII-C-1: one fighter's combat dice, ``attack`` of them in attack, the
    rest in defence (S8 [read]: "each die is placed either in attack or in
    defence").

    ``sequence``: Enchaînement/X (§4 [read] S11: "take up to X extra combat
    dice. Each costs -2 ATT and -2 DEF for this combat only"). ``war_fury``:
    Furie guerrière, Conf'Fédé (§4 [read] S12: "a fighter who puts more than
    half in attack may declare it and gains +1 attack die for the combat").
    A failed disengagement puts every die in defence (§2.0 [read] S3).
    """
    state = batch.state
    require_no_pending(state)
    index, combat = _current(state)
    if combat["stage"] != "placing":
        raise IllegalAction(_("The combat dice are not placed now."))
    fighter_id = command.get("fighter")
    own_fighter(state, side, fighter_id)
    if fighter_id not in members(combat):
        raise IllegalAction(_("That fighter is not in this combat."))
    if combat["dice"][fighter_id]["attack"] is not None:
        raise IllegalAction(_("That fighter's dice are already placed."))
    if side not in placing_sides(state, combat):
        raise IllegalAction(
            _(
                "The side that lost the Initiative places its dice first; the "
                "winner places after seeing them (VII-C-1)."
            )
        )
    label = label_of(state, fighter_id)
    allowed = sequence_dice(skills_of(state, fighter_id))
    extra_dice = command.get("sequence", 0)
    if extra_dice is None:
        extra_dice = 0
    if (
        isinstance(extra_dice, bool)
        or not isinstance(extra_dice, int)
        or not 0 <= extra_dice <= allowed
    ):
        if not allowed:
            raise IllegalAction(
                _("{fighter} has no Enchaînement: no extra die."), fighter=label
            )
        raise IllegalAction(
            _("{fighter} takes 0 to {count} extra dice (Enchaînement)."),
            fighter=label,
            count=allowed,
        )
    total = combat["dice"][fighter_id]["total"] + extra_dice
    attack = command.get("attack")
    if (
        isinstance(attack, bool)
        or not isinstance(attack, int)
        or not 0 <= attack <= total
    ):
        raise IllegalAction(
            _("{fighter} places 0 to {count} dice in attack."),
            fighter=label,
            count=total,
        )
    forced = forced_defence(state, fighter_id)
    extra: dict[str, Any] = {}
    if forced and attack > 0:
        if forced == "disengagement":
            raise IllegalAction(
                _(
                    "{fighter} failed to disengage: all its combat dice stay in "
                    "defence this turn (Désengagement)."
                ),
                fighter=label,
            )
        raise IllegalAction(
            _(
                "{fighter} is routed and cannot flee: all its dice go in defence "
                "(house ruling)."
            ),
            fighter=label,
        )
    if forced == "routed":
        extra["house_ruling"] = "cannot_flee"
    fury = command.get("war_fury", False)
    if fury:
        if not has(state, fighter_id, WAR_FURY):
            raise IllegalAction(_("{fighter} has no Furie guerrière."), fighter=label)
        if not war_fury_qualifies(attack, total):
            raise IllegalAction(
                _(
                    "Furie guerrière needs more than half of the dice in attack "
                    "({fighter}: {count} dice)."
                ),
                fighter=label,
                count=total,
            )
    defence = total - attack
    if fury:
        attack, total = attack + 1, total + 1
    combat["dice"][fighter_id] = {
        "total": total,
        "attack": attack,
        "defence": defence,
    }
    if extra_dice:
        combat["modifiers"][fighter_id] = {
            "ATT": -2 * extra_dice,
            "DEF": -2 * extra_dice,
        }
    if not any(unplaced(state, combat, s) for s in st.SIDES):
        before = combat["initiative"] is None
        combat["stage"] = "initiative" if before else "fighting"
    _emit(
        batch,
        index,
        combat,
        placed={
            "fighter": fighter_id,
            "label": label,
            "side": side,
            "total": total,
            "attack": attack,
            "defence": defence,
            "sequence": extra_dice,
            "war_fury": bool(fury),
            "forced": forced,
            **({"automatic": True} if automatic else {}),
        },
        **extra,
    )
    _auto_place(batch)
    _auto_initiative(batch)
    settle_combat(batch)


def declare_attack(batch: Batch, side: str, command: Command) -> None:
    """VII-C-3 (S8 [read]): "A fighter who still has an attack die must
    attack"; "attacks each opponent once" in an exchange. ``master_strike``:
    Coup de maître/X (§4 [read] S11: "Spend 2 attack dice for 1 attack")."""
    state = batch.state
    require_no_pending(state)
    index, combat = _current(state)
    if combat["stage"] != "fighting":
        raise IllegalAction(_("Nobody attacks yet in this combat."))
    turn = turn_side(state, combat)
    if side != turn:
        raise IllegalAction(
            _("It is side {side}'s attack in this exchange (VII-C-3)."),
            side=(turn or st.other(side)).upper(),
        )
    attacker = command.get("attacker")
    target = command.get("target")
    own_fighter(state, side, attacker)
    st.living_fighter(state, target)
    if attacker not in members(combat) or target not in members(combat):
        raise IllegalAction(_("Both fighters must be in this combat."))
    label = label_of(state, attacker)
    targets = attack_targets(state, combat, attacker)
    if target not in targets:
        if target in opponents(state, combat, attacker):
            raise IllegalAction(
                _(
                    "{fighter} already attacked {target} in this exchange: each "
                    "opponent once an exchange (VII-C-3)."
                ),
                fighter=label,
                target=label_of(state, target),
            )
        if (combat["dice"][attacker]["attack"] or 0) < 1:
            raise IllegalAction(_("{fighter} has no attack die left."), fighter=label)
        raise IllegalAction(_("{fighter} does not fight that fighter."), fighter=label)
    strike = command.get("master_strike", False)
    if strike:
        if not has(state, attacker, MASTER_STRIKE):
            raise IllegalAction(_("{fighter} has no Coup de maître."), fighter=label)
        if combat["dice"][attacker]["attack"] < 2:
            raise IllegalAction(
                _("A Coup de maître spends 2 attack dice: {fighter} has 1."),
                fighter=label,
            )
    amplified, attenuated = wound_modifiers(command)
    combat["dice"][attacker]["attack"] -= 2 if strike else 1
    combat["attacked"][attacker] = [*combat["attacked"].get(attacker, []), target]
    combat["last_side"] = side  # the other side attacks next (§2.5)
    context = {
        "combat": index,
        "attacker": attacker,
        "target": target,
        "master_strike": bool(strike),
        "amplified": amplified,
        "attenuated": attenuated,
        "exchange": combat["exchange"],
        "bonus": None,
    }
    declared = {
        "attacker": attacker,
        "attacker_label": label,
        "target": target,
        "target_label": label_of(state, target),
        "master_strike": bool(strike),
        "exchange": combat["exchange"],
    }
    following = _parry_or_attack(state, combat, context)
    _emit(
        batch,
        index,
        combat,
        attack_declared=declared,
        pending=following,
        **attack_certain_payload(state, combat, following),
    )


def _attack_value(state: State, combat: Mapping[str, Any], attacker: str) -> int:
    return combat_value(state, combat, attacker, "ATT")


def parry_odds(attack: int, defence: int, dice: int, needed_over: int = 0) -> Fraction:
    """The chance that an attack does not land when ``dice`` defence dice are
    committed (0: only the attack test's own failure), the attacker keeping
    a six (II-A-1): the attack test (1d6 + ``attack``) fails at 0 or less
    (II-A-4), else the defence test (``dice`` d6, one kept, II-A-2, +
    ``defence``) must reach its result + ``needed_over``."""
    total = Fraction(0)
    for face in range(1, 7):
        final = face + attack
        if final <= 0:
            total += Fraction(1, 6)
        elif dice > 0:
            total += dice_test_success(defence, final + needed_over, dice) / 6
    return total


def _parry_or_attack(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any]
) -> dict[str, Any]:
    """The target's side commits its defence dice before the attack test
    (VII-C-4, S8 [inferred]: declared before the attack roll; a counter-attack
    is announced before it, S11 [read]). A target with no defence die left
    has nothing to decide: the attack test waits."""
    target, attacker = context["target"], context["attacker"]
    limit = _parry_limit(state, combat, target)
    if limit == 0:
        return _attack_or_wound(
            state, combat, {**context, "parry_dice": 0, "counter": False}
        )
    attack = _attack_value(state, combat, attacker)
    defence = combat_value(state, combat, target, "DEF")
    tie = _needed_over(state, False)
    odds_by_dice = {
        str(k): fraction_text(parry_odds(attack, defence, k, tie))
        for k in range(limit + 1)
    }
    counter = has(state, target, COUNTER_ATTACK)
    return choice_pending(
        purpose="parry",
        side=state["fighters"][target]["side"],
        section="VII-C-4",
        context=context,
        max_dice=limit,
        counter_allowed=counter,
        odds=odds_by_dice,
        counter_odds={
            str(k): fraction_text(
                parry_odds(attack, defence, k, _stop_over(state, True))
            )
            for k in range(1, limit + 1)
        }
        if counter
        else {},
    )


def _attack_test(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any]
) -> dict[str, Any]:
    """The attack test (VII-C-4, S8 [read]: "1d6 + current ATT. There is no
    fixed difficulty to reach"); II-A-4: a final result of 0 or less fails,
    so it is rolled against 1."""
    attacker = context["attacker"]
    context = dict(context)
    if context.get("parry_dice"):
        # What a six's question needs: the parry the blow must get past.
        context["defence_value"] = combat_value(state, combat, context["target"], "DEF")
        context["needed_over"] = _stop_over(state, bool(context.get("counter")))
    return test_pending(
        purpose="attack",
        side=state["fighters"][attacker]["side"],
        value=_attack_value(state, combat, attacker),
        difficulty=1,
        section="VII-C-4",
        context=context,
    )


def _needed_over(state: State, counter: bool) -> int:
    """What the defence test needs above the attack's final result: 2 for a
    counter-attack (S11), else 0, or 1 under ``parry_tie`` "not_parried"."""
    if counter:
        return 2
    return 0 if ruling(state, "parry_tie") == "parried" else 1


def _stop_over(state: State, counter: bool) -> int:
    """What the defence test needs above the attack's final result for the
    blow not to land: as ``_needed_over``, but a counter-attack that reaches
    the attack without 2 more still stops it under ``counter_short``
    "parried" (the odds shown before it and a six's question follow the
    ruling)."""
    if counter and ruling(state, "counter_short") == "parried":
        return _needed_over(state, False)
    return _needed_over(state, counter)


def blow_lands(attack_final: int, defence: int, dice: int, over: int) -> Fraction:
    """P(the blow lands) once the attack test's final result is known: it
    fails at 0 or less (II-A-4), else the defence test (``dice`` d6, one
    kept, II-A-2, + ``defence``) must reach it + ``over`` to parry it."""
    if attack_final <= 0:
        return Fraction(0)
    if dice <= 0:
        return Fraction(1)
    return 1 - dice_test_success(defence, attack_final + over, dice)


def blow_lands_choice(
    attack: int, natural: int, defence: int, dice: int, over: int
) -> tuple[Fraction, Fraction]:
    """(keep, reroll): the chance the blow lands when the attacker keeps the
    six showing at ``natural`` or rerolls it (II-A-1: a '1' makes the natural
    1; a later six is kept or rerolled, whichever lands more often)."""

    def keep(n: int) -> Fraction:
        return blow_lands(n + attack, defence, dice, over)

    def reroll(n: int, depth: int) -> Fraction:
        total = keep(1)
        total += sum((keep(n + g) for g in range(2, 6)), Fraction(0))
        six = keep(n + 6) if depth >= 4 else max(keep(n + 6), reroll(n + 6, depth + 1))
        return (total + six) / 6

    return keep(natural), reroll(natural, 0)


def attack_cannot_fail(state: State, combat: Mapping[str, Any], attacker: str) -> bool:
    """The attack test cannot fail: 1d6 + current ATT is at least 1 when ATT
    is 0 or more (VII-C-4, S8 [read]: "no fixed difficulty"; II-A-4: only a
    final result of 0 or less fails)."""
    return _attack_value(state, combat, attacker) >= 0


def _attack_or_wound(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any]
) -> dict[str, Any]:
    """With no defence die committed, an attack test that cannot fail decides
    nothing: it is not asked for, the wound roll waits (RULES_API "Melee": a
    roll whose outcome cannot change what follows need not be asked for).
    The wound pending's context says so (``attack_certain``)."""
    if not context.get("parry_dice") and attack_cannot_fail(
        state, combat, context["attacker"]
    ):
        pending = _wound_after(state, combat, context)
        pending["context"]["attack_certain"] = True
        return pending
    return _attack_test(state, combat, context)


def attack_certain_payload(
    state: State, combat: Mapping[str, Any], pending: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The ``attack_certain`` part of an event whose next step skipped the
    attack test (what happened and why, for the log), or nothing."""
    if not pending or not pending["context"].get("attack_certain"):
        return {}
    attacker = pending["context"]["source"]
    return {
        "attack_certain": {
            "attacker": attacker,
            "label": label_of(state, attacker),
            "target": pending["context"]["target"],
            "target_label": label_of(state, pending["context"]["target"]),
            "value": _attack_value(state, combat, attacker),
            "odds": "1/1",
            "section": "VII-C-4, II-A-4",
        }
    }


def parry(batch: Batch, side: str, command: Command) -> None:
    """The target's side commits ``dice`` of its fighter's defence dice (0
    takes the blow), before the attack test (VII-C-4). ``counter``:
    Contre-attaque (§4 [read] S11: "Announce before the attack roll; it
    cannot be withdrawn")."""
    state = batch.state
    pending = state["pending"]
    if not pending or pending.get("purpose") != "parry" or pending["kind"] != "choice":
        raise IllegalAction(_("There is no attack to parry now."))
    if pending["side"] != side:
        raise IllegalAction(_("Only the defender's side decides to parry."))
    context = pending["context"]
    index, combat = _current(state)
    dice = command.get("dice")
    limit = pending["max_dice"]
    if isinstance(dice, bool) or not isinstance(dice, int) or not 0 <= dice <= limit:
        raise IllegalAction(
            _("Commit 0 to {count} defence dice to this parry."), count=limit
        )
    counter = command.get("counter", False)
    if counter and not pending["counter_allowed"]:
        raise IllegalAction(
            _("{fighter} has no Contre-attaque."),
            fighter=label_of(state, context["target"]),
        )
    if counter and dice == 0:
        raise IllegalAction(_("A counter-attack parries with at least one die."))
    target = context["target"]
    combat["dice"][target]["defence"] -= dice
    new_context = {**context, "parry_dice": dice, "counter": bool(counter)}
    following = _attack_or_wound(state, combat, new_context)
    _emit(
        batch,
        index,
        combat,
        parry_declared={
            "target": target,
            "label": label_of(state, target),
            "dice": dice,
            "counter": bool(counter),
            "odds": (pending["counter_odds"] if counter else pending["odds"]).get(
                str(dice)
            ),
        },
        pending=following,
        **attack_certain_payload(state, combat, following),
    )


def attack_test_finished(batch: Batch, pending: Mapping[str, Any], result: Any) -> None:
    """The attack test is rolled (VII-C-4): a final result of 0 or less fails
    (II-A-4); a success meets the defence dice committed, or the wound roll."""
    state = batch.state
    context = dict(pending["context"])
    index, combat = _current(state)
    dice = context.get("parry_dice", 0)
    counter = context.get("counter", False)
    context["attack_final"] = result.final
    next_pending = None
    certain = None
    if result.success and dice > 0:
        over = _needed_over(state, counter)
        certain = _parry_certain(state, combat, context, result.final + over)
        if certain is None:
            next_pending = _defence_test(state, combat, context, result.final + over)
    elif result.success:
        next_pending = _wound_after(state, combat, context)
    batch.emit(
        "test_resolved",
        test_resolution(
            pending,
            result,
            purpose="attack",
            success=result.success,
            context=context,
            next=next_pending,
        ),
    )
    if certain is not None:
        _emit(batch, index, combat, parry_certain=certain)
        if certain["bonus"]:
            _bonus_attack(batch, context, certain["bonus"])
        else:
            settle_combat(batch)
        return
    if result.success:
        return
    target = context["target"]
    if counter:
        # §4 Counter-Attack [read] S11: "If the attack auto-fails: gain the
        # attack die without rolling, but lose the dice assigned to the parry."
        _bonus_attack(batch, context, "counter")
        return
    if dice and has(state, target, AMBIDEXTROUS):
        # §4 Ambidextrous [read] S11: "If the attack auto-fails, choose: keep
        # the defence die, or swap it for an attack die."
        batch.emit(
            "pending_set",
            {
                "pending": choice_pending(
                    purpose="ambidextrous",
                    side=state["fighters"][target]["side"],
                    section="VII-C-4",
                    context=context,
                    options=["keep", "swap"],
                )
            },
        )
        return
    if dice:
        # §4 Ambidextrous [read] S11 (the choice "keep the defence die" when
        # the attack fails): the dice committed to a parry never rolled stay.
        index, combat = _current(batch.state)
        combat["dice"][target]["defence"] += dice
        _emit(
            batch,
            index,
            combat,
            returned={
                "fighter": target,
                "label": label_of(state, target),
                "dice": dice,
            },
        )
    settle_combat(batch)


def legal_ambidextrous(state: State, side: str) -> list[dict[str, Any]]:
    pending = state["pending"]
    if (
        not pending
        or pending.get("purpose") != "ambidextrous"
        or pending["side"] != side
    ):
        return []
    return [{"type": "ambidextrous", "choices": {"swap": [False, True]}}]


def ambidextrous(batch: Batch, side: str, command: Command) -> None:
    """Ambidextre against an attack that failed (§4 [read] S11): keep the
    defence dice committed, or swap them for an attack die used at once
    against the attacker."""
    state = batch.state
    pending = state["pending"]
    if not pending or pending.get("purpose") != "ambidextrous":
        raise IllegalAction(_("There is no Ambidextre choice to make now."))
    if pending["side"] != side:
        raise IllegalAction(_("Only the defender's side makes this choice."))
    swap = command.get("swap", False)
    if not isinstance(swap, bool):
        raise IllegalAction(_("Keep the defence dice, or swap them for an attack."))
    context = pending["context"]
    batch.emit("pending_set", {"pending": None})
    if swap:
        _bonus_attack(batch, context, "ambidextrous")
        return
    index, combat = _current(batch.state)
    target = context["target"]
    combat["dice"][target]["defence"] += context["parry_dice"]
    _emit(
        batch,
        index,
        combat,
        returned={
            "fighter": target,
            "label": label_of(state, target),
            "dice": context["parry_dice"],
        },
    )
    settle_combat(batch)


def _parry_certain(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any], needed: int
) -> dict[str, Any] | None:
    """A defence test that cannot fail decides nothing: it is not asked for
    (RULES_API "Melee"), unless its margin still matters (Ambidextre wins an
    attack die by 2 more, §4 [read] S11, and that is not certain too). What
    the log says of it, or None when it must be rolled."""
    target = context["target"]
    dice = context["parry_dice"]
    value = combat_value(state, combat, target, "DEF")
    if dice_test_success(value, needed, dice) != 1:
        return None
    bonus = None
    if context.get("counter"):
        bonus = "counter"
    elif has(state, target, AMBIDEXTROUS):
        if dice_test_success(value, context["attack_final"] + 2, dice) != 1:
            return None
        bonus = "ambidextrous"
    return {
        "target": target,
        "label": label_of(state, target),
        "attacker": context["attacker"],
        "attacker_label": label_of(state, context["attacker"]),
        "dice": dice,
        "value": value,
        "needed": needed,
        "attack_final": context["attack_final"],
        "counter": bool(context.get("counter")),
        "bonus": bonus,
        "odds": "1/1",
        "section": "VII-C-4, II-A-4",
    }


def _defence_test(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any], needed: int
) -> dict[str, Any]:
    """The defence test: the dice committed, one result kept (II-A-2), +
    current DEF, against the attack's final result (+2 for a counter-attack;
    +1 under ``parry_tie`` "not_parried")."""
    target = context["target"]
    dice = context["parry_dice"]
    pending = check_pending(
        state,
        side=state["fighters"][target]["side"],
        fighter=target,
        characteristic="DEF",
        difficulty=needed,
        dice=dice,
        use="defence",
        section="VII-C-4",
        extra={**context, "needed": needed},
    )
    value = combat_value(state, combat, target, "DEF")
    pending["purpose"] = "defence"
    pending["value"] = value
    pending["context"]["current"] = value
    pending["odds"] = fraction_text(dice_test_success(value, needed, dice))
    return pending


def defence_finished(batch: Batch, pending: Mapping[str, Any], roll: Any) -> None:
    """The defence test is rolled (VII-C-4): it parries when its final result
    reaches the attack's ([inferred] §2.6: "a normal parry needs >= the attack's
    final result"; a tie follows ``parry_tie``). Counter-attack: it needs 2
    more and wins an attack die used at once against the attacker (§4 [read]
    S11). Ambidextre: a parry that beats the attack by 2 or more wins one too
    (§4 [read] S11)."""
    state = batch.state
    context = dict(pending["context"])
    index, combat = _current(state)
    success = roll.winning
    attack_final = context["attack_final"]
    short = _counter_short(state, context, roll.final)
    if short:  # the house ruling "counter_short": "parried", no attack die
        success = True
    next_pending = None if success else _wound_after(state, combat, context)
    resolved = test_resolution(
        pending,
        roll,
        purpose="defence",
        dice=pending["dice"],
        throws=[list(t) for t in roll.throws],
        success=success,
        section="VII-C-4",
        context=context,
        label=label_of(state, context["target"]),
        next=next_pending,
    )
    if roll.final == attack_final and not context.get("counter"):
        resolved["house_ruling"] = "parry_tie"
    if short is not None:
        resolved["house_ruling"] = "counter_short"
    if pending["dice"] > 1:  # several dice on one parry: a ruling decides it
        resolved["house_rulings"] = ["sustained_defence"]
    batch.emit("test_resolved", resolved)
    if not success:
        return
    if context.get("counter") and not short:
        _bonus_attack(batch, context, "counter")
        return
    target = context["target"]
    if has(state, target, AMBIDEXTROUS) and roll.final >= attack_final + 2:
        _bonus_attack(batch, context, "ambidextrous")
        return
    settle_combat(batch)


def _counter_short(state: State, context: Mapping[str, Any], final: int) -> bool | None:
    """A counter-attack's defence that reaches the attack but not 2 more
    (``counter_short``): True when the ruling parries it, False when the blow
    lands, None when the ruling does not decide (no counter, or out of range)."""
    attack_final = context["attack_final"]
    if not context.get("counter") or final >= attack_final + 2:
        return None
    reaches = final >= attack_final
    if ruling(state, "parry_tie") == "not_parried":
        reaches = final > attack_final
    if not reaches:
        return None
    return ruling(state, "counter_short") == "parried"


def _bonus_attack(batch: Batch, context: Mapping[str, Any], why: str) -> None:
    """An attack die won by a parry (Contre-attaque, Ambidextre), used at once
    against the attacker (§2.5 [read] S11: "resolved at once, even outside the
    fighter's turn. They must target the fighter whose attack triggered
    them")."""
    state = batch.state
    defender, attacker = context["target"], context["attacker"]
    if (
        state["fighters"][attacker]["eliminated"]
        or state["fighters"][defender]["eliminated"]
    ):
        settle_combat(batch)
        return
    index, combat = _current(state)
    combat["dice"][defender]["total"] += 1  # won, and spent at once
    new_context = {
        "combat": index,
        "attacker": defender,
        "target": attacker,
        "master_strike": False,
        "amplified": 0,
        "attenuated": 0,
        "exchange": combat["exchange"],
        "bonus": why,
    }
    following = _parry_or_attack(state, combat, new_context)
    _emit(
        batch,
        index,
        combat,
        gained={
            "fighter": defender,
            "label": label_of(state, defender),
            "ability": why,
            "target": attacker,
            "target_label": label_of(state, attacker),
        },
        pending=following,
        **attack_certain_payload(state, combat, following),
    )


def _wound_after(
    state: State, combat: Mapping[str, Any], context: Mapping[str, Any]
) -> dict[str, Any]:
    """An attack not parried goes to the wound roll (II-B-1), attacker's FOR
    against the target's RES; after a Coup de maître/X the FOR gains the
    attacker's ATT at the test, capped at its printed ATT, + X (§4 [read]
    S11; E1)."""
    attacker = context["attacker"]
    strength = st.value_of(state, attacker, "FOR") or 0
    if context.get("master_strike"):
        _found, x = ability(skills_of(state, attacker), MASTER_STRIKE)
        strength = master_strike_strength(
            strength,
            _attack_value(state, combat, attacker),
            st.base_value(state, attacker, "ATT") or 0,
            x,
        )
    pending = wound_pending(
        state,
        side=state["fighters"][attacker]["side"],
        target=context["target"],
        strength=strength,
        source=attacker,
        amplified=context.get("amplified", 0),
        attenuated=context.get("attenuated", 0),
    )
    pending["context"]["combat"] = context["combat"]
    pending["context"]["master_strike"] = bool(context.get("master_strike"))
    pending["section"] = "VII-C-4, II-B-1"
    return pending


def fierce_survives(state: State, target: str, eliminated: bool) -> bool:
    """Acharné (§4 [read] S11, S14: "Killed Outright -> stays at Critical Wound
    until the next upkeep"): the fighter stays in the combat."""
    return (
        eliminated
        and state["phase"] == "combat"
        and has(state, target, FIERCE)
        and not state["fighters"][target].get("fierce")
    )


def settle_combat(batch: Batch) -> None:
    """After each step of a combat with nothing pending: the next exchange,
    or the end of the combat (VII-C-3: "Exchanges go on until no attack dice
    remain" [inferred]; the next combat is picked by the other side, VII-B).
    Unused defence dice are lost (§2.5 [inferred])."""
    state = batch.state
    combat = current_combat(state)
    if combat is None or state["pending"] or combat["stage"] != "fighting":
        return
    if turn_side(state, combat) is not None:
        return
    index = state["combat"]["current"]
    if attack_dice_held(state, combat):
        combat = copy.deepcopy(combat)
        combat["exchange"] += 1
        combat["attacked"] = {}
        # Which side opens it: the sources are silent (melee-sources §2.5
        # reads the first exchange only), the house ruling ``exchange_opener``:
        # the Initiative winner's side again, or the alternation goes on.
        if ruling(state, "exchange_opener") == "initiative_winner":
            combat["last_side"] = None
        extra: dict[str, Any] = {"exchange": combat["exchange"]}
        opener = turn_side(state, combat)
        if opener is not None:
            extra["opener"] = opener
            if all(_can_attack(state, combat, s) for s in st.SIDES):
                # Both sides could open it: the ruling decided which.
                extra["house_ruling"] = "exchange_opener"
        _emit(batch, index, combat, **extra)
        return
    combat = copy.deepcopy(combat)
    combat["done"] = True
    combat["stage"] = "done"
    combats = [dict(c) for c in state["combat"]["combats"]]
    combats[index] = combat
    picker = st.other(state["combat"]["picker"])
    left = [c for c in combats if not c["done"]]
    free = [
        f
        for f in members(combat)
        if not state["fighters"][f]["eliminated"] and not opponents(state, combat, f)
    ]
    # Why it ended: a side has no living fighter left in it, or no fighter
    # holds an attack die any more (VII-C-3).
    standing = {
        state["fighters"][f]["side"]
        for f in members(combat)
        if not state["fighters"][f]["eliminated"]
    }
    reason = "no_adversary" if len(standing) < 2 else "no_attack_die"
    extra: dict[str, Any] = {"reason": reason}
    freed = list(state["combat"].get("freed") or [])
    if free:
        extra.update(
            free=free,
            free_labels=[label_of(state, f) for f in free],
            pursuit=ruling(state, "pursuit"),
        )
        extra["house_ruling"] = "pursuit"
        if ruling(state, "pursuit") == "at_the_table":
            freed += [f for f in free if f not in freed]
    batch.emit(
        "combat_updated",
        {
            "combat": dict(
                state["combat"],
                combats=combats,
                current=None,
                picker=picker,
                freed=freed,
            ),
            "pending": _pick_pending(picker) if left else None,
            "ended": index,
            **extra,
        },
    )
    if not left:
        start_upkeep(batch)
    else:
        _auto_choose(batch)


# --- pursuit (VII-C-6) ------------------------------------------------------------


def _combat_of(state: State, fighter_id: str) -> int | None:
    for i, combat in enumerate(state["combat"]["combats"]):
        if fighter_id in members(combat):
            return i
    return None


def _joined(
    state: State, combat: Mapping[str, Any], pursuer: str, target: str
) -> tuple[str, list[str]] | None:
    """The combat ``combat`` once ``pursuer`` joins it against ``target``, as
    (one, many), or None when that would make several against several (IV-C:
    a combat is one against one or one against several)."""
    if target == combat["one"]:
        return combat["one"], [*combat["many"], pursuer]
    if combat["many"] == [target]:
        # One against one: the target now faces two.
        return target, [combat["one"], pursuer]
    return None


def pursuit_targets(state: State, pursuer: str) -> list[str]:
    """The enemies ``pursuer`` may reach by a pursuit move (melee-sources §2.8
    [read] S2, S11, S12: "A pursuit move can bring a fighter into another fray
    in the same phase"; [inferred] "The new fights join the list of combats
    still to resolve"): a living enemy in a combat still to fight that it can
    join, or one in no combat at all this phase."""
    side = state["fighters"][pursuer]["side"]
    result = []
    for target, fighter in state["fighters"].items():
        if fighter["side"] == side or fighter["eliminated"]:
            continue
        index = _combat_of(state, target)
        if index is None:
            result.append(target)
            continue
        combat = state["combat"]["combats"][index]
        if combat["done"] or index == state["combat"]["current"]:
            continue
        if _joined(state, combat, pursuer, target) is not None:
            result.append(target)
    return result


def _pursuers(state: State, side: str) -> list[str]:
    combat_state = state["combat"]
    if (
        state["phase"] != "combat"
        or state["step"] != "fighting"
        or combat_state is None
        or combat_state["current"] is not None
        or ruling(state, "pursuit") != "at_the_table"
        or not any(not c["done"] for c in combat_state["combats"])
    ):
        return []
    return [
        f
        for f in combat_state.get("freed") or []
        if state["fighters"][f]["side"] == side
        and not state["fighters"][f]["eliminated"]
    ]


def legal_pursue(state: State, side: str) -> list[dict[str, Any]]:
    """A freed fighter of ``side`` may record its pursuit move while a combat
    is still to fight and none is under way (VII-C-6, ``pursuit`` ruling
    "at_the_table")."""
    result = []
    for pursuer in _pursuers(state, side):
        targets = pursuit_targets(state, pursuer)
        if targets:
            result.append(
                {"type": "pursue", "fighter": pursuer, "choices": {"target": targets}}
            )
    return result


def pursue(batch: Batch, side: str, command: Command) -> None:
    """A freed fighter's pursuit move, made at the table, brings it into
    contact with ``target`` (melee-sources §2.8): it joins the target's
    combat still to fight, or a new combat, one against one, is added to
    the combats still to fight. The move itself is measured at the table
    (the ``pursuit`` house ruling: distance and eligibility were not found)."""
    state = batch.state
    require_phase(state, "combat", "fighting")
    if state["combat"]["current"] is not None:
        raise IllegalAction(_("Finish the combat under way first."))
    fighter_id = command.get("fighter")
    own_fighter(state, side, fighter_id)
    label = label_of(state, fighter_id)
    if fighter_id not in _pursuers(state, side):
        raise IllegalAction(
            _(
                "Only a fighter freed by a combat of this phase pursues, while a "
                "combat is still to fight (VII-C-6)."
            )
        )
    target = command.get("target")
    st.living_fighter(state, target)
    if target not in pursuit_targets(state, fighter_id):
        raise IllegalAction(
            _(
                "{fighter} cannot pursue into that fighter: pick an enemy in a "
                "combat still to fight that it can join (one against several, "
                "never several against several), or one in no combat."
            ),
            fighter=label,
        )
    combat_state = state["combat"]
    combats = [dict(c) for c in combat_state["combats"]]
    index = _combat_of(state, target)
    if index is None:
        combats.append(new_combat(fighter_id, [target]))
        index = len(combats) - 1
    else:
        joined = _joined(state, combats[index], fighter_id, target)
        assert joined is not None  # checked by pursuit_targets
        combats[index] = new_combat(joined[0], joined[1])
    freed = [f for f in combat_state.get("freed") or [] if f != fighter_id]
    contacts = [list(p) for p in state["contacts"]]
    if not any({fighter_id, target} == set(p) for p in contacts):
        contacts.append([fighter_id, target])
    batch.emit("contacts_changed", {"contacts": contacts, "reason": "pursuit"})
    batch.emit(
        "combat_updated",
        {
            "combat": dict(combat_state, combats=combats, freed=freed),
            "pursued": {
                "fighter": fighter_id,
                "label": label,
                "target": target,
                "target_label": label_of(state, target),
                "combat": index,
                "fighters": members(combats[index]),
                "section": "VII-C-6",
            },
            "house_ruling": "pursuit",
        },
    )


__all__ = [
    "legal_pursue",
    "pursue",
    "pursuit_targets",
    "ambidextrous",
    "legal_ambidextrous",
    "attack_targets",
    "choose_combat",
    "combat_waits_for",
    "current_combat",
    "declare_attack",
    "form_combats",
    "initiative",
    "legal_attack",
    "legal_choose_combat",
    "legal_form_combats",
    "legal_initiative",
    "legal_parry",
    "legal_place_dice",
    "parry",
    "place_dice",
    "ruling",
    "settle_combat",
    "start_combat_phase",
]
