"""The tapping phone's answer first: the streams' look waits while a tap is
being answered in this process, and never longer than its bound."""

from __future__ import annotations

import threading

import pytest
from django.http import Http404

from battles.live import answer_first
from battles.views import games as games_views


def test_a_look_waits_for_the_tap_being_answered():
    order = []
    answering = threading.Event()
    finish = threading.Event()

    def tap():
        with answer_first.answering_tap():
            answering.set()
            finish.wait(5)
            order.append("answer")

    def look():
        answer_first.after_answers(most_seconds=5)
        order.append("look")

    tapping = threading.Thread(target=tap)
    tapping.start()
    answering.wait(5)
    looking = threading.Thread(target=look)
    looking.start()
    assert answer_first.taps_being_answered() == 1
    finish.set()
    for thread in (tapping, looking):
        thread.join(5)
    assert order == ["answer", "look"]
    assert answer_first.taps_being_answered() == 0


def test_past_its_bound_a_look_goes_on_without_the_answer():
    release = threading.Event()
    answering = threading.Event()

    def tap():
        with answer_first.answering_tap():
            answering.set()
            release.wait(5)

    tapping = threading.Thread(target=tap)
    tapping.start()
    answering.wait(5)
    answer_first.after_answers(most_seconds=0.01)  # returns: not starved
    assert answer_first.taps_being_answered() == 1
    release.set()
    tapping.join(5)
    assert answer_first.taps_being_answered() == 0


def test_a_tap_that_fails_still_lets_the_looks_go():
    def failing():
        with answer_first.answering_tap():
            raise ValueError("refused")

    try:
        failing()
    except ValueError:
        pass
    assert answer_first.taps_being_answered() == 0


@pytest.mark.django_db
def test_a_tap_is_counted_as_being_answered_while_its_view_runs(client, monkeypatch):
    seen = []

    def no_such_game(request, public_id):
        seen.append(answer_first.taps_being_answered())
        raise Http404("No such game.")

    monkeypatch.setattr(games_views, "get_game_for_viewer", no_such_game)
    answer = client.post("/games/nothing-here/act", {"type": "draw"})
    assert answer.status_code == 404
    assert seen == [1]
    assert answer_first.taps_being_answered() == 0
