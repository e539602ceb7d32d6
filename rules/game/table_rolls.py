"""Any test the rules call for, rolled in the game (II-A), and the scatter (II-C-5).

* ``characteristic_test``: a player picks one of their fighters and a
  characteristic (its current value, II-A-4 with the wound penalties of
  II-B-4), then either a difficulty (II-A-3 1) or an opposing fighter and
  characteristic (II-A-3 2, "test en opposition"), optionally several d6
  (II-A-2) and a circumstance modifier (II-A-4), and says what it is for. The
  test waits on the board with its exact odds; "roll", "reroll" and "keep"
  then roll it from the game's dice (``rules.game.rolling``). A Courage or
  rally test the dice cannot miss is passed at once (``wait_or_pass``:
  ``test_certain``), as is a spell's or a miracle's from the list.
* A charge or an engagement against a fighter with PEUR offers the charger's
  Courage test, the difficulty being the fear value: chapter IX (fear) is not
  among the seeds, so this is the table's convention (``FEAR_CONVENTION``).
* ``scatter``: II-C-5, one d6 for the distance, one for the direction.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import magic, odds
from rules.checks import OpposedRoll
from rules.dice import DiceExhausted, DiceSource
from rules.errors import IllegalAction, _
from rules.game import state as st
from rules.game.commands import (
    MAX_DIFFICULTY,
    CommandKind,
    choice_field,
    id_field,
    int_field,
    text_field,
)
from rules.game.common import (
    Batch,
    Command,
    State,
    faces_from,
    fraction_text,
    label_of,
    own_fighter,
    require_no_pending,
)
from rules.game.follows import follows, then
from rules.game.pending import opposed_resolution, test_resolution
from rules.scatter import scatter_from_faces
from rules.several_dice import (
    MAX_TEST_DICE,
    DiceChoice,
    DiceTest,
    dice_test_choice,
    dice_test_success,
)

TURN_PLACE = 90  # its commands' place in legal_actions (the table's tools, last)

USES = ("courage", "rally", "spell", "miracle", "skill", "other")
MAX_MODIFIER = 10
MAX_LABEL = 60
FEAR_CONVENTION = "IX"  # the fear chapter, not among the seeds: table convention
# A Courage or a rally test only passes or fails: one the dice cannot miss
# (II-A-1: a natural 1 is no failure, so the lowest final result is the value
# + 1) is recorded as passed, without a roll; so is a spell's power test or a
# miracle's test from the list (``rules.game.magic_phase``: its effect follows
# a pass, rules-data §3.6-7, §4.5). A test typed at the table for anything
# else (a skill, a spell not on the list...) is still rolled: the app does
# not know what its final result is for.
PASS_OR_FAIL_USES = ("courage", "rally")
CERTAIN = fraction_text(odds.ONE)


def _label(command: Command) -> str:
    label = " ".join((command.get("label") or "").split())
    if len(label) > MAX_LABEL:
        raise IllegalAction(
            _("Say what the test is for in {count} characters or fewer."),
            count=MAX_LABEL,
        )
    return label


def _value(state: State, fighter_id: str, characteristic: Any) -> int:
    """The fighter's current value of ``characteristic`` (II-A-4, II-B-4)."""
    label = state["fighters"][fighter_id]["label"]
    if characteristic not in st.CHARACTERISTICS:
        raise IllegalAction(_("Choose a characteristic of the reference card."))
    value = st.value_of(state, fighter_id, characteristic)
    if value is None:
        raise IllegalAction(
            _("{fighter} has no {characteristic}."),
            fighter=label,
            characteristic=characteristic,
        )
    return int(value) if float(value).is_integer() else int(-(-value // 1))


def check_pending(
    state: State,
    *,
    side: str,
    fighter: str,
    characteristic: str,
    difficulty: int,
    modifier: int = 0,
    dice: int = 1,
    use: str = "other",
    label: str = "",
    section: str = "",
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A test against a difficulty, waiting to be rolled (II-A-2, II-A-3)."""
    current = _value(state, fighter, characteristic)
    value = current + modifier
    return {
        "kind": "check",
        "purpose": "characteristic",
        "side": side,
        "value": value,
        "difficulty": difficulty,
        "dice": dice,
        "section": section or ("II-A-2" if dice > 1 else "II-A-3"),
        "odds": fraction_text(dice_test_success(value, difficulty, dice)),
        "roll": None,
        "context": {
            "fighter": fighter,
            "characteristic": characteristic,
            "current": current,
            "modifier": modifier,
            "use": use,
            "label": label,
            **dict(extra or {}),
        },
    }


# X and XI (spells, miracles) are not among the seeds: a spell's mana or a
# miracle's temporary faith is spent when it is cast, before its test, whether
# it succeeds or not (the table's convention, named as such).
MYSTIC_COST_CONVENTION = "X, XI"
RESERVE_OF_USE = {"spell": "mana", "miracle": "faith"}


def _spend_mystic_cost(batch: Batch, fighter_id: str, use: str, cost: Any) -> None:
    """Spend a spell's mana or a miracle's faith (``cost``; None: nothing)."""
    if cost in (None, "", 0):
        return
    reserve = RESERVE_OF_USE.get(use)
    if reserve is None:
        raise IllegalAction(_("Only a spell costs mana, only a miracle faith."))
    fighter = batch.state["fighters"][fighter_id]
    if reserve == "mana" and fighter.get("gems") is not None:
        raise IllegalAction(
            _("{fighter}'s mana is counted in gems: cast the spell from the list."),
            fighter=fighter["label"],
        )
    left = fighter.get(reserve)
    if left is None or left < cost:
        raise IllegalAction(
            _("{fighter} has {left} to spend, not {cost}."),
            fighter=fighter["label"],
            left=left or 0,
            cost=cost,
        )
    batch.emit(
        "fighter_changed",
        {
            "fighter": fighter_id,
            "label": fighter["label"],
            "changes": {reserve: left - cost},
        },
    )


def characteristic_test(batch: Batch, side: str, command: Command) -> None:
    """Set up a test of any characteristic of one of ``side``'s fighters (II-A)."""
    state = batch.state
    require_no_pending(state)
    fighter_id = command.get("fighter")
    own_fighter(state, side, fighter_id)
    characteristic = command.get("characteristic")
    current = _value(state, fighter_id, characteristic)
    # The fields' types and bounds are checked by their declaration
    # (CharacteristicTest.fields) before this runs.
    modifier = command.get("modifier") or 0
    use = command.get("use") or "other"
    label = _label(command)
    count = command.get("dice") or 1
    # A refusal below discards this with the rest: nothing is spent then.
    _spend_mystic_cost(batch, fighter_id, use, command.get("cost"))
    opponent_id = command.get("opponent")
    if opponent_id:
        opponent = st.living_fighter(state, opponent_id)
        if opponent["side"] == side:
            raise IllegalAction(_("An opposed test is against an adversary."))
        if count != 1:
            raise IllegalAction(_("An opposed test rolls one die each (II-A-3)."))
        theirs = command.get("opponent_characteristic") or characteristic
        their_value = _value(state, opponent_id, theirs)
        values = {side: current + modifier, st.other(side): their_value}
        fighters = {side: fighter_id, st.other(side): opponent_id}
        characteristics = {side: characteristic, st.other(side): theirs}
        batch.emit(
            "pending_set",
            {
                "pending": {
                    "kind": "opposed",
                    "purpose": "characteristic",
                    # II-A-3: "Les joueurs lancent chacun 1d6": the opponent's
                    # phone answers the test by rolling.
                    "side": st.other(side),
                    "values": {"a": values["a"], "b": values["b"]},
                    "section": "II-A-3",
                    "odds": fraction_text(odds.opposed_win(values["a"], values["b"])),
                    "roll": None,
                    "context": {
                        "initiator": side,
                        "fighters": fighters,
                        "characteristics": characteristics,
                        "modifier": modifier,
                        "use": use,
                        "label": label,
                    },
                }
            },
        )
        return
    if command.get("difficulty") in (None, ""):
        raise IllegalAction(_("Give a difficulty, or an opposing fighter (II-A-3)."))
    pending = check_pending(
        state,
        side=side,
        fighter=fighter_id,
        characteristic=characteristic,
        difficulty=command["difficulty"],
        modifier=modifier,
        dice=count,
        use=use,
        label=label,
    )
    if use in RESERVE_OF_USE:
        # A spell's or a miracle's test typed at the table is a power or
        # faith test all the same: the natural 1 ruling applies (X, XI).
        pending = then("mystic_odds")(state, pending)
    if use in PASS_OR_FAIL_USES:
        wait_or_pass(batch, pending)
    else:
        batch.emit("pending_set", {"pending": pending})


def wait_or_pass(
    batch: Batch, pending: Mapping[str, Any], house_ruling: str = ""
) -> None:
    """Set a test that only passes or fails waiting to be rolled; or, when
    its odds (as the caller ruled them) say the dice cannot miss it, record
    it passed at once (II-A-1, ``test_certain``) and go on as a pass would:
    a roll that could change nothing is not asked for. ``house_ruling``: the
    ruling that let it be certain, named on its line."""
    if pending["odds"] != CERTAIN:
        batch.emit("pending_set", {"pending": pending})
        return
    certain = {**pending, "section": "II-A-1"}
    if house_ruling:
        certain["house_ruling"] = house_ruling
    batch.emit("test_certain", certain)
    _followed(batch, pending["context"], True)


def offer_courage_test(batch: Batch, side: str, charger: str, targets: list) -> None:
    """A charge or engagement against PEUR: the charger's Courage test.

    The difficulty is the highest fear among the fighters engaged. Chapter IX
    (fear) is not among the seeds: the table's convention, cited as such.
    """
    state = batch.state
    fears = [st.value_of(state, t, "PEUR") for t in targets]
    fears = [int(f) for f in fears if f is not None]
    if not fears or st.value_of(state, charger, "COU") is None:
        return
    feared = max(targets, key=lambda t: st.value_of(state, t, "PEUR") or -99)
    batch.emit(
        "pending_set",
        {
            "pending": check_pending(
                state,
                side=side,
                fighter=charger,
                characteristic="COU",
                difficulty=max(fears),
                use="courage",
                section=FEAR_CONVENTION,
                extra={"prompted": True, "feared": feared},
            )
        },
    )


# --- rolling a test that waits (called by rules.game.rolling) ----------------


def roll_check(batch: Batch, side: str, pending: Mapping[str, Any], dice) -> None:
    """Throw every die of the waiting test (II-A-2)."""
    if pending.get("roll"):
        raise IllegalAction(_("This roll is already made: reroll or keep the six."))
    if pending["side"] != side:
        raise IllegalAction(
            _("Side {side} makes this roll."), side=pending["side"].upper()
        )
    try:
        roll = DiceTest.start(
            pending["value"],
            pending["difficulty"],
            pending["dice"],
            dice,
            keep_lowest=bool(pending.get("keep_lowest")),
        )
    except DiceExhausted:
        raise IllegalAction(
            _("Enter {count} dice for this roll."), count=pending["dice"]
        ) from None
    _progress(batch, pending, roll, list(roll.faces), None)


def decide_check(
    batch: Batch, side: str, pending: Mapping[str, Any], dice, reroll: bool
) -> None:
    """Reroll every six showing, or keep it (II-A-1, II-A-2)."""
    before = DiceTest.from_dict(pending["roll"])
    if not before.awaiting_choice:
        raise IllegalAction(_("No six is waiting for a decision."))
    if pending["side"] != side:
        raise IllegalAction(
            _("Side {side} decides about its six."), side=pending["side"].upper()
        )
    try:
        roll = before.decide(reroll, dice if reroll else None)
    except DiceExhausted:
        raise IllegalAction(
            _("Enter {count} dice for this roll."), count=before.sixes
        ) from None
    _progress(batch, pending, roll, list(roll.faces[len(before.faces) :]), reroll)


@follows("check_choice")
def check_choice(pending: Mapping[str, Any]) -> dict[str, str] | None:
    """The odds of keeping and of rerolling the six(es) showing."""
    roll = DiceTest.from_dict(pending["roll"])
    if not roll.awaiting_choice:
        return None
    choice = dice_test_choice(roll)
    if pending.get("natural_one"):  # a power or faith test under C3's ruling
        reroll = magic.ruled_reroll_odds(
            choice.reroll,
            roll.value,
            roll.difficulty,
            roll.sixes,
            natural_one=pending["natural_one"],
        )
        choice = DiceChoice(choice.keep, reroll)
    return {
        "keep": fraction_text(choice.keep),
        "reroll": fraction_text(choice.reroll),
        "best": choice.best,
    }


def _progress(
    batch: Batch,
    pending: Mapping[str, Any],
    roll: DiceTest,
    new_faces: list[int],
    reroll: bool | None,
) -> None:
    updated = {**pending, "roll": roll.to_dict()}
    batch.emit(
        "roll_updated", {"pending": updated, "faces": new_faces, "reroll": reroll}
    )
    if not roll.finished:
        return
    if pending["purpose"] == "defence":  # a parry in a combat (VII-C-4)
        then("defence_finished")(batch, pending, roll)
        return
    context = pending["context"]
    success = roll.winning
    if context.get("use") in RESERVE_OF_USE:  # X, XI: the natural 1 ruling
        success = then("mystic_success")(batch.state, roll.natural, success)
    batch.emit(
        "test_resolved",
        test_resolution(
            pending,
            roll,
            purpose="characteristic",
            dice=pending["dice"],
            throws=[list(t) for t in roll.throws],
            success=success,
            context=dict(context),
            label=label_of(batch.state, context["fighter"]),
            next=None,
        ),
    )
    _followed(batch, context, success)


def _followed(batch: Batch, context: Mapping[str, Any], success: bool) -> None:
    """What a test against a difficulty leads to, rolled or certain: the
    phase that asked for it goes on."""
    if context.get("fear"):  # a Courage test on a charge (IX)
        then("courage_finished")(batch, context, success)
    if context.get("cast") or context.get("call"):  # a spell or miracle (X, XI)
        then("mystic_finished")(batch, context, success)
    if context.get("upkeep_key"):
        then("finish_rally")(batch, context["upkeep_key"], success)


def opposed_finished(batch: Batch, pending: Mapping[str, Any], roll: OpposedRoll):
    """An opposed characteristic test has a winner (II-A-3)."""
    state = batch.state
    result = roll.result()
    context = pending["context"]
    batch.emit(
        "opposed_resolved",
        {
            "purpose": "characteristic",
            **opposed_resolution(state, pending, result),
            "section": pending["section"],
            "context": dict(context),
            "pending": None,
        },
    )


# --- II-C-5: scatter ----------------------------------------------------------


def scatter(batch: Batch, side: str, command: Command, dice: DiceSource) -> None:
    """Roll the scatter of an impact point (II-C-5): distance, then direction."""
    require_no_pending(batch.state)
    label = _label(command)
    distance_face, direction_face = faces_from(dice, 2)
    result = scatter_from_faces(distance_face, direction_face)
    batch.emit(
        "scatter_rolled",
        {
            "faces": [distance_face, direction_face],
            "distance_cm": result.distance_cm,
            "direction": result.direction,
            "label": label,
            "section": "II-C-5",
        },
    )


__all__ = [
    "FEAR_CONVENTION",
    "USES",
    "characteristic_test",
    "check_choice",
    "check_pending",
    "decide_check",
    "offer_courage_test",
    "opposed_finished",
    "roll_check",
    "scatter",
    "wait_or_pass",
]


# --- what a side may do (rules.game.legal_actions) ---------------------------


def legal_characteristic_test(state: State, side: str) -> list[dict[str, Any]]:
    """A test of each of the side's living fighters, whenever nothing is under
    way: the characteristics its card has; difficulty, dice and modifier are
    typed (II-A)."""
    if state["phase"] == "finished" or state["pending"]:
        return []
    entries = []
    for fighter_id in st.fighters_of(state, side):
        codes = [
            code
            for code in st.CHARACTERISTICS
            if st.base_value(state, fighter_id, code) is not None
        ]
        if codes:
            entries.append(
                {
                    "type": "characteristic_test",
                    "fighter": fighter_id,
                    "choices": {"characteristic": codes, "use": list(USES)},
                }
            )
    return entries


def legal_scatter(state: State, side: str) -> list[dict[str, Any]]:
    """A scatter (II-C-5) may be rolled whenever nothing is under way."""
    if state["phase"] == "finished" or state["pending"]:
        return []
    return [{"type": "scatter"}]


# --- the commands of this phase, each declared once (rules.game.commands) ---

# Tests rolled at the table (II-A) and the scatter (II-C-5): a side may roll
# them whenever nothing is under way.


_DIFFICULTY = _("A difficulty counts {low} to {high} (II-A-3).")


class CharacteristicTest(CommandKind):
    """II-A: a test of any characteristic of one's own fighter, against a
    difficulty (with several dice, II-A-2) or opposed to an adversary
    (II-A-3); ``cost``: a spell's mana or a miracle's faith, spent now."""

    type = "characteristic_test"
    section = "II-A"
    anytime = True
    fields = (
        id_field("fighter"),
        choice_field("characteristic", st.CHARACTERISTICS),
        int_field("difficulty", 1, MAX_DIFFICULTY, required=False, message=_DIFFICULTY),
        id_field("opponent", required=False),
        choice_field("opponent_characteristic", st.CHARACTERISTICS, required=False),
        int_field(
            "dice",
            1,
            MAX_TEST_DICE,
            required=False,
            default=1,
            message=_("A test rolls {low} to {high} dice (II-A-2)."),
        ),
        int_field(
            "modifier",
            -MAX_MODIFIER,
            MAX_MODIFIER,
            required=False,
            default=0,
            message=_("A circumstance modifier counts {low} to +{high} (II-A-4)."),
        ),
        choice_field(
            "use",
            USES,
            assumed="other",
            message=_("Say what the test is for: courage, rally, spell..."),
        ),
        text_field("label", MAX_LABEL),
        int_field(
            "cost", 0, 99, required=False, message=_("A cost counts {low} to {high}.")
        ),
    )
    legal = staticmethod(legal_characteristic_test)
    apply = staticmethod(characteristic_test)


class Scatter(CommandKind):
    """II-C-5: the distance and the direction of a scatter."""

    type = "scatter"
    section = "II-C-5"
    anytime = True
    rolls = True
    fields = (text_field("label", MAX_LABEL),)
    legal = staticmethod(legal_scatter)
    apply = staticmethod(scatter)
