"""The Tactics roll of the strategic phase (IV-A-2).

Each player makes a Discipline test with a fighter of their choice among
those of the army's people; the winner chooses which player speaks first in
the activation phase (IV-B-1). The two tests are opposed (II-A-3): ties are
rolled again.

Who may roll (IV-A-2, Remarque 1): a fighter of the army's people. Allies and
fighters with "Immortel/X", "Élémentaire/X" or "Mercenaire" are excluded
unless they are of the army's people or have "Alliance/X" with X the army's
people or its alliance path ("voie d'alliance"). Remarque 2: the fighter
always uses its own Discipline, never that of a fighter with
"Commandement/X".

Names of peoples and skills are compared without case or accents
("Élémentaire" = "elementaire"), as players type them.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rules.activation import SIDES
from rules.checks import opposed_test
from rules.errors import IllegalAction, Message, _

__all__ = [
    "Army",
    "Skill",
    "TacticsFighter",
    "TacticsRoll",
    "choose_first_speaker",
    "eligible_fighters",
    "parse_skill",
    "roll_tactics",
    "tactics_eligibility",
]

# Skills that mark a fighter as foreign to the army unless it is of the army's
# people or allied to it (IV-A-2, Remarque 1).
FOREIGN_SKILLS = ("immortel", "elementaire", "mercenaire")


def _key(text: str) -> str:
    """Case- and accent-insensitive form of a name ("Élémentaire" -> "elementaire")."""
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@dataclass(frozen=True)
class Skill:
    """A skill as printed on a card: a name and an optional value ("Alliance/X")."""

    name: str
    value: str | int | None = None

    @property
    def key(self) -> str:
        """The name without case or accents, for comparisons."""
        return _key(self.name)

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name}/{self.value}"


def parse_skill(text: str | Skill) -> Skill:
    """``"Alliance/Griffon"`` -> ``Skill("Alliance", "Griffon")``; ``"Mercenaire"``
    -> ``Skill("Mercenaire")``. A numeric value becomes an ``int``."""
    if isinstance(text, Skill):
        return text
    name, _slash, value = text.partition("/")
    if not value.strip():
        return Skill(name.strip())
    value = value.strip()
    return Skill(name.strip(), int(value) if value.lstrip("-").isdigit() else value)


@dataclass(frozen=True)
class Army:
    """An army's people and, when it has one, its alliance path (IV-A-2)."""

    people: str
    alliance_path: str | None = None


@dataclass(frozen=True)
class TacticsFighter:
    """What IV-A-2 needs to know about a candidate for the Tactics roll.

    ``discipline`` is the fighter's own current Discipline (Remarque 2: never
    a commander's). ``skills`` are names with an optional value, as
    ``Skill`` or text like ``"Alliance/Griffon"``.
    """

    people: str
    skills: tuple[Skill | str, ...] = ()
    is_ally: bool = False
    discipline: int | None = None
    name: str = ""

    parsed_skills: tuple[Skill, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        skills = tuple(parse_skill(s) for s in self.skills)
        object.__setattr__(self, "parsed_skills", skills)

    def has_skill(self, name: str) -> bool:
        """Whether the fighter has the skill ``name`` (any value)."""
        return any(s.key == _key(name) for s in self.parsed_skills)


def tactics_eligibility(fighter: TacticsFighter, army: Army) -> tuple[bool, str]:
    """Whether ``fighter`` may roll the Tactics roll for ``army``, and why (IV-A-2).

    Returns ``(eligible, reason)``; the reason is a sentence for the player (a
    ``rules.errors.Message``).
    """
    label = fighter.name or Message(_("This fighter"))
    if _key(fighter.people) == _key(army.people):
        return True, Message(
            _("{fighter} belongs to the army's people ({people})."),
            fighter=label,
            people=army.people,
        )
    allowed = {_key(army.people)}
    if army.alliance_path:
        allowed.add(_key(army.alliance_path))
    for skill in fighter.parsed_skills:
        if skill.key == "alliance" and skill.value is not None:
            if _key(str(skill.value)) in allowed:
                return True, Message(
                    _("{fighter} has {skill}, so it may roll for this army."),
                    fighter=label,
                    skill=str(skill),
                )
    foreign = [s for s in fighter.parsed_skills if s.key in FOREIGN_SKILLS]
    if fighter.is_ally:
        reason = Message(
            _("{fighter} is an ally, not of the army's people ({people}). (IV-A-2)"),
            fighter=label,
            people=army.people,
        )
    elif foreign:
        reason = Message(
            _(
                "{fighter} has {skill} and is not of the army's people ({people})."
                " (IV-A-2)"
            ),
            fighter=label,
            skill=str(foreign[0]),
            people=army.people,
        )
    else:
        reason = Message(
            _("{fighter} is not of the army's people ({people}). (IV-A-2)"),
            fighter=label,
            people=army.people,
        )
    return False, reason


@dataclass(frozen=True)
class TacticsRoll:
    """The outcome of the Tactics roll (IV-A-2): who won, and each round rolled.

    ``rounds`` holds ``(final_a, final_b)`` per round, ties rolled again
    (II-A-3).
    """

    winner: str
    rounds: tuple[tuple[int, int], ...]
    disciplines: tuple[int, int]


def roll_tactics(
    fighters: Mapping[str, TacticsFighter],
    armies: Mapping[str, Army],
    dice,
    *,
    reroll: str = "if_needed",
) -> TacticsRoll:
    """Roll the Tactics roll between the fighters chosen by sides a and b (IV-A-2).

    An opposed Discipline test (II-A-3, through ``rules.checks.opposed_test``)
    using each fighter's own ``discipline`` (Remarque 2). Raises
    ``IllegalAction`` if a chosen fighter may not roll for its army or has no
    Discipline value.
    """
    disciplines = []
    for side in SIDES:
        fighter = fighters[side]
        eligible, reason = tactics_eligibility(fighter, armies[side])
        if not eligible:
            raise IllegalAction(reason)
        if fighter.discipline is None:
            raise IllegalAction(
                _("{fighter} has no Discipline to roll."),
                fighter=fighter.name or Message(_("This fighter")),
            )
        disciplines.append(fighter.discipline)
    result = opposed_test(disciplines[0], disciplines[1], dice, reroll=reroll)
    return TacticsRoll(
        winner=result.winner,
        rounds=tuple(tuple(r) for r in result.rounds),
        disciplines=(disciplines[0], disciplines[1]),
    )


def choose_first_speaker(winner: str, chooser: str, first: str) -> str:
    """The side that speaks first, chosen by the Tactics winner (IV-A-2, IV-B-1).

    Raises ``IllegalAction`` when ``chooser`` is not the winner.
    """
    for side in (winner, chooser, first):
        if side not in SIDES:
            raise IllegalAction(_("There is no side {side}."), side=repr(side))
    if chooser != winner:
        raise IllegalAction(
            _("Only the Tactics winner (side {side}) chooses who speaks first."),
            side=winner.upper(),
        )

    return first


def eligible_fighters(
    fighters: Iterable[TacticsFighter], army: Army
) -> list[TacticsFighter]:
    """The fighters of ``fighters`` that may roll the Tactics roll (IV-A-2)."""
    return [f for f in fighters if tactics_eligibility(f, army)[0]]
