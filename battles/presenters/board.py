"""What one phone shows of a game: the board, built from the snapshot.

All the decisions about what to show (whose turn it is, which buttons, the
odds as percentages, what stays hidden from this viewer) are made here, so
the templates only lay them out. Hidden information (IV-A-1: a player's
activation sequence; the card in reserve) is given only to its side.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from battles.presenters.game import tests as table_rolls
from battles.presenters.words import (
    CONDITIONS,
    DRAW_ACTIONS,
    OUTCOMES,
    PHASE_SECTIONS,
    action_word,
    pending_title,
    phase_word,
    rules_text,
    side_word,
)
from rules.activation import DrawPhase
from rules.game import (
    COMBAT_CONVENTION,
    attack_difficulty,
    choice_odds,
    movement_cm,
    tactics_candidates,
    waiting_for,
    who_decides,
)
from rules.game import state as st
from rules.melee import Combat, choices_of
from rules.turn import ActivationAction, activation_problems

SHOWN_CHARACTERISTICS = ("MOU", "INI", "ATT", "FOR", "DEF", "RES", "TIR", "DIS")


def percent(value: str | Fraction | None) -> str:
    """A probability as a percentage with one decimal ("58.3 %")."""
    if value is None:
        return ""
    from django.utils.formats import number_format

    # number_format follows the language: "58,3 %" in French, "58.3 %" in English.
    return f"{number_format(float(Fraction(value)) * 100, 1)} %"


@dataclass
class FighterView:
    id: str
    label: str
    side: str
    card: str
    steps: int
    condition: str
    stunned: bool
    routed: bool
    eliminated: bool
    charged: bool
    contacts: list[str]
    values: list[tuple[str, Any, Any]]
    mana: int | None
    faith: int | None


@dataclass
class Panel:
    """The part of the board where this phone acts (or waits)."""

    kind: str
    side: str | None = None
    title: str = ""
    section: str = ""
    data: dict[str, Any] = field(default_factory=dict)


def _fighter_view(state: Mapping[str, Any], fighter_id: str) -> FighterView:
    data = state["fighters"][fighter_id]
    health = st.health(state, fighter_id)
    values = []
    for code in SHOWN_CHARACTERISTICS:
        base = st.base_value(state, fighter_id, code)
        if base is None:
            continue
        values.append((code, base, st.value_of(state, fighter_id, code)))
    return FighterView(
        id=fighter_id,
        label=data["label"],
        side=data["side"],
        card=st.card_of(state, fighter_id)["name"],
        steps=data["steps"],
        condition=str(CONDITIONS.get(health.condition, health.condition)),
        stunned=data["stunned"],
        routed=data["routed"],
        eliminated=data["eliminated"],
        charged=data["charged"],
        contacts=[
            state["fighters"][f]["label"]
            for f in st.adversaries_in_contact(state, fighter_id)
        ],
        values=values,
        mana=data.get("mana"),
        faith=data.get("faith"),
    )


def _options(state: Mapping[str, Any], fighter_ids: Sequence[str]) -> list[dict]:
    return [{"id": f, "label": state["fighters"][f]["label"]} for f in fighter_ids]


def expected_side(state: Mapping[str, Any]) -> str | None:
    """The side the game waits for now (None: both, or either).

    The rules say it (``rules.game.waiting_for``); this only picks the one.
    """
    waiting = waiting_for(state)
    return next(iter(waiting)) if len(waiting) == 1 else None


def _labels(state: Mapping[str, Any]) -> dict[str, str]:
    return {f: data["label"] for f, data in state["fighters"].items()}


def _roll_panel(state: Mapping[str, Any], pending: Mapping[str, Any]) -> Panel:
    kind = pending["kind"]
    data: dict[str, Any] = {"pending": pending, "faces_needed": 1}
    if kind == "test":
        data.update(
            value=pending["value"],
            difficulty=pending["difficulty"],
            odds=percent(pending["odds"]),
        )
    elif kind == "opposed":
        values = pending["values"]
        data.update(
            values=values,
            odds_a=percent(pending["odds"]),
            odds_b=percent(1 - Fraction(pending["odds"])),
            faces_needed=2,
        )
    elif kind == "wound":
        context = pending["context"]
        data.update(
            strength=context["strength"],
            resistance=context["resistance"],
            faces_needed=pending["dice"],
            outcomes=[
                (str(OUTCOMES[word]), percent(p))
                for word, p in pending["odds"].items()
                if Fraction(p) > 0
            ],
        )
    elif kind == "split":
        data.update(odds=percent("1/2"))
    return Panel(
        "roll",
        side=pending.get("side"),
        title=pending_title(pending, _labels(state)),
        section=pending.get("section", ""),
        data=data,
    )


def _six_panel(state: Mapping[str, Any], pending: Mapping[str, Any]) -> Panel:
    roll = pending["roll"]
    choice = choice_odds(pending) or {}
    if pending["kind"] == "opposed":
        shown = {
            "a": roll["faces_a"],
            "b": roll["faces_b"],
        }
    else:
        shown = {"": roll["faces"]}
    return Panel(
        "six",
        side=who_decides(pending),
        title=pending_title(pending, _labels(state)),
        section="II-A-1",
        data={
            "faces": shown,
            "keep": percent(choice.get("keep")),
            "reroll": percent(choice.get("reroll")),
            "best": choice.get("best"),
        },
    )


def _strategic_panel(state, side, draft: Sequence[str] | None) -> Panel:
    if state["step"] == "first_choice":
        winner = state["tactics"]["winner"]
        return Panel(
            "first",
            side=winner,
            title=_("%(side)s won the Tactics roll: who speaks first?")
            % {"side": side_word(winner)},
            section="IV-A-2",
        )
    sequence_done = state["sequences"][side] is not None
    fighter_done = state["tactics"]["fighters"][side] is not None
    if sequence_done and fighter_done:
        return Panel(
            "wait",
            side=st.other(side),
            title=_("Waiting for the other player's sequence and Tactics fighter."),
            section="IV-A",
        )
    cards = st.cards_in_play(state, side)
    order = [c for c in (draft or []) if c in cards]
    order += [c for c in cards if c not in order]
    if state["sequences"][side]:
        order = list(state["sequences"][side])
    candidates = [
        {
            "id": f,
            "label": state["fighters"][f]["label"],
            "ok": ok,
            "why": rules_text(why),
            "dis": st.value_of(state, f, "DIS"),
        }
        for f, ok, why in tactics_candidates(state, side)
    ]
    return Panel(
        "strategic",
        side=side,
        title=_("Strategic phase"),
        section="IV-A",
        data={
            "sequence": [
                {
                    "id": c,
                    "name": state["cards"][c]["name"],
                    "fighters": sum(
                        1
                        for f in state["cards"][c]["fighters"]
                        if not state["fighters"][f]["eliminated"]
                    ),
                }
                for c in order
            ],
            "sequence_done": sequence_done,
            "dropped": [
                state["cards"][c]["name"] for c in st.eliminated_cards(state, side)
            ],
            "candidates": candidates,
            "fighter_done": fighter_done,
            "chosen": state["tactics"]["fighters"][side],
        },
    )


def _draw_panel(state, side) -> Panel:
    phase = DrawPhase.from_dict(state["draw"])
    actions = [
        {"value": str(a), "label": str(DRAW_ACTIONS[str(a)])}
        for a in phase.legal_actions()
    ]
    reserved = phase.reserved[side]
    pile = phase.remaining[side]
    return Panel(
        "draw",
        side=side,
        title=_("You have the floor: play a card."),
        section="IV-B-1",
        data={
            "actions": actions,
            "top": state["cards"][pile[0]]["name"] if pile else None,
            "reserved": state["cards"][reserved]["name"] if reserved else None,
            "refusals": phase.refusals[side],
        },
    )


def _activation_panel(state, side) -> Panel:
    active = state["active"]
    enemies = st.fighters_of(state, st.other(side))
    fighters = []
    for fighter_id in active["fighters"]:
        data = state["fighters"][fighter_id]
        if data["eliminated"]:
            continue
        acted = state["acted"].get(fighter_id, [])
        card = st.card_of(state, fighter_id)
        in_contact = st.adversaries_in_contact(state, fighter_id)
        moves = []
        for action in ("charge", "engagement", "walk", "run", "covered_move", "mystic"):
            if not activation_problems([*acted, action]):
                moves.append(
                    {
                        "value": action,
                        "label": action_word(action),
                        "cm": movement_cm(state, fighter_id, action),
                        "engages": action in ("charge", "engagement"),
                    }
                )
        can_shoot = (
            card["weapon"] is not None
            and card["profile"].get("TIR") is not None
            and not in_contact
            and not activation_problems([*acted, "shoot"])
        )
        fighters.append(
            {
                "id": fighter_id,
                "label": data["label"],
                "acted": [action_word(a) for a in acted],
                "moves": moves,
                "can_shoot": can_shoot,
                "weapon": card["weapon"],
                "can_disengage": bool(in_contact) and not acted,
                "contacts": [state["fighters"][f]["label"] for f in in_contact],
            }
        )
    targets = _options(state, enemies)
    return Panel(
        "activation",
        side=side,
        title=_("Activate: %(cards)s")
        % {"cards": ", ".join(state["cards"][c]["name"] for c in active["cards"])},
        section="IV-B-2",
        data={
            "fighters": fighters,
            "targets": targets,
            "exclusive": [
                action_word(a.value) for a in ActivationAction if a.exclusive
            ],
        },
    )


def _combat_panel(state, side) -> Panel:
    combat = state["combat"]
    pending = state["pending"]
    if pending and pending.get("purpose") == "form_combats":
        suggestion = [
            {
                "one": state["fighters"][c["one"]]["label"],
                "many": [state["fighters"][f]["label"] for f in c["many"]],
            }
            for c in combat["suggestion"]
        ]
        contacts = [
            {
                "one": one,
                "two": two,
                "labels": (
                    state["fighters"][one]["label"],
                    state["fighters"][two]["label"],
                ),
            }
            for one, two in state["contacts"]
        ]
        suggested = choices_of(
            [Combat(c["one"], tuple(c["many"])) for c in combat["suggestion"]]
        )
        facing = [
            {
                "id": fighter_id,
                "label": state["fighters"][fighter_id]["label"],
                "side": state["fighters"][fighter_id]["side"],
                "options": _options(
                    state, st.adversaries_in_contact(state, fighter_id)
                ),
                "selected": suggested.get(fighter_id),
            }
            for fighter_id in sorted(
                {f for pair in state["contacts"] for f in pair},
                key=lambda f: (state["fighters"][f]["side"], f),
            )
        ]
        return Panel(
            "form_combats",
            side=state["tactics"]["winner"],
            title=_("Split the melees into combats"),
            section="IV-C",
            data={"suggestion": suggestion, "contacts": contacts, "facing": facing},
        )
    combats = []
    for index, item in enumerate(combat["combats"]):
        members = [item["one"], *item["many"]]
        combats.append(
            {
                "index": index,
                "number": index + 1,
                "one": state["fighters"][item["one"]]["label"],
                "many": [state["fighters"][f]["label"] for f in item["many"]],
                "done": item["done"],
                "current": combat["current"] == index,
                "sides": sorted({state["fighters"][f]["side"] for f in members}),
            }
        )
    if combat["current"] is None:
        return Panel(
            "choose_combat",
            side=combat["picker"],
            title=_("%(side)s picks the next combat")
            % {"side": side_word(combat["picker"])},
            section="IV-C",
            data={"combats": combats},
        )
    item = combat["combats"][combat["current"]]
    members = [item["one"], *item["many"]]
    rows = []
    for fighter_id in members:
        data = state["fighters"][fighter_id]
        dice = item["dice"][fighter_id]
        used = item["used"][fighter_id]
        rows.append(
            {
                "id": fighter_id,
                "label": data["label"],
                "side": data["side"],
                "mine": data["side"] == side,
                "eliminated": data["eliminated"],
                "attack": dice["attack"],
                "defence": dice["defence"],
                "attack_left": dice["attack"] - used["attack"],
                "defence_left": dice["defence"] - used["defence"],
                "att": st.value_of(state, fighter_id, "ATT"),
                "def": st.value_of(state, fighter_id, "DEF"),
            }
        )
    attacks = []
    for row in rows:
        if not row["mine"] or row["eliminated"] or row["attack_left"] <= 0:
            continue
        targets = item["many"] if row["id"] == item["one"] else [item["one"]]
        for target in targets:
            if state["fighters"][target]["eliminated"]:
                continue
            difficulty = attack_difficulty(state, item, target)
            from rules import odds

            attacks.append(
                {
                    "attacker": row["id"],
                    "target": target,
                    "label": _("%(a)s attacks %(t)s")
                    % {"a": row["label"], "t": state["fighters"][target]["label"]},
                    "odds": percent(odds.test_success(row["att"] or 0, difficulty)),
                    "difficulty": difficulty,
                }
            )
    return Panel(
        "combat",
        side=side,
        title=_("Combat %(n)s") % {"n": combat["current"] + 1},
        section="IV-C",
        data={
            "rows": rows,
            "attacks": attacks,
            "difficulty": item["difficulty"],
            "convention": COMBAT_CONVENTION,
            "in_combat": side in {r["side"] for r in rows},
        },
    )


def _upkeep_panel(state, side=None) -> Panel:
    upkeep = state["upkeep"]
    from django.utils.translation import get_language

    french = (get_language() or "fr").startswith("fr")
    items = []
    next_key = None
    for item in upkeep["items"]:
        done = item["key"] in upkeep["ticked"]
        if not done and next_key is None:
            next_key = item["key"]
        reserve = item["step"] if item["step"] in ("faith", "mana") else None
        current = None
        if reserve and item.get("fighter"):
            current = state["fighters"][item["fighter"]].get(reserve)
        items.append(
            {
                "key": item["key"],
                "label": item["label_fr"] if french else item["label_en"],
                "section": item["section"],
                "done": done,
                "next": item["key"] == next_key,
                "rally": item["step"] == "rally",
                "reserve": reserve,
                "current": current,
                **table_rolls.upkeep_extras(state, item, side),
            }
        )
    return Panel(
        "upkeep",
        side=None,
        title=_("Upkeep checklist"),
        section="IV-D",
        data={"items": items},
    )


def build_panel(
    state: Mapping[str, Any], side: str | None, *, draft: Sequence[str] | None = None
) -> Panel:
    """What ``side`` (None for a spectator) sees in the action panel now."""
    phase = state["phase"]
    pending = state.get("pending")
    if phase == "finished":
        return Panel("finished", title=_("Game over"))
    if side is None:
        return Panel("watch", title=_("You are watching this game."))
    if pending:
        if pending.get("purpose") == "characteristic":
            panel = table_rolls.pending_panel(state, pending)
        elif pending["kind"] in ("test", "opposed") and pending.get("roll"):
            panel = _six_panel(state, pending)
        elif pending["kind"] in ("test", "opposed", "wound", "split"):
            panel = _roll_panel(state, pending)
        elif pending.get("purpose") == "parry":
            panel = Panel(
                "parry",
                side=pending["side"],
                title=pending_title(pending, _labels(state)),
                section="IV-C",
                data={
                    "odds": percent(pending["parry_odds"]),
                    "attack_final": pending["context"]["attack_final"],
                },
            )
        else:
            panel = _combat_panel(state, side)
        if panel.side not in (None, side):
            return _wait(state, panel)
        return panel
    if phase == "strategic":
        return _strategic_panel(state, side, draft)
    if phase == "activation":
        active = state["active"]
        if active:
            if active["side"] == side:
                return _activation_panel(state, side)
            return _wait_for(active["side"], _("is activating its fighters"))
        speaker = state["draw"]["speaker"]
        if speaker == side:
            return _draw_panel(state, side)
        return _wait_for(speaker, _("has the floor"))
    if phase == "combat":
        panel = _combat_panel(state, side)
        if panel.kind == "choose_combat" and panel.side != side:
            return _wait(state, panel)
        return panel
    if phase == "upkeep":
        return _upkeep_panel(state, side)
    return Panel("wait")


def _wait(state, panel: Panel) -> Panel:
    return Panel(
        "wait",
        side=panel.side,
        title=_("Waiting for %(side)s: %(what)s")
        % {"side": side_word(panel.side), "what": panel.title},
        section=panel.section,
    )


def _wait_for(side: str, what: str) -> Panel:
    return Panel(
        "wait",
        side=side,
        title=_("Waiting: %(side)s %(what)s.")
        % {"side": side_word(side), "what": what},
    )


def pile_counts(state: Mapping[str, Any], viewer_sides: Sequence[str]) -> dict | None:
    """Cards left, reserve and refusals per side; reserved card named to its owner."""
    if not state.get("draw"):
        return None
    phase = DrawPhase.from_dict(state["draw"])
    result = {}
    for side in st.SIDES:
        reserved = phase.reserved[side]
        result[side] = {
            "remaining": len(phase.remaining[side]),
            "reserved": (
                state["cards"][reserved]["name"]
                if reserved and side in viewer_sides
                else bool(reserved)
            ),
            "refusals": phase.refusals[side],
            "played": [
                state["cards"][card]["name"]
                for play in phase.played
                if play.side == side
                for card in play.cards
            ],
        }
    return result


def new_tap_key() -> str:
    """An idempotency key for one rendered button (a double tap applies once)."""
    return secrets.token_urlsafe(12)


def status_line(state: Mapping[str, Any]) -> dict[str, Any]:
    phase = state["phase"]
    return {
        "turn": state["turn"],
        "turns": state["turns"],
        "phase": phase_word(phase),
        "section": PHASE_SECTIONS.get(phase, ""),
        "waiting_for": expected_side(state),
    }


def fighters_by_side(state: Mapping[str, Any]) -> dict[str, list[FighterView]]:
    return {
        side: [
            _fighter_view(state, f) for f in st.fighters_of(state, side, living=False)
        ]
        for side in st.SIDES
    }


__all__ = [
    "Panel",
    "build_panel",
    "expected_side",
    "fighters_by_side",
    "new_tap_key",
    "percent",
    "pile_counts",
    "status_line",
]
