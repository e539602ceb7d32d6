"""The tapping phone's answer first: a game's look waits while a tap on that
game is being answered in this process, never longer than its bound, and
never for another game's taps."""

from __future__ import annotations

import threading

import pytest
from django.http import Http404

from battles.live import answer_first
from battles.views import games as games_views

GAME, OTHER_GAME = 7, 8


def test_a_look_waits_for_the_tap_being_answered_on_its_game():
    order = []
    answering = threading.Event()
    finish = threading.Event()

    def tap():
        with answer_first.answering_tap(GAME):
            answering.set()
            finish.wait(5)
            order.append("answer")

    def look():
        answer_first.after_answers(GAME, most_seconds=5)
        order.append("look")

    tapping = threading.Thread(target=tap)
    tapping.start()
    answering.wait(5)
    looking = threading.Thread(target=look)
    looking.start()
    assert answer_first.taps_being_answered(GAME) == 1
    finish.set()
    for thread in (tapping, looking):
        thread.join(5)
    assert order == ["answer", "look"]
    assert answer_first.taps_being_answered(GAME) == 0


def test_another_games_look_does_not_wait():
    release = threading.Event()
    answering = threading.Event()

    def tap():
        with answer_first.answering_tap(GAME):
            answering.set()
            release.wait(5)

    tapping = threading.Thread(target=tap)
    tapping.start()
    answering.wait(5)
    waited = threading.Event()
    looking = threading.Thread(
        target=lambda: (
            answer_first.after_answers(OTHER_GAME, most_seconds=5),
            waited.set(),
        )
    )
    looking.start()
    looking.join(5)
    assert waited.is_set() and answer_first.taps_being_answered(GAME) == 1
    release.set()
    tapping.join(5)


def test_past_its_bound_a_look_goes_on_without_the_answer():
    release = threading.Event()
    answering = threading.Event()

    def tap():
        with answer_first.answering_tap(GAME):
            answering.set()
            release.wait(5)

    tapping = threading.Thread(target=tap)
    tapping.start()
    answering.wait(5)
    answer_first.after_answers(GAME, most_seconds=0.01)  # returns: not starved
    assert answer_first.taps_being_answered(GAME) == 1
    release.set()
    tapping.join(5)
    assert answer_first.taps_being_answered(GAME) == 0


def test_a_tap_that_fails_still_lets_the_looks_go():
    def failing():
        with answer_first.answering_tap(GAME):
            raise ValueError("refused")

    with pytest.raises(ValueError):
        failing()
    assert answer_first.taps_being_answered(GAME) == 0


@pytest.mark.django_db
def test_a_tap_is_being_answered_while_its_view_runs(client, monkeypatch):
    from tests.support.live import two_phone_game

    game = two_phone_game()
    seen = []

    def counted(request, game, viewer, tap_type):
        seen.append(answer_first.taps_being_answered(game.pk))
        raise Http404("stop here")

    monkeypatch.setattr(games_views, "_tap", counted)
    monkeypatch.setattr(
        games_views,
        "get_game_for_viewer",
        lambda request, public_id: (game, games_views.Viewer(frozenset({"a"}))),
    )
    answer = client.post(f"/games/{game.public_id}/act", {"type": "draw"})
    assert answer.status_code == 404
    assert seen == [1]
    assert answer_first.taps_being_answered(game.pk) == 0
