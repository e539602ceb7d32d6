"""The upkeep phase (IV-D): the checklist ticked in order, then the next turn.

Each side ticks and fills in its own fighters' items only, markers included
(IV-D-3-6: a side removes its own fighters' markers, in one tap if it likes);
an item of no side may be ticked by either. IV-D's order holds between its
steps; within one step the two sides' lines do not wait for each other.
A routed fighter's rally (IV-D-1) is a Courage test rolled in the game; a
Régénération/X skill (IV-D: "jets de dés liés à certaines compétences :
« Régénération/X »") offers its roll; the lasting effects a player recorded
(II-C-3 durations) come in the order of IV-D-3, their upkeep paid or not,
and end when their duration runs out.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rules import magic
from rules.effects import MAX_EFFECTS
from rules.errors import IllegalAction, Words, _
from rules.game import state as st
from rules.game.commands import (
    MAX_DIFFICULTY,
    MAX_KEY,
    Bound,
    CommandKind,
    bool_field,
    choice_field,
    gems_field,
    id_field,
    int_field,
    text_field,
)
from rules.game.common import (
    Batch,
    Command,
    faces_from,
    fraction_text,
    require_no_pending,
    require_phase,
)
from rules.game.follows import follows, then
from rules.game.table_rolls import check_pending
from rules.melee import HOUSE_RULINGS
from rules.odds import test_success
from rules.tactics import parse_skill
from rules.upkeep import UpkeepFighter, UpkeepStep, upkeep_checklist

TURN_PLACE = 80  # its commands' place in legal_actions (IV-D)

STEP_ORDER = [step.name.lower() for step in UpkeepStep]
EFFECT_KINDS = ("harmful", "skill", "spell", "miracle", "other")
DURATIONS = ("end_of_turn", "turns", "permanent", "upkeep")
MAX_EFFECT_TURNS = 20
MAX_NAME = 60
# XII (the skills) is not among the seeds: how Régénération/X heals is the
# table's convention, cited as such.
REGENERATION_CONVENTION = "IV-D-3, XII"


def _regeneration(skill_text: str | None) -> int | None:
    """X of a "Régénération/X" skill, or None."""
    if not skill_text:
        return None
    skill = parse_skill(skill_text)
    if skill.key == "regeneration" and isinstance(skill.value, int):
        return skill.value
    return None


def _effect_step(effect: Mapping[str, Any]) -> str:
    """IV-D-3: 1 harmful, 2 passive skills, 3 active skills, 4 other effects."""
    if effect["kind"] == "harmful":
        return "harmful"
    if effect["kind"] == "skill":
        return "active" if effect.get("active") else "passive"
    return "other"


def _duration_words(effect: Mapping[str, Any]) -> tuple[str, str]:
    duration = effect["duration"]
    if duration == "turns":
        left = effect["turns_left"]
        return f"{left} tour(s) restant(s)", f"{left} turn(s) left"
    if duration == "upkeep":
        resource_fr = "mana" if effect["resource"] == "mana" else "Foi temporaire"
        resource_en = "mana" if effect["resource"] == "mana" else "temporary faith"
        return (
            f"Entretien/{effect['cost']} : {effect['cost']} {resource_fr}",
            f"Upkeep/{effect['cost']}: {effect['cost']} {resource_en}",
        )
    if duration == "permanent":
        return "permanent", "permanent"
    return "fin du tour", "end of turn"


def effect_item(state: Mapping[str, Any], effect: Mapping[str, Any]) -> dict:
    """The upkeep checklist's line for a lasting effect (II-C-3, IV-D-3)."""
    label = state["fighters"][effect["fighter"]]["label"]
    step = _effect_step(effect)
    section = UpkeepStep[step.upper()].section
    fr, en = _duration_words(effect)
    return {
        "key": f"effect:{effect['id']}",
        "step": step,
        "section": section,
        "label_fr": f"{effect['name']} sur {label} ({fr})",
        "label_en": f"{effect['name']} on {label} ({en})",
        "fighter": effect["fighter"],
        "side": effect["side"],
        "effect": effect["id"],
        "regeneration": effect.get("roll"),
    }


def start_upkeep(batch: Batch) -> None:
    if _fierce_fall(batch):
        return
    state = batch.state
    fighters = []
    for fighter_id, data in state["fighters"].items():
        if data["eliminated"]:
            continue
        card = st.card_of(state, fighter_id)
        fighters.append(
            UpkeepFighter(
                name=data["label"],
                routed=data["routed"],
                faithful=card["profile"].get("FOI") is not None,
                magician=card["profile"].get("POU") is not None,
                stunned=data["stunned"],
                charged=data["charged"],
                skills=tuple(card["skills"]),
            )
        )
    by_label = {d["label"]: f for f, d in state["fighters"].items()}
    items = []
    for item in upkeep_checklist(fighters):
        fighter_id = by_label.get(item.fighter) if item.fighter else None
        step = item.step.name.lower()
        items.append(
            {
                "key": item.key,
                "step": step,
                "section": item.section,
                "label_fr": item.label_fr,
                "label_en": item.label_en,
                "fighter": fighter_id,
                # Each side ticks its own fighters' lines, markers included.
                "side": state["fighters"][fighter_id]["side"] if fighter_id else None,
                "regeneration": _regeneration(item.effect),
            }
        )
    for effect in state.get("effects", []):
        if not state["fighters"][effect["fighter"]]["eliminated"]:
            items.append(effect_item(state, effect))
    # A stable sort: IV-D-3's order between steps, the given order within one.
    items.sort(key=lambda i: STEP_ORDER.index(i["step"]))
    batch.emit(
        "step_changed", {"phase": "upkeep", "step": "checklist", "pending": None}
    )
    batch.emit("upkeep_started", {"upkeep": {"items": items, "ticked": []}})
    if not items:
        _end_turn(batch)


def _blocking_item(
    state: Mapping[str, Any], item: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The line that must be done before ``item``, if any (IV-D's order).

    Every line of an earlier step comes first; within one step, a side's
    lines come in their order, and the other side's do not wait for them
    (a line of no side waits for, and holds up, both).
    """
    upkeep = state["upkeep"]
    step = STEP_ORDER.index(item["step"])
    side = item_side(state, item)
    for other in upkeep["items"]:
        if other["key"] == item["key"]:
            return None
        if other["key"] in upkeep["ticked"]:
            continue
        if STEP_ORDER.index(other["step"]) < step:
            return other
        other_side = item_side(state, other)
        if None in (side, other_side) or other_side == side:
            return other
    return None


def _fierce_fall(batch: Batch) -> bool:
    """Acharné (melee-sources.md §4 [read] S11, S14): killed outright, the
    fighter stayed at Critical Wound "until the next upkeep": it falls now."""
    for fighter_id, data in batch.state["fighters"].items():
        if data.get("fierce") and not data["eliminated"]:
            batch.emit(
                "fighter_changed",
                {
                    "fighter": fighter_id,
                    "label": data["label"],
                    "changes": {"eliminated": True, "steps": 4, "fierce": False},
                },
            )
            batch.emit(
                "contacts_changed",
                {
                    "contacts": st.remove_contacts_of(
                        [list(p) for p in batch.state["contacts"]], fighter_id
                    ),
                    "reason": "eliminated",
                },
            )
    gone = [side for side in st.SIDES if st.wiped_out(batch.state, side)]
    if gone:
        winner = None if len(gone) == 2 else st.other(gone[0])
        batch.emit("game_finished", {"reason": "wiped_out", "winner": winner})
    return bool(gone)


def _next_item(state: Mapping[str, Any], command: Command) -> dict[str, Any]:
    upkeep = state["upkeep"]
    key = command.get("key")
    remaining = [i for i in upkeep["items"] if i["key"] not in upkeep["ticked"]]
    if not remaining:
        raise IllegalAction(_("The upkeep checklist is done."))
    item = next((i for i in upkeep["items"] if i["key"] == key), None)
    if item is None:
        raise IllegalAction(_("That item is not on this upkeep checklist."))
    if item["key"] in upkeep["ticked"]:
        raise IllegalAction(_("This upkeep item is already done."))
    first = _blocking_item(state, item)
    if first is not None:
        raise IllegalAction(
            _("Do '{item}' first: the upkeep phase runs in order ({section})."),
            item=Words(first["label_en"], first["label_fr"]),
            section=first["section"],
        )
    return item


def item_side(state: Mapping[str, Any], item: Mapping[str, Any]) -> str | None:
    """The side that ticks an upkeep item: its fighter's (None: either)."""
    if "side" in item:
        return item["side"]
    if item.get("fighter"):
        return state["fighters"][item["fighter"]]["side"]
    return None


def _item_asked(
    state: Mapping[str, Any], side: str, command: Command
) -> Mapping[str, Any]:
    """The upkeep line a tick names; ``IllegalAction`` saying why when
    ``side`` may not tick it now."""
    require_phase(state, "upkeep")
    require_no_pending(state)
    item = _next_item(state, command)
    owner = item_side(state, item)
    if owner not in (None, side):
        raise IllegalAction(
            _("Side {side} does this upkeep item: its own fighter's."),
            side=owner.upper(),
        )
    return item


def _gives_reserve(state: Mapping[str, Any], item: Mapping[str, Any]) -> bool:
    """Whether the line's ``value`` is a mana or faith reserve (not gems)."""
    fighter_id = item["fighter"]
    return (
        item["step"] in ("faith", "mana")
        and bool(fighter_id)
        and not (
            item["step"] == "mana"
            and state["fighters"][fighter_id].get("gems") is not None
        )
    )


def tick_upkeep_bounds(
    state: Mapping[str, Any], side: str, command: Command
) -> dict[str, Bound]:
    """The mana or faith a reserve line may give (``reserve_bounds``)."""
    item = _item_asked(state, side, command)
    if command.get("all_markers") or not _gives_reserve(state, item):
        return {}
    bounds = reserve_bounds(state, item)
    message = _(
        "{fighter}: give {low} to {high} (at most the card's {code}, "
        "the table's convention: {section} are not among the rules at hand)."
    )
    params = {
        "fighter": state["fighters"][item["fighter"]]["label"],
        "code": bounds["characteristic"],
        "section": RESERVE_CONVENTION,
    }
    return {"value": Bound(bounds["low"], bounds["high"], message, params)}


def tick_upkeep(batch: Batch, side: str, command: Command, dice=None) -> None:
    state = batch.state
    item = _item_asked(state, side, command)
    if command.get("all_markers"):
        _remove_markers(batch, side, item)
        return
    _tick(batch, side, item, command, dice)


def side_markers(state: Mapping[str, Any], side: str) -> list[dict[str, Any]]:
    """The side's marker lines (IV-D-3-6) it may tick now, in order."""
    upkeep = state.get("upkeep") or {"items": [], "ticked": []}
    markers = [
        item
        for item in upkeep["items"]
        if item["step"] == "markers"
        and item["key"] not in upkeep["ticked"]
        and item_side(state, item) == side
    ]
    # The first free, the others wait for the side's own markers alone.
    return markers if markers and _blocking_item(state, markers[0]) is None else []


def _remove_markers(batch: Batch, side: str, item: Mapping[str, Any]) -> None:
    """One tap removes every marker of the side's fighters (IV-D-3-6)."""
    if item["step"] != "markers":
        raise IllegalAction(_("Only markers are removed all at once."))
    for marker in side_markers(batch.state, side):
        _tick(batch, side, marker, {}, None)


def _tick(
    batch: Batch,
    side: str,
    item: Mapping[str, Any],
    command: Command,
    dice,
) -> None:
    """Tick one upkeep line, filled in as ``command`` says."""
    state = batch.state
    changes: list[dict[str, Any]] = []
    fighter_id = item["fighter"]
    extra: dict[str, Any] = {}
    if item["step"] == "rally" and fighter_id:
        if st.value_of(state, fighter_id, "COU") is not None:
            _start_rally_test(batch, side, item, command)
            return
        # No Courage on the card (a fearsome fighter): the players say.
        if command.get("rallied"):
            changes.append({"fighter": fighter_id, "changes": {"routed": False}})
        extra["rallied"] = bool(command.get("rallied"))
    if _gives_reserve(state, item):
        extra["reserve"] = _reserve_value(state, item, command.get("value"))
        before, after = extra["reserve"]["before"], extra["reserve"]["after"]
        if after != before:
            changes.append({"fighter": fighter_id, "changes": {item["step"]: after}})
    elif item["step"] == "mana" and fighter_id:  # a reserve of gems (X-G-1)
        extra["reserve"] = then("recovery")(state, fighter_id, command.get("gems"))
        if extra["reserve"]["after"] != extra["reserve"]["before"]:
            after = extra["reserve"]["after"]
            changes.append({"fighter": fighter_id, "changes": {"gems": after}})
    if item["step"] == "markers" and fighter_id:
        if item["key"].endswith(":sonné"):
            changes.append({"fighter": fighter_id, "changes": {"stunned": False}})
        elif item["key"].endswith(":chargé"):
            changes.append({"fighter": fighter_id, "changes": {"charged": False}})
    if item.get("effect"):
        extra.update(_effect_upkeep(state, item, command, changes))
    if item.get("regeneration") and fighter_id:
        extra.update(_regeneration_roll(state, item, dice, changes))
    _emit_tick(batch, item, changes, extra)


# X-G-1 (mana recovery) and XI-B-2 (new temporary faith) are not among the
# seeds: no roll can be made for them. The player gives the new value, bounded
# by the table's convention: at most the card's POU (mana) or FOI (faith), the
# reserve the fighter starts with; a recovery never takes mana away.
RESERVE_CONVENTION = "X-G-1, XI-B-2"
RESERVE_CHARACTERISTIC = {"mana": "POU", "faith": "FOI"}


def reserve_bounds(state: Mapping[str, Any], item: Mapping[str, Any]) -> dict:
    """The lowest and highest value an upkeep's mana or faith line accepts."""
    fighter = state["fighters"][item["fighter"]]
    current = fighter.get(item["step"])
    code = RESERVE_CHARACTERISTIC[item["step"]]
    maximum = st.card_of(state, item["fighter"])["profile"].get(code) or 0
    low = (current or 0) if item["step"] == "mana" else 0
    bounds = {
        "current": current,
        "low": min(low, maximum),
        "high": maximum,
        "characteristic": code,
    }
    if item["step"] == "faith":
        bounds.update(then("new_faith_bounds")(state, item["fighter"]))
    return bounds


def _reserve_value(
    state: Mapping[str, Any], item: Mapping[str, Any], value: Any
) -> dict[str, Any]:
    """The mana or faith a player gives for the line (within
    ``tick_upkeep_bounds``)."""
    bounds = reserve_bounds(state, item)
    if value is None:  # the reserve kept as it is, or the card's (HR-F1)
        value = bounds.get("printed", bounds["current"])
    return {
        "reserve": item["step"],
        "before": bounds["current"],
        "after": value,
        "high": bounds["high"],
        "characteristic": bounds["characteristic"],
        "typed": True,
        "section": RESERVE_CONVENTION,
    }


def _emit_tick(
    batch: Batch,
    item: Mapping[str, Any],
    changes: list[dict[str, Any]],
    extra: Mapping[str, Any],
) -> None:
    remaining = [
        i
        for i in batch.state["upkeep"]["items"]
        if i["key"] not in batch.state["upkeep"]["ticked"]
    ]
    batch.emit(
        "upkeep_ticked",
        {
            "key": item["key"],
            "label_en": item["label_en"],
            "label_fr": item["label_fr"],
            "section": item["section"],
            "changes": changes,
            "rallied": extra.get("rallied"),
            **{k: v for k, v in extra.items() if k != "rallied"},
        },
    )
    if len(remaining) == 1:
        _end_turn(batch)


# --- IV-D-1: the rally, a Courage test --------------------------------------


def _start_rally_test(
    batch: Batch, side: str, item: Mapping[str, Any], command: Command
) -> None:
    """IV-D-1: the routed fighter's rally is a Courage test rolled in the game.

    IX-E (its rules) is not among the seeds: its difficulty is the house
    ruling ``rally_difficulty`` agreed at the game's creation (never typed
    by the rallying player; a ``difficulty`` in the command is not read).
    With "highest_fear" and no frightening adversary left, it rallies
    without a test.
    """
    difficulty = rally_difficulty(batch.state, item["fighter"])
    courage = st.value_of(batch.state, item["fighter"], "COU")
    certain = difficulty is not None and rally_certain(courage, difficulty)
    if difficulty is None or certain:
        # Nothing frightening left, or a test the dice cannot miss: no roll.
        changes = [{"fighter": item["fighter"], "changes": {"routed": False}}]
        extra: dict[str, Any] = {"rallied": True, "house_ruling": "rally_difficulty"}
        if certain:
            extra["rally_certain"] = {"courage": courage, "difficulty": difficulty}
        _emit_tick(batch, item, changes, extra)
        return
    batch.emit(
        "pending_set",
        {
            "pending": check_pending(
                batch.state,
                side=side,
                fighter=item["fighter"],
                characteristic="COU",
                difficulty=difficulty,
                use="rally",
                section="IV-D-1",
                extra={"upkeep_key": item["key"], "house_ruling": "rally_difficulty"},
            )
        },
    )


@follows("finish_rally")
def finish_rally(batch: Batch, key: str, rallied: bool) -> None:
    """The rally test is rolled: tick the item, the fighter rallies or not."""
    item = next(i for i in batch.state["upkeep"]["items"] if i["key"] == key)
    changes = []
    if rallied:
        changes.append({"fighter": item["fighter"], "changes": {"routed": False}})
    _emit_tick(
        batch, item, changes, {"rallied": rallied, "house_ruling": "rally_difficulty"}
    )


def with_rally_item(state: Mapping[str, Any], fighter_id: str) -> dict | None:
    """The upkeep under way with the rally of a fighter routed during it
    (IV-D-1: a routed fighter's rally is on the checklist), or None when its
    rally is already waiting there. Rally comes first in IV-D-3's order."""
    upkeep = state["upkeep"]
    if not upkeep:
        return None
    waiting = [i for i in upkeep["items"] if i["key"] not in upkeep["ticked"]]
    if any(i["step"] == "rally" and i["fighter"] == fighter_id for i in waiting):
        return None
    data = state["fighters"][fighter_id]
    card = st.card_of(state, fighter_id)
    rally = [
        item
        for item in upkeep_checklist(
            [
                UpkeepFighter(
                    name=data["label"], routed=True, skills=tuple(card["skills"])
                )
            ]
        )
        if item.step.name.lower() == "rally"
    ]
    if not rally:
        return None
    item = rally[0]
    keys = {i["key"] for i in upkeep["items"]}
    key, number = item.key, 1
    while key in keys:
        number += 1
        key = f"{item.key}:{number}"
    new = {
        "key": key,
        "step": "rally",
        "section": item.section,
        "label_fr": item.label_fr,
        "label_en": item.label_en,
        "fighter": fighter_id,
        "side": data["side"],
        "regeneration": None,
    }
    ticked = [i for i in upkeep["items"] if i["key"] in upkeep["ticked"]]
    rallies = [i for i in waiting if i["step"] == "rally"]
    others = [i for i in waiting if i["step"] != "rally"]
    items = [*ticked, *rallies, new, *others]
    return {"items": items, "ticked": list(upkeep["ticked"])}


def rally_certain(courage: int | None, difficulty: int) -> bool:
    """Whether 1d6 + COU cannot miss the rally's difficulty (II-A-4)."""
    return courage is not None and test_success(int(courage), difficulty) == 1


def rally_difficulty(state: Mapping[str, Any], fighter_id: str) -> int | None:
    """The rally test's difficulty under the house ruling ``rally_difficulty``:
    a fixed number, or the highest PEUR among the fighter's living adversaries
    (None when none has a PEUR: it rallies without a test)."""
    chosen = (state.get("house_rulings") or {}).get(
        "rally_difficulty", HOUSE_RULINGS["rally_difficulty"].default
    )
    if chosen != "highest_fear":
        return int(chosen)
    return suggested_rally_difficulty(state, fighter_id)


def suggested_rally_difficulty(state: Mapping[str, Any], fighter_id: str) -> int | None:
    """The highest PEUR among the fighter's living adversaries."""
    side = state["fighters"][fighter_id]["side"]
    fears = [
        st.value_of(state, f, "PEUR") for f in st.fighters_of(state, st.other(side))
    ]
    fears = [int(f) for f in fears if f is not None]
    return max(fears) if fears else None


# --- Régénération/X -----------------------------------------------------------


def regeneration_odds(threshold: int) -> Fraction:
    """P(1d6 >= X), the natural face of one die, never rerolled."""
    return Fraction(max(0, min(6, 7 - threshold)), 6)


def _regeneration_roll(
    state: Mapping[str, Any], item: Mapping[str, Any], dice, changes: list
) -> dict[str, Any]:
    """Régénération/X: a wounded fighter rolls 1d6; X or more heals one wound
    step (XII is not among the seeds: the table's convention)."""
    fighter = state["fighters"][item["fighter"]]
    if fighter["steps"] <= 0 or dice is None:
        return {"regeneration": None}
    threshold = int(item["regeneration"])
    face = faces_from(dice, 1)[0]
    success = face >= threshold
    if success:
        changes.append(
            {"fighter": item["fighter"], "changes": {"steps": fighter["steps"] - 1}}
        )
    return {
        "regeneration": {
            "side": fighter["side"],
            "fighter": item["fighter"],
            "label": fighter["label"],
            "faces": [face],
            "difficulty": threshold,
            "success": success,
            "odds": fraction_text(regeneration_odds(threshold)),
            "section": REGENERATION_CONVENTION,
        }
    }


# --- lasting effects (II-C-3, IV-D-3) -----------------------------------------


def _effect_upkeep(
    state: Mapping[str, Any], item: Mapping[str, Any], command: Command, changes: list
) -> dict[str, Any]:
    """What the upkeep does to a lasting effect (II-C-3).

    "Entretien/X": the caster pays X (mana for a spell, temporary faith for a
    miracle) to make it last through the next turn, or it ends. N turns:
    one turn less, over at 0. End of turn: over. Permanent: stays.
    """
    effect = next(e for e in state.get("effects", []) if e["id"] == item["effect"])
    duration = effect["duration"]
    if duration == "upkeep":
        caster = state["fighters"][effect["caster"]]
        if (
            command.get("pay")
            and caster.get("gems") is not None
            and (effect["resource"] == "mana")
        ):
            # II-C-3: "X gems of the spell's element" (a neutral gem when the
            # effect has no element on record).
            due = {effect.get("element") or magic.NEUTRAL: effect["cost"]}
            if caster["eliminated"] or not magic.can_pay(caster["gems"], due):
                raise IllegalAction(
                    _("{fighter} cannot pay {cost}: not enough left."),
                    fighter=caster["label"],
                    cost=effect["cost"],
                )
            after = magic.pay(caster["gems"], due)
            changes.append({"fighter": effect["caster"], "changes": {"gems": after}})
            return {"effect": {"id": effect["id"], "paid": True, "ends": False}}
        if command.get("pay"):
            reserve = caster.get(effect["resource"])
            if caster["eliminated"] or reserve is None or reserve < effect["cost"]:
                raise IllegalAction(
                    _("{fighter} cannot pay {cost}: not enough left."),
                    fighter=caster["label"],
                    cost=effect["cost"],
                )
            changes.append(
                {
                    "fighter": effect["caster"],
                    "changes": {effect["resource"]: reserve - effect["cost"]},
                }
            )
            return {"effect": {"id": effect["id"], "paid": True, "ends": False}}
        return {"effect": {"id": effect["id"], "paid": False, "ends": True}}
    if duration == "turns":
        left = effect["turns_left"] - 1
        return {"effect": {"id": effect["id"], "turns_left": left, "ends": left <= 0}}
    if duration == "permanent":
        return {"effect": {"id": effect["id"], "ends": False}}
    return {"effect": {"id": effect["id"], "ends": True}}


def _effect_asked(
    state: Mapping[str, Any], side: str, command: Command
) -> tuple[dict[str, Any], str, str, str]:
    """The fighter, name, kind and duration of the effect a player records;
    ``IllegalAction`` saying why when it cannot be recorded."""
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    require_no_pending(state)
    if len(state.get("effects", [])) >= MAX_EFFECTS:
        raise IllegalAction(_("Too many lasting effects: end some first."))
    target = st.living_fighter(state, command.get("fighter"))
    name = " ".join(str(command.get("name") or "").split())
    if not name or len(name) > MAX_NAME:
        raise IllegalAction(
            _("Name the effect in 1 to {count} characters."), count=MAX_NAME
        )
    kind = command.get("kind")
    if kind not in EFFECT_KINDS:
        raise IllegalAction(_("Say what the effect is: spell, miracle, skill..."))
    if kind == "skill" and target["side"] != side:
        raise IllegalAction(_("A skill is recorded on one of your own fighters."))
    duration = command.get("duration")
    if duration not in DURATIONS:
        raise IllegalAction(
            _("Give a duration: end of turn, N turns, permanent or upkeep (II-C-3).")
        )
    return target, name, kind, duration


def _upkeep_caster(
    state: Mapping[str, Any], side: str, command: Command, kind: str
) -> tuple[str, str]:
    """Who pays an Entretien/X effect's upkeep, and in what (II-C-3)."""
    if kind == "skill":
        # Entretien/X is paid in mana or temporary faith (II-C-3): a skill's
        # effect (Régénération/X...) has no caster paying for it.
        raise IllegalAction(
            _("A skill is not upkept with mana or faith: give it another duration.")
        )
    caster_id = command.get("caster") or command["fighter"]
    caster = st.living_fighter(state, caster_id)
    if caster["side"] != side:
        raise IllegalAction(_("Its upkeep is paid by one of your own fighters."))
    resource = "faith" if kind == "miracle" else "mana"
    if caster.get(resource) is None:
        raise IllegalAction(
            _("{fighter} has no such reserve."), fighter=caster["label"]
        )
    return caster_id, resource


MAX_UPKEEP_COST = 99  # Entretien/X's X, in mana or temporary faith


def record_effect_bounds(
    state: Mapping[str, Any], side: str, command: Command
) -> dict[str, Bound]:
    """An effect for N turns needs its ``turns``; one upkept, its ``cost``."""
    _target, _name, kind, duration = _effect_asked(state, side, command)
    if duration == "turns":
        message = _("An effect lasts {low} to {high} turns.")
        return {"turns": Bound(1, MAX_EFFECT_TURNS, message, required=True)}
    if duration == "upkeep":
        _upkeep_caster(state, side, command, kind)
        message = _("An upkeep cost counts {low} to {high} (Entretien/X, II-C-3).")
        return {"cost": Bound(0, MAX_UPKEEP_COST, message, required=True)}
    return {}


def record_effect(batch: Batch, side: str, command: Command) -> None:
    """A player records a lasting effect on a fighter (II-C-3, IV-D-3).

    A spell, a miracle, a harmful effect, a skill (such as Régénération/X) or
    another effect; its duration (end of turn, N turns, permanent, or
    "Entretien/X": while its caster pays X mana or temporary faith in each
    upkeep). The side that records it owns it and does its upkeep.
    ``turns`` and ``cost`` within ``record_effect_bounds``.
    """
    state = batch.state
    target, name, kind, duration = _effect_asked(state, side, command)
    effects = state.get("effects", [])
    effect: dict[str, Any] = {
        "id": f"e{len(effects) + 1}-{state['turn']}-{command.get('fighter')}",
        "name": name,
        "kind": kind,
        "fighter": command["fighter"],
        "side": side,
        "duration": duration,
        "turn": state["turn"],
        "turns_left": None,
        "cost": None,
        "resource": None,
        "caster": None,
        "active": bool(command.get("active")) and kind == "skill",
        "roll": _regeneration(name),
    }
    while any(e["id"] == effect["id"] for e in effects):
        effect["id"] += "'"
    if duration == "turns":
        effect["turns_left"] = command["turns"]
    if duration == "upkeep":
        caster_id, resource = _upkeep_caster(state, side, command, kind)
        effect.update(caster=caster_id, resource=resource, cost=command["cost"])
    batch.emit(
        "effect_recorded",
        {"effect": effect, "label": target["label"], "section": "II-C-3"},
    )


def end_effect(batch: Batch, side: str, command: Command) -> None:
    """The side that owns a lasting effect ends it (dispelled, cancelled...)."""
    state = batch.state
    if state["phase"] == "finished":
        raise IllegalAction(_("The game is over."))
    require_no_pending(state)
    effect = next(
        (e for e in state.get("effects", []) if e["id"] == command.get("effect")),
        None,
    )
    if effect is None:
        raise IllegalAction(_("There is no such lasting effect."))
    if effect["side"] != side:
        raise IllegalAction(_("That effect is your opponent's to end."))
    if (
        state["phase"] == "upkeep"
        and f"effect:{effect['id']}" not in state["upkeep"]["ticked"]
        and any(i["key"] == f"effect:{effect['id']}" for i in state["upkeep"]["items"])
    ):
        raise IllegalAction(_("Do its upkeep item instead: pay or let it end."))
    batch.emit(
        "effect_ended",
        {
            "id": effect["id"],
            "name": effect["name"],
            "label": state["fighters"][effect["fighter"]]["label"],
            "section": "II-C-3",
        },
    )


def _end_turn(batch: Batch) -> None:
    state = batch.state
    if state["turn"] >= state["turns"]:
        batch.emit("game_finished", {"reason": "last_turn", "winner": None})
        return
    batch.emit("turn_started", {"turn": state["turn"] + 1})


# --- what a side may do (rules.game.legal_actions) ---------------------------


def next_upkeep_item(state: Mapping[str, Any]) -> dict[str, Any] | None:
    """The checklist's next item, or None outside the upkeep or when done."""
    upkeep = state.get("upkeep")
    if state["phase"] != "upkeep" or not upkeep or state.get("pending"):
        return None
    return next((i for i in upkeep["items"] if i["key"] not in upkeep["ticked"]), None)


def tickable_items(state: Mapping[str, Any], side: str) -> list[dict[str, Any]]:
    """The upkeep lines ``side`` may tick now: its own (or no side's), with
    nothing before them in IV-D's order (the other side's lines of the same
    step do not hold them up)."""
    if next_upkeep_item(state) is None:
        return []
    upkeep = state["upkeep"]
    return [
        item
        for item in upkeep["items"]
        if item["key"] not in upkeep["ticked"]
        and item_side(state, item) in (None, side)
        and _blocking_item(state, item) is None
    ]


def upkeep_waits_for(state: Mapping[str, Any]) -> set[str]:
    """IV-D: the sides with a line to tick now (both, where the order allows)."""
    return {side for side in st.SIDES if tickable_items(state, side)}


def legal_tick_upkeep(state: Mapping[str, Any], side: str) -> list[dict[str, Any]]:
    """The upkeep lines the side may tick now (``tickable_items``); one entry
    per line, a line's choices being its own."""
    return [_legal_tick(state, item) for item in tickable_items(state, side)]


def _legal_tick(state: Mapping[str, Any], item: Mapping[str, Any]) -> dict[str, Any]:
    choices: dict[str, list[Any]] = {"key": [item["key"]]}
    if item.get("effect"):
        effect = next(e for e in state["effects"] if e["id"] == item["effect"])
        if effect["duration"] == "upkeep":
            caster = state["fighters"][effect["caster"]]
            reserve = caster.get(effect["resource"])
            affordable = (
                not caster["eliminated"]
                and reserve is not None
                and reserve >= effect["cost"]
            )
            if caster.get("gems") is not None and effect["resource"] == "mana":
                due = {effect.get("element") or magic.NEUTRAL: effect["cost"]}
                affordable = not caster["eliminated"] and magic.can_pay(
                    caster["gems"], due
                )
            choices["pay"] = [True, False] if affordable else [False]
    return {"type": "tick_upkeep", "choices": choices}


def legal_record_effect(state: Mapping[str, Any], side: str) -> list[dict[str, Any]]:
    """A lasting effect may be recorded whenever nothing is under way (II-C-3):
    on any living fighter, a skill on one's own; an upkept one paid by one of
    one's own magicians (mana) or faithful (temporary faith)."""
    if state["phase"] == "finished" or state.get("pending"):
        return []
    if len(state.get("effects", [])) >= MAX_EFFECTS:
        return []
    everyone = [f for s in st.SIDES for f in st.fighters_of(state, s)]
    mine = st.fighters_of(state, side)
    lasting = ["end_of_turn", "turns", "permanent"]
    entries = [
        {
            "type": "record_effect",
            "choices": {
                "fighter": everyone,
                "kind": ["harmful", "spell", "miracle", "other"],
                "duration": lasting,
            },
        },
        {
            "type": "record_effect",
            "choices": {"fighter": mine, "kind": ["skill"], "duration": lasting},
        },
    ]
    for caster in mine:
        data = state["fighters"][caster]
        kinds = []
        if data.get("mana") is not None:
            kinds += ["harmful", "spell", "other"]
        if data.get("faith") is not None:
            kinds.append("miracle")
        if kinds:
            entries.append(
                {
                    "type": "record_effect",
                    "caster": caster,
                    "choices": {
                        "fighter": everyone,
                        "kind": kinds,
                        "duration": ["upkeep"],
                    },
                }
            )
    return entries


def legal_end_effect(state: Mapping[str, Any], side: str) -> list[dict[str, Any]]:
    """The side's own lasting effects, outside their upkeep item."""
    if state["phase"] == "finished" or state.get("pending"):
        return []
    upkeep = state.get("upkeep") if state["phase"] == "upkeep" else None
    waiting = set()
    if upkeep:
        waiting = {
            i["key"] for i in upkeep["items"] if i["key"] not in upkeep["ticked"]
        }
    ids = [
        e["id"]
        for e in state.get("effects", [])
        if e["side"] == side and f"effect:{e['id']}" not in waiting
    ]
    return [{"type": "end_effect", "choices": {"effect": ids}}] if ids else []


# --- the commands of this phase, each declared once (rules.game.commands) ---


class TickUpkeep(CommandKind):
    """IV-D: the next item of the upkeep checklist (its owner's, IV-D-3);
    ``pay``: an upkept effect paid, or let end; ``difficulty`` is not read
    (the ruling "rally_difficulty" sets it); ``all_markers``: every marker of
    the side; ``gems``: the gems a magician recovers (X-G-1)."""

    type = "tick_upkeep"
    section = "IV-D"
    rolls = True  # Régénération/X's roll comes from the game's dice
    fields = (
        text_field("key", MAX_KEY, required=True),
        bool_field("rallied"),
        int_field("value", 0, 99, required=False),
        bool_field("pay"),
        bool_field("all_markers"),
        int_field("difficulty", 1, MAX_DIFFICULTY, required=False),
        gems_field("gems", "gems:", 99),
    )
    legal = staticmethod(legal_tick_upkeep)
    bounds = staticmethod(tick_upkeep_bounds)
    apply = staticmethod(tick_upkeep)


class RecordEffect(CommandKind):
    """II-C-3: a lasting effect on a fighter, its duration and upkeep."""

    type = "record_effect"
    section = "II-C-3"
    anytime = True
    fields = (
        id_field("fighter"),
        text_field("name", MAX_NAME, required=True),
        choice_field("kind", EFFECT_KINDS),
        choice_field("duration", DURATIONS),
        bool_field("active"),
        int_field(
            "turns",
            1,
            MAX_EFFECT_TURNS,
            required=False,
            message=_("An effect lasts {low} to {high} turns."),
        ),
        int_field(
            "cost",
            0,
            MAX_UPKEEP_COST,
            required=False,
            message=_("An upkeep cost counts {low} to {high}."),
        ),
        id_field("caster", required=False),
    )
    legal = staticmethod(legal_record_effect)
    bounds = staticmethod(record_effect_bounds)
    apply = staticmethod(record_effect)


class EndEffect(CommandKind):
    """II-C-3: the owner ends a lasting effect."""

    type = "end_effect"
    section = "II-C-3"
    anytime = True
    fields = (text_field("effect", required=True),)
    legal = staticmethod(legal_end_effect)
    apply = staticmethod(end_effect)
