"""The upkeep phase as an ordered checklist (IV-D).

The turn ends with, in this order:

* IV-D-1 rally of the routed fighters (rules in IX-E);
* IV-D-2 mystic regeneration: first each faithful's new temporary faith
  (XI-B-2), then a mana recovery roll for each magician (X-G-1);
* IV-D-3 upkeep of game effects, in six steps: 1 harmful effects (anything
  that may worsen health or eliminate, even when tied to a skill), 2 passive
  skills, 3 active skills, 4 other effects such as the upkeep of spells and
  miracles ("Entretien/X", II-C-3), 5 resurrection and reinforcements (the
  fighters that come back neither cause nor suffer any effect in this same
  upkeep phase), 6 removal of the markers no longer needed (charged,
  stunned...).

``upkeep_checklist`` turns a plain description of the game into the items to
tick, in order; ``check_tick`` refuses an item ticked out of order.

Passive or active skills are defined in XII-A-1, which is not among the
seeds. ``SKILL_STEPS`` holds the classification used by default
(Régénération/X passive, Renfort and Résurrection in step 5); callers may
pass their own.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from rules.errors import IllegalAction, Words, _
from rules.tactics import Skill, parse_skill

__all__ = [
    "SKILL_STEPS",
    "LastingEffect",
    "UpkeepFighter",
    "UpkeepItem",
    "UpkeepStep",
    "check_tick",
    "next_item",
    "upkeep_checklist",
]


class UpkeepStep(Enum):
    """The ordered steps of the upkeep phase: (section, French, English)."""

    RALLY = ("IV-D-1", "Ralliement des combattants en déroute", "Rally")
    FAITH = ("IV-D-2", "Régénération mystique : Foi temporaire", "Temporary faith")
    MANA = ("IV-D-2", "Régénération mystique : récupération de mana", "Mana recovery")
    HARMFUL = ("IV-D-3-1", "Effets nuisibles", "Harmful effects")
    PASSIVE = ("IV-D-3-2", "Compétences passives", "Passive skills")
    ACTIVE = ("IV-D-3-3", "Compétences actives", "Active skills")
    OTHER = ("IV-D-3-4", "Effets divers", "Other effects")
    RETURN = ("IV-D-3-5", "Résurrection et renforts", "Resurrection and reinforcements")
    MARKERS = ("IV-D-3-6", "Retrait des divers marqueurs", "Removal of markers")

    @property
    def section(self) -> str:
        """Where this step is in the rules."""
        return self.value[0]

    @property
    def label_fr(self) -> str:
        """The step's French name."""
        return self.value[1]

    @property
    def label_en(self) -> str:
        """The step's English name."""
        return self.value[2]


def _key(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


# Default upkeep step of the skills that act in the upkeep phase (IV-D
# introduction names Régénération/X and Renfort). Keys without case/accents.
SKILL_STEPS: Mapping[str, UpkeepStep] = {
    "regeneration": UpkeepStep.PASSIVE,
    "renfort": UpkeepStep.RETURN,
    "resurrection": UpkeepStep.RETURN,
}


@dataclass(frozen=True)
class UpkeepFighter:
    """What the upkeep phase needs to know about one fighter (IV-D).

    ``markers`` lists other markers to remove in step 6 besides charged
    and stunned.
    """

    name: str
    routed: bool = False
    faithful: bool = False
    magician: bool = False
    stunned: bool = False
    charged: bool = False
    skills: tuple[Skill | str, ...] = ()
    markers: tuple[str, ...] = ()


@dataclass(frozen=True)
class LastingEffect:
    """A game effect still in play at the upkeep (II-C-3, IV-D-3).

    ``kind`` is ``"spell"``, ``"miracle"`` or ``"other"``; ``upkeep`` is X of
    "Entretien/X" (paid in gems of the spell's element for a spell, in
    temporary faith for a miracle). ``harmful`` effects may worsen health or
    eliminate and come first (IV-D-3 step 1).
    """

    name: str
    source: str
    kind: str = "other"
    upkeep: int | None = None
    harmful: bool = False
    target: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("spell", "miracle", "other"):
            raise ValueError("An effect is a 'spell', a 'miracle' or 'other'.")
        if self.upkeep is not None and self.upkeep < 0:
            raise ValueError("An upkeep cost cannot be negative.")


@dataclass(frozen=True)
class UpkeepItem:
    """One line of the upkeep checklist, with its step and labels.

    ``key`` is stable and unique within a checklist so the app can record
    which items were ticked.
    """

    key: str
    step: UpkeepStep
    label_fr: str
    label_en: str
    fighter: str | None = None
    effect: str | None = None
    cost: int | None = None
    resource: str | None = None

    @property
    def section(self) -> str:
        """The rules section of this item's step."""
        return self.step.section


def _payment(effect: LastingEffect) -> tuple[str, str, str]:
    # II-C-3: X gems of the spell's element, or X temporary faith points.
    if effect.kind == "miracle":
        return "temporary_faith", "point(s) de Foi temporaire", "temporary faith"
    return "gems", "gemme(s)", "gem(s)"


# The items one fighter may bring, in the order they are done: a rally per
# routed fighter; IV-D-2: faith for every faithful first, then mana for every
# magician. (attribute of the fighter, key, step, French, English)
FIGHTER_ITEMS = (
    (
        "routed",
        "rally",
        UpkeepStep.RALLY,
        "Ralliement de {name} (IX-E)",
        "Rally {name} (IX-E)",
    ),
    (
        "faithful",
        "faith",
        UpkeepStep.FAITH,
        "Nouvelle Foi temporaire de {name} (XI-B-2)",
        "New temporary faith of {name} (XI-B-2)",
    ),
    (
        "magician",
        "mana",
        UpkeepStep.MANA,
        "Récupération de mana de {name} (X-G-1)",
        "Mana recovery of {name} (X-G-1)",
    ),
)


def upkeep_checklist(
    fighters: Sequence[UpkeepFighter],
    effects: Sequence[LastingEffect] = (),
    *,
    skill_steps: Mapping[str, UpkeepStep] = SKILL_STEPS,
) -> list[UpkeepItem]:
    """The upkeep phase's items, in the order they must be done (IV-D).

    Only what applies is listed: a rally per routed fighter, temporary faith
    for each faithful then mana for each magician, then the six steps of
    IV-D-3 for the effects and skills given, and the markers to remove.
    """
    items = [
        UpkeepItem(
            f"{key}:{f.name}",
            step,
            french.format(name=f.name),
            english.format(name=f.name),
            fighter=f.name,
        )
        for attribute, key, step, french, english in FIGHTER_ITEMS
        for f in fighters
        if getattr(f, attribute)
    ]

    steps = {_key(name): step for name, step in skill_steps.items()}
    later: list[UpkeepItem] = []
    for effect in effects:
        if effect.harmful:
            step = UpkeepStep.HARMFUL
        else:
            step = UpkeepStep.OTHER
        cost = effect.upkeep
        resource = fr = en = None
        if cost is not None:
            resource, fr, en = _payment(effect)
        label_fr = f"{effect.name} ({effect.source})"
        label_en = label_fr
        if cost is not None:
            label_fr += f" : entretien {cost} {fr} (II-C-3)"
            label_en += f": upkeep {cost} {en} (II-C-3)"
        later.append(
            UpkeepItem(
                f"effect:{effect.source}:{effect.name}",
                step,
                label_fr,
                label_en,
                fighter=effect.target or effect.source,
                effect=effect.name,
                cost=cost,
                resource=resource,
            )
        )
    for f in fighters:
        for skill in (parse_skill(s) for s in f.skills):
            step = steps.get(skill.key)
            if step is None:
                continue
            later.append(
                UpkeepItem(
                    f"skill:{f.name}:{skill.name}",
                    step,
                    f"{skill} de {f.name}",
                    f"{skill} of {f.name}",
                    fighter=f.name,
                    effect=str(skill),
                )
            )
    order = list(UpkeepStep)
    # A stable sort keeps the given order within one step.
    items.extend(sorted(later, key=lambda item: order.index(item.step)))

    for f in fighters:
        markers = (["chargé"] if f.charged else []) + (["sonné"] if f.stunned else [])
        markers += list(f.markers)
        for marker in markers:
            english = {"chargé": "charged", "sonné": "stunned"}.get(marker, marker)
            items.append(
                UpkeepItem(
                    f"marker:{f.name}:{marker}",
                    UpkeepStep.MARKERS,
                    f"Retirer le marqueur {marker} de {f.name}",
                    f"Remove the {english} marker of {f.name}",
                    fighter=f.name,
                )
            )
    return items


def next_item(items: Sequence[UpkeepItem], ticked: Sequence[str]) -> UpkeepItem | None:
    """The first item not ticked yet, or ``None`` when the upkeep is done."""
    done = set(ticked)
    return next((item for item in items if item.key not in done), None)


def check_tick(items: Sequence[UpkeepItem], ticked: Sequence[str], key: str) -> None:
    """Raise ``IllegalAction`` unless ``key`` is the next item to tick (IV-D).

    The upkeep runs in order: rally, regeneration (faith then mana), then the
    six steps of IV-D-3.
    """
    keys = [item.key for item in items]
    if key not in keys:
        raise IllegalAction(
            _("{item} is not on this upkeep checklist."), item=repr(key)
        )
    if key in ticked:
        raise IllegalAction(_("This upkeep item is already done."))
    expected = next_item(items, ticked)
    if expected is not None and expected.key != key:
        raise IllegalAction(
            _("Do '{item}' first: the upkeep phase runs in order ({section})."),
            item=Words(expected.label_en, expected.label_fr),
            section=expected.section,
        )
