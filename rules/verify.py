"""Checking a game's dice from its log alone (DESIGN "Dice").

The verify page, ``manage.py verify_game FILE`` and the game itself share one
derivation (``rules.dice``): a roll's faces come from the game's secret seed and
the roll's number (``rules.game.roll_numbers``, logged in each ``dice_drawn``
event). Pure: it reads
events as the downloaded log holds them, dicts with ``seq``, ``action``,
``kind``, ``payload``, ``dice`` (the faces an action drew, on its first event)
and ``dice_source`` (``"seeded"``: the app's dice; ``"entered"``: typed from
real dice, which no seed can check).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.dice import RollDerivation, derive_faces, roll_seed

SEEDED = "seeded"
TYPED = "entered"


def legacy_action_seed(secret: str, action: int) -> str:
    """The seed of an action logged before the roll count existed (its action
    has no ``dice_drawn`` event): the secret and the action's event number."""
    return f"{secret}:{action}"


@dataclass(frozen=True)
class RollCheck:
    """One roll of the log: its faces, and (app's dice) those the seed gives."""

    seq: int
    action: int
    roll: int | None  # the roll number; None for an action logged before it
    typed: bool  # faces typed from real dice: no seed to check them against
    faces: tuple[int, ...]
    derivation: RollDerivation | None  # None when typed or the seed is secret
    consistent: bool = True  # its dice_drawn event logged the same faces

    @property
    def expected(self) -> tuple[int, ...]:
        return self.derivation.faces if self.derivation else ()

    @property
    def ok(self) -> bool:
        if not self.consistent:
            return False
        return self.typed or (
            self.derivation is not None and self.faces == self.derivation.faces
        )


def seed_matches(secret: str, fingerprint: str) -> bool:
    """Whether ``secret`` is the seed whose SHA-256 was shown from the start."""
    return hashlib.sha256(secret.encode()).hexdigest() == fingerprint


def check_rolls(
    events: Iterable[Mapping[str, Any]], secret: str | None
) -> list[RollCheck]:
    """Every roll of the log, recomputed from ``secret`` (None: kept secret,
    nothing recomputed). A roll's faces are those its action's first event
    logged, and its ``dice_drawn`` event must say the same."""
    events = list(events)
    drawn = {
        e["action"]: e.get("payload") or {} for e in events if e["kind"] == "dice_drawn"
    }
    checks = []
    for event in events:
        source = event.get("dice_source") or ""
        if source not in (SEEDED, TYPED):
            continue
        faces = tuple(event.get("dice") or ())
        payload = drawn.get(event["action"], {})
        roll = payload.get("roll")
        # The log must not contradict itself: the dice_drawn event says too.
        consistent = not payload or tuple(payload.get("faces") or ()) == faces
        typed = source == TYPED
        derivation = None
        if not typed and secret is not None:
            seed = (
                legacy_action_seed(secret, event["action"])
                if roll is None
                else roll_seed(secret, roll)
            )
            derivation = derive_faces(seed, len(faces))
        checks.append(
            RollCheck(
                event["seq"],
                event["action"],
                roll,
                typed,
                faces,
                derivation,
                consistent,
            )
        )
    return checks


__all__ = ["RollCheck", "check_rolls", "legacy_action_seed", "seed_matches"]
