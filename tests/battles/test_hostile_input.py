"""Hostile input gets a message next to its field and changes nothing (issue #13).

Each test here is one defect found over HTTP: a NUL byte in a tap, in an
undo, in a join name, a card with ``mou=1e308``. The one validator behind
the fixes is ``battles.validation``.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client

from battles.models import Army, GameEvent, GameSeat, ReferenceCard
from battles.models.armies import Owner
from battles.models.games import JoinLinkRole
from battles.services import games as services
from battles.services import sharing
from battles.validation import (
    CheckedForm,
    FieldError,
    check_float,
    check_int,
    check_text,
    parse_faces,
)
from rules.game import replay
from rules.game.state import cards_in_play
from tests.support.cast import phone_of
from tests.support.live import demo_armies, guests_game, new_game_form

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
CONTROL = "\x00\x01\x07\x1b\x7f\x85"


@pytest.fixture
def table():
    """A two-phone game: side A's phone, the game, its log length."""
    game = guests_game("hostile-a", "hostile-b")
    return game, phone_of("hostile-a", Client(HTTP_ACCEPT_LANGUAGE="en"))


def _set_sequence(game, tap="tap-1", **extra):
    order = cards_in_play(game.state, "a")
    return {
        "type": "set_sequence",
        "side": "a",
        "order": order,
        "version": str(game.version),
        "tap": tap,
        **extra,
    }


def _unchanged(game, events_before: int) -> None:
    game.refresh_from_db()
    assert GameEvent.objects.filter(game=game).count() == events_before
    assert replay(services.rules_events(game)) == game.state


def _refused(game, events_before: int, response, message: str) -> None:
    """Refused in words on the page (a 200, not an HTTP error); nothing changed."""
    assert response.status_code == 200
    assert message in response.content.decode()
    _unchanged(game, events_before)


# --- the game's tap ----------------------------------------------------------------


@pytest.mark.parametrize("character", list(CONTROL))
def test_a_control_character_in_the_tap_key_is_refused_next_to_the_board(
    table, character
):
    game, phone = table
    before = game.events.count()
    response = phone.post(
        f"/games/{game.public_id}/act", _set_sequence(game, f"k{character}"), **HTMX
    )
    _refused(game, before, response, "invisible control characters")


def test_a_nul_byte_in_a_fighter_name_is_refused(table):
    game, phone = table
    before = game.events.count()
    data = _set_sequence(game)
    data["order"] = [data["order"][0] + "\x00", *data["order"][1:]]
    response = phone.post(f"/games/{game.public_id}/act", data, **HTMX)
    _refused(game, before, response, "invisible control characters")


def test_a_nul_byte_in_an_undo_tap_is_refused(table):
    game, phone = table
    phone.post(f"/games/{game.public_id}/act", _set_sequence(game), **HTMX)
    game.refresh_from_db()
    before = game.events.count()
    response = phone.post(
        f"/games/{game.public_id}/undo",
        {"side": "a", "version": str(game.version), "tap": "undo\x00"},
        **HTMX,
    )
    _refused(game, before, response, "invisible control characters")


def test_a_version_in_other_digits_is_refused_not_a_500(table):
    game, phone = table
    before = game.events.count()
    response = phone.post(
        f"/games/{game.public_id}/undo", {"side": "a", "version": "²"}, **HTMX
    )
    _refused(game, before, response, "out of date")


def test_the_same_tap_key_with_another_command_answers_422_with_the_board(table):
    """DESIGN "Double taps": same key, another payload: 422 (htmx swaps it)."""
    game, phone = table
    first = _set_sequence(game, "same-key")
    assert phone.post(f"/games/{game.public_id}/act", first, **HTMX).status_code == 200
    game.refresh_from_db()
    before = game.events.count()
    other = dict(first, order=list(reversed(first["order"])))
    response = phone.post(f"/games/{game.public_id}/act", other, **HTMX)
    assert response.status_code == 422
    assert "already sent with another action" in response.content.decode()
    assert 'id="game-panel"' in response.content.decode()  # next to the control
    _unchanged(game, before)


def test_a_refused_tap_answers_200_with_its_message_next_to_the_field(table):
    """docs/input-checks.md: a refusal a player can cause is not an HTTP error."""
    game, phone = table
    data = _set_sequence(game, type="shoot")
    data.update(fighter="a1.1", target="b1.1", distance_cm="1e308")
    response = phone.post(f"/games/{game.public_id}/act", data, **HTMX)
    assert response.status_code == 200
    assert "Enter a number from 0 to 1000." in response.content.decode()


# --- joining ---------------------------------------------------------------------


def test_a_nul_byte_in_a_join_name_is_refused_next_to_the_name(table):
    game, _phone = table
    links = sharing.open_share_links(game, {})
    token = links[JoinLinkRole.SPECTATOR].token
    watcher = phone_of("hostile-watcher", Client(HTTP_ACCEPT_LANGUAGE="en"))
    seats = GameSeat.objects.count()
    response = watcher.post(f"/join/{token}", {"player_name": "Eve\x00"})
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="player-name-error"' in body
    assert "invisible control characters" in body
    assert GameSeat.objects.count() == seats


# --- forms -----------------------------------------------------------------------


def test_a_card_with_mou_1e308_is_refused_next_to_mou(guest_client, griffons):
    cards = ReferenceCard.objects.count()
    data = {
        "name": "Titan",
        "people": griffons.pk,
        "size": "normal",
        "base_shape": "square",
        "fighters_per_card": 1,
        "mou": "1e308",
        "att": 4,
        "cou": 4,
    }
    response = guest_client.post("/armies/cards/new/", data, **HTMX)
    assert response.status_code == 200
    assert 'id="id_mou_error"' in response.content.decode()
    assert ReferenceCard.objects.count() == cards


def test_a_card_number_too_large_for_the_database_is_refused(guest_client, griffons):
    from battles.services.armies import create_army

    army = create_army(
        Owner(guest_key="guest-key-of-the-owner"), name="A", people=griffons
    )
    response = guest_client.post(f"/armies/{army.pk}/cards/", {"card": "9" * 30})
    assert response.status_code in (200, 302, 400, 404)
    assert army.cards.count() == 0


def test_an_army_file_with_a_nul_byte_is_refused_and_imports_nothing(guest_client):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from battles.files.army_json import export_army_json

    call_command("load_demo", verbosity=0)
    data = export_army_json(Army.objects.filter(is_demo=True).first())
    data["army"]["name"] = "Nul\x00army"
    armies = Army.objects.count()
    upload = SimpleUploadedFile("x.json", json.dumps(data).encode(), "application/json")
    response = guest_client.post("/armies/import/", {"file": upload})
    assert response.status_code == 200
    assert "army.name" in response.content.decode()
    assert Army.objects.count() == armies


def test_a_new_game_title_with_control_characters_is_refused(guest_client):
    army_a, army_b = demo_armies()
    games = services.Game.objects.count()
    response = guest_client.post(
        "/games/new/",
        new_game_form(army_a, army_b, title="Bad\x00title", turns="6"),
    )
    assert response.status_code == 200
    assert "title" in response.context["form"].errors
    assert services.Game.objects.count() == games


# --- the validator itself -------------------------------------------------------


def test_the_validator_keeps_line_breaks_and_tabs_but_refuses_controls():
    assert check_text(" a\tb\nc\r\n ", "f", max_length=10) == "a\tb\nc"
    for character in CONTROL:
        with pytest.raises(FieldError) as refused:
            check_text(f"x{character}", "name", max_length=10)
        assert refused.value.field == "name"


def test_numbers_out_of_range_or_not_finite_are_refused():
    for raw in ["1e308", "inf", "nan", "-1", "9" * 400, "", "1,2,3"]:
        with pytest.raises(FieldError):
            check_float(raw, "d", 0, 1000)
    assert check_float("18,5", "d", 0, 1000) == 18.5
    for raw in ["9" * 30, "1.5", "²", "", "-3"]:
        with pytest.raises(FieldError):
            check_int(raw, "n", 0, 10)
    assert check_int(" 7 ", "n", 0, 10) == 7


def test_one_parser_reads_faces_however_they_are_typed():
    assert parse_faces("35") == parse_faces("3 5") == parse_faces("3,5") == [3, 5]
    assert parse_faces("") == []
    for raw in ["7", "0", "3x", "\x00", "1" * 21]:
        with pytest.raises(FieldError):
            parse_faces(raw)


def test_a_checked_form_refuses_control_characters_and_overflow():
    from django import forms

    class Sample(CheckedForm):
        name = forms.CharField()
        count = forms.IntegerField()
        size = forms.DecimalField()

    form = Sample({"name": "a\x1bb", "count": str(2**40), "size": "1e30"})
    assert not form.is_valid()
    assert set(form.errors) == {"name", "count", "size"}
    assert Sample({"name": "ab", "count": "3", "size": "2.5"}).is_valid()
