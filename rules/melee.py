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
from typing import Any

from rules.errors import IllegalAction, _
from rules.house import BASES, HouseRuling
from rules.magic import HOUSE_RULINGS as MAGIC_RULINGS
from rules.tactics import parse_skill

__all__ = [
    "AMBIDEXTROUS",
    "COUNTER_ATTACK",
    "FIERCE",
    "MASTER_STRIKE",
    "SEQUENCE",
    "WAR_FURY",
    "ability",
    "master_strike_strength",
    "sequence_dice",
    "war_fury_qualifies",
    "HOUSE_RULINGS",
    "UNCLEAR_ABILITIES",
    "unclear_abilities",
    "Combat",
    "BASES",
    "HouseRuling",
    "choices_of",
    "combat_dice",
    "combats_from_choices",
    "house_rulings",
    "suggest_combats",
    "validate_combats",
]

# The most combat dice one fighter may hold: 1 + 16 opponents (a Titan,
# II-E-3) + Enchaînement dice; the tap parser's bound.
MAX_COMBAT_DICE = 30


def combat_dice(opponents: int, *, sequence: int = 0) -> int:
    """A fighter's combat dice in one combat (VII-C-1).

    melee-sources.md §0.1 [read] (S8): "1 die per fighter, plus 1 per opponent
    he faces in that combat"; plus the Enchaînement/X dice taken at placement
    (§4, S11 [read]).
    """
    if isinstance(opponents, bool) or not isinstance(opponents, int) or opponents < 0:
        raise ValueError("A number of opponents is 0 or more.")
    if isinstance(sequence, bool) or not isinstance(sequence, int) or sequence < 0:
        raise ValueError("Enchaînement adds 0 or more dice.")
    return 1 + opponents + sequence


HOUSE_RULINGS: dict[str, HouseRuling] = {
    "placement_order": HouseRuling(
        default="loser_first",
        choices=("loser_first", "before_initiative"),
        section="VII-C-1, VII-C-2",
        question=_("When are the combat dice placed?"),
        reason=_(
            "C3 (S8): Initiative first, then the loser places its dice, then the "
            "winner who sees them. Conf'Fédé's table of contents lists the "
            "placement (C-1) before the Initiative (C-2); its text was not read."
        ),
        basis="read",
    ),
    "parry_tie": HouseRuling(
        default="parried",
        choices=("parried", "not_parried"),
        section="VII-C-4",
        question=_("Does a defence test equal to the attack parry it?"),
        reason=_(
            "Not found in the sources: a difficulty is reached by an equal result "
            "(II-A), and a counter-attack needs 2 more than the attack (S11)."
        ),
    ),
    "sustained_defence": HouseRuling(
        default="several_dice",
        choices=("several_dice", "one_die"),
        section="VII-C-5",
        question=_("How many defence dice may one parry use?"),
        reason=_(
            "The text of VII-C-5 (défense soutenue) was not found. S11 speaks of "
            "the die or dice assigned to a parry: several dice, one result kept "
            "(II-A-2)."
        ),
        basis="inferred",
    ),
    "pursuit": HouseRuling(
        default="at_the_table",
        choices=("at_the_table", "none"),
        section="VII-C-6",
        question=_("Do freed fighters make pursuit moves?"),
        reason=_(
            "Pursuit exists (IV-C, S2) but its distance and who may pursue were "
            "not found: the players move at the table and correct the contacts; "
            "or nobody pursues."
        ),
    ),
    "cannot_flee": HouseRuling(
        default="all_defence",
        choices=("all_defence", "fights_normally"),
        section="IX",
        question=_("How does a routed fighter still in a combat fight?"),
        reason=_(
            "Not found in the rules read; a fan text (S13) cites the classic fear "
            "rules: a frightened fighter who cannot flee puts all its dice in "
            "defence."
        ),
        basis="fan",
    ),
    "counter_short": HouseRuling(
        default="lands",
        choices=("lands", "parried"),
        section="VII-C-4",
        question=_(
            "A counter-attack's defence reaches the attack but not 2 more: "
            "what happens?"
        ),
        reason=_(
            "S11 (C3, read): a counter-attack must beat the attack by 2, and "
            "cannot be withdrawn once announced. What a result between the two "
            "does was not found; read as a failed test, the blow lands; or it is "
            "parried without the attack die."
        ),
        basis="inferred",
    ),
    "exchange_opener": HouseRuling(
        default="initiative_winner",
        choices=("initiative_winner", "alternation_goes_on"),
        section="VII-C-3",
        question=_("Which side opens each exchange after the first?"),
        reason=_(
            "Not found in the sources: S8 reads that the Initiative winner's side "
            "attacks first and that attacks then alternate between the sides, but "
            "not which side opens the next exchange. The Initiative winner's side "
            "again, as in the first; or the alternation goes on across exchanges "
            "(the side that did not attack last opens)."
        ),
    ),
    "fear_immunity": HouseRuling(
        default="game",
        choices=("game", "turn", "none"),
        section="IX",
        question=_("How long does a passed Courage test protect from that fear?"),
        reason=_(
            "Not found for C3 or Conf'Fédé. A later edition (C4) reads: for the "
            "rest of the game, against that PEUR and lower ones; C3's War Cry "
            'speaks of an immunity "as if he had passed a Courage test".'
        ),
        basis="other_edition",
    ),
    "failed_charge": HouseRuling(
        default="no_charge",
        choices=("no_charge", "routed_in_contact"),
        section="IX",
        question=_("What does a charger that fails its Courage test do?"),
        reason=_(
            "Not found for C3 or Conf'Fédé. A later edition (C4) reads: the "
            "charger is routed, its activation ends, it stays where it is: the "
            "charge does not happen."
        ),
        basis="other_edition",
    ),
    "rally_difficulty": HouseRuling(
        default="highest_fear",
        choices=("highest_fear", "4", "5", "6", "7"),
        section="IV-D-1, IX-E",
        question=_("What difficulty does a routed fighter's rally test have?"),
        reason=_(
            "Not found in the sources: IX-E holds the rally test (S2), its text "
            "was not read. The highest PEUR among its living adversaries (none: "
            "it rallies without a test), or a fixed difficulty agreed here."
        ),
        basis="none",
    ),
}

# Abilities the sources leave unclear (melee-sources.md §4): listed on the
# card as such, their effect not played by the app.
UNCLEAR_ABILITIES: tuple[str, ...] = ("Brutal", "Feinte")


def unclear_abilities(skills: Iterable[str]) -> list[str]:
    """The card's abilities the sources leave unclear (``UNCLEAR_ABILITIES``),
    as printed, for the card to list as such (their effect is not played)."""
    unclear = {parse_skill(name).key for name in UNCLEAR_ABILITIES}
    return [str(s) for s in skills if parse_skill(str(s)).key in unclear]


# The abilities the melee reads on a card (melee-sources.md §4), by their
# French names as printed.
SEQUENCE = "Enchaînement"
MASTER_STRIKE = "Coup de maître"
COUNTER_ATTACK = "Contre-attaque"
AMBIDEXTROUS = "Ambidextre"
FIERCE = "Acharné"
WAR_FURY = "Furie guerrière"


def ability(skills: Iterable[str], name: str) -> tuple[bool, int]:
    """Whether ``skills`` (as printed: "Coup de maître/2") hold the ability
    ``name``, and its X (0 when none is printed; the highest when printed
    twice). Names are compared without case or accents."""
    wanted = parse_skill(name).key
    found, best = False, 0
    for text in skills:
        skill = parse_skill(str(text))
        if skill.key == wanted:
            found = True
            if isinstance(skill.value, int):
                best = max(best, skill.value)
    return found, best


def sequence_dice(skills: Iterable[str]) -> int:
    """The extra dice Enchaînement/X allows at placement: X, 1 when no X is
    printed (§4 [read] S11: "No X means 1")."""
    found, value = ability(skills, SEQUENCE)
    if not found:
        return 0
    return value or 1


def master_strike_strength(
    strength: int, attack_at_test: int, printed_attack: int, x: int
) -> int:
    """The FOR of the wound roll after an unparried Coup de maître/X.

    §4 [read] S11: "If not parried, the Damage roll's STR gains the attacker's
    ATT at the moment of the test + X. In C3 the ATT bonus may not exceed the
    printed ATT." (E1: 7 + min(6, 4) + 5 = 16.)
    """
    return strength + max(0, min(attack_at_test, printed_attack)) + x


def war_fury_qualifies(attack: int, total: int) -> bool:
    """Furie guerrière, Conf'Fédé (§4 [read] S12): "a fighter who puts more
    than half in attack may declare it and gains +1 attack die"."""
    return 2 * attack > total


def house_rulings(chosen: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Every house ruling's value: ``chosen``'s, else its default.

    An unknown ruling or value raises ``IllegalAction``.
    """
    chosen = dict(chosen or {})
    for name, value in chosen.items():
        ruling = HOUSE_RULINGS.get(name)
        if ruling is None:
            raise IllegalAction(_("Unknown house ruling: {name}."), name=str(name)[:40])
        if value not in ruling.choices:
            raise IllegalAction(
                _("The house ruling {name} takes one of: {choices}."),
                name=name,
                choices=", ".join(ruling.choices),
            )
    return {name: chosen.get(name, r.default) for name, r in HOUSE_RULINGS.items()}


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


def _join_magic_rulings() -> None:
    """The rulings of magic and faith (``rules.magic.HOUSE_RULINGS``) are
    chosen with the melee's, in the one registry the game's setup reads."""
    for name, ruling in MAGIC_RULINGS.items():
        HOUSE_RULINGS.setdefault(name, ruling)


_join_magic_rulings()
