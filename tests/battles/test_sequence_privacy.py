"""Activation sequences are hidden (IV-A-1): each side reads its own, and
everyone reads them all once the game is over, through every view and the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from battles.models import ActivationSequence, Fighter, GameSeat
from battles.services import games as services
from battles.services.fighter_rows import readable_sequences
from tests.support.cast import phone_of
from tests.support.live import guests_game

pytestmark = pytest.mark.django_db

A_SEQUENCE = 'data-sequence="a-1"'
B_SEQUENCE = 'data-sequence="b-1"'


def phone(key: str | None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    return phone_of(key, client) if key else client


@pytest.fixture
def game(db):
    game = guests_game("anne", "bruno", turns=2)
    GameSeat.objects.create(game=game, role="spectator", guest_key="sam")
    for side in ("a", "b"):
        game.refresh_from_db()
        order = list(reversed(game.state["sides"][side]["cards"]))
        services.perform_action(game, side, {"type": "set_sequence", "order": order})
    game.refresh_from_db()
    return game


def pages(game) -> list[str]:
    base = f"/games/{game.public_id}"
    return [f"{base}/", f"{base}/board", f"{base}/log", f"{base}/verify", "/games/"]


def seen(client: Client, game) -> str:
    """Everything this phone can read of the game, every page put together."""
    text = ""
    for url in pages(game):
        response = client.get(url)
        assert response.status_code == 200, url
        text += response.content.decode()
    return text


def finish(game) -> None:
    services.perform_action(game, "a", {"type": "concede"})
    game.refresh_from_db()
    assert game.finished


def test_the_rows_hold_both_sequences_in_their_order(game):
    for side in ("a", "b"):
        row = ActivationSequence.objects.get(game=game, side=side, turn=1)
        assert [c.card_key for c in row.cards.all()] == game.state["sequences"][side]
        assert not row.locked


def test_a_side_reads_its_own_sequence_and_never_the_other(game):
    assert [s.side for s in readable_sequences(game, {"a"})] == ["a"]
    assert [s.side for s in readable_sequences(game, {"b"})] == ["b"]
    assert readable_sequences(game, {"spectator"}) == []
    anne, bruno = seen(phone("anne"), game), seen(phone("bruno"), game)
    assert A_SEQUENCE in anne and B_SEQUENCE not in anne
    assert B_SEQUENCE in bruno and A_SEQUENCE not in bruno


def test_a_spectator_and_an_outsider_read_no_sequence_while_the_game_runs(game):
    spectator = seen(phone("sam"), game)
    assert A_SEQUENCE not in spectator and B_SEQUENCE not in spectator
    outsider = phone("olga")
    game_page, *others = pages(game)[:-1]
    seatless = outsider.get(game_page)  # how to join or watch, nothing of the game
    page = seatless.content.decode()
    assert seatless.status_code == 200
    assert A_SEQUENCE not in page and B_SEQUENCE not in page
    assert game.state["sides"]["a"]["name"] not in page
    for url in others:
        assert outsider.get(url).status_code == 404


def test_one_phone_passed_between_the_players_shows_no_sequence_in_the_log(game):
    anne = phone("anne")
    GameSeat.objects.filter(game=game, role="b").update(guest_key="anne")
    assert readable_sequences(game, {"a", "b"}) == []
    text = anne.get(f"/games/{game.public_id}/log").content.decode()
    assert A_SEQUENCE not in text and B_SEQUENCE not in text
    finish(game)
    text = anne.get(f"/games/{game.public_id}/log").content.decode()
    assert A_SEQUENCE in text and B_SEQUENCE in text


def test_an_action_answers_without_the_other_sides_sequence(game):
    bruno = phone("bruno")
    url = f"/games/{game.public_id}/act"
    tap = {"side": "b", "tap": "t-1"}
    command = {"type": "set_routed", "fighter": "b1.1", "routed": "1"}
    data = {**command, "version": game.version, **tap}
    response = bruno.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Fighter.objects.get(game=game, key="b1.1").routed
    assert A_SEQUENCE not in response.content.decode()
    game.refresh_from_db()
    concede = {"type": "concede", "version": game.version, "tap": "t-2"}
    response = bruno.post(url, {**tap, **concede}, HTTP_HX_REQUEST="true")
    # The game is over now: the answer shows both, as it should.
    assert A_SEQUENCE in response.content.decode()


def test_everyone_reads_every_sequence_once_the_game_is_over(game):
    finish(game)
    assert {s.side for s in readable_sequences(game, {"spectator"})} == {"a", "b"}
    for key in ("anne", "bruno", "sam"):
        text = seen(phone(key), game)
        assert A_SEQUENCE in text and B_SEQUENCE in text, key


@pytest.fixture
def staff():
    user = get_user_model().objects.create_superuser("admin", "a@example.org", "pw")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def test_the_admin_never_shows_a_running_games_sequences(game, staff):
    listing = staff.get("/admin/battles/activationsequence/")
    assert listing.status_code == 200
    assert not listing.context["cl"].result_count
    row = ActivationSequence.objects.get(game=game, side="a")
    page = staff.get(f"/admin/battles/activationsequence/{row.pk}/change/")
    assert page.status_code == 302  # "does not exist", back to the list
    finish(game)
    assert staff.get("/admin/battles/activationsequence/").context[
        "cl"
    ].result_count == (2)
    page = staff.get(f"/admin/battles/activationsequence/{row.pk}/change/")
    assert page.status_code == 200
    assert row.cards.first().card_name in page.content.decode()


def test_the_admin_lists_fighters_and_wounds_read_only(game, staff):
    listing = staff.get("/admin/battles/fighter/")
    assert listing.status_code == 200
    assert listing.context["cl"].result_count == Fighter.objects.count()
    fighter = Fighter.objects.filter(game=game).first()
    page = staff.get(f"/admin/battles/fighter/{fighter.pk}/change/")
    assert page.status_code == 200
    assert b'type="submit"' not in page.content.split(b'id="content-main"')[1]
    assert staff.get("/admin/battles/fighter/add/").status_code == 403
    assert staff.get("/admin/battles/fighterwound/").status_code == 200
    assert staff.get("/admin/battles/fighterwound/add/").status_code == 403
    assert staff.post(f"/admin/battles/fighter/{fighter.pk}/delete/").status_code == (
        403
    )
