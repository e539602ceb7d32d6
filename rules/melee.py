"""Splitting the melees into combats at the start of the combat phase (IV-C).

IV-C: every fighter in contact with an enemy must fight in melee during the
combat phase; the melee rules themselves are in chapter 7, which is not among
the seeds. The app follows the usual reading, as the game's issue states it:
the Tactics winner splits the melees into combats; a fighter fights only the
adversaries in base contact with it (II-E); a combat is one against one or one
against several, never several against several; every fighter in contact is
in exactly one combat.

Fighters are any hashable ids; ``contacts`` are pairs of enemies in contact.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.errors import IllegalAction, _

__all__ = [
    "Combat",
    "choices_of",
    "combats_from_choices",
    "suggest_combats",
    "validate_combats",
]


@dataclass(frozen=True)
class Combat:
    """One combat: ``one`` fighter against ``many`` adversaries (1 or more)."""

    one: Hashable
    many: tuple[Hashable, ...]

    @property
    def fighters(self) -> tuple[Hashable, ...]:
        """Everyone in this combat, ``one`` first."""
        return (self.one, *self.many)


def _neighbours(contacts: Iterable[Sequence[Hashable]]) -> dict[Hashable, set]:
    neighbours: dict[Hashable, set] = {}
    for one, two in contacts:
        neighbours.setdefault(one, set()).add(two)
        neighbours.setdefault(two, set()).add(one)
    return neighbours


def validate_combats(
    combats: Sequence[Combat],
    contacts: Iterable[Sequence[Hashable]],
    names: Mapping[Hashable, str] | None = None,
) -> list[Combat]:
    """Check the Tactics winner's split of the melees (IV-C); return it.

    Raises ``IllegalAction`` with the first problem: an adversary not in
    contact with the fighter it faces, a fighter in two combats or in none,
    several against several.
    """
    names = names or {}
    neighbours = _neighbours(contacts)

    def name(fighter: Hashable) -> str:
        return str(names.get(fighter, fighter))

    seen: set = set()
    for combat in combats:
        if not combat.many:
            raise IllegalAction(
                _("{fighter} faces nobody in this combat."), fighter=name(combat.one)
            )
        for fighter in combat.fighters:
            if fighter in seen:
                raise IllegalAction(
                    _(
                        "{fighter} is in two combats: each fighter in contact "
                        "fights in exactly one (IV-C)."
                    ),
                    fighter=name(fighter),
                )
            seen.add(fighter)
        for adversary in combat.many:
            if adversary not in neighbours.get(combat.one, set()):
                raise IllegalAction(
                    _(
                        "{adversary} is not in base contact with {fighter}: a "
                        "fighter fights only the adversaries in contact with it "
                        "(II-E, IV-C)."
                    ),
                    adversary=name(adversary),
                    fighter=name(combat.one),
                )
    missing = [f for f in neighbours if f not in seen]
    if missing:
        raise IllegalAction(
            _(
                "{fighter} is in contact with an enemy but in no combat: every "
                "fighter in contact must fight (IV-C)."
            ),
            fighter=name(missing[0]),
        )

    return list(combats)


def suggest_combats(contacts: Iterable[Sequence[Hashable]]) -> list[Combat]:
    """A legal split of the melees, for the Tactics winner to accept or change.

    Every contact graph without a lone fighter can be split into stars (one
    against one or several): root a spanning tree of each melee, then, from
    the deepest fighters up, each fighter not yet placed goes with its parent,
    which faces all its children still free. A root left alone joins the
    combat of one of its children, which it is in contact with.
    """
    neighbours = _neighbours(contacts)
    order = sorted(neighbours, key=str)
    parent: dict[Hashable, Hashable | None] = {}
    depth: dict[Hashable, int] = {}
    children: dict[Hashable, list] = {f: [] for f in order}
    for root in order:
        if root in parent:
            continue
        parent[root], depth[root] = None, 0
        queue = [root]
        while queue:
            current = queue.pop(0)
            for nxt in sorted(neighbours[current], key=str):
                if nxt not in parent:
                    parent[nxt], depth[nxt] = current, depth[current] + 1
                    children[current].append(nxt)
                    queue.append(nxt)

    star_of: dict[Hashable, Hashable] = {}  # fighter -> centre of its combat
    stars: dict[Hashable, list] = {}
    for fighter in sorted(order, key=lambda f: (-depth[f], str(f))):
        if fighter in star_of:
            continue
        centre = parent[fighter]
        if centre is not None:
            free = [c for c in children[centre] if c not in star_of]
            stars[centre] = free
            star_of[centre] = centre
            for leaf in free:
                star_of[leaf] = centre
        else:
            # A root whose children all lead combats of their own.
            child = children[fighter][0]
            stars[child].append(fighter)
            star_of[fighter] = child
    return [Combat(centre, tuple(many)) for centre, many in stars.items()]


def choices_of(combats: Sequence[Combat]) -> dict[Hashable, Hashable]:
    """Whom each fighter faces in a split: the adversaries face the one, and
    the one faces the first of them (the form a player edits, IV-C)."""
    choices = {}
    for combat in combats:
        choices[combat.one] = combat.many[0]
        for adversary in combat.many:
            choices[adversary] = combat.one
    return choices


def combats_from_choices(
    choices: Mapping[Hashable, Hashable],
    names: Mapping[Hashable, str] | None = None,
) -> list[Combat]:
    """The combats a player's "who faces whom" choices describe (IV-C).

    A fighter faced by two or more leads a combat against them (and must face
    one of them); two fighters facing each other, and faced by nobody else,
    make a one against one. Anything else is refused with ``IllegalAction``;
    ``validate_combats`` then checks the contacts.
    """
    names = names or {}

    def name(fighter: Hashable) -> str:
        return str(names.get(fighter, fighter))

    faced_by: dict[Hashable, list] = {}
    for fighter, target in choices.items():
        faced_by.setdefault(target, []).append(fighter)
    combats: list[Combat] = []
    placed: set = set()
    for centre in sorted(faced_by, key=str):
        facing = faced_by[centre]
        if len(facing) < 2:
            continue
        if choices.get(centre) not in facing:
            raise IllegalAction(
                _(
                    "{fighter} is faced by several adversaries, so it fights them "
                    "and must face one of them (IV-C)."
                ),
                fighter=name(centre),
            )
        combats.append(Combat(centre, tuple(sorted(facing, key=str))))
        placed.update([centre, *facing])
    for fighter in sorted(choices, key=str):
        if fighter in placed:
            continue
        target = choices[fighter]
        if choices.get(target) == fighter and target not in placed:
            combats.append(Combat(fighter, (target,)))
            placed.update([fighter, target])
    for fighter in sorted(choices, key=str):
        if fighter not in placed:
            raise IllegalAction(
                _(
                    "{fighter} faces {target}, who fights someone else: several "
                    "against several is not a combat (IV-C)."
                ),
                fighter=name(fighter),
                target=name(choices[fighter]),
            )
    return combats
