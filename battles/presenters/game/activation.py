"""The activation phase (IV-B): the draws (the floor, the reserve, refusals),
the activated fighters' actions, and the log's wording of both."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.formats import localize
from django.utils.translation import gettext as _

from battles.presenters.game import magic
from battles.presenters.game.common import Panel, options, wait_panel
from battles.presenters.game.floor import Offers
from battles.presenters.words import DRAW_ACTIONS, RANGE_BANDS, action_word, side_word
from rules.activation import DrawPhase
from rules.game import movement_cm
from rules.game import state as st
from rules.turn import ActivationAction


def panel(state: Mapping[str, Any], side: str, offers: Offers) -> Panel:
    active = state["active"]
    if active:
        if active["side"] == side:
            return _activation_panel(state, side, offers)
        return wait_panel(
            active["side"],
            _("activating %(cards)s") % {"cards": _card_names(state, active["cards"])},
            "IV-B-2",
        )
    speaker = state["draw"]["speaker"]
    if speaker == side and offers.allows("draw"):
        return _draw_panel(state, side, offers)
    return wait_panel(speaker, _("playing a card"), "IV-B-1")


def _card_names(state: Mapping[str, Any], cards: Sequence[str]) -> str:
    return ", ".join(state["cards"][c]["name"] for c in cards)


def _draw_panel(state: Mapping[str, Any], side: str, offers: Offers) -> Panel:
    phase = DrawPhase.from_dict(state["draw"])
    actions = [
        {"value": str(a), "label": str(DRAW_ACTIONS[str(a)])}
        for a in offers.choices("draw", "action")
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


def _melee_targets(
    state: Mapping[str, Any], side: str, targets: Sequence[str]
) -> list[dict[str, Any]]:
    """The targets that two or more of ``side``'s fighters touch: a shot into
    the melee asks which of them is nearest to the shooter (initiation rules,
    "Tir dans la mêlée"; the command's ``nearest_friend``). With one friend in
    contact the engine takes it."""
    melees = []
    for target in targets:
        friends = st.friends_in_contact_with(state, target, side)
        if len(friends) >= 2:
            melees.append(
                {
                    "id": target,
                    "label": state["fighters"][target]["label"],
                    "friends": options(state, friends),
                }
            )
    return melees


EXCLUSIVE = frozenset(a.value for a in ActivationAction if a.exclusive)


def _exclusives_at_stake(fighters: Sequence[Mapping[str, Any]]) -> bool:
    """Would a fighter of the card lose the exclusive action offered to it
    if another one made a cumulative action now? (IV-B-2: "les combattants
    effectuant des actions cumulatives sont joués [...] après ceux ayant
    effectué une action exclusive".) Then the panel says so before the walk,
    the shot or the mystic action."""

    def exclusive(fighter) -> bool:
        return any(move["value"] in EXCLUSIVE for move in fighter["moves"])

    def cumulative(fighter) -> bool:
        return bool(fighter["shoot_at"]) or any(
            move["value"] not in EXCLUSIVE for move in fighter["moves"]
        )

    return any(
        exclusive(held)
        and any(other is not held and cumulative(other) for other in fighters)
        for held in fighters
    )


def _activation_panel(state: Mapping[str, Any], side: str, offers: Offers) -> Panel:
    """The activated fighters, each with the actions the rules allow it now."""
    active = state["active"]
    fighters = []
    for fighter_id in active["fighters"]:
        data = state["fighters"][fighter_id]
        if data["eliminated"]:
            continue
        declared = offers.of("declare", fighter=fighter_id)
        again = "mystic" in state["acted"].get(fighter_id, [])
        moves = [
            {
                "value": entry["action"],
                "label": _("Another mystic action (cumulative, IV-B-2)")
                if again and entry["action"] == "mystic"
                else action_word(entry["action"]),
                "cm": movement_cm(state, fighter_id, entry["action"]),
            }
            for entry in declared
        ]
        engage = offers.choices("declare", "targets", fighter=fighter_id)
        shoot_at = offers.choices("shoot", "target", fighter=fighter_id)
        fighters.append(
            {
                "id": fighter_id,
                "label": data["label"],
                "acted": [action_word(a) for a in state["acted"].get(fighter_id, [])],
                "moves": moves,
                "engage": options(state, engage),
                "shoot_at": options(state, shoot_at),
                "melee_targets": _melee_targets(state, side, shoot_at),
                "weapon": st.card_of(state, fighter_id)["weapon"],
                "disengage": offers.choices("disengage", "method", fighter=fighter_id),
                "mystic": magic.mystic_view(state, fighter_id, offers),
                "contacts": [
                    state["fighters"][f]["label"]
                    for f in st.adversaries_in_contact(state, fighter_id)
                ],
            }
        )
    return Panel(
        "activation",
        side=side,
        title=_("Activate: %(cards)s") % {"cards": _card_names(state, active["cards"])},
        section="IV-B-2",
        data={
            "fighters": fighters,
            "exclusives_at_stake": _exclusives_at_stake(fighters),
            "can_end": offers.allows("end_activation"),
            "exclusive": [
                action_word(a.value) for a in ActivationAction if a.exclusive
            ],
        },
    )


def pile_counts(state: Mapping[str, Any], private_to: Sequence[str]) -> dict | None:
    """Cards left, reserve and refusals per side; the reserved card is named
    only to the sides in ``private_to`` (IV-B-1: the reserve is hidden)."""
    if state["phase"] != "activation" or not state.get("draw"):
        return None
    phase = DrawPhase.from_dict(state["draw"])
    result = {}
    for side in st.SIDES:
        reserved = phase.reserved[side]
        result[side] = {
            "remaining": len(phase.remaining[side]),
            "reserved": (
                state["cards"][reserved]["name"]
                if reserved and side in private_to
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


# --- the log's wording ------------------------------------------------------------

_PLAYED = {
    "draw": lambda: _("%(side)s draws %(cards)s."),
    "reserve": lambda: _("%(side)s puts a card in reserve."),
    "play_reserve": lambda: _("%(side)s plays its reserve: %(cards)s."),
    "play_reserve_and_top": lambda: _(
        "%(side)s plays its reserve and its top card: %(cards)s."
    ),
    "refuse": lambda: _("%(side)s uses a refusal."),
}


def _cards_played(p, who, names):
    text = _PLAYED[p["action"]]()
    cards = ", ".join(p.get("card_names", []))
    return text % {"side": who, "cards": cards}, "IV-B-1"


def _activation_ended(p, who, names):
    if p.get("reason") == "failed_charge":
        return _(
            "Nothing left to do for %(side)s: %(fighter)s's charge failed and its "
            "activation ends, so the activation ends by itself."
        ) % {
            "fighter": p.get("label", ""),
            "side": side_word(p.get("side"), mid=True),
        }, "IX"
    return _("%(side)s ends its activation.") % {"side": who}, "IV-B-2"


def _cm(value: float | None) -> str | None:
    """A distance in the reader's number format ("12,5" in French)."""
    return None if value is None else localize(value)


def _action_declared(p, who, names):
    values = {"fighter": p["label"], "action": action_word(p["action"])}
    values["cm"] = _cm(p.get("move_cm"))
    if p["action"] == "shoot":
        values.update(target=p["target_label"], cm=_cm(p["distance_cm"]))
        if p.get("difficulty") is None:
            text = _(
                "%(fighter)s shoots %(target)s at %(cm)s cm: beyond long range, "
                "the shot fails."
            )
            return text % values, "Tir"
        values["difficulty"] = p["difficulty"]
        values["band"] = str(RANGE_BANDS.get(p.get("band") or "", ""))
        text = _(
            "%(fighter)s shoots %(target)s at %(cm)s cm: %(band)s, "
            "difficulty %(difficulty)s."
        )
        return text % values, "Tir"
    if p.get("targets"):
        values["targets"] = ", ".join(p["target_labels"])
        text = _("%(fighter)s: %(action)s against %(targets)s (%(cm)s cm).")
        return text % values, "IV-B-2"
    if values["cm"] is not None:
        return _("%(fighter)s: %(action)s (%(cm)s cm).") % values, "IV-B-2"
    return _("%(fighter)s: %(action)s.") % values, "IV-B-2"


def _disengaged(p, who, names):
    if p["success"]:
        text = _("%(fighter)s disengages and may move %(cm)s cm.")
        values = {"fighter": p["label"], "cm": _cm(p["move_cm"])}
        return text % values, "Désengagement"
    text = _("%(fighter)s fails to disengage: all its combat dice go to defence.")
    return text % {"fighter": p["label"]}, "Désengagement"


EVENTS = {
    "cards_played": _cards_played,
    "activation_ended": _activation_ended,
    "action_declared": _action_declared,
    "disengaged": _disengaged,
}
