"""Game services: one function per player action, each in one transaction.

The flow of an action (DESIGN): lock the game row, check the idempotency key
and the expected version, ask ``rules.game.decide`` what the command does
(dice from the game's own seeded source, or the faces a player entered),
append the events to the log, store the new snapshot, commit; after commit the
new version is announced to every phone watching the game.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Case, F, JSONField, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.live import announce
from battles.live.bus import hand_over, note_acted
from battles.models.armies import Army, Owner
from battles.models.games import (
    DiceMode,
    Game,
    GameEvent,
    GameMode,
    GameSeat,
    SeatRole,
)
from battles.services.fighter_rows import (
    add_rows_to_summary,
    army_points_destroyed,
    sync_rows,
)
from battles.services.mystic import mystic_setup
from battles.services.once import once
from battles.services.quotas import spend, who
from battles.validation import FieldError, check_faces
from rules.dice import DERIVATION, ScriptedDice, SeededDice, roll_seed
from rules.errors import IllegalAction
from rules.game import (
    COMMANDS,
    decide_and_fold,
    new_game_event,
    replay,
    summarize,
    undo_target,
)
from rules.game.commands import (
    COMMAND_TABLE,
    CommandKind,
    bool_field,
    choice_field,
)
from rules.game.common import CountingDice
from rules.game.evolve import META_KINDS
from rules.game.roll_numbers import roll_number, taken_back
from rules.game.state import CHARACTERISTICS
from rules.story import StoryCheck, check_story
from rules.verify import RollCheck, check_rolls


class GameError(FieldError):
    """An action refused before the rules were asked; the message is for the player.

    A ``FieldError`` (``battles.validation``): ``field`` names the field the
    message goes next to, if any. The view answers it with the board and the
    message (an htmx refusal is a 200, see ``docs/input-checks.md``).
    """

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message, field or "")


class StaleAction(GameError):
    """The tap was made on an older version of the game."""


class KeyReused(GameError):
    """The same idempotency key came back with another command."""


class ConfirmUndo(GameError):
    """One phone: undoing an action that rolled dice needs a confirmation."""


@dataclass
class ActionResult:
    """What an action did: the game after it, the events it appended."""

    game: Game
    events: list[GameEvent] = field(default_factory=list)
    repeated: bool = False  # the same tap arrived twice: applied once
    undo_requested: bool = False  # asked on the other phone, not done yet


def roll_dice_seed(game: Game, roll: int) -> str:
    """The seed of the game's ``roll``-th roll (0 first): ``rules.dice.roll_seed``
    of its secret seed, the one derivation /verify and verify_game use too."""
    return roll_seed(game.dice_seed, roll)


# --- creating a game -------------------------------------------------------------


def _number(value: Decimal | int | None) -> float | int | None:
    if value is None:
        return None
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def side_setup(army: Army, player_name: str) -> dict[str, Any]:
    """The rules engine's view of an army: its cards, profiles and fighters."""
    cards = []
    for army_card in army.cards.all():
        card = army_card.card
        profile = {code: _number(card.characteristic(code)) for code in CHARACTERISTICS}
        weapon = None
        if card.has_weapon:
            weapon = {"strength": card.weapon_strength, "ranges": list(card.ranges)}
        cards.append(
            {
                "name": card.name,
                "people": card.people.name,
                "is_ally": army_card.is_ally,
                "size": card.size,
                "skills": [str(ability) for ability in card.abilities.all()],
                "profile": profile,
                "flight_mou": _number(card.mou_flight),
                "weapon": weapon,
                "fighters": army_card.fighters,
                **_mystic_card(army_card, card),
            }
        )
    return {
        "name": player_name or army.name,
        "army": army.name,
        "people": army.people.name,
        "alliance": army.people.get_voie_display() if army.people.voie else None,
        "cards": cards,
    }


def _mystic_card(army_card, card) -> dict[str, Any]:
    """X, XI: the spells a magician card knows (its gems entered at the table,
    HR-M1), the miracles a faithful calls (his cults: theirs)."""
    found: dict[str, Any] = {}
    spells = [spell.name for spell in army_card.spells.all()]
    if spells and card.pou is not None:
        found.update(spells=spells, gems={})
    miracles = list(army_card.miracles.all())
    if miracles and card.foi is not None:
        found["miracles"] = [miracle.name for miracle in miracles]
        found["cults"] = sorted({m.cult for m in miracles if m.cult})
    return found


def _magicians_in_gems(setup: dict[str, Any]) -> None:
    """In a game with spells, a magician card that knows none counts its
    mana in gems too and knows no spell of the others (not every one of the
    game's): its mystic action names the spell and enters its gems and
    difficulty (issue #32). A game without spells keeps the single mana
    number."""
    if not setup.get("spells"):
        return
    for side in setup["sides"].values():
        for card in side["cards"]:
            if card["profile"].get("POU") is not None and "spells" not in card:
                card.update(spells=[], gems={})


def mystic_of(*armies: Army) -> dict[str, Any]:
    """``setup["spells"]`` and ``setup["miracles"]``: every spell and miracle
    the armies' cards know, as the rules read them."""
    spells: dict[str, Any] = {}
    miracles: dict[str, Any] = {}
    for army in armies:
        more_spells, more_miracles, _known, _called = mystic_setup(army.cards.all())
        spells.update(more_spells)
        miracles.update(more_miracles)
    return {"spells": spells, "miracles": miracles}


def _armies_with_cards(ids: Iterable[int]) -> dict[int, Army]:
    armies = Army.objects.with_cards().filter(pk__in=list(ids))
    return {army.pk: army for army in armies}


@once("game", by="owner", error=GameError, fetch=lambda pk: Game.objects.get(pk=pk))
def create_game(
    *,
    owner: Owner,
    army_a: Army,
    army_b: Army,
    turns: int = 6,
    mode: str = GameMode.TWO_PHONES,
    dice_mode: str = DiceMode.APP,
    title: str = "",
    player_a: str = "",
    player_b: str = "",
    require_confirmation: bool = False,
    house_rulings: dict[str, str] | None = None,
) -> Game:
    """Start a game: its first event holds the armies as they are now.

    The creator holds side A; on one phone they hold side B too. Raises
    ``GameError`` for a setup the rules cannot play (nothing is saved then).
    ``house_rulings``: the rulings chosen where the sources are silent (those
    left out take their default, ``rules.melee.HOUSE_RULINGS``).
    """
    if not owner.is_anyone:
        raise GameError(_("Open the app in a browser that keeps cookies."))
    armies = _armies_with_cards({army_a.pk, army_b.pk})
    setup = {
        "turns": turns,
        "sides": {
            "a": side_setup(armies[army_a.pk], player_a),
            "b": side_setup(armies[army_b.pk], player_b),
        },
        **mystic_of(armies[army_a.pk], armies[army_b.pk]),
    }
    _magicians_in_gems(setup)
    if house_rulings:
        setup["house_rulings"] = dict(house_rulings)
    try:
        first_event = new_game_event(setup)
    except ValueError as error:
        raise GameError(str(error)) from None
    with transaction.atomic():
        spend("game", who(owner), error=GameError, owner=owner)
        game = Game.objects.create(
            # A title players recognise in their list of games.
            title=title
            or f"{setup['sides']['a']['name']} – {setup['sides']['b']['name']}",
            mode=mode,
            dice_mode=dice_mode,
            require_confirmation=require_confirmation,
            army_a=army_a,
            army_b=army_b,
            state=first_event["payload"]["state"],
            version=1,
        )
        GameEvent.objects.create(
            game=game,
            seq=1,
            action=1,
            kind=first_event["kind"],
            payload=first_event["payload"],
        )
        sync_rows(game, None, game.state, [])
        holder = {"user_id": owner.user_id, "guest_key": owner.guest_key}
        GameSeat.objects.create(
            game=game, role=SeatRole.SIDE_A, player_name=player_a, **holder
        )
        if mode == GameMode.ONE_PHONE:
            GameSeat.objects.create(
                game=game, role=SeatRole.SIDE_B, player_name=player_b, **holder
            )
    return game


# --- playing -----------------------------------------------------------------------


def _locked_game(game: Game) -> Game:
    """Lock the game's row: the game as it stands.

    PostgreSQL: a row lock, so two phones' actions queue up (DESIGN). SQLite
    ignores it; its IMMEDIATE transactions already serialise writers. The
    lock reads the version alone: when the game is still the one the view
    loaded, that object is used as it is, with its decoded state and its
    seats, instead of being read again.
    """
    row = (
        Game.objects.select_for_update(no_key=True)
        .filter(pk=game.pk)
        .values_list("version", "updated")
        .get()
    )
    if row != (game.version, game.updated):
        game = Game.objects.get(pk=game.pk)  # moved on: read it again (locked)
    return game


def _command_hash(command: Mapping[str, Any], faces: Sequence[int] | None) -> str:
    body = json.dumps({"command": command, "faces": faces}, sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


def _check_faces(faces: Sequence[int] | None) -> list[int] | None:
    if faces is None:
        return None
    try:
        return check_faces(faces)
    except FieldError as error:
        raise GameError(error.message, field=error.field) from None


def _repeat_of(game: Game, key: str, command_hash: str) -> ActionResult | None:
    if not key:
        return None
    first = game.events.filter(idempotency_key=key).first()
    if first is None:
        return None
    if first.command_hash != command_hash:
        raise KeyReused(
            _("This tap was already sent with another action. Reload the page.")
        )
    events = list(game.events.filter(action=first.action).order_by("seq"))
    return ActionResult(game=game, events=events, repeated=True)


# How many of the latest actions keep the state before them (undo snapshots).
UNDO_SNAPSHOTS = 50


def _append(
    game: Game,
    raw_events: list[dict[str, Any]],
    new_state: dict[str, Any],
    *,
    key: str,
    command_hash: str,
    dice: CountingDice | None,
    dice_source: str,
    command: Mapping[str, Any] | None = None,
) -> list[GameEvent]:
    """Append one action's events and store the state the engine built."""
    action = game.version + 1
    rows = []
    for offset, raw in enumerate(raw_events):
        seq = action + offset
        first = offset == 0
        rows.append(
            GameEvent(
                game=game,
                seq=seq,
                action=action,
                kind=raw["kind"],
                side=raw.get("side") or "",
                payload=raw.get("payload") or {},
                idempotency_key=key if first else "",
                command_hash=command_hash if first else "",
                command=dict(command) if first and command is not None else None,
                dice=(dice.faces if dice and first else []),
                dice_source=dice_source if first and dice and dice.faces else "",
                state_before=game.state if first else None,
            )
        )
    _insert(rows)
    if action % UNDO_SNAPSHOTS == 0:
        game.events.filter(
            seq__lt=action - UNDO_SNAPSHOTS, state_before__isnull=False
        ).update(state_before=None)
    _store_state(game, new_state, rows)
    return rows


def _store_state(game: Game, state: dict[str, Any], rows: list[GameEvent]) -> None:
    """Store the game's new state and version: the one place a state is saved.

    The state is the one ``rules.game`` built with the events just appended
    (``rows``; never folded again here); the fighter rows follow it in the
    same transaction. Announced to every phone after commit.
    """
    sync_rows(game, game.state, state, rows)
    game.state = state
    game.version = version = rows[-1].seq
    if state.get("phase") == "finished":
        if game.finished_at is None:
            game.finished_at = timezone.now()
    else:
        game.finished_at = None
    game.save(update_fields=["state", "version", "updated", "finished_at"])
    # This process's pushes start from the game as saved (a copy: the request
    # may act on ``game`` again) rather than reading it back.
    saved, since, events = copy.copy(game), rows[0].seq - 1, board_events(rows)

    def committed() -> None:
        hand_over(saved, since, events)
        announce(game.pk, version)

    transaction.on_commit(committed)


# The commands that commute with one another: two phones ticking their own
# upkeep lines in the same second (issue 31). A tap of these made on an older
# version is applied on the new one when everything since was of them too (the
# rules then check it again on the game as it stands).
COMMUTING = frozenset({"tick_upkeep"})
COMMUTING_EVENTS = frozenset({"upkeep_ticked", "dice_drawn"})


def _only_commuting_since(game: Game, version: int) -> bool:
    """Whether every event after ``version`` is an upkeep line ticked."""
    if version < 1 or version > game.version:
        return False
    kinds = set(game.events.filter(seq__gt=version).values_list("kind", flat=True))
    return kinds <= COMMUTING_EVENTS


def _open_action(
    game: Game,
    key: str,
    command_hash: str,
    expected_version: int | None,
    *,
    commutes: bool = False,
) -> tuple[Game, ActionResult | None]:
    """Lock the game, then: a tap seen before (its earlier answer), or a stale
    one (``StaleAction``), or the locked game to act on (DESIGN: the flow).
    ``commutes``: the tap's commands commute with the upkeep ticks, so a tap
    made on an older version, with only ticks since, is applied."""
    locked = _locked_game(game)
    if expected_version == locked.version:
        # Applying a tap moves the version on, for good: a tap made on the
        # version the game is at was never applied, so its key is not looked
        # up (the unique key stays the backstop).
        return locked, None
    repeat = _repeat_of(locked, key, command_hash)
    if repeat is None and expected_version is not None:
        if commutes and _only_commuting_since(locked, expected_version):
            return locked, None
        raise StaleAction(_("The game moved on: here is where it stands now."))
    return locked, repeat


def perform_action(
    game: Game,
    side: str,
    command: Mapping[str, Any],
    *,
    expected_version: int | None = None,
    idempotency_key: str = "",
    faces: Sequence[int] | None = None,
) -> ActionResult:
    """Apply one player's command to the game, in one transaction.

    ``faces`` are real dice entered by the player (None: the app rolls).
    Raises ``IllegalAction`` (the rules said no), ``StaleAction``,
    ``KeyReused`` or ``GameError``; nothing is written then. The table's
    taps below (an undo, a switch of dice, time called, their answers) are
    this with their command; their ``**tap`` is its keywords.
    """
    return perform_actions(
        game,
        side,
        [command],
        expected_version=expected_version,
        idempotency_key=idempotency_key,
        faces=faces,
    )


def perform_actions(
    game: Game,
    side: str,
    commands: Sequence[Mapping[str, Any]],
    *,
    expected_version: int | None = None,
    idempotency_key: str = "",
    faces: Sequence[int] | None = None,
) -> ActionResult:
    """Apply one tap's commands in order, as one action in one transaction
    (a side's whole placement of combat dice, VII-C-1): all of them, or,
    when the rules refuse one, none. Undone together."""
    if commands and commands[0].get("type") in TABLE_COMMANDS and len(commands) == 1:
        # Undo and the dice switch: no dice of their own (faces are not read).
        return _perform_table_command(
            game, side, commands[0], expected_version, idempotency_key
        )
    if not commands or any(c.get("type") not in COMMANDS for c in commands):
        raise GameError(_("Unknown action."))
    if any(c.get("type") == "call_time" for c in commands):
        # Time is called by both (issue #29): the table's "time_call", then
        # the other phone's answer; never one phone alone.
        raise GameError(_("Time is called with the other phone's agreement."))
    if len(commands) > 1 and not all(
        COMMAND_TABLE[c["type"]].batched for c in commands
    ):
        # Only the kinds declared ``batched`` (none of them rolls a die).
        # A roll is seeded by its action's count of rolls: one at a time.
        raise GameError(_("These actions are taken one at a time."))
    faces = _check_faces(faces)
    command = commands[0] if len(commands) == 1 else {"batch": list(commands)}
    command_hash = _command_hash(command, faces)
    types = {c.get("type") for c in commands}
    with transaction.atomic():
        locked, repeat = _open_action(
            game,
            idempotency_key,
            command_hash,
            expected_version,
            commutes=types <= COMMUTING,
        )
        if repeat is not None:
            return repeat
        if locked.dice_mode == DiceMode.APP and faces is not None:
            # Dice mode is decided by both (issue 23): in a game of the app's
            # dice, a face typed by hand would be a face chosen unseen.
            raise GameError(
                _(
                    "This game rolls the app's dice: faces cannot be typed. "
                    "To roll real dice, both players must agree to switch."
                ),
                field="faces",
            )
        if locked.dice_mode == DiceMode.ENTERED and faces is None:
            if types & {"roll", "reroll", "scatter"}:
                raise GameError(
                    _("Enter the faces of the dice you rolled."), field="faces"
                )
        source = (
            ScriptedDice(faces)
            if faces is not None
            else SeededDice(
                roll_dice_seed(locked, roll_number(locked.state, side, commands[0]))
            )
        )
        if (
            faces is None
            and locked.dice_mode == DiceMode.ENTERED
            and ("tick_upkeep" in types)
        ):
            # Real dice: an upkeep item with a roll (Régénération/X) asks for it.
            source = ScriptedDice([])
        dice = CountingDice(source)
        raw_events: list[dict[str, Any]] = []
        new_state = locked.state
        for one in commands:
            events, new_state = decide_and_fold(new_state, side, one, dice)
            raw_events.extend(events)
        rows = _append(
            locked,
            raw_events,
            new_state,
            key=idempotency_key,
            command_hash=command_hash,
            dice=dice,
            dice_source="entered" if faces is not None else "seeded",
            command=command,
        )
        note_acted(locked.pk, rows[-1].seq, side)  # its phone gets no push
    return ActionResult(game=locked, events=rows)


def _log_index(game: Game) -> list[dict[str, Any]]:
    """The log without the payloads (those of undo events apart): enough to
    find what an undo reverts, without reading or replaying the whole game."""
    rows = game.events.order_by("seq").values("seq", "action", "kind", "side")
    events = [{**row, "side": row["side"] or None, "payload": {}} for row in rows]
    undos = dict(game.events.filter(kind="undone").values_list("seq", "payload"))
    for event in events:
        if event["seq"] in undos:
            event["payload"] = undos[event["seq"]]
    return events


def _rolled(game: Game, action: int) -> bool:
    """Whether the action drew dice (the app's or entered faces)."""
    return (
        game.events.filter(action=action)
        .filter(Q(kind="dice_drawn") | ~Q(dice_source=""))
        .exists()
    )


def _standing_request(
    game: Game, kind: str, latest: Sequence[Mapping[str, Any]] | None
) -> dict[str, Any] | None:
    """The log's latest event when it is a request of ``kind`` (an undo, a
    switch of dice) asked of the other phone: it stands while it is the
    latest event, any action or answer after it supersedes it. ``latest``:
    the log's latest events when the caller has them already."""
    if latest is not None:
        last = latest[-1] if latest else None
    else:
        row = game.events.order_by("-seq").first()
        last = row.as_rules_event() if row else None
    if last is None or last["kind"] != kind:
        return None
    return {
        "seq": last["seq"],
        "side": last["side"],
        "answerer": "b" if last["side"] == "a" else "a",
        **last["payload"],
    }


def pending_undo_request(
    game: Game, latest: Sequence[Mapping[str, Any]] | None = None
) -> dict[str, Any] | None:
    """The undo asked of the other phone and not answered yet, if any (its
    ``action``: the action it would take back)."""
    return _standing_request(game, "undo_requested", latest)


def _append_meta(
    game: Game, kind: str, side: str, payload: dict[str, Any], key: str, h: str
) -> GameEvent:
    """Append one event about the log itself (an undo, its request or answer)."""
    action = game.version + 1
    row = GameEvent(
        game=game,
        seq=action,
        action=action,
        kind=kind,
        side=side,
        payload=payload,
        idempotency_key=key,
        command_hash=h,
    )
    _insert([row])
    return row


def _insert(rows: list[GameEvent]) -> None:
    """Insert an action's events. The game's row is locked, so the unique
    keys (event number, tap key) are only a backstop: if one is hit, the
    whole action's transaction rolls back (no savepoint needed)."""
    try:
        GameEvent.objects.bulk_create(rows)
    except IntegrityError:
        raise StaleAction(_("The game moved on: reload and try again.")) from None


def _undo(
    game: Game, side: str, target: int, payload: dict[str, Any], key: str, h: str
) -> GameEvent:
    """Append the ``undone`` event and restore the state before ``target``."""
    row = _append_meta(game, "undone", side, payload, key, h)
    first = game.events.filter(seq=target).values_list("state_before", flat=True)
    before = first[0] if first else None
    if before is None:  # an old action, beyond the kept snapshots
        before = replay(rules_events(game))
    else:
        # Its rolls are set aside for the same roll made again, their numbers
        # never given to another roll (rules.game.roll_numbers).
        draws = game.events.filter(action=target, kind="dice_drawn")
        before = taken_back(game.state, before, [d.payload for d in draws])
    _store_state(game, before, [row])
    return row


def undo_last_action(
    game: Game,
    side: str,
    *,
    confirmed: bool = False,
    **tap: Any,
) -> ActionResult:
    """Take back ``side``'s own last action (the tap ``Undo``)."""
    return perform_action(game, side, {"type": "undo", "confirmed": confirmed}, **tap)


def _undo_last(
    locked: Game, side: str, command: Mapping[str, Any], key: str, command_hash: str
) -> ActionResult:
    """Take back ``side``'s own last action, by appending an ``undone`` event.

    An action that rolled dice cannot be taken back to roll again: on two
    phones the other side is asked (``undo_requested``, answered with
    ``answer_undo``); on one phone the player confirms (``ConfirmUndo`` until
    ``confirmed``). Either way its rolls are set aside: the same roll made
    again gives the same faces, and no other roll ever gets them.
    """
    target = undo_target(_log_index(locked), side)
    if _rolled(locked, target):
        if locked.mode == GameMode.TWO_PHONES:
            request = pending_undo_request(locked)
            if request and request["action"] == target:
                raise GameError(_("Your undo is already asked: wait for the answer."))
            row = _append_meta(
                locked, "undo_requested", side, {"action": target}, key, command_hash
            )
            _store_state(locked, locked.state, [row])
            return ActionResult(game=locked, events=[row], undo_requested=True)
        if not command.get("confirmed"):
            raise ConfirmUndo(
                _(
                    "Your last action rolled dice. Undoing it will not roll "
                    "them again: the same roll gives the same faces. Undo it?"
                )
            )
    row = _undo(locked, side, target, {"action": target}, key, command_hash)
    return ActionResult(game=locked, events=[row])


def _answer_request(
    locked: Game,
    side: str,
    command: Mapping[str, Any],
    key: str,
    command_hash: str,
    *,
    kind: str,
    payload_of: Callable[[dict[str, Any]], dict[str, Any]],
    agreed: Callable[[Game, dict[str, Any], dict[str, Any], str, str], GameEvent],
    messages: tuple[str, str],
) -> ActionResult:
    """The other phone answers a request of ``kind`` asked of it: a refusal is
    logged as ``<kind>_refused``, an agreement does what ``agreed`` does.
    ``messages``: what to say when nothing waits, and to the asker."""
    request = _standing_request(locked, f"{kind}_requested", None)
    if request is None:
        raise StaleAction(messages[0])
    if request["answerer"] != side:
        raise GameError(messages[1])
    payload = {**payload_of(request), "asked_by": request["side"]}
    if command.get("agree"):
        row = agreed(locked, request, payload, key, command_hash)
    else:
        row = _append_meta(locked, f"{kind}_refused", side, payload, key, command_hash)
        _store_state(locked, locked.state, [row])
    return ActionResult(game=locked, events=[row])


def answer_undo(
    game: Game,
    side: str,
    *,
    agree: bool,
    **tap: Any,
) -> ActionResult:
    """The other phone agrees to (or refuses) the undo asked of it."""
    return perform_action(game, side, {"type": "answer_undo", "agree": agree}, **tap)


def _answer_undo(
    locked: Game, side: str, command: Mapping[str, Any], key: str, command_hash: str
) -> ActionResult:
    def undo_it(locked, request, payload, key, command_hash):
        agreed = {**payload, "agreed_by": side}
        return _undo(
            locked, request["side"], request["action"], agreed, key, command_hash
        )

    return _answer_request(
        locked,
        side,
        command,
        key,
        command_hash,
        kind="undo",
        payload_of=lambda request: {"action": request["action"]},
        agreed=undo_it,
        messages=(
            _("No undo is waiting for your answer."),
            _("Only the other side answers this undo."),
        ),
    )


# --- the dice mode: decided by both ------------------------------------------------


def pending_dice_mode_request(
    game: Game, latest: Sequence[Mapping[str, Any]] | None = None
) -> dict[str, Any] | None:
    """The switch of dice asked of the other phone and not answered yet (its
    ``mode``), as an undo request stands."""
    return _standing_request(game, "dice_mode_requested", latest)


def _switch_dice(
    game: Game, side: str, payload: dict[str, Any], key: str, h: str
) -> GameEvent:
    """Append ``dice_mode_changed`` and set the game's dice mode with it."""
    row = _append_meta(game, "dice_mode_changed", side, payload, key, h)
    game.dice_mode = payload["mode"]
    game.save(update_fields=["dice_mode"])
    _store_state(game, game.state, [row])
    return row


def request_dice_mode(
    game: Game,
    side: str,
    mode: str,
    **tap: Any,
) -> ActionResult:
    """Ask to switch the game's dice (the tap ``dice_mode``)."""
    return perform_action(game, side, {"type": "dice_mode", "mode": mode}, **tap)


def _request_dice_mode(
    locked: Game, side: str, command: Mapping[str, Any], key: str, command_hash: str
) -> ActionResult:
    """Ask to switch the game's dice (the app's, or typed from real dice).

    Decided once by both (issue 23): on two phones the other side must agree
    (``dice_mode_requested``, answered by ``answer_dice_mode``); on one phone,
    held by both players, the switch is made at once. Either way it is an
    event of the log.
    """
    mode = command["mode"]
    if locked.finished:
        raise GameError(_("The game is over."))
    if locked.dice_mode == mode:
        raise GameError(_("The game already rolls these dice."), field="mode")
    return _ask_other_phone(
        locked,
        side,
        "dice_mode",
        {"mode": mode},
        key,
        command_hash,
        at_once=lambda: _switch_dice(locked, side, {"mode": mode}, key, command_hash),
        already=_("A switch of dice is already asked: wait for the answer."),
    )


def _ask_other_phone(
    locked: Game,
    side: str,
    kind: str,
    payload: dict[str, Any],
    key: str,
    command_hash: str,
    *,
    at_once: Callable[[], GameEvent],
    already: str,
) -> ActionResult:
    """A request of ``kind`` the other phone answers (``<kind>_requested``,
    then ``_answer_request``); on one phone, held by both players, it is
    agreed at once: ``at_once()`` does it."""
    if locked.mode == GameMode.ONE_PHONE:
        return ActionResult(game=locked, events=[at_once()])
    if _standing_request(locked, f"{kind}_requested", None):
        raise GameError(already)
    row = _append_meta(locked, f"{kind}_requested", side, payload, key, command_hash)
    _store_state(locked, locked.state, [row])
    return ActionResult(game=locked, events=[row], undo_requested=True)


def answer_dice_mode(
    game: Game,
    side: str,
    *,
    agree: bool,
    **tap: Any,
) -> ActionResult:
    """The other phone agrees to (or refuses) the switch of dice asked of it."""
    command = {"type": "answer_dice_mode", "agree": agree}
    return perform_action(game, side, command, **tap)


def _answer_dice_mode(
    locked: Game, side: str, command: Mapping[str, Any], key: str, command_hash: str
) -> ActionResult:
    def switch(locked, _request, payload, key, command_hash):
        return _switch_dice(
            locked, side, {**payload, "agreed_by": side}, key, command_hash
        )

    return _answer_request(
        locked,
        side,
        command,
        key,
        command_hash,
        kind="dice_mode",
        payload_of=lambda request: {"mode": request["mode"]},
        agreed=switch,
        messages=(
            _("No switch of dice is waiting for your answer."),
            _("Only the other side answers this request."),
        ),
    )


# --- time called: decided by both (issue #29) -------------------------------------


def pending_time_call_request(
    game: Game, latest: Sequence[Mapping[str, Any]] | None = None
) -> dict[str, Any] | None:
    """Time called by one phone and not answered yet by the other (its
    ``score_a`` and ``score_b``: the army points each side destroyed)."""
    return _standing_request(game, "time_call_requested", latest)


def _end_on_time(game: Game, asker: str, key: str, h: str) -> GameEvent:
    """End the game now: the side that destroyed more army points (the log's
    fighter rows, ``army_points_destroyed``) wins, equal points are a draw."""
    command = {"type": "call_time", **_destroyed(game)}
    events, state = decide_and_fold(game.state, asker, command, ScriptedDice([]))
    rows = _append(
        game, events, state, key=key, command_hash=h, dice=None, dice_source=""
    )
    return rows[-1]


def _destroyed(game: Game) -> dict[str, int]:
    points = army_points_destroyed(game)
    return {"score_a": points["a"], "score_b": points["b"]}


def request_time_call(
    game: Game,
    side: str,
    **tap: Any,
) -> ActionResult:
    """Call time: end the game before its last turn, as conceding does, but
    scored from the log (army points destroyed). On two phones the other side
    must agree (``answer_time_call``); on one phone, held by both, at once."""
    return perform_action(game, side, {"type": "time_call"}, **tap)


def _request_time_call(
    locked: Game, side: str, command: Mapping[str, Any], key: str, command_hash: str
) -> ActionResult:
    if locked.finished:
        raise GameError(_("The game is over."))
    return _ask_other_phone(
        locked,
        side,
        "time_call",
        _destroyed(locked),
        key,
        command_hash,
        at_once=lambda: _end_on_time(locked, side, key, command_hash),
        already=_("Time is already called: wait for the answer."),
    )


def answer_time_call(
    game: Game,
    side: str,
    *,
    agree: bool,
    **tap: Any,
) -> ActionResult:
    """The other phone agrees that time is called (the game ends) or refuses."""
    command = {"type": "answer_time_call", "agree": agree}
    return perform_action(game, side, command, **tap)


def _answer_time_call(
    locked: Game, side: str, command: Mapping[str, Any], key: str, command_hash: str
) -> ActionResult:
    def end(locked, request, _payload, key, command_hash):
        return _end_on_time(locked, request["side"], key, command_hash)

    return _answer_request(
        locked,
        side,
        command,
        key,
        command_hash,
        kind="time_call",
        payload_of=lambda request: {},
        agreed=end,
        messages=(
            _("No call of time is waiting for your answer."),
            _("Only the other side answers this request."),
        ),
    )


# --- the table's own commands: about the log, agreed by both phones ---------------

TABLE_COMMANDS: dict[str, type[CommandKind]] = {}


def _nothing_listed(state: Mapping[str, Any], side: str) -> list[dict[str, Any]]:
    return []  # offered by the game screen from the log, not by the rules


class TableCommand(CommandKind):
    """A command about the game's log, not its rules: ``decide`` never sees
    it; ``perform_actions`` applies it to the locked game, as one action, with
    the same version, tap key and lock as the rules' commands.
    ``apply(locked, side, command, key, command_hash) -> ActionResult``."""

    registry = TABLE_COMMANDS
    legal = staticmethod(_nothing_listed)


class Undo(TableCommand):
    """Take back my last action; one that rolled dice needs the other phone's
    word (two phones) or ``confirmed`` (one phone)."""

    type = "undo"
    fields = (bool_field("confirmed"),)
    apply = staticmethod(_undo_last)


class AnswerUndo(TableCommand):
    """The other phone agrees to (``agree``) or refuses the undo of a roll."""

    type = "answer_undo"
    fields = (bool_field("agree"),)
    apply = staticmethod(_answer_undo)


class DiceModeSwitch(TableCommand):
    """Ask to switch the game's dice: the app's, or faces typed from real dice."""

    type = "dice_mode"
    fields = (choice_field("mode", tuple(DiceMode.values)),)
    apply = staticmethod(_request_dice_mode)


class AnswerDiceMode(TableCommand):
    """The other phone agrees to (``agree``) or refuses the switch of dice."""

    type = "answer_dice_mode"
    fields = (bool_field("agree"),)
    apply = staticmethod(_answer_dice_mode)


class TimeCall(TableCommand):
    """Ask to end the game now, scored by army points destroyed (issue #29)."""

    type = "time_call"
    fields = ()
    apply = staticmethod(_request_time_call)


class AnswerTimeCall(TableCommand):
    """The other phone agrees to (``agree``) or refuses the call of time."""

    type = "answer_time_call"
    fields = (bool_field("agree"),)
    apply = staticmethod(_answer_time_call)


def _perform_table_command(
    game: Game,
    side: str,
    command: Mapping[str, Any],
    expected_version: int | None,
    idempotency_key: str,
) -> ActionResult:
    """One of the table's own commands, in one transaction: the game locked,
    a repeated tap answered as before, a stale one refused."""
    kind = TABLE_COMMANDS[command["type"]]
    if kind is DiceModeSwitch and command.get("mode") not in DiceMode.values:
        raise GameError(_("Choose the app's dice or real dice."), field="mode")
    command_hash = _command_hash(dict(command), None)
    with transaction.atomic():
        locked, repeat = _open_action(
            game, idempotency_key, command_hash, expected_version
        )
        if repeat is not None:
            return repeat
        return kind.apply(locked, side, command, idempotency_key, command_hash)


def last_sequence(game: Game, side: str) -> list[str] | None:
    """The side's latest activation sequence (IV-A-1): next turn's draft
    starts from it rather than from the army's order (issue 23)."""
    payload = (
        game.events.filter(kind="sequence_set", side=side)
        .order_by("-seq")
        .values_list("payload", flat=True)
        .first()
    )
    return list(payload["order"]) if payload else None


def opening_draft(game: Game, side: str) -> list[str] | None:
    """The order a side's phones show its sequence in (IV-A-1) until a card
    is moved on one of them: from the second turn on, its last sequence
    (issue 23); else none, the army's order."""
    state = game.state
    if (
        state.get("phase") != "strategic"
        or state["turn"] <= 1
        or state["sequences"].get(side) is not None
    ):
        return None
    return last_sequence(game, side)


def rules_events(game: Game) -> list[dict[str, Any]]:
    """The whole log as ``rules.game`` reads it."""
    return [event.as_rules_event() for event in game.events.order_by("seq")]


# An event as a board reads it: its payload read as ``read`` (all of it, or
# only where a small answer words it).
_BOARD_FIELDS = ("seq", "action", "kind", "side", "disputed", "dice_source")


def _board_event(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "side": row["side"] or None, "payload": row.pop("read") or {}}


def board_events(rows: Sequence[GameEvent]) -> list[dict[str, Any]]:
    """Events just appended, in the shape ``events_after`` reads them back
    (none disputed yet): a tap's answer and its pushes word them."""
    return [
        {**e.as_rules_event(), "disputed": False, "dice_source": e.dice_source}
        for e in rows
    ]


def latest_events(
    game: Game, count: int, *, payloads_after: int | None = None
) -> list[dict[str, Any]]:
    """The last ``count`` events of the log, oldest first (for the board), each
    with its ``disputed`` mark. With ``payloads_after`` (a tap's answer words
    only the events past that version), the older events come without their
    payload, but for the undo events, which say what they took back."""
    payload: Any = F("payload")
    if payloads_after is not None:
        payload = Case(
            When(Q(seq__gt=payloads_after) | Q(kind__in=META_KINDS), then="payload"),
            default=Value(None),
            output_field=JSONField(),
        )
    rows = game.events.order_by("-seq").values(*_BOARD_FIELDS, read=payload)[:count]
    return [_board_event(row) for row in reversed(rows)]


def events_after(game: Game, version: int) -> list[dict[str, Any]]:
    """The log's events past ``version``, oldest first, as ``latest_events``
    gives them (with their payloads)."""
    rows = game.events.filter(seq__gt=version).order_by("seq")
    return [_board_event(row) for row in rows.values(*_BOARD_FIELDS, read=F("payload"))]


CATCH_UP_EVENTS = 50  # a phone further behind gets the whole board again


def may_catch_up(game: Game, version: int) -> bool:
    """Whether a phone showing ``version`` (behind the game) is near enough
    to catch up with what changed only."""
    return 0 < version < game.version and game.version - version <= CATCH_UP_EVENTS


def catches_up_through(kinds: Sequence[str]) -> bool:
    """Whether a phone behind the game catches up with what changed only,
    through events of these ``kinds`` past its version: some, and none about
    the log itself (an undo, a request: it changes lines already shown)."""
    return bool(kinds) and META_KINDS.isdisjoint(kinds)


def state_at(
    game: Game,
    version: int,
    known: dict[str, Any] | None = None,
    tail: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Any] | None:
    """The state the game had at ``version``, for a phone showing that version
    to catch up with what changed only; None when it must have the whole
    board: a version the log does not keep a snapshot of, one too far back,
    or an undo since (it changes lines already shown). ``known``: that state,
    when the caller kept it (the live push's room): the log is then asked
    only whether an undo came since, not for a snapshot to decode; not even
    that with ``tail``, the log's last events read already (``log_tail``
    past ``version``: every event since is in it)."""
    if version == game.version:
        return game.state
    if not may_catch_up(game, version):
        return None
    since = game.events.filter(seq__gt=version).order_by("seq")
    if known is None:
        # The state before the next action (its first event keeps it).
        before = Case(
            When(seq=version + 1, then="state_before"), output_field=JSONField()
        )
        rows = list(since.values_list("kind", before))
    elif tail is not None:
        rows = [(e["kind"], known) for e in tail if e["seq"] > version]
    else:
        rows = [(kind, known) for kind in since.values_list("kind", flat=True)]
    if not catches_up_through([kind for kind, _state in rows]):
        return None
    return rows[0][1]


UNDO_WINDOW = 40  # the latest events an undo looks back through on the board


def may_undo(
    game: Game, side: str | None, latest: Sequence[Mapping[str, Any]] | None = None
) -> bool:
    """Whether ``side`` has an action of its own to take back now: the rules'
    ``undo_target`` (a phone never undoes the adversary's move). ``latest``:
    the log's last ``UNDO_WINDOW`` events when the caller has them already."""
    if side is None or game.finished:
        return False
    try:
        latest = latest_events(game, UNDO_WINDOW) if latest is None else latest
        undo_target(latest, side)
    except IllegalAction:
        return False
    return True


def replayed_state(game: Game) -> dict[str, Any]:
    """The state the log gives; must equal ``game.state`` (tests check it)."""
    return replay(rules_events(game))


def game_summary(game: Game) -> dict[str, Any]:
    """Survivors, wounds and luck per side (the end-of-game summary)."""
    typed = game.events.filter(dice_source="entered").values_list("action", flat=True)
    summary = summarize(game.state, rules_events(game), typed)
    return add_rows_to_summary(game, summary)


def verify_dice(game: Game, *, as_shown: bool = False) -> list[RollCheck]:
    """Every roll of the log, the app's recomputed from the seed (DESIGN
    "Dice"); typed faces listed as typed. ``as_shown`` (the verify page):
    before the end the seed is secret, nothing is recomputed."""
    secret = game.dice_seed if game.finished or not as_shown else None
    return check_rolls(_dice_rows(game), secret)


def verify_story(game: Game) -> StoryCheck | None:
    """The log replayed through the rules, every result checked
    (``rules.story``); None before the end (the verify page's verdict)."""
    if not game.finished:
        return None
    events = exported_log(game)["events"]
    return check_story(events, game.dice_mode, finished=True)


def _dice_rows(game: Game) -> list[dict[str, Any]]:
    """The log's events that bear on the dice, as the downloaded log holds them."""
    rows = game.events.filter(Q(kind="dice_drawn") | ~Q(dice_source="")).order_by("seq")
    return [
        {**row.as_rules_event(), "dice": row.dice, "dice_source": row.dice_source}
        for row in rows
    ]


# /2: each action's first event carries its ``command`` (rules.story).
LOG_FORMAT = "confrontation-game-log/2"


def exported_log(game: Game) -> dict[str, Any]:
    """The whole log as JSON, for ``manage.py verify_game`` or anyone's own
    check: every event with its dice, the seed's fingerprint and, once the
    game is over, the seed (downloads are offered then: the log holds both
    sides' private sequences)."""
    events = [
        {
            **event.as_rules_event(),
            "dice": event.dice,
            "dice_source": event.dice_source,
            "created": event.created.isoformat(),
            **({"command": event.command} if event.command is not None else {}),
        }
        for event in game.events.order_by("seq")
    ]
    return {
        "format": LOG_FORMAT,
        "game": game.public_id,
        "title": str(game),
        "dice_mode": game.dice_mode,
        "seed_sha256": game.dice_seed_hash,
        "seed": game.dice_seed if game.finished else None,
        "derivation": DERIVATION,
        "events": events,
    }


def seat_roles(game: Game, owner: Owner) -> set[str]:
    """The roles this person holds in the game: "a", "b", "spectator"."""
    if not owner.is_anyone:
        return set()
    seats = game.seat_list
    return {
        seat.role
        for seat in seats
        if (owner.user_id is not None and seat.user_id == owner.user_id)
        or (owner.guest_key and seat.guest_key == owner.guest_key)
    }


def games_of(owner: Owner, limit: int = 50) -> list[Game]:
    """The games where ``owner`` (an account or a guest) holds a seat, newest first."""
    games = Game.objects.for_user_or_guest(owner.user_id, owner.guest_key)
    games = games.select_related("outcome").prefetch_related("seats")
    return list(games[:limit])


def reloaded(game: Game) -> Game:
    """The game as the database holds it now (after a refused or stale tap)."""
    game.refresh_from_db()
    return game


__all__ = [
    "ActionResult",
    "ConfirmUndo",
    "GameError",
    "IllegalAction",
    "KeyReused",
    "StaleAction",
    "answer_undo",
    "create_game",
    "game_summary",
    "games_of",
    "pending_undo_request",
    "perform_action",
    "reloaded",
    "replayed_state",
    "state_at",
    "roll_dice_seed",
    "rules_events",
    "seat_roles",
    "side_setup",
    "undo_last_action",
    "verify_dice",
    "verify_story",
    "exported_log",
    "request_dice_mode",
    "answer_dice_mode",
    "pending_dice_mode_request",
    "request_time_call",
    "answer_time_call",
    "pending_time_call_request",
]
