"""Undo never reveals a face that a later roll will use (issue 30, DESIGN
"Dice"): a face shown is spent. A roll an undo takes back gets its faces
again only when the very same roll is made again; no other roll inherits
them. Whatever the undos, replay gives the stored state and /verify
recomputes every face.

Run on both: ``DATABASE_URL=postgres://... pytest tests/battles/test_spent_faces.py``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.models import GameEvent
from battles.services import games as services
from rules.game import replay
from tests.support.live import guests_game

pytestmark = pytest.mark.django_db

LABELS = ("Boule de feu", "Rocher", "Flèche")


def _scatter(game, side: str, label: str):
    game.refresh_from_db()
    return services.perform_action(game, side, {"type": "scatter", "label": label})


def _undo(game, side: str) -> None:
    game.refresh_from_db()
    services.undo_last_action(game, side)  # a roll: the other phone is asked
    game.refresh_from_db()
    if services.pending_undo_request(game):
        services.answer_undo(game, "b" if side == "a" else "a", agree=True)


def _draws(game) -> list[dict]:
    return [
        e.payload
        for e in GameEvent.objects.filter(game=game, kind="dice_drawn").order_by("seq")
    ]


def test_an_undone_scatter_s_faces_never_reach_the_next_roll_of_another_kind():
    """The issue's case: a scatter shown, undone with the other phone's
    agreement; the next roll (another scatter, the other side's) is fresh."""
    game = guests_game("spent-a", "spent-b")
    shown = _scatter(game, "a", "Boule de feu")
    shown_roll = shown.events[-1].payload["roll"]
    _undo(game, "a")
    for side, label in (("a", "Rocher"), ("b", "Boule de feu")):
        other = _scatter(game, side, label)
        assert other.events[-1].payload["roll"] != shown_roll
        _undo(game, side)
    again = _scatter(game, "a", "Boule de feu")
    assert again.events[-1].payload["roll"] == shown_roll
    assert again.events[0].dice == shown.events[0].dice
    game.refresh_from_db()
    assert game.state == replay(services.rules_events(game))
    assert all(check.ok for check in services.verify_dice(game))


step = st.one_of(
    st.tuples(st.just("roll"), st.sampled_from("ab"), st.sampled_from(LABELS)),
    st.tuples(st.just("undo"), st.just(""), st.just("")),
)


@settings(max_examples=25, deadline=None)
@given(st.lists(step, min_size=1, max_size=12))
def test_no_face_shown_before_an_undo_reaches_a_different_roll_after_it(steps):
    game = guests_game("prop-a", "prop-b")
    done: list[str] = []  # the sides of the actions not undone, in order
    for kind, side, label in steps:
        if kind == "roll":
            _scatter(game, side, label)
            done.append(side)
        elif done:
            _undo(game, done.pop())
    # A roll number (hence its faces) only ever served one roll: the same
    # side, command and moment of the game.
    keys: dict[int, str] = {}
    for draw in _draws(game):
        assert keys.setdefault(draw["roll"], draw["key"]) == draw["key"]
    game.refresh_from_db()
    assert game.state == replay(services.rules_events(game))
    assert all(check.ok for check in services.verify_dice(game))
