"""The game turn and what a fighter may do when activated (chapter 4, IV-A..IV-D).

A game lasts 6 turns by default; some scenarios play 4 or 5, and players may
agree on any number (chapter 4 introduction). Each turn runs these phases in
order:

1. strategic phase (IV-A): build the activation sequences (IV-A-1), then the
   Tactics roll (IV-A-2);
2. activation phase (IV-B);
3. combat phase (IV-C);
4. upkeep phase (IV-D).

``TurnClock`` is a tiny immutable state machine over these steps; after the
upkeep of the last turn the game is over.

IV-B-2 sorts a fighter's actions into exclusive ones (Charge, Engagement,
Course, Déplacement à couvert: nothing else in that activation) and cumulative
ones (Marche, Tir, Actions mystiques). The initiation rules add: a walk and a
run cannot be combined, nor two runs; a shot may come before or after a walk
but not with a run; an interrupted action cannot be resumed; a fighter shoots
once a turn unless an exception says otherwise; a disengagement comes first
and may be followed by an engagement (MOU x 1), a walk or a shot.
``activation_problems`` checks one fighter's actions against all that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from rules.errors import IllegalAction, Message, _

__all__ = [
    "DEFAULT_TURNS",
    "ActivationAction",
    "Phase",
    "Step",
    "TurnClock",
    "activation_order",
    "activation_problems",
    "validate_activation",
]

DEFAULT_TURNS = 6


class Phase(StrEnum):
    """The four phases of a turn, in order (chapter 4 introduction)."""

    STRATEGIC = "strategic"
    ACTIVATION = "activation"
    COMBAT = "combat"
    UPKEEP = "upkeep"


class Step(StrEnum):
    """The steps of a turn in order; the strategic phase has two (IV-A)."""

    SEQUENCES = "sequences"
    TACTICS = "tactics"
    ACTIVATION = "activation"
    COMBAT = "combat"
    UPKEEP = "upkeep"

    @property
    def phase(self) -> Phase:
        """The phase this step belongs to."""
        return _STEP_INFO[self][0]

    @property
    def section(self) -> str:
        """The rules section of this step."""
        return _STEP_INFO[self][1]

    @property
    def label_fr(self) -> str:
        """The step's name in the French rules."""
        return _STEP_INFO[self][2]

    @property
    def label_en(self) -> str:
        """The step's name in English."""
        return _STEP_INFO[self][3]


_STEP_INFO = {
    Step.SEQUENCES: (
        Phase.STRATEGIC,
        "IV-A-1",
        "Constitution des séquences d'activation",
        "Building the activation sequences",
    ),
    Step.TACTICS: (Phase.STRATEGIC, "IV-A-2", "Jet de Tactique", "Tactics roll"),
    Step.ACTIVATION: (
        Phase.ACTIVATION,
        "IV-B",
        "Phase d'activation",
        "Activation phase",
    ),
    Step.COMBAT: (Phase.COMBAT, "IV-C", "Phase de combat", "Combat phase"),
    Step.UPKEEP: (Phase.UPKEEP, "IV-D", "Phase d'entretien", "Upkeep phase"),
}

_STEPS = list(Step)


@dataclass(frozen=True)
class TurnClock:
    """Where the game stands: turn number, step, and whether it is over.

    ``turns`` is the agreed number of turns (6 by default; 4 or 5 in some
    scenarios, any number the players agree on). ``advance()`` returns the
    next state; past the last turn's upkeep the game is over.
    """

    turns: int = DEFAULT_TURNS
    turn: int = 1
    step: Step = Step.SEQUENCES
    over: bool = False

    def __post_init__(self) -> None:
        for name in ("turns", "turn"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} is a whole number of at least 1.")
        if self.turn > self.turns:
            raise ValueError("The turn cannot be past the last turn.")
        object.__setattr__(self, "step", Step(self.step))

    @property
    def phase(self) -> Phase:
        """The current phase (chapter 4 introduction)."""
        return self.step.phase

    @property
    def last_turn(self) -> bool:
        """Whether this is the game's last turn."""
        return self.turn == self.turns

    def advance(self) -> TurnClock:
        """The next step, the next turn, or the end of the game.

        Raises ``IllegalAction`` once the game is over.
        """
        if self.over:
            raise IllegalAction(_("The game is over."))
        index = _STEPS.index(self.step)
        if index + 1 < len(_STEPS):
            return replace(self, step=_STEPS[index + 1])
        if self.last_turn:
            return replace(self, over=True)
        return replace(self, turn=self.turn + 1, step=Step.SEQUENCES)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON form; ``from_dict`` reads it back."""
        return {
            "turns": self.turns,
            "turn": self.turn,
            "step": str(self.step),
            "over": self.over,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TurnClock:
        """Inverse of ``to_dict``."""
        return cls(
            turns=data["turns"],
            turn=data["turn"],
            step=Step(data["step"]),
            over=bool(data["over"]),
        )


class ActivationAction(StrEnum):
    """A fighter's actions during its activation (IV-B-2, initiation rules)."""

    CHARGE = "charge"
    ENGAGEMENT = "engagement"
    RUN = "run"
    COVERED_MOVE = "covered_move"
    WALK = "walk"
    SHOOT = "shoot"
    MYSTIC = "mystic"
    DISENGAGE = "disengage"

    @property
    def exclusive(self) -> bool:
        """Charge, Engagement, Course, Déplacement à couvert (IV-B-2)."""
        return self in _EXCLUSIVE

    @property
    def label_fr(self) -> str:
        """The action's name in the French rules."""
        return _LABELS_FR[self]


_EXCLUSIVE = frozenset(
    {
        ActivationAction.CHARGE,
        ActivationAction.ENGAGEMENT,
        ActivationAction.RUN,
        ActivationAction.COVERED_MOVE,
    }
)

_LABELS_FR = {
    ActivationAction.CHARGE: "Charge",
    ActivationAction.ENGAGEMENT: "Engagement",
    ActivationAction.RUN: "Course",
    ActivationAction.COVERED_MOVE: "Déplacement à couvert",
    ActivationAction.WALK: "Marche",
    ActivationAction.SHOOT: "Tir",
    ActivationAction.MYSTIC: "Action mystique",
    ActivationAction.DISENGAGE: "Désengagement",
}

# What may follow a disengagement (initiation rules): an engagement (MOU x 1),
# a walk, a shot. A run needs the fighter free of adversaries at the moment it
# is activated, so it cannot follow. The seeds say nothing of Charge and
# Déplacement à couvert after a disengagement (their chapter 5 is not here):
# they are refused until that text says otherwise.
_AFTER_DISENGAGEMENT = frozenset(
    {
        ActivationAction.ENGAGEMENT,
        ActivationAction.WALK,
        ActivationAction.SHOOT,
        ActivationAction.MYSTIC,
    }
)


def activation_problems(
    actions: Sequence[str | ActivationAction], *, shots_allowed: int = 1
) -> tuple[str, ...]:
    """Every reason the actions of one fighter's activation break the rules.

    ``actions`` are in the order they are made. Empty when legal. Rules
    (IV-B-2 and the initiation rules, "Actions cumulatives"):

    * an exclusive action (Charge, Engagement, Course, Déplacement à couvert)
      is the only action of the activation (after a disengagement for an
      engagement);
    * a walk is made at most once: it cannot be resumed after a shot, and a
      fighter cannot walk and run nor run twice;
    * a shot may come before or after the walk; at most ``shots_allowed``
      shots (one unless an exception says otherwise);
    * a disengagement, if any, comes first and only once.
    """
    problems: list[Message] = []
    parsed: list[ActivationAction] = []
    for action in actions:
        try:
            parsed.append(ActivationAction(action))
        except ValueError:
            problems.append(Message(_("Unknown action {action}."), action=repr(action)))
    if problems:
        return tuple(problems)

    disengaged = bool(parsed) and parsed[0] is ActivationAction.DISENGAGE
    rest = parsed[1:] if disengaged else parsed
    if ActivationAction.DISENGAGE in rest:
        problems.append(Message(_("A disengagement comes first, and only once.")))

    exclusive = [a for a in rest if a.exclusive]
    if exclusive:
        first = exclusive[0]
        if len(rest) > 1:
            if ActivationAction.RUN in rest and ActivationAction.WALK in rest:
                problems.append(
                    Message(_("A fighter cannot walk and run in one activation."))
                )
            elif rest.count(ActivationAction.RUN) > 1:
                problems.append(Message(_("A fighter cannot run twice.")))
            elif ActivationAction.RUN in rest and ActivationAction.SHOOT in rest:
                problems.append(
                    Message(_("A fighter cannot shoot and run in one activation."))
                )
            else:
                problems.append(
                    Message(
                        _(
                            "{action} is an exclusive action: the fighter does "
                            "nothing else in this activation (IV-B-2)."
                        ),
                        action=first.label_fr,
                    )
                )
    if disengaged:
        forbidden = [a for a in rest if a not in _AFTER_DISENGAGEMENT]
        if forbidden:
            problems.append(
                Message(
                    _("{action} cannot follow a disengagement."),
                    action=forbidden[0].label_fr,
                )
            )

    if rest.count(ActivationAction.WALK) > 1:
        problems.append(
            Message(
                _("A walk cannot be resumed: move, then shoot, or shoot, then move.")
            )
        )
    if rest.count(ActivationAction.SHOOT) > shots_allowed:
        problems.append(
            Message(_("A fighter shoots only once a turn."))
            if shots_allowed == 1
            else Message(
                _("This fighter may shoot only {count} times a turn."),
                count=shots_allowed,
            )
        )

    return tuple(problems)


def validate_activation(
    actions: Sequence[str | ActivationAction], *, shots_allowed: int = 1
) -> list[ActivationAction]:
    """The actions, parsed, or ``IllegalAction`` with the first problem (IV-B-2)."""
    problems = activation_problems(actions, shots_allowed=shots_allowed)
    if problems:
        raise IllegalAction(problems[0])
    return [ActivationAction(a) for a in actions]


def activation_order(
    plans: Mapping[Any, Sequence[str | ActivationAction]],
) -> list[Any]:
    """The order fighters activated together act in (IV-B-2).

    Fighters making an exclusive action are announced and resolved first,
    then those making cumulative actions, one after the other; within each
    group the player's order (the mapping's order) is kept.
    """

    def is_exclusive(fighter: Any) -> bool:
        return any(ActivationAction(a).exclusive for a in plans[fighter])

    exclusive = [f for f in plans if is_exclusive(f)]
    return exclusive + [f for f in plans if not is_exclusive(f)]
