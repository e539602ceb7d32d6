"""Magic and faith: gems, counter-magic, mastery, the power test (X, XI).

Chapters X (magic) and XI (faith) are not among the seeds. What public
sources establish is gathered in ``rules-data/magic-faith-sources.md`` (the
"digest", cited below by its section and source ids); what they establish is
the rule, what they leave open is a named house ruling (``HOUSE_RULINGS``)
with a default, chosen at the game's creation and shown to the players.

* Mana is counted in gems of six elements; a cost may also ask ``neutral``
  gems, paid with any element (digest §1 [read] M3, M6, M14).
* Counter-magic: an enemy magician pays the *opposed* gems, one for one, and
  the spell is cancelled with no roll (§3.4 [read] M3); the oppositions are
  air-earth, water-fire, light-darkness, and darkness is opposed to every
  element and to itself (§1 [read] M3).
* Mastery: each extra gem is one more die on the power test (§3.5 [read] M3,
  M5), the best kept (II-A-2); the power test is 1d6 + current POU against the
  difficulty (§3.6 [read] M1 II-B-4).
* Recovery/X adds X gems of an element the magician masters, never above his
  reserve's maximum (§3 [read] M4, M6).
* A miracle: the faithful's cult or a universal one (§4.1 [read] M7), the
  fervour chosen up to the remaining temporary faith (§4.2 [read] M12).

Everything here is pure: no state of a game, no dice drawn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.checks import lowest_final_result
from rules.errors import _
from rules.house import HouseRuling
from rules.several_dice import MAX_TEST_DICE, dice_test_success

__all__ = [
    "ASPECTS",
    "CONVENTIONS",
    "AREA_KINDS",
    "DURATION_KINDS",
    "ELEMENTS",
    "FAITHFUL_RANKS",
    "GEM_KINDS",
    "HOUSE_RULINGS",
    "MAGICIAN_RANKS",
    "MAX_EXTRA_GEMS",
    "MIRACLE_FIELDS",
    "NEUTRAL",
    "SPELL_FIELDS",
    "Difficulty",
    "can_call",
    "can_pay",
    "counter_payment",
    "fervour_bounds",
    "gem_count",
    "normal_reserve",
    "opposed",
    "parse_difficulty",
    "pay",
    "power_dice",
    "power_odds",
    "ruled_success",
    "recover",
    "temporary_faith",
]

# --- enumerations (digest §1) -------------------------------------------------

# "Mana elements | Light, Darkness, Air, Water, Fire, Earth | [read] M3"
ELEMENTS: tuple[str, ...] = ("light", "darkness", "air", "water", "fire", "earth")
# "Other gem kinds | neutral (...) = any element | [read] M14, M6"
NEUTRAL = "neutral"
GEM_KINDS: tuple[str, ...] = (*ELEMENTS, NEUTRAL)

# "Magician ranks | Initiate 1, Adept 2, Master 3, Virtuoso 4 | [read]"
MAGICIAN_RANKS: dict[str, int] = {"initiate": 1, "adept": 2, "master": 3, "virtuoso": 4}
# "Faithful ranks | Devout 1, Zealot 2, Dean 3, Avatar 4 | [read]"
FAITHFUL_RANKS: dict[str, int] = {"devout": 1, "zealot": 2, "dean": 3, "avatar": 4}
# "Faithful aspects | Creation, Alteration, Destruction | [read] M7"
ASPECTS: tuple[str, ...] = ("creation", "alteration", "destruction")

# "Spell card fields (C3) | Path, Range, Difficulty, Duration, Area of Effect,
# Frequency, Intensity, A.P., gem cost (element x count) | [read] M6"
SPELL_FIELDS: tuple[str, ...] = (
    "path",
    "range",
    "difficulty",
    "duration",
    "area",
    "frequency",
    "intensity",
    "points",
    "cost",
)
# "Miracle card fields (C3) | Fervor, C./A./D., Cult (or "Universal"),
# Difficulty, Area of Effect, Range, Duration, A.P. | [read] M7"
MIRACLE_FIELDS: tuple[str, ...] = (
    "fervour",
    "aspects",
    "cult",
    "difficulty",
    "area",
    "range",
    "duration",
    "points",
)
# "Duration kinds (CF II-C-3) | Instantaneous · N rounds · until end of game ·
# Entretien/X [...]; C3 cards also show "Until end of round" | [read] M1, M6, M7"
DURATION_KINDS: tuple[str, ...] = (
    "instant",
    "rounds",
    "game",
    "upkeep",
    "end_of_round",
)
# "Area kinds (CF II-C-1) | one fighter · designation · radius in cm [...] ·
# dice-rolled radius | [read] M1"
AREA_KINDS: tuple[str, ...] = ("fighter", "designation", "radius", "dice_radius")

UNIVERSAL = "universal"
MAX_EXTRA_GEMS = MAX_TEST_DICE - 1  # the power test rolls at most MAX_TEST_DICE dice
MAX_GEMS = 99  # the most gems of one element a reserve holds (input bound)


# --- house rulings (digest: HR-M1..M4, HR-F1..F5) -----------------------------

HOUSE_RULINGS: dict[str, HouseRuling] = {
    "gems_on_failure": HouseRuling(
        default="spent",
        choices=("spent", "refunded"),
        section="X (HR-M3)",
        question=_("Are a spell's gems lost when its power test fails?"),
        reason=_(
            "Not found in the sources (magic-faith-sources.md §3, HR-M3): the "
            "gems are paid when the spell is cast, and lost whether it succeeds "
            "or fails; or given back after a failed power test."
        ),
    ),
    "mana_maximum": HouseRuling(
        default="starting_reserve",
        choices=("starting_reserve", "power", "none"),
        section="X-G-1 (HR-M1)",
        question=_("What is a magician's most mana?"),
        reason=_(
            "The reserve's maximum is not in any source (HR-M1): by default the "
            "gems it starts the game with, entered per magician; or its POU in "
            "gems; or no maximum. Gains never exceed it (Recovery/X, M4)."
        ),
    ),
    "counter_neutral": HouseRuling(
        default="any_gem",
        choices=("any_gem", "not_countered"),
        section="X (HR-M4)",
        question=_("How is a neutral gem of a spell countered?"),
        reason=_(
            "Counter-magic pays the opposed gems one for one (M3); a neutral "
            "gem has no opposed element (HR-M4): by default any one gem "
            "counters it; or it is left out of the counter (a spell of neutral "
            "gems only cannot be countered)."
        ),
    ),
    "counter_frequency": HouseRuling(
        default="used",
        choices=("used", "not_used"),
        section="X (HR-M4)",
        question=_("Does a countered spell use up its frequency?"),
        reason=_(
            "Not found in the sources (HR-M4): the window opens after the gems "
            "are paid and before the power test; a countered spell was cast, "
            "so it counts against its frequency this round."
        ),
    ),
    "natural_one": HouseRuling(
        default="no_automatic_failure",
        choices=("no_automatic_failure", "fails"),
        section="X, XI (II-A)",
        question=_("Does a natural 1 fail a power or faith test?"),
        reason=_(
            "Conf'Fédé: a 1 is no automatic failure, only a final result of 0 "
            "or less fails (II-A, M1); C3 made a natural 1 fail a power test "
            "(Spirit of X, M5)."
        ),
        basis="read",
    ),
    "mana_recovery": HouseRuling(
        default="entered",
        choices=("entered", "recovery_only"),
        section="X-G-1 (HR-M2)",
        question=_("How is mana recovered at the upkeep?"),
        reason=_(
            "The recovery roll is not in any source (HR-M2): the players enter "
            "the gems recovered at the table (at most the reserve's maximum); "
            "or only Recovery/X gains: X gems of an element the magician "
            "masters (M4)."
        ),
    ),
    "temporary_faith": HouseRuling(
        default="entered",
        choices=("entered", "printed"),
        section="XI-B-2 (HR-F1)",
        question=_("How is a faithful's temporary faith counted?"),
        reason=_(
            "The formula (believers counted) is not in any source (HR-F1): the "
            "players enter it at each upkeep, at most the card's FOI; or it is "
            "the card's FOI each time."
        ),
    ),
}

# What the sources leave open and the app does one way only (shown with the
# rulings, not chosen): the miracle's roll (HR-F2), censure (HR-F4), the
# aspects (HR-F3), the calls per round (HR-F5).
CONVENTIONS: dict[str, HouseRuling] = {
    "miracle_test": HouseRuling(
        default="faith_test",
        choices=("faith_test",),
        section="XI (HR-F2)",
        question=_("What is rolled to call a miracle?"),
        reason=_(
            "A miracle's roll exists and can fail (M11, M12) but what is rolled "
            "is not in any source (HR-F2): 1d6 + current FOI against the "
            "difficulty."
        ),
    ),
    "censure": HouseRuling(
        default="manual",
        choices=("manual",),
        section="XI (HR-F4)",
        question=_("How is an enemy miracle censured?"),
        reason=_(
            "Censure has no source (HR-F4): no censure roll; the players end "
            "the miracle's lasting effect by hand when a card says so."
        ),
    ),
    "aspects": HouseRuling(
        default="not_checked",
        choices=("not_checked",),
        section="XI (HR-F3)",
        question=_("Must a miracle's aspects be within the faithful's?"),
        reason=_(
            "Probably each of the miracle's C/A/D at most the faithful's "
            "[inferred] (HR-F3): not checked in the game."
        ),
    ),
    "combat_casting": HouseRuling(
        default="floor",
        choices=("floor",),
        section="IV-C (M2)",
        question=_("When do warrior-mages and warrior-monks cast in a combat?"),
        reason=_(
            "Ch. 4 says some fighters cast or call in the combat phase (M2); "
            "which ones and when is not read: those whose card has "
            "Guerrier-mage or Moine-guerrier, whenever their side has the floor "
            "in the combat phase and nothing is under way."
        ),
    ),
    "calls_per_round": HouseRuling(
        default="unlimited",
        choices=("unlimited",),
        section="XI (HR-F5)",
        question=_("How many miracles may a faithful call in a round?"),
        reason=_(
            "Only what cards print limits the calls (HR-F5): as many as his "
            "temporary faith pays for."
        ),
    ),
}


# --- gems ---------------------------------------------------------------------


def _counts(gems: Mapping[str, Any] | None, what: str) -> dict[str, int]:
    """``gems`` checked: known kinds, whole numbers 0 or more; zeros dropped."""
    if gems is None:
        return {}
    if not isinstance(gems, Mapping):
        raise ValueError(f"{what} is a mapping of element to a number of gems.")
    found: dict[str, int] = {}
    for kind, count in gems.items():
        if kind not in GEM_KINDS:
            raise ValueError(f"Unknown gem kind {kind!r}: one of {GEM_KINDS}.")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{what}: a number of gems is a whole number >= 0.")
        if count:
            found[kind] = found.get(kind, 0) + count
    return found


def normal_reserve(gems: Mapping[str, Any] | None) -> dict[str, int]:
    """A reserve as the state keeps it: every element (no neutral gem: a
    gem in hand has an element), in ``ELEMENTS`` order, zeros kept."""
    counts = _counts(gems, "A reserve")
    if counts.get(NEUTRAL):
        raise ValueError("A reserve holds gems of an element, not neutral gems.")
    return {element: counts.get(element, 0) for element in ELEMENTS}


def gem_count(gems: Mapping[str, int] | None) -> int:
    """The number of gems in ``gems``."""
    return sum(_counts(gems, "Gems").values())


def opposed(element: str) -> set[str]:
    """The elements opposed to ``element`` (digest §1 [read] M3).

    "Air<->Earth, Water<->Fire, Light<->Darkness; Darkness is also opposed to
    every element and to itself."
    """
    pairs = {"air": "earth", "earth": "air", "water": "fire", "fire": "water"}
    pairs |= {"light": "darkness", "darkness": "light"}
    if element not in ELEMENTS:
        raise ValueError(f"Unknown element {element!r}: one of {ELEMENTS}.")
    if element == "darkness":
        return set(ELEMENTS)
    return {pairs[element], "darkness"}


def _pay_neutral(left: dict[str, int], count: int) -> None:
    """Take ``count`` gems of any element from ``left``: the most plentiful
    element first (ties: ``ELEMENTS`` order), so the reserve stays varied."""
    for _gem in range(count):
        element = max(ELEMENTS, key=lambda e: (left.get(e, 0), -ELEMENTS.index(e)))
        if left.get(element, 0) <= 0:
            raise ValueError("Not enough gems for the neutral part of the cost.")
        left[element] -= 1


def pay(
    reserve: Mapping[str, int],
    cost: Mapping[str, int],
    *,
    extra: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """The reserve after paying ``cost`` and the ``extra`` (mastery) gems.

    Gems of an element are paid with that element; ``neutral`` gems are paid
    last, from whatever is left (digest §3.3 [read] M3, M6). ``ValueError``
    when the reserve cannot pay. The result has the reserve's elements (every
    element, zeros kept).
    """
    left = normal_reserve(reserve)
    due = _counts(cost, "A cost")
    more = _counts(extra, "Extra gems")
    neutral = due.pop(NEUTRAL, 0) + more.pop(NEUTRAL, 0)
    for part in (due, more):
        for element, count in part.items():
            if left[element] < count:
                raise ValueError(
                    f"Not enough {element} gems: {left[element]} for {count}."
                )
            left[element] -= count
    _pay_neutral(left, neutral)
    return left


def can_pay(reserve: Mapping[str, int], cost: Mapping[str, int]) -> bool:
    """Whether ``reserve`` can pay ``cost`` (neutral gems from any element)."""
    try:
        pay(reserve, cost)
    except ValueError:
        return False
    return True


def counter_payment(
    reserve: Mapping[str, int],
    cost: Mapping[str, int],
    *,
    neutral: str = "any_gem",
) -> dict[str, int] | None:
    """The gems a counter-magician pays to cancel a spell costing ``cost``,
    or None when his ``reserve`` cannot.

    Digest §3.4 [read] M3: the opposed gems, one for one. Each gem of an
    element is countered by a gem of an element ``opposed`` to it; a neutral
    gem by any one gem (``neutral="any_gem"``, HR-M4's default) or by none
    (``"not_countered"``). The mastery gems are not countered (HR-M4).
    A gem's own opposite is spent before darkness (which counters every
    element), so whatever can pay is found.
    """
    left = normal_reserve(reserve)
    due = _counts(cost, "A cost")
    paid = {element: 0 for element in ELEMENTS}

    def take(element: str, count: int) -> int:
        used = min(left[element], count)
        left[element] -= used
        paid[element] += used
        return count - used

    wanting_darkness = 0
    for element, count in due.items():
        if element in (NEUTRAL, "darkness"):
            continue
        own = next(iter(opposed(element) - {"darkness"}), None)
        rest = take(own, count) if own else count
        wanting_darkness += rest
    if take("darkness", wanting_darkness):
        return None
    anything = due.get("darkness", 0)
    if neutral == "any_gem":
        anything += due.get(NEUTRAL, 0)
    try:
        before = dict(left)
        _pay_neutral(left, anything)
    except ValueError:
        return None
    for element in ELEMENTS:
        paid[element] += before[element] - left[element]
    return {element: n for element, n in paid.items() if n}


# --- the power test -------------------------------------------------------------


def power_dice(extra_gems: int) -> int:
    """The dice of a power test: 1, plus one per extra gem (mastery).

    Digest §3.5 [read] M3, M5: "Each extra gem gives one more die on the
    test"; the best die is kept (II-A-2).
    """
    if isinstance(extra_gems, bool) or not isinstance(extra_gems, int):
        raise ValueError("A number of extra gems is a whole number.")
    if extra_gems < 0:
        raise ValueError("A number of extra gems is 0 or more.")
    return 1 + extra_gems


def power_odds(
    power: int,
    difficulty: int,
    extra_gems: int = 0,
    *,
    natural_one: str = "no_automatic_failure",
) -> Fraction:
    """The exact odds of a power test: the best of ``power_dice(extra_gems)``
    d6 (II-A-2) + current POU against ``difficulty`` (§3.6 [read]).

    With the ruling ``natural_one="fails"`` (C3, M5) a kept natural 1 fails:
    it can only have won when ``power + 1`` reaches the difficulty, and then
    no six is rerolled, so it is every die showing 1: ``(1/6) ** dice`` less.
    """
    dice = power_dice(extra_gems)
    if dice > MAX_TEST_DICE:
        raise ValueError(f"A power test rolls at most {MAX_TEST_DICE} dice.")
    return dice_test_success(power, difficulty, dice) - _ones_lost(
        power, difficulty, dice, natural_one
    )


def ruled_reroll_odds(
    reroll: Fraction, power: int, difficulty: int, sixes: int, *, natural_one: str
) -> Fraction:
    """P(success) of rerolling the ``sixes`` showing of a power or faith test
    (``reroll``: as II-A-1 and II-A-2 give it) under the ``natural_one``
    ruling: the reroll loses what a natural 1 would have won."""
    return reroll - _ones_lost(power, difficulty, sixes, natural_one)


def _ones_lost(power: int, difficulty: int, dice: int, natural_one: str) -> Fraction:
    """What the ruling ``natural_one="fails"`` (C3, M5) takes from a throw of
    ``dice`` d6: a kept natural 1 could only have won where ``power + 1``
    reaches the difficulty (II-A-1); there every other face wins, so it is
    every die showing 1, ``(1/6) ** dice``. Nothing under CF's ruling."""
    if natural_one == "fails" and lowest_final_result(power) >= difficulty:
        return Fraction(1, 6) ** dice
    return Fraction(0)


def ruled_success(natural: int, winning: bool, *, natural_one: str) -> bool:
    """A power or faith test's outcome under the ``natural_one`` ruling."""
    return winning and not (natural_one == "fails" and natural == 1)


# --- difficulties: a number or a formula (digest §1 "Difficulty forms") --------


@dataclass(frozen=True)
class Difficulty:
    """A spell's or a miracle's difficulty as printed.

    ``kind``: ``"number"`` (``value``), ``"formula"`` (``base`` + ``plus``:
    the target's or the caster's characteristic, or the chosen fervour),
    ``"free"`` (the caster chooses), ``"special"`` (read on the card) or
    ``"unknown"`` (not understood; ``text`` kept).
    """

    kind: str
    text: str
    value: int | None = None
    base: str | None = None
    plus: int = 0

    def resolve(self, values: Mapping[str, int] | None = None) -> int | None:
        """The number, with the formula's characteristic from ``values``
        (``{"target:RES": 4, "caster:POU": 5, "fervour": 2}``); None when it
        cannot be worked out."""
        if self.kind == "number":
            return self.value
        if self.kind == "formula" and values and self.base in values:
            return values[self.base] + self.plus
        return None


_BASES = {
    # Italian and English names of the characteristics a formula names.
    "for": "target:FOR",
    "str": "target:FOR",
    "att": "target:ATT",
    "res": "target:RES",
    "peu": "target:PEUR",
    "pau": "target:PEUR",
    "paura": "target:PEUR",
    "fear": "target:PEUR",
    "pot": "caster:POU",
    "pow": "caster:POU",
    "pou": "caster:POU",
    "fervore": "fervour",
    "fervour": "fervour",
    "fervor": "fervour",
    "ferveur": "fervour",
    "f": "fervour",
    "x": "fervour",
}


def parse_difficulty(text: Any) -> Difficulty:
    """A printed difficulty read: "7", "RES+2", "Pot+1", "Fervore+3", "libera"
    (free), "speciale"; anything else is ``unknown`` with its text kept
    (digest §1 "Difficulty forms" [read] M12)."""
    raw = " ".join(str(text if text is not None else "").split())
    key = raw.casefold()
    if re.fullmatch(r"\d{1,2}", key):
        return Difficulty("number", raw, value=int(key))
    if key in ("libera", "free", "libre", "x"):
        return Difficulty("free", raw)
    if key in ("speciale", "special", "spéciale", "*"):
        return Difficulty("special", raw)
    found = re.fullmatch(
        r"(?:(?:del |du |of )?(?:bersaglio |target |cible )?)?([a-zà-ú]+)\.?"
        r"(?: del bersaglio| of target| de la cible)?\s*"
        r"(?:([+-])\s*(\d{1,2}))?",
        key,
    )
    if found and found.group(1) in _BASES:
        plus = int(found.group(3) or 0) * (-1 if found.group(2) == "-" else 1)
        return Difficulty("formula", raw, base=_BASES[found.group(1)], plus=plus)
    return Difficulty("unknown", raw)


# --- mana recovery (digest §3 "Not in any source" and [read] M4, M6) ----------


def recover(
    reserve: Mapping[str, int],
    gains: Mapping[str, int],
    *,
    mastered: Iterable[str],
    maximum: int | None,
) -> dict[str, int]:
    """The reserve after gaining ``gains`` at the upkeep.

    [read] M6: "Gems gained must be of elements the receiver masters"
    (``ValueError`` otherwise); [read] M4, M6: "Gains never exceed the
    reserve": the total stays at most ``maximum`` (None: no maximum), the
    gains beyond it are lost. Recovery/X is such a gain of X gems "whatever
    the roll" (M4).
    """
    left = normal_reserve(reserve)
    wanted = _counts(gains, "Gains")
    allowed = set(mastered)
    for element in wanted:
        if element not in allowed or element == NEUTRAL:
            raise ValueError(f"{element} is not an element this magician masters.")
    total = sum(left.values())
    for element in ELEMENTS:
        for _gem in range(wanted.get(element, 0)):
            if maximum is not None and total >= maximum:
                break
            left[element] += 1
            total += 1
    return left


# --- faith (digest §4) ----------------------------------------------------------


def can_call(miracle_cults: Iterable[str], faithful_cults: Iterable[str]) -> bool:
    """Whether a faithful of ``faithful_cults`` may call a miracle of
    ``miracle_cults``: one of his cults, or a universal miracle (§4.1 [read]
    M7; Conf2 miracles may list several cults, M12). Compared without case."""
    theirs = {str(c).strip().casefold() for c in miracle_cults if str(c).strip()}
    mine = {str(c).strip().casefold() for c in faithful_cults if str(c).strip()}
    return not theirs or UNIVERSAL in theirs or bool(theirs & mine)


def fervour_bounds(printed: int | None, faith_left: int) -> tuple[int, int]:
    """The fervour a faithful may give a miracle: the printed one, or chosen
    "just before the roll, never above the remaining T.F." (§4.2 [read] M12),
    at least 1. ``(low, high)``; ``high < low`` when he cannot call it."""
    if printed is not None:
        return printed, printed if printed <= faith_left else printed - 1
    return 1, faith_left


def temporary_faith(new: int, left: int, *, piety: int = 0) -> int:
    """The temporary faith after the upkeep's recalculation (§4 [read] M8):
    unspent faith is lost, except Piety/X, which keeps up to X of it, added
    to the new total (never cumulative over rounds: only what is left now)."""
    for name, value in (("new", new), ("left", left), ("piety", piety)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name}: a whole number >= 0.")
    return new + min(left, piety)
