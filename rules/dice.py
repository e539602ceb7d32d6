"""Dice sources: every d6 the engine uses comes from one of these.

The rules never draw random numbers themselves (see DESIGN: "Dice"). A game
uses ``SeededDice`` (reproducible from a secret seed, so players can verify
every roll afterwards); tests use ``ScriptedDice``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from rules.errors import _

FACES = range(1, 7)


class DiceExhausted(LookupError):
    """A scripted dice source was asked for more faces than it was given."""


class DiceSource(Protocol):
    """Anything that rolls a six-sided die."""

    def d6(self) -> int: ...


def _checked_face(face: int) -> int:
    if isinstance(face, bool) or not isinstance(face, int) or face not in FACES:
        raise ValueError(f"A d6 shows 1 to 6, not {face!r}.")
    return face


class ScriptedDice:
    """Returns the given d6 faces in order (tests, and dice rolled at the table)."""

    def __init__(self, faces: Iterable[int]):
        self._faces = [_checked_face(face) for face in faces]
        self._next = 0

    def d6(self) -> int:
        """The next scripted face; ``DiceExhausted`` past the end."""
        if self._next >= len(self._faces):
            raise DiceExhausted("No scripted die left to roll.")
        face = self._faces[self._next]
        self._next += 1
        return face

    @property
    def used(self) -> int:
        """How many faces were rolled so far."""
        return self._next

    @property
    def remaining(self) -> int:
        """How many scripted faces are left."""
        return len(self._faces) - self._next


class SeededDice:
    """Deterministic, unbiased d6 from a seed (str, bytes or int).

    Faces come from HMAC-SHA256(seed, block counter): each output byte below
    252 (= 6 x 42) gives ``byte % 6 + 1``; larger bytes are rejected so every
    face has exactly the same chance. Stable across Python versions, unlike
    ``random.Random``'s integer methods.
    """

    _LIMIT = 252

    def __init__(self, seed: str | bytes | int):
        if isinstance(seed, bool) or not isinstance(seed, (str, bytes, int)):
            raise TypeError("A dice seed is a str, bytes or int.")
        if isinstance(seed, int):
            seed = str(seed)
        self._key = seed.encode() if isinstance(seed, str) else bytes(seed)
        self._block = 0
        self._buffer = b""
        self.rolled = 0

    def _refill(self) -> None:
        self._buffer = hmac_block(self._key, self._block)
        self._block += 1

    @property
    def blocks_used(self) -> int:
        """How many HMAC blocks the faces rolled so far consumed."""
        return self._block

    def d6(self) -> int:
        """The next face of this seed's sequence."""
        while True:
            if not self._buffer:
                self._refill()
            byte, self._buffer = self._buffer[0], self._buffer[1:]
            if byte < self._LIMIT:
                self.rolled += 1
                return byte % 6 + 1


# --- a game's rolls: one derivation that the game, /verify and verify_game share ---

# Marked for translation: /verify shows it in the page's language (the
# identifiers key, block, HMAC-SHA256 and ":roll:" stay as they are in code).
DERIVATION = _(
    'key = "<seed>:roll:<roll number>" (UTF-8); '
    "block n = HMAC-SHA256(key, n as 8 bytes big-endian), n = 0, 1, ...; "
    "each byte below 252 gives face = byte mod 6 + 1, bytes 252-255 are skipped"
)


def hmac_block(key: bytes, block: int) -> bytes:
    """The ``block``-th 32 bytes of a seed's stream: HMAC-SHA256(key, block
    as 8 bytes big-endian)."""
    return hmac.new(key, block.to_bytes(8, "big"), hashlib.sha256).digest()


def roll_seed(secret: str, roll: int) -> str:
    """The seed of a game's ``roll``-th roll (0 first), from its secret seed.

    DESIGN "Dice": the roll number comes from ``rules.game.roll_numbers``: a
    fresh number, or the number of the roll an undo took back when the very
    same roll is made again; no other roll ever gets faces already shown.
    """
    return f"{secret}:roll:{roll}"


@dataclass(frozen=True)
class RollDerivation:
    """How a roll's faces come from its seed, step by step (for /verify)."""

    key: str
    blocks: tuple[tuple[str, str], ...]  # (message hex, HMAC digest hex)
    faces: tuple[int, ...]


def derive_faces(seed: str, count: int) -> RollDerivation:
    """The first ``count`` faces of ``seed``'s dice, with the bytes hashed.

    The very ``SeededDice`` a game rolls with, so the page, the command and
    the game cannot drift apart.
    """
    dice = SeededDice(seed)
    faces = tuple(dice.d6() for _face in range(count))
    key = dice._key
    blocks = tuple(
        (block.to_bytes(8, "big").hex(), hmac_block(key, block).hex())
        for block in range(dice.blocks_used)
    )
    return RollDerivation(key=seed, blocks=blocks, faces=faces)
