"""The combat phase (IV-C, VII-C): splitting the melees into combats, picking
the next combat, the Initiative, the placement of the combat dice, attacks
and parries, and the log's wording of them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from battles.presenters.game import magic
from battles.presenters.game.common import Panel, labels, options, percent
from battles.presenters.game.floor import Offers, waiting_for
from battles.presenters.rulings import value_word
from battles.presenters.words import pending_title, side_word
from rules import melee, odds
from rules.game import state as st
from rules.game.combat import combat_value, forced_defence
from rules.melee import Combat, choices_of


def natural_key(label: str) -> list[Any]:
    """Sorts "Guerrier 2" before "Guerrier 10": digits compared as numbers."""
    return [
        (0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
        for part in re.split(r"(\d+)", label)
        if part
    ]


def in_order(state: Mapping[str, Any], fighter_ids) -> list[str]:
    """A combat's adversaries in a stable, natural order of their labels."""
    fighters = state["fighters"]
    return sorted(fighter_ids, key=lambda f: (natural_key(fighters[f]["label"]), f))


def panel(state: Mapping[str, Any], side: str, offers: Offers) -> Panel:
    combat = state["combat"]
    pending = state.get("pending")
    if pending and pending.get("purpose") == "parry":
        return parry_panel(state, side, offers)
    if pending and pending.get("purpose") == "ambidextrous":
        return ambidextrous_panel(state, side, offers)
    if pending and pending.get("purpose") == "form_combats":
        return _form_combats_panel(state)
    combats = [
        {
            "index": index,
            "number": index + 1,
            "one": state["fighters"][item["one"]]["label"],
            "many": [
                state["fighters"][f]["label"] for f in in_order(state, item["many"])
            ],
            "done": item["done"],
            "open": index in offers.choices("choose_combat", "combat"),
            "current": combat["current"] == index,
        }
        for index, item in enumerate(combat["combats"])
    ]
    if combat["current"] is None:
        return Panel(
            "choose_combat",
            side=combat["picker"],
            title=_("%(side)s picks the next combat")
            % {"side": side_word(combat["picker"])},
            section="VII-B",
            data={
                "combats": combats,
                "picking": combat["picker"] == side,
                "pursuits": _pursuits(state, offers),
                "casters": magic.combat_casters(state, side, offers),
            },
        )
    return _combat_panel(state, side, offers)


def _pursuits(state: Mapping[str, Any], offers: Offers) -> list[dict[str, Any]]:
    """The freed fighters of this side that may record a pursuit move
    (VII-C-6), each with the enemies it may reach and the combat it would
    join (a new one when the enemy is in none)."""
    fighters = state["fighters"]
    combats = state["combat"]["combats"]
    where = {f: i for i, c in enumerate(combats) for f in [c["one"], *c["many"]]}
    result = []
    for entry in offers.of("pursue"):
        pursuer = entry["fighter"]
        targets = []
        for target in entry.get("choices", {}).get("target", []):
            index = where.get(target)
            targets.append(
                {
                    "id": target,
                    "label": fighters[target]["label"],
                    "joins": _("joins combat %(n)s") % {"n": index + 1}
                    if index is not None
                    else _("a new combat"),
                }
            )
        result.append(
            {"id": pursuer, "label": fighters[pursuer]["label"], "targets": targets}
        )
    return result


def add_other_pursuits(panel: Panel, state: Mapping[str, Any], side: str | None):
    """On one phone holding both sides, the pick of the next combat also
    offers the other side's pursuits (VII-C-6): the phone acts for the
    picker, and a pursuer of the other side would otherwise never be
    offered its move. Each carries its side for the tap."""
    if panel.kind != "choose_combat" or side not in st.SIDES:
        return
    other = st.other(side)
    extra = [
        {**pursuit, "side": other} for pursuit in _pursuits(state, Offers(state, other))
    ]
    if extra:
        panel.data["pursuits"] = [*panel.data.get("pursuits", []), *extra]


def _form_combats_panel(state: Mapping[str, Any]) -> Panel:
    combat = state["combat"]
    fighters = state["fighters"]
    suggestion = [
        {
            "one": fighters[c["one"]]["label"],
            "many": [fighters[f]["label"] for f in in_order(state, c["many"])],
        }
        for c in combat["suggestion"]
    ]
    contacts = [
        {
            "one": one,
            "two": two,
            "labels": (fighters[one]["label"], fighters[two]["label"]),
        }
        for one, two in state["contacts"]
    ]
    suggested = choices_of(
        [Combat(c["one"], tuple(c["many"])) for c in combat["suggestion"]]
    )
    facing = [
        {
            "id": fighter_id,
            "label": fighters[fighter_id]["label"],
            "side": fighters[fighter_id]["side"],
            "options": options(state, st.adversaries_in_contact(state, fighter_id)),
            "selected": suggested.get(fighter_id),
        }
        for fighter_id in sorted(
            {f for pair in state["contacts"] for f in pair},
            key=lambda f: (fighters[f]["side"], f),
        )
    ]
    return Panel(
        "form_combats",
        side=state["tactics"]["winner"],
        title=_("Split the melees into combats"),
        section="IV-C",
        data={"suggestion": suggestion, "contacts": contacts, "facing": facing},
    )


def _fighter_row(
    state: Mapping[str, Any], item: Mapping[str, Any], fighter_id: str, side: str
) -> dict[str, Any]:
    data = state["fighters"][fighter_id]
    dice = (item.get("dice") or {}).get(fighter_id) or {}
    opponents = item["many"] if fighter_id == item["one"] else [item["one"]]
    total = dice.get("total") or melee.combat_dice(
        len([f for f in opponents if not state["fighters"][f]["eliminated"]])
    )
    return {
        "id": fighter_id,
        "label": data["label"],
        "side": data["side"],
        "mine": data["side"] == side,
        "eliminated": data["eliminated"],
        "routed": bool(data.get("routed")) and not data["eliminated"],
        "total": total,
        "placed": dice.get("attack") is not None,
        "attack": dice.get("attack"),
        "defence": dice.get("defence"),
        # Enchaînement/X: -2 ATT and -2 DEF a die taken, this combat only.
        "sequence": -((item.get("modifiers") or {}).get(fighter_id, {}).get("ATT", 0))
        // 2,
        "ini": st.value_of(state, fighter_id, "INI"),
        "att": combat_value(state, item, fighter_id, "ATT"),
        "def": combat_value(state, item, fighter_id, "DEF"),
        "skills": _melee_skills(st.card_of(state, fighter_id).get("skills") or []),
    }


def _melee_skills(skills: list[str]) -> list[dict[str, Any]]:
    """The card's melee abilities; those the sources leave unclear (Brutal,
    Feinte) are marked so, not played (melee-sources.md §4)."""
    unclear = set(melee.unclear_abilities(skills))
    return [
        {"name": s, "unclear": s in unclear}
        for s in skills
        if s.split("/")[0] in MELEE_ABILITIES
    ]


# The card abilities the combat panel names (VII-C; melee-sources.md §4).
MELEE_ABILITIES = {
    "Enchaînement",
    "Coup de maître",
    "Contre-attaque",
    "Ambidextre",
    "Acharné",
    "Furie guerrière",
    *melee.UNCLEAR_ABILITIES,
}


def _initiative_choices(
    state: Mapping[str, Any], item: Mapping[str, Any], side: str, offers: Offers
) -> list[dict[str, Any]]:
    """The fighters this side may name for the Initiative (VII-C-2), each with
    its exact odds against each adversary the other side may name (II-A-3)."""
    fighters = state["fighters"]
    theirs = [
        f
        for f in [item["one"], *item["many"]]
        if fighters[f]["side"] != side and not fighters[f]["eliminated"]
    ]
    # Odds against every fighter the other side may name, even once it has
    # named one: its choice stays secret until both have named (like the
    # Tactics fighter, IV-A-2).
    choices = []
    for fighter_id in offers.choices("initiative", "fighter"):
        mine = st.value_of(state, fighter_id, "INI") or 0
        choices.append(
            {
                "id": fighter_id,
                "label": state["fighters"][fighter_id]["label"],
                "ini": mine,
                "odds": [
                    {
                        "against": state["fighters"][f]["label"],
                        "ini": st.value_of(state, f, "INI"),
                        "odds": percent(
                            odds.opposed_win(mine, st.value_of(state, f, "INI") or 0)
                        ),
                    }
                    for f in theirs
                ],
            }
        )
    return choices


def _placements(
    state: Mapping[str, Any], rows: list[dict[str, Any]], offers: Offers
) -> list[dict[str, Any]]:
    """One control per fighter this side places (VII-C-1): attack dice from 0
    (all in defence) to all, the Enchaînement/X dice it may add and Furie
    guerrière, as ``legal_actions`` lists them (one entry per choice of extra
    dice; the attack range shown is the widest, the rules check the rest)."""
    placing: dict[str, dict[str, Any]] = {}
    by_id = {row["id"]: row for row in rows}
    for entry in offers.of("place_dice"):
        row = by_id.get(entry.get("fighter"))
        if row is None:
            continue
        choices = entry.get("choices", {})
        item = placing.setdefault(
            row["id"],
            {**row, "attack": set(), "sequence": set(), "war_fury": False},
        )
        item["attack"].update(choices.get("attack") or range(row["total"] + 1))
        item["sequence"].update(k for k in choices.get("sequence") or [] if k)
        item["war_fury"] |= True in (choices.get("war_fury") or [])
    result = []
    for item in placing.values():
        attack = sorted(item.pop("attack"))
        base = [n for n in attack if n <= item["total"]] or attack
        forced = forced_defence(state, item["id"])
        result.append(
            {
                **item,
                # Why every die defends, said before any tap (S3; cannot_flee).
                "forced": forced_words(forced) if forced else "",
                "attack_range": attack,
                "low": min(attack),
                "high": max(base),
                # Suggested: half and half, the extra die in attack.
                "start": (max(base) + 1) // 2 if min(attack) == 0 else min(attack),
                "sequence_choices": sorted(item.pop("sequence")),
            }
        )
    return result


def forced_words(forced: str) -> str:
    """Why a fighter places every die in defence, in the player's language."""
    if forced == "disengagement":
        return _("All in defence: its disengagement failed this turn.")
    if forced == "routed":
        return _("All in defence: it is routed and cannot flee.")
    return ""


def refill_placements(panel: Panel, refused: str, posted: Mapping[str, str]) -> None:
    """A refused placement keeps what each fighter's player had chosen (the
    attack dice, the Enchaînement dice, Furie guerrière), not the defaults."""
    if refused != "place_dice" or panel.kind != "combat":
        return
    for item in panel.data.get("placements") or []:
        key = item["id"]
        attack = posted.get(f"{key}:attack", "")
        if attack.isdigit() and int(attack) in item["attack_range"]:
            item["start"] = int(attack)
        sequence = posted.get(f"{key}:sequence", "")
        if sequence.isdigit() and int(sequence) in item["sequence_choices"]:
            item["sequence_start"] = int(sequence)
        item["war_fury_checked"] = bool(posted.get(f"{key}:war_fury"))


def _attacks(
    state: Mapping[str, Any], item: Mapping[str, Any], offers: Offers
) -> list[dict[str, Any]]:
    """Each attack this side may make now (VII-C-3), with the attacker's
    current ATT in this combat."""
    attacks = []
    for entry in offers.of("attack"):
        attacker = entry["attacker"]
        att = combat_value(state, item, attacker, "ATT")
        master = True in entry.get("choices", {}).get("master_strike", [])
        for target in entry.get("choices", {}).get("target", []):
            attacks.append(
                {
                    "attacker": attacker,
                    "target": target,
                    "label": _("%(a)s attacks %(t)s")
                    % {
                        "a": state["fighters"][attacker]["label"],
                        "t": state["fighters"][target]["label"],
                    },
                    "att": att,
                    "master_strike": master,
                }
            )
    return attacks


def _combat_panel(state: Mapping[str, Any], side: str, offers: Offers) -> Panel:
    combat = state["combat"]
    item = combat["combats"][combat["current"]]
    rows = [
        _fighter_row(state, item, fighter_id, side)
        for fighter_id in [item["one"], *in_order(state, item["many"])]
    ]
    secret = _secret_placing(state) is not None
    if secret:
        # Both sides place at once (house ruling): the other's dice stay hidden.
        for row in rows:
            if row["side"] != side:
                row.update(placed=False, attack=None, defence=None)
    winner = item.get("initiative")
    # The engine's stage: "initiative", "placing" (or before the Initiative
    # under the "placement_order" ruling), "fighting". Placed dice are shown
    # once placed: the loser's to the winner while it places (VII-C-1).
    stage = {"placing": "placement", "fighting": "exchanges"}.get(
        item.get("stage"), "initiative"
    )
    waited = waiting_for(dict(state))
    turn = next(iter(waited)) if stage == "exchanges" and len(waited) == 1 else None
    last = item.get("last_side")
    data = {
        "rows": rows,
        "stage": stage,
        "initiative": winner,
        "initiative_word": side_word(winner) if winner else "",
        "initiative_choices": _initiative_choices(state, item, side, offers),
        "placements": _placements(state, rows, offers),
        # Warrior-mages and -monks cast or call while their side has the floor.
        "casters": magic.combat_casters(state, side, offers),
        "attacks": _attacks(state, item, offers),
        "turn_word": side_word(turn) if turn else "",
        "exchange": item.get("exchange", 1),
        # The sides alternate, one attack each (§2.5): say when one goes on
        # alone because the other has no attack left in this exchange.
        "alone": bool(turn and last and last == turn),
        # Placed in secret (house ruling): on one phone, a hand-over first.
        "private": secret and side in waited,
        "waiting_word": ""
        if side in waited
        else " / ".join(side_word(w, mid=True) for w in sorted(waited)),
    }
    return Panel(
        "combat",
        side=side,
        title=_("Combat %(n)s") % {"n": combat["current"] + 1},
        section={"initiative": "VII-C-2", "placement": "VII-C-1"}.get(stage, "VII-C-3"),
        data=data,
    )


def ambidextrous_panel(state: Mapping[str, Any], side: str, offers: Offers) -> Panel:
    """Ambidextre, the attack having failed (VII-C-4, melee-sources §4 S11):
    keep the defence dice committed, or swap them for an attack die used at
    once against the attacker."""
    pending = state["pending"]
    context = pending.get("context") or {}
    fighters = state["fighters"]
    return Panel(
        "ambidextrous",
        side=pending["side"],
        title=_("%(fighter)s: Ambidextre")
        % {"fighter": fighters[context["target"]]["label"]},
        section="VII-C-4",
        data={
            "dice": context.get("parry_dice", 0),
            "attacker": fighters[context["attacker"]]["label"],
            "swap": True in offers.choices("ambidextrous", "swap"),
        },
    )


def parry_panel(state: Mapping[str, Any], side: str, offers: Offers) -> Panel:
    """The target's side commits defence dice before the attack test (VII-C-4),
    each choice with the exact odds that the blow does not land (the rules'
    ``odds`` by dice committed; ``counter_odds`` for Contre-attaque)."""
    pending = state["pending"]
    context = pending.get("context") or {}
    by_dice = pending.get("odds") or {}
    counter_odds = pending.get("counter_odds") or {}
    choices = [
        {
            "dice": dice,
            "odds": percent(by_dice.get(str(dice))),
            "counter_odds": percent(counter_odds.get(str(dice))),
        }
        for dice in offers.choices("parry", "dice")
    ]
    counter = True in offers.choices("parry", "counter")
    fighters = state["fighters"]
    attacker, target = context.get("attacker"), context.get("target")
    return Panel(
        "parry",
        side=pending["side"],
        title=pending_title(pending, labels(state)),
        section="VII-C-4",
        data={
            "choices": choices,
            "counter": counter,
            "attacker": fighters[attacker]["label"] if attacker in fighters else "",
            "target": fighters[target]["label"] if target in fighters else "",
            "master_strike": context.get("master_strike", False),
            "bonus": context.get("bonus"),
            "tie_ruling": (state.get("house_rulings") or {}).get("parry_tie")
            == "not_parried",
            # The counter-attack's odds follow ``counter_short``: say which.
            "counter_short": value_word(
                (state.get("house_rulings") or {}).get(
                    "counter_short", melee.HOUSE_RULINGS["counter_short"].default
                )
            ),
        },
    )


def _secret_placing(state: Mapping[str, Any] | None) -> int | None:
    """The combat whose dice both sides place now without seeing the other's
    (the house ruling "placement_order": "before_initiative"), else None."""
    if not state or state.get("phase") != "combat" or not state.get("combat"):
        return None
    rulings = state.get("house_rulings") or {}
    if rulings.get("placement_order") != "before_initiative":
        return None
    index = state["combat"].get("current")
    if index is None:
        return None
    item = state["combat"]["combats"][index]
    return index if item.get("stage") == "placing" else None


def hidden_placements(state: Mapping[str, Any] | None, viewer_sides) -> Any:
    """A test: is this combat event's placement hidden from these sides now?"""
    index = _secret_placing(state)

    def hidden(payload: Mapping[str, Any]) -> bool:
        placed = payload.get("placed")
        return (
            index is not None
            and bool(placed)
            and placed.get("side") not in viewer_sides
            and (payload.get("combat") or {}).get("current") == index
        )

    return hidden


def placed_in_secret(payload: Mapping[str, Any]) -> tuple[str, str]:
    return _("%(fighter)s's dice are placed (shown once both sides have placed).") % {
        "fighter": payload["placed"]["label"]
    }, "VII-C-1"


# --- the log's wording ------------------------------------------------------------


def _placed_text(placed: Mapping[str, Any]) -> str:
    text = _(
        "%(fighter)s places its dice: %(attack)s in attack, %(defence)s in defence."
    ) % {
        "fighter": placed["label"],
        "attack": placed["attack"],
        "defence": placed["defence"],
    }
    if placed.get("sequence"):
        text += " " + ngettext(
            "Enchaînement: %(n)s extra die (−%(m)s ATT and DEF).",
            "Enchaînement: %(n)s extra dice (−%(m)s ATT and DEF).",
            placed["sequence"],
        ) % {
            "n": placed["sequence"],
            "m": 2 * placed["sequence"],
        }
    if placed.get("war_fury"):
        text += " " + _("Furie guerrière: one more attack die.")
    if placed.get("forced") == "disengagement":
        text += " " + _("All in defence: its disengagement failed this turn.")
    elif placed.get("forced") == "routed":
        text += " " + _("All in defence: it is routed and cannot flee.")
    return text


ABILITY_WORDS = {
    "counter": _("Contre-attaque"),
    "ambidextrous": _("Ambidextre"),
}


def _initiative_named(p, who, names) -> str:
    """A side named its Initiative fighter (VII-C-2). Like the Tactics
    fighter (IV-A-2), the choice stays secret until both sides have named
    theirs: the first naming says only that it is made; the one that
    completes the pair (the opposed test then pending) names both."""
    named = p["initiative_named"]
    fighters = ((p.get("pending") or {}).get("context") or {}).get("fighters")
    pair = ""
    if p.get("pending") and fighters:
        pair = _("The Initiative test is %(a)s (side A) against %(b)s (side B).") % {
            "a": names.get(fighters.get("a"), fighters.get("a")),
            "b": names.get(fighters.get("b"), fighters.get("b")),
        }
    if named.get("automatic"):
        # The side's only fighter in the combat: no choice, nothing secret.
        text = _(
            "%(fighter)s, the only fighter of %(side)s in this combat, makes its "
            "Initiative test (automatic: no choice)."
        ) % {"fighter": named["label"], "side": side_word(named["side"])}
        return f"{text} {pair}" if pair else text
    if pair:
        return _(
            "%(side)s names its fighter: the Initiative test is %(a)s (side A) "
            "against %(b)s (side B)."
        ) % {
            "side": who,
            "a": names.get(fighters.get("a"), fighters.get("a")),
            "b": names.get(fighters.get("b"), fighters.get("b")),
        }
    return _(
        "%(side)s has named its fighter for the Initiative (kept secret until "
        "both sides have named theirs)."
    ) % {"side": who}


def _combat_updated(p, who, names):
    """Every step of a combat (VII-C): the Initiative, each placement, each
    attack and parry, what a parry won, the exchanges, the end."""
    if "formed" in p:
        n = len(p["formed"])
        text = ngettext(
            "The melees are split into %(n)s combat.",
            "The melees are split into %(n)s combats.",
            n,
        )
        return text % {"n": n}, "IV-C"
    if "chosen" in p and p.get("automatic"):
        return _(
            "Combat %(n)s, the only one left, is fought now (automatic: no choice)."
        ) % {"n": p["chosen"] + 1}, "VII-B"
    if "chosen" in p:
        return _("%(side)s picks combat %(n)s.") % {
            "side": who,
            "n": p["chosen"] + 1,
        }, "VII-B"
    if "initiative_named" in p:
        return _initiative_named(p, who, names), "VII-C-2"
    if "initiative_won" in p:
        won = p["initiative_won"]
        finals = won.get("finals") or {}
        text = _(
            "%(fighter)s wins the Initiative for %(side)s (side A %(a)s, side B "
            "%(b)s: by %(margin)s); its side places its dice last and attacks first."
        ) % {
            "fighter": won["label"],
            "side": side_word(won["side"]),
            "a": finals.get("a", ""),
            "b": finals.get("b", ""),
            "margin": won.get("margin", ""),
        }
        ties = [r for r in won.get("rounds") or [] if r[0] == r[1]]
        if ties:
            text = (
                " ".join(
                    _("A tie: side A %(a)s, side B %(b)s; rolled again (II-A-3).")
                    % {"a": a, "b": b}
                    for a, b in ties
                )
                + " "
                + text
            )
        return text, "VII-C-2"
    if "placed" in p:
        return _placed_text(p["placed"]), "VII-C-1"
    if "attack_declared" in p:
        declared = p["attack_declared"]
        text = _("%(attacker)s attacks %(target)s (exchange %(n)s).") % {
            "attacker": declared["attacker_label"],
            "target": declared["target_label"],
            "n": declared.get("exchange", 1),
        }
        if declared.get("master_strike"):
            text += " " + _("Coup de maître: 2 attack dice for this attack.")
        return text + _certain_text(p), "VII-C-3"
    if "parry_declared" in p:
        parry = p["parry_declared"]
        if not parry["dice"]:
            text = _("%(fighter)s takes the blow without parrying.") % {
                "fighter": parry["label"]
            }
        else:
            text = ngettext(
                "%(fighter)s commits %(n)s defence die to the parry.",
                "%(fighter)s commits %(n)s defence dice to the parry.",
                parry["dice"],
            ) % {"fighter": parry["label"], "n": parry["dice"]}
            if parry.get("counter"):
                text += " " + _("Contre-attaque declared.")
        if parry.get("odds"):
            text += " " + _(
                "Odds that the blow does not land (a six of the attacker counted "
                "as kept): %(odds)s."
            ) % {"odds": percent(parry["odds"])}
        return text + _certain_text(p), "VII-C-4"
    if "returned" in p:
        back = p["returned"]
        return _("The attack failed: %(fighter)s keeps its %(n)s defence dice.") % {
            "fighter": back["label"],
            "n": back["dice"],
        }, "VII-C-4"
    if "gained" in p:
        gained = p["gained"]
        return _(
            "%(fighter)s wins an attack die (%(ability)s), used at once "
            "against %(target)s."
        ) % {
            "fighter": gained["label"],
            "ability": ABILITY_WORDS.get(gained["ability"], gained["ability"]),
            "target": gained["target_label"],
        } + _certain_text(p), "VII-C-4"
    if "parry_certain" in p:
        sure = p["parry_certain"]
        return ngettext(
            "%(fighter)s's parry cannot fail (%(n)s die + DEF %(value)s against "
            "%(needed)s): not rolled, the blow is parried.",
            "%(fighter)s's parry cannot fail (%(n)s dice, one kept, + DEF "
            "%(value)s against %(needed)s): not rolled, the blow is parried.",
            sure["dice"],
        ) % {
            "fighter": sure["label"],
            "n": sure["dice"],
            "value": sure["value"],
            "needed": sure["needed"],
        }, sure.get("section", "VII-C-4")
    if "pursued" in p:
        pursued = p["pursued"]
        return _(
            "%(fighter)s's pursuit move brings it into contact with %(target)s: "
            "combat %(n)s is now %(fighters)s."
        ) % {
            "fighter": pursued["label"],
            "target": pursued["target_label"],
            "n": pursued["combat"] + 1,
            "fighters": ", ".join(names.get(f, f) for f in pursued["fighters"]),
        }, "VII-C-6"
    if "ended" in p:
        text = (
            _("Combat %(n)s is over: one side has no fighter left in it.")
            if p.get("reason") == "no_adversary"
            else _("Combat %(n)s is over: no attack die is left.")
        ) % {"n": p["ended"] + 1}
        if p.get("free"):
            freed = ", ".join(
                p.get("free_labels") or [names.get(f, f) for f in p["free"]]
            )
            text += " " + (
                _(
                    "Freed: %(fighters)s. A pursuit move is made at the table; "
                    "record the contact it makes."
                )
                if p.get("pursuit") == "at_the_table"
                else _("Freed: %(fighters)s; they do not pursue.")
            ) % {"fighters": freed}
        return text, "VII-C-3"
    if "exchange" in p and p.get("opener"):
        return _("Exchange %(n)s begins: %(side)s attacks first.") % {
            "n": p["exchange"],
            "side": side_word(p["opener"], mid=True),
        }, "VII-C-3"
    if "exchange" in p:
        return _("Exchange %(n)s begins.") % {"n": p["exchange"]}, "VII-C-3"
    return None


def _certain_text(p: Mapping[str, Any]) -> str:
    """An attack test that could not fail, not rolled (RULES_API "Melee")."""
    sure = p.get("attack_certain")
    if not sure:
        return ""
    return " " + _(
        "Its attack test cannot fail (1d6 + ATT %(value)s is at least 1, and "
        "no defence die is committed): not rolled, the wound roll follows."
    ) % {"value": sure["value"]}


def _pending_set(p, who, names):
    pending = p.get("pending") or {}
    if pending.get("purpose") == "disengage":
        text = _("%(what)s: difficulty %(difficulty)s.")
        values = {
            "what": pending_title(pending, names),
            "difficulty": pending["difficulty"],
        }
        return text % values, "Désengagement"
    if pending.get("kind") == "wound" and pending.get("purpose") != "shot":
        target = names.get((pending.get("context") or {}).get("target", ""), "")
        if target:
            text = _("%(fighter)s takes the blow without parrying.")
            return text % {"fighter": target}, "IV-C"
        return _("%(side)s takes the blow without parrying.") % {"side": who}, "IV-C"
    return None


def _contacts_changed(p, who, names):
    if "labels" not in p:
        return None
    text = (
        _("%(one)s and %(two)s are now in contact.")
        if p["contact"]
        else _("%(one)s and %(two)s are no longer in contact.")
    )
    return text % {"one": p["labels"][0], "two": p["labels"][1]}, "II-E"


def _courage_certain(p, who, names):
    """IX: a Courage test the dice cannot miss, recorded without a roll (a
    fearsome fighter's with its own PEUR; one the living dead call for)."""
    if p.get("characteristic") == "PEUR":
        text = _(
            "%(fighter)s faces %(feared)s's PEUR %(fear)s with its own PEUR "
            "%(courage)s: the test cannot fail, no roll needed."
        )
    else:
        text = _(
            "%(fighter)s faces %(feared)s's PEUR %(fear)s with COU %(courage)s: "
            "the test cannot fail, no roll needed."
        )
    text = text % {
        "fighter": p["label"],
        "feared": p["feared_label"],
        "fear": p["fear"],
        "courage": p["courage"],
    }
    if p.get("living_dead"):
        text += " " + _("(The living dead frighten everyone, even the bravest.)")
    return text, p.get("section", "IX")


def _courage_spared(p, who, names):
    """IX: a Courage test a passed one spares (``fear_immunity``)."""
    return _(
        "%(fighter)s faces %(feared)s's PEUR %(fear)s: no test, it already "
        "passed one against PEUR %(resisted)s."
    ) % {
        "fighter": p["label"],
        "feared": p["feared_label"],
        "fear": p["fear"],
        "resisted": p["resisted"],
    }, p.get("section", "IX")


EVENTS = {
    "courage_certain": _courage_certain,
    "courage_spared": _courage_spared,
    "combat_updated": _combat_updated,
    "pending_set": _pending_set,
    "contacts_changed": _contacts_changed,
}
