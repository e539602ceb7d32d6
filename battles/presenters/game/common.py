"""What every phase's presenter shares: the panel, percentages, fighter rows.

A ``Panel`` is the part of the board where this phone acts (or waits). Its
``kind`` names its template, ``templates/battles/games/panels/<kind>.html``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from battles.presenters.words import CONDITIONS, gem_words, side_word
from rules.game import state as st

SHOWN_CHARACTERISTICS = ("MOU", "INI", "ATT", "FOR", "DEF", "RES", "TIR", "DIS")


def percent(value: str | Fraction | None) -> str:
    """A probability as a percentage with one decimal ("58,3 %" in French).

    The space before "%" is a no-break space, so "%" never wraps onto its own line.
    """
    if value is None:
        return ""
    tenths = _tenths(Fraction(value))
    return _percent_text(tenths)


def _tenths(value: Fraction) -> int:
    """The value in tenths of a percent, rounded half up (2/3: 667, not 666)."""
    scaled = value * 1000
    half = Fraction(1, 2)
    return int(scaled + half) if scaled >= 0 else -int(-scaled + half)


def _percent_text(tenths: int) -> str:
    return f"{number_format(Decimal(tenths) / 10, 1)}\u00a0%"


def percents(values: Sequence[str | Fraction]) -> list[str]:
    """A row of probabilities, each rounded to its nearest tenth of a percent
    (as ``percent``). The row may add up to 99,9 % or 100,1 %: no figure is
    bent to make it 100 (issue 31: 3/36 read 8,4 % for the sum's sake)."""
    return [percent(value) for value in values]


@dataclass
class Panel:
    """The part of the board where this phone acts (or waits)."""

    kind: str
    side: str | None = None
    title: str = ""
    section: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def template(self) -> str:
        return f"battles/games/panels/{self.kind}.html"


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
    penalty: bool
    gems: str = ""  # X: a magician's gems by element, in words


def fighter_view(state: Mapping[str, Any], fighter_id: str) -> FighterView:
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
        penalty=any(base != now for _code, base, now in values),
        gems=_gems(data.get("gems")),
    )


def _gems(gems: Mapping[str, int] | None) -> str:
    if gems is None:
        return ""
    return gem_words(gems)


def fighters_by_side(
    state: Mapping[str, Any], only: set[str] | None = None
) -> dict[str, list[FighterView]]:
    """Each side's fighters (``only``: just those fighters)."""
    return {
        side: [
            fighter_view(state, f)
            for f in st.fighters_of(state, side, living=False)
            if only is None or f in only
        ]
        for side in st.SIDES
    }


def changed_fighters(before: Mapping[str, Any], after: Mapping[str, Any]) -> set[str]:
    """The fighters whose row differs between two snapshots (for a small answer)."""
    changed = {
        f for f, data in after["fighters"].items() if before["fighters"].get(f) != data
    }
    old = {frozenset(pair) for pair in before.get("contacts", [])}
    new = {frozenset(pair) for pair in after.get("contacts", [])}
    for pair in old ^ new:
        changed |= set(pair)
    return changed


def flee_choices(state: Mapping[str, Any], offers) -> list[dict]:
    """The fighters ``offers``' side may mark as routed by fear (IX-E), as
    ``legal_actions`` lists them."""
    return options(
        state,
        [
            entry["fighter"]
            for entry in offers.of("set_routed")
            if True in entry["choices"]["routed"]
        ],
    )


def options(state: Mapping[str, Any], fighter_ids: Sequence[str]) -> list[dict]:
    return [{"id": f, "label": state["fighters"][f]["label"]} for f in fighter_ids]


def french() -> bool:
    """Is the player's language French (the upkeep items carry both wordings)?"""
    return (get_language() or "fr").startswith("fr")


def labels(state: Mapping[str, Any]) -> dict[str, str]:
    return {f: data["label"] for f, data in state["fighters"].items()}


def wait_panel(side: str | None, what: str, section: str = "") -> Panel:
    """What a phone shows while the other side acts: who, and doing what."""
    return Panel(
        "wait",
        side=side,
        title=_("Waiting for %(side)s: %(what)s")
        % {"side": side_word(side, mid=True), "what": what},
        section=section,
    )


def waiting_on(panel: Panel) -> Panel:
    """The wait panel for a panel that belongs to the other side."""
    return wait_panel(panel.side, panel.title, panel.section)
