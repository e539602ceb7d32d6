"""Movement distances and disengagement (initiation rules, seed 004).

"Déplacements": walk MOU x 1 cm, run MOU x 2 cm, engagement MOU x 2 cm (MOU x 1
cm after a disengagement). "Désengagement": who may try, by Initiative or by
Strength, the difficulty 4 + 2 per adversary in contact, and what a failure
costs (all combat dice in defence this turn). MOU is its current value, never
below 0 (II-A-4).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.checks import characteristic_test
from rules.errors import IllegalAction, Message, _, joined
from rules.size import Size, parse_size

__all__ = [
    "Adversary",
    "DisengageMethod",
    "DisengagementAttempt",
    "DisengagementPlan",
    "Disengager",
    "attempt_disengagement",
    "disengage_difficulty",
    "disengagement_plan",
    "engagement_distance_cm",
    "run_distance_cm",
    "walk_distance_cm",
]


def _current_mou(mou: int) -> int:
    # II-A-4: the current Mouvement is never below 0, whatever the maluses.
    return max(0, mou)


def walk_distance_cm(mou: int) -> int:
    """A walk ("Marche"): MOU x 1 cm (initiation rules, "Déplacements")."""
    return _current_mou(mou)


def run_distance_cm(mou: int) -> int:
    """A run ("Course"): MOU x 2 cm (initiation rules, "Déplacements")."""
    return 2 * _current_mou(mou)


def engagement_distance_cm(mou: int, *, after_disengagement: bool = False) -> int:
    """An engagement: MOU x 2 cm, or MOU x 1 cm after a disengagement.

    Initiation rules, "Déplacements" and "Résoudre un Assaut".
    """
    factor = 1 if after_disengagement else 2
    return factor * _current_mou(mou)


def disengage_difficulty(adversaries: int) -> int:
    """Difficulty of a disengagement: 4 + 2 per adversary in contact.

    Initiation rules, "Désengagement" (same for the INI and the FOR test).
    Raises ``ValueError`` for fewer than one adversary: a fighter free of
    adversaries has nothing to disengage from.
    """
    if isinstance(adversaries, bool) or not isinstance(adversaries, int):
        raise ValueError(f"A number of adversaries, not {adversaries!r}.")
    if adversaries < 1:
        raise ValueError("A fighter disengages from at least one adversary.")
    return 4 + 2 * adversaries


class DisengageMethod(StrEnum):
    """The two ways to disengage: agility (INI) or force (FOR)."""

    INI = "INI"
    FOR = "FOR"


@dataclass(frozen=True)
class Adversary:
    """An adversary in contact: its Size and current Résistance."""

    size: Size | str
    res: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", parse_size(self.size))


@dataclass(frozen=True)
class Disengager:
    """The fighter that tries to disengage, as the rules need it.

    ``ini``, ``strength`` (FOR) and ``mou`` are current values.
    ``engaged_this_phase``: it was engaged during this activation phase.
    ``free_side``: one side of its base is entirely free of adversaries.
    """

    ini: int
    strength: int
    size: Size | str
    mou: int = 0
    engaged_this_phase: bool = False
    free_side: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", parse_size(self.size))


@dataclass(frozen=True)
class DisengagementPlan:
    """Whether a disengagement may be tried, and with what test.

    ``value`` is the characteristic used: INI, or FOR minus the highest RES
    among the adversaries. ``reasons`` lists every rule that forbids it.
    """

    method: DisengageMethod
    possible: bool
    reasons: tuple[str, ...]
    difficulty: int
    value: int


def disengagement_plan(
    fighter: Disengager,
    adversaries: Sequence[Adversary],
    method: DisengageMethod | str = DisengageMethod.INI,
) -> DisengagementPlan:
    """May ``fighter`` try to disengage from ``adversaries`` by ``method``?

    Initiation rules, "Désengagement":

    * not engaged during the current activation phase;
    * one side of its base entirely free of adversaries;
    * FOR only if it is larger than each adversary in contact; the highest
      RES among them is subtracted from its FOR, and at 0 or less the
      disengagement by force is impossible.

    The text says "si celle-ci tombe à 0": a value below 0 is read as
    impossible too, since it is even further from possible.
    """
    method = DisengageMethod(method)
    if not adversaries:
        raise ValueError("A fighter disengages from at least one adversary.")
    reasons: list[str] = []
    if fighter.engaged_this_phase:
        reasons.append(Message(_("It was engaged during this activation phase.")))
    if not fighter.free_side:
        reasons.append(
            Message(_("No side of its base is entirely free of adversaries."))
        )
    if method is DisengageMethod.INI:
        value = fighter.ini
    else:
        if any(fighter.size <= adversary.size for adversary in adversaries):
            reasons.append(
                Message(
                    _(
                        "To disengage by force it must be larger than every "
                        "adversary in contact."
                    )
                )
            )
        value = fighter.strength - max(adversary.res for adversary in adversaries)
        if value <= 0:
            reasons.append(
                Message(
                    _(
                        "Its FOR minus the highest RES in contact is 0 or less: "
                        "it cannot force its way out."
                    )
                )
            )
    return DisengagementPlan(
        method=method,
        possible=not reasons,
        reasons=tuple(reasons),
        difficulty=disengage_difficulty(len(adversaries)),
        value=value,
    )


@dataclass(frozen=True)
class DisengagementAttempt:
    """The outcome of a disengagement test.

    ``test`` is the ``rules.checks.TestResult``. On success the fighter may
    move ``move_cm`` (MOU x 1). On failure ``all_dice_in_defence`` is set: all
    its combat dice go in defence in this turn's combat phase, pursuits
    included.
    """

    plan: DisengagementPlan
    test: object
    success: bool
    move_cm: int
    all_dice_in_defence: bool


def attempt_disengagement(
    fighter: Disengager,
    adversaries: Sequence[Adversary],
    method: DisengageMethod | str,
    dice,
    *,
    reroll: str = "if_needed",
) -> DisengagementAttempt:
    """Roll a disengagement (initiation rules, "Désengagement").

    Raises ``IllegalAction`` (with every reason) when it may not be tried;
    no die is rolled then.
    """
    plan = disengagement_plan(fighter, adversaries, method)
    if not plan.possible:
        raise IllegalAction(joined(plan.reasons))

    test = characteristic_test(plan.value, plan.difficulty, dice, reroll=reroll)
    return DisengagementAttempt(
        plan=plan,
        test=test,
        success=test.success,
        move_cm=walk_distance_cm(fighter.mou) if test.success else 0,
        all_dice_in_defence=not test.success,
    )
