"""A game's state as plain JSON data, and the questions asked of it.

The state is the fold of the game's events (``rules.game.evolve``); the app
stores it as the game's snapshot. It is a dict of plain JSON types so it
round-trips through the database unchanged. This module builds the initial
state from the armies (IV-A-1: one reference card drives one card of the
activation sequence) and answers questions about it: who is alive, who is in
contact with whom, a fighter's current value of a characteristic (II-A-4 with
the wound penalties of II-B-4).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from rules.checks import current_value
from rules.errors import IllegalAction, _
from rules.game.follows import then
from rules.magic import normal_reserve
from rules.turn import DEFAULT_TURNS
from rules.wounds import Health

SCHEMA = 1
SIDES = ("a", "b")
CHARACTERISTICS = (
    "MOU",
    "INI",
    "ATT",
    "FOR",
    "DEF",
    "RES",
    "TIR",
    "COU",
    "PEUR",
    "DIS",
    "POU",
    "FOI",
)
MAX_TURNS = 20
MAX_FIGHTERS_PER_CARD = 20
MAX_CARDS_PER_SIDE = 40

State = dict[str, Any]


def other(side: str) -> str:
    """The adversary's side."""
    return "b" if side == "a" else "a"


def _number(value: Any, field: str, card_name: str) -> float | int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{card_name}: {field} must be a number, not {value!r}.")
    return value


def new_state(setup: Mapping[str, Any]) -> State:
    """The state at the start of a game, before the first strategic phase.

    ``setup`` = ``{"turns": 6, "sides": {"a": side, "b": side}}`` where a side
    is ``{"name", "army", "people", "alliance", "cards": [card, ...]}`` and a
    card is ``{"name", "people", "is_ally", "size", "skills": ["Vol/X", ...],
    "profile": {"MOU": 10, ...}, "weapon": {"strength", "ranges"} | None,
    "fighters": n}`` and, for a flyer, ``"flight_mou"``: its movement in flight
    (``profile["MOU"]`` is its ground movement). Raises ``ValueError`` for a
    setup that cannot be played.
    """
    turns = setup.get("turns", DEFAULT_TURNS)
    if isinstance(turns, bool) or not isinstance(turns, int):
        raise ValueError("The number of turns is a whole number.")
    if not 1 <= turns <= MAX_TURNS:
        raise ValueError(f"A game lasts 1 to {MAX_TURNS} turns.")
    sides_in = setup.get("sides") or {}
    if set(sides_in) != set(SIDES):
        raise ValueError("A game needs side A and side B.")

    state: State = {
        "schema": SCHEMA,
        "turns": turns,
        "turn": 1,
        "phase": "strategic",
        "step": "sequences",
        "sides": {},
        "cards": {},
        "fighters": {},
        "sequences": {"a": None, "b": None},
        "tactics": {"fighters": {"a": None, "b": None}, "winner": None, "first": None},
        "draw": None,
        "active": None,
        "acted": {},
        "contacts": [],
        "combat": None,
        "upkeep": None,
        "pending": None,
        "finished": None,
    }
    labels: set[str] = set()
    # Fighters are numbered per name across a side ("Guerrier 1".."Guerrier 6"
    # for two cards of three), so a label names one fighter on the table.
    per_name = {
        side: _count_by_name(sides_in[side].get("cards") or []) for side in SIDES
    }
    for side in SIDES:
        side_in = sides_in[side]
        cards = side_in.get("cards") or []
        if not cards:
            raise ValueError(f"Side {side.upper()} has no reference card.")
        if len(cards) > MAX_CARDS_PER_SIDE:
            raise ValueError(f"A side has at most {MAX_CARDS_PER_SIDE} cards.")
        state["sides"][side] = {
            "name": str(side_in.get("name") or f"Side {side.upper()}"),
            "army": str(side_in.get("army") or ""),
            "people": str(side_in.get("people") or ""),
            "alliance": side_in.get("alliance") or None,
            "cards": [],
        }
        numbered: dict[str, int] = {}
        for index, card in enumerate(cards, start=1):
            card_id = f"{side}{index}"
            name = str(card.get("name") or "").strip()
            if not name:
                raise ValueError("Every reference card needs a name.")
            count = card.get("fighters", 1)
            if isinstance(count, bool) or not isinstance(count, int):
                raise ValueError(f"{name}: the number of fighters is a whole number.")
            if not 1 <= count <= MAX_FIGHTERS_PER_CARD:
                raise ValueError(
                    f"{name}: a card activates 1 to {MAX_FIGHTERS_PER_CARD} fighters."
                )
            profile_in = card.get("profile") or {}
            profile = {
                key: _number(profile_in.get(key), key, name) for key in CHARACTERISTICS
            }
            weapon = card.get("weapon")
            if weapon:
                ranges = [int(r) for r in weapon["ranges"]]
                if len(ranges) != 3 or not ranges[0] <= ranges[1] <= ranges[2]:
                    raise ValueError(f"{name}: ranges go short <= medium <= long.")
                weapon = {"strength": int(weapon["strength"]), "ranges": ranges}
            state["cards"][card_id] = {
                "side": side,
                "name": name,
                "people": str(card.get("people") or side_in.get("people") or ""),
                "is_ally": bool(card.get("is_ally", False)),
                "size": str(card.get("size") or "normal"),
                "skills": [str(s) for s in card.get("skills") or []],
                "profile": profile,
                "flight_mou": _number(card.get("flight_mou"), "flight MOU", name),
                "weapon": weapon or None,
                "fighters": [],
                **_mystic_card(card, name, profile),
            }
            state["sides"][side]["cards"].append(card_id)
            for number in range(1, count + 1):
                fighter_id = f"{card_id}.{number}"
                numbered[name] = numbered.get(name, 0) + 1
                label = name
                if per_name[side].get(name, 0) > 1:
                    label = f"{name} {numbered[name]}"
                if label in labels:
                    label = f"{label} ({side.upper()})"
                labels.add(label)
                state["cards"][card_id]["fighters"].append(fighter_id)
                state["fighters"][fighter_id] = {
                    "card": card_id,
                    "side": side,
                    "label": label,
                    "steps": 0,
                    "stunned": False,
                    "routed": False,
                    "eliminated": False,
                    "charged": False,
                    # Mystic reserves (X, XI are not among the seeds): they start
                    # at the card's POU / FOI and the players keep them up to date.
                    "mana": profile["POU"],
                    "faith": profile["FOI"],
                    # X: a magician's reserve of gems by element (the card's
                    # "gems"; rules-data/magic-faith-sources.md, HR-M1).
                    "gems": _starting_gems(card, name, profile),
                }
                if state["fighters"][fighter_id]["gems"] is not None:
                    total = sum(state["fighters"][fighter_id]["gems"].values())
                    state["fighters"][fighter_id]["mana"] = total
                    # HR-M1 "starting_reserve": the most gems it holds.
                    state["fighters"][fighter_id]["gems_max"] = total
    # X, XI: the spells and miracles of the game (their cards' data), and the
    # spells cast this round by each magician (the frequency, §3.1).
    state["spells"] = then("normal_spells")(setup.get("spells"))
    state["miracles"] = then("normal_miracles")(setup.get("miracles"))
    state["casts"] = {}
    return state


def _starting_gems(
    card: Mapping[str, Any], name: str, profile: Mapping[str, Any]
) -> dict[str, int] | None:
    """The card's reserve of gems (``{element: n}``), every element listed;
    ``None`` for a card with no gems given (a magician's is then entered at
    the table, ``set_mystic``)."""
    if card.get("gems") is None:
        return None
    try:
        return normal_reserve(card["gems"])
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None


def _mystic_card(
    card: Mapping[str, Any], name: str, profile: Mapping[str, Any]
) -> dict[str, Any]:
    """What a card says of magic and faith: the spells and miracles its
    fighters know (None: every one of the game's), the elements it masters
    (its gems' when not listed), its cults."""

    def names(key: str) -> list[str] | None:
        value = card.get(key)
        if value is None:
            return None
        if isinstance(value, str) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"{name}: {key} is a list of names.")
        return [str(v) for v in value]

    gems = card.get("gems") or {}
    elements = names("elements")
    if elements is None:
        elements = [e for e, n in dict(gems).items() if n and e != "neutral"]
    cults = card.get("cults") or []
    if isinstance(cults, str):
        cults = [cults]
    return {
        "spells": names("spells"),
        "miracles": names("miracles"),
        "elements": elements,
        "cults": [str(c) for c in cults],
    }


def _count_by_name(cards: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in cards:
        name = str(card.get("name") or "").strip()
        fighters = card.get("fighters", 1)
        counts[name] = counts.get(name, 0) + (
            fighters if isinstance(fighters, int) else 1
        )
    return counts


def copy_state(state: State) -> State:
    """A deep copy: events never change the state they were given."""
    return copy.deepcopy(state)


# --- questions about fighters ------------------------------------------------


def fighter(state: State, fighter_id: Any) -> dict[str, Any]:
    """The fighter ``fighter_id``, or ``IllegalAction`` if there is none."""
    found = state["fighters"].get(fighter_id) if isinstance(fighter_id, str) else None
    if found is None:
        raise IllegalAction(_("There is no such fighter in this game."))
    return found


def living_fighter(state: State, fighter_id: Any) -> dict[str, Any]:
    """Like ``fighter`` but refuses an eliminated one."""
    found = fighter(state, fighter_id)
    if found["eliminated"]:
        raise IllegalAction(_("{fighter} was eliminated."), fighter=found["label"])

    return found


def card_of(state: State, fighter_id: str) -> dict[str, Any]:
    """The reference card a fighter belongs to."""
    return state["cards"][state["fighters"][fighter_id]["card"]]


def health(state: State, fighter_id: str) -> Health:
    """The fighter's wound steps and stun as ``rules.wounds.Health``."""
    data = state["fighters"][fighter_id]
    return Health(wound_steps=data["steps"], stunned=data["stunned"])


def base_value(state: State, fighter_id: str, characteristic: str) -> Any:
    """The reference card's value, ``None`` when the card has none ("-")."""
    return card_of(state, fighter_id)["profile"].get(characteristic)


def value_of(state: State, fighter_id: str, characteristic: str) -> int | None:
    """The current value: card value with the wound penalties (II-A-4, II-B-4).

    ``None`` when the card has no such characteristic. MOU never below 0,
    RES never below 1 (II-A-4); fractional MOU (12.5) stays as printed.
    """
    base = base_value(state, fighter_id, characteristic)
    if base is None:
        return None
    penalty = health(state, fighter_id).penalty_for(characteristic)
    if isinstance(base, float) and not base.is_integer():
        return max(0, base + penalty) if characteristic == "MOU" else base + penalty
    return current_value(
        int(base), maluses=(penalty,) if penalty else (), characteristic=characteristic
    )


def movement_value(state: State, fighter_id: str) -> float | int | None:
    """The MOU a move uses: the ground value, or the flight value (with the
    same wound penalty, never below 0) while the fighter flies."""
    ground = value_of(state, fighter_id, "MOU")
    flight = card_of(state, fighter_id).get("flight_mou")
    if ground is None or flight is None:
        return ground
    if not state["fighters"][fighter_id].get("flying"):
        return ground
    penalty = ground - base_value(state, fighter_id, "MOU")
    return max(0, flight + penalty)


def fighters_of(state: State, side: str, *, living: bool = True) -> list[str]:
    """The side's fighters, in card order; only the living by default."""
    result = []
    for card_id in state["sides"][side]["cards"]:
        for fighter_id in state["cards"][card_id]["fighters"]:
            if not living or not state["fighters"][fighter_id]["eliminated"]:
                result.append(fighter_id)
    return result


def card_alive(state: State, card_id: str) -> bool:
    """Whether at least one of the card's fighters is still in play."""
    return any(
        not state["fighters"][f]["eliminated"]
        for f in state["cards"][card_id]["fighters"]
    )


def eliminated_cards(state: State, side: str) -> list[str]:
    """Cards whose fighters were all eliminated (they leave the sequence, IV-A-1)."""
    return [c for c in state["sides"][side]["cards"] if not card_alive(state, c)]


def cards_in_play(state: State, side: str) -> list[str]:
    """The cards that make this turn's activation sequence (IV-A-1)."""
    return [c for c in state["sides"][side]["cards"] if card_alive(state, c)]


def wiped_out(state: State, side: str) -> bool:
    """Every fighter of the side is eliminated."""
    return not fighters_of(state, side)


# --- contact (II-E) ---------------------------------------------------------


def _pair(one: str, two: str) -> list[str]:
    return sorted((one, two))


def in_contact(state: State, one: str, two: str) -> bool:
    """Whether two fighters are in base contact (mutual, II-E)."""
    return _pair(one, two) in state["contacts"]


def adversaries_in_contact(state: State, fighter_id: str) -> list[str]:
    """The living enemies in base contact with the fighter (II-E)."""
    side = state["fighters"][fighter_id]["side"]
    found = []
    for one, two in state["contacts"]:
        if fighter_id in (one, two):
            partner = two if one == fighter_id else one
            if state["fighters"][partner]["side"] != side:
                found.append(partner)
    return found


def friends_in_contact_with(state: State, target: str, side: str) -> list[str]:
    """Fighters of ``side`` in contact with the enemy ``target`` (shot into melee)."""
    if state["fighters"][target]["side"] == side:
        return []
    return adversaries_in_contact(state, target)


def add_contacts(contacts: list[list[str]], pairs: Iterable[tuple[str, str]]) -> None:
    """Add contact pairs, each once, in a stable order."""
    for one, two in pairs:
        pair = _pair(one, two)
        if pair not in contacts:
            contacts.append(pair)


def remove_contacts_of(contacts: list[list[str]], fighter_id: str) -> list[list[str]]:
    """The contacts without those of ``fighter_id``."""
    return [pair for pair in contacts if fighter_id not in pair]
