"""Agreement on results: a wound rolled on my fighter by my opponent's phone
waits for my phone's Confirm or Dispute (Game.require_confirmation)."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from battles.models.games import GameEvent, GameMode
from battles.services.agreement import (
    confirm_result,
    dispute_result,
    pending_confirmation,
)
from battles.services.games import (
    GameError,
    answer_undo,
    perform_action,
    undo_last_action,
)
from tests.support.game_bot import next_command
from tests.support.live import (
    OPPONENT,
    OWNER,
    SPECTATOR,
    new_game,
    two_phone_game,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings):
    """These tests read the English texts (the French pass is tested apart)."""
    settings.LANGUAGE_CODE = "en"


def _target_side(game, event) -> str:
    return game.state["fighters"][event.payload["target"]]["side"]


def play_until_a_wound(game, seed: int = 3, limit: int = 600) -> GameEvent:
    """Bot actions until one side's phone rolls a wound on the other's fighter."""
    rng = random.Random(seed)
    for _ in range(limit):
        game.refresh_from_db()
        side, command = next_command(game.state, rng)
        result = perform_action(game, side, command)
        for event in result.events:
            if event.kind == "wound_rolled" and event.side != _target_side(
                result.game, event
            ):
                game.refresh_from_db()
                return event
    raise AssertionError("no wound rolled by the other side in the game")


@pytest.fixture
def wounded():
    game = two_phone_game(require_confirmation=True)
    wound = play_until_a_wound(game)
    return game, wound, _target_side(game, wound)


def client_of(owner) -> Client:
    client = Client()
    session = client.session
    session["guest_key"] = owner.guest_key
    session.save()
    return client


PHONES = {"a": OWNER, "b": OPPONENT}


def test_a_wound_on_my_fighter_waits_for_my_phone_only(wounded):
    game, wound, victim = wounded
    roller = "b" if victim == "a" else "a"
    assert [e.action for e in pending_confirmation(game, victim)] == [wound.action]
    assert pending_confirmation(game, roller) == []
    assert pending_confirmation(game, "spectator") == []


def test_confirming_ends_the_wait(wounded):
    game, wound, victim = wounded
    confirm_result(game, victim, wound.action)
    assert pending_confirmation(game, victim) == []
    assert not GameEvent.objects.filter(game=game, disputed=True).exists()


def test_disputing_marks_the_action_in_the_log(wounded):
    game, wound, victim = wounded
    dispute_result(game, victim, wound.action)
    assert pending_confirmation(game, victim) == []
    disputed = GameEvent.objects.filter(game=game, disputed=True)
    assert set(disputed.values_list("action", flat=True)) == {wound.action}
    assert disputed.count() == GameEvent.objects.filter(action=wound.action).count()


def test_a_result_is_answered_once(wounded):
    game, wound, victim = wounded
    confirm_result(game, victim, wound.action)
    with pytest.raises(GameError):
        dispute_result(game, victim, wound.action)
    with pytest.raises(GameError):
        confirm_result(game, "b" if victim == "a" else "a", wound.action)


def test_nothing_waits_without_the_setting_or_on_one_phone():
    one_phone = new_game(require_confirmation=True, mode=GameMode.ONE_PHONE)
    for game in (two_phone_game(), one_phone):
        wound = play_until_a_wound(game)
        assert pending_confirmation(game, _target_side(game, wound)) == []


def test_an_undone_wound_waits_no_more(wounded):
    game, wound, victim = wounded
    roller = wound.side
    if game.version != max(
        e.seq for e in GameEvent.objects.filter(action=wound.action)
    ):
        pytest.skip("another action followed the wound in this game")
    # Undoing a roll on two phones asks the other phone first (issue #10).
    assert undo_last_action(game, roller).undo_requested
    answer_undo(game, "b" if roller == "a" else "a", agree=True)
    game.refresh_from_db()
    assert pending_confirmation(game, victim) == []


def test_the_victims_phone_confirms_and_disputes_over_http(wounded):
    game, wound, victim = wounded
    phone = client_of(PHONES[victim])
    url = reverse("game_dispute", args=[game.public_id, wound.action])
    response = phone.post(url, {"side": victim})
    assert response.status_code == 302
    assert response.url == reverse("game", args=[game.public_id])
    assert GameEvent.objects.filter(game=game, disputed=True).exists()
    htmx = phone.post(url, {"side": victim}, headers={"HX-Request": "true"})
    assert htmx.status_code == 200 and htmx["HX-Redirect"]


def test_nobody_answers_for_another_side(wounded):
    game, wound, victim = wounded
    roller = "b" if victim == "a" else "a"
    url = reverse("game_confirm", args=[game.public_id, wound.action])
    forged = client_of(PHONES[roller]).post(url, {"side": victim})
    assert forged.status_code == 403
    watcher = client_of(SPECTATOR).post(url, {"side": victim})
    assert watcher.status_code == 403
    assert pending_confirmation(game, victim) != []
