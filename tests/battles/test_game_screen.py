"""The game screen for a phone at the table: what to do now on top, small
answers, compression, the hand-over on one phone, the waiting Tactics loser."""

from __future__ import annotations

import gzip

import brotli
import pytest
from django.test import Client

from battles.models import GameSeat
from battles.models.armies import Owner
from rules.game import state as st
from tests.support.big_armies import big_game
from tests.support.cast import phone_of
from tests.support.game_steps import act, to_first_choice
from tests.support.live import new_game

pytestmark = pytest.mark.django_db

OWNER = Owner(guest_key="owner-key")


def phone(key: str = "owner-key") -> Client:
    return phone_of(key, Client(HTTP_ACCEPT_LANGUAGE="en"))


def test_the_tactics_loser_waits_for_the_winner_to_choose():
    game = new_game(OWNER)
    GameSeat.objects.create(game=game, role="b", guest_key="opponent-key")
    to_first_choice(game)
    winner = game.state["tactics"]["winner"]
    loser_key = "opponent-key" if winner == "a" else "owner-key"
    html = phone(loser_key).get(f"/games/{game.public_id}/").content.decode()
    assert f"Waiting for side {winner.upper()}" in html
    assert 'name="first"' not in html  # no live buttons for the loser
    winner_html = phone("owner-key" if winner == "a" else "opponent-key").get(
        f"/games/{game.public_id}/"
    )
    assert 'name="first"' in winner_html.content.decode()


def test_the_tactics_picker_offers_the_highest_discipline_first():
    game = new_game(OWNER)
    html = phone().get(f"/games/{game.public_id}/").content.decode()
    select = html.split('id="tactics-fighter"', 1)[1].split("</select>", 1)[0]
    options = select.split("<option")[1:]
    values = [int(o.split("(DIS ", 1)[1].split(")", 1)[0]) for o in options]
    chosen = next(v for o, v in zip(options, values, strict=True) if " selected" in o)
    assert chosen == max(values)


def test_on_one_phone_the_side_taking_the_floor_gets_a_hand_over_first():
    game = new_game(OWNER, mode="one_phone")
    client = phone()
    to_first_choice(game)
    winner = game.state["tactics"]["winner"]
    other = "b" if winner == "a" else "a"
    answer = act(client, game, type="choose_first", side=winner, first=other)
    html = answer.content.decode()
    assert f"Pass the phone to side {other.upper()}" in html
    assert "Top of your pile" not in html and "In reserve:" not in html
    client.post(f"/games/{game.public_id}/view-as", {"side": other})
    shown = client.get(f"/games/{game.public_id}/").content.decode()
    assert "Top of your pile" in shown


def test_an_answer_carries_what_changed_only_as_out_of_band_swaps():
    game = new_game(OWNER)
    client = phone()
    cards = game.state["sides"]["a"]["cards"]
    answer = act(client, game, type="set_sequence", side="a", order=cards)
    html = answer.content.decode()
    assert html.lstrip().startswith('<section id="game-panel"')
    assert 'id="game-status" class="game-status" data-version' in html
    assert 'hx-swap-oob="afterbegin:#log-lines"' in html
    assert 'id="game-fighters"' not in html  # no fighter changed: none sent
    assert "set its activation sequence" in html


def _flee_form(html: str, side: str) -> str:
    return html.split(f'<details id="flee-{side}"', 1)[1].split("</details>", 1)[0]


def test_an_answer_sends_the_flee_form_again_only_when_its_choices_change():
    game = new_game(OWNER)
    client = phone()
    cards = game.state["sides"]["a"]["cards"]
    answer = act(client, game, type="set_sequence", side="a", order=cards)
    assert answer.status_code == 200
    # The same fighters may flee: the form on the board stays (its version
    # is the board's when tapped: live.js), so the answer does not carry it.
    assert 'id="flee-a"' not in answer.content.decode()
    page = client.get(f"/games/{game.public_id}/").content.decode()
    fighter = st.fighters_of(game.state, "a")[0]
    assert f'value="{fighter}"' in _flee_form(page, "a")
    # Marked routed from that form: it comes again, without that fighter (IX-E),
    # with the new version and a new tap key.
    old_key = _flee_form(page, "a").split('name="tap" value="', 1)[1].split('"')[0]
    routed = act(client, game, type="set_routed", side="a", fighter=fighter, routed="1")
    assert routed.status_code == 200
    form = _flee_form(routed.content.decode(), "a")
    game.refresh_from_db()
    assert game.state["fighters"][fighter]["routed"] is True
    assert 'hx-swap-oob="true"' in form
    assert f'value="{fighter}"' not in form
    assert f'name="version" value="{game.version}"' in form
    assert f'name="tap" value="{old_key}"' not in form


def test_a_refusal_is_the_panel_and_its_message_and_changes_nothing():
    game = new_game(OWNER)
    before = game.version
    answer = act(phone(), game, type="end_activation", side="a")
    html = answer.content.decode()
    assert answer.status_code == 200
    feedback = html.split('id="tap-feedback"', 1)[1][:300]
    assert 'class="message message-error"' in feedback
    # Nothing moved: the forms outside the panel stay as the player left them.
    assert 'id="flee-a"' not in html
    game.refresh_from_db()
    assert game.version == before


def test_pages_and_answers_are_compressed_brotli_or_gzip():
    game = new_game(OWNER)
    client = phone()
    url = f"/games/{game.public_id}/"
    br = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert br["Content-Encoding"] == "br"
    assert "Accept-Encoding" in br["Vary"]
    assert b"game-panel" in brotli.decompress(br.content)
    gz = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert gz["Content-Encoding"] == "gzip"
    assert b"game-panel" in gzip.decompress(gz.content)
    plain = client.get(url)
    assert not plain.has_header("Content-Encoding")


def test_with_thirty_card_armies_the_first_load_and_an_answer_stay_small():
    game = big_game(OWNER)
    assert len(game.state["sides"]["a"]["cards"]) == 30
    client = phone()
    page = client.get(f"/games/{game.public_id}/", HTTP_ACCEPT_ENCODING="br")
    print("first load br bytes", len(page.content))
    assert len(page.content) <= 60_000, len(page.content)
    cards = game.state["sides"]["a"]["cards"]
    game.refresh_from_db()
    answer = client.post(
        f"/games/{game.public_id}/act",
        {"type": "set_sequence", "side": "a", "order": cards, "version": game.version},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_ENCODING="br",
    )
    assert answer["Content-Encoding"] == "br"
    print("answer br bytes", len(answer.content))
    assert len(answer.content) <= 8_000, len(answer.content)


def test_an_answer_built_from_the_tap_s_own_events_equals_one_read_from_the_log():
    """The answer words the events the tap appended, without reading the log:
    its lines, undo button and undo request are those the log gives."""
    import random

    from battles.presenters.board import build_board
    from battles.services import games as services
    from battles.services.boards import board_read
    from battles.views.access import Viewer
    from tests.support.game_bot import next_command

    game = new_game(OWNER, mode="one_phone")
    viewer = Viewer(frozenset({"a", "b"}))
    rng = random.Random(5)
    compared = ("new_lines", "latest", "can_undo", "undo_request", "fighters")
    for _ in range(120):
        game.refresh_from_db()
        since, before = game.version, game.state
        side, command = next_command(game.state, rng)
        result = services.perform_action(game, side, command)
        common = {"side": side, "holding": side, "since": since, "before": before}
        # The board reads what it needs in one service read, then presents.
        told = build_board(
            result.game,
            viewer,
            board_read(result.game, viewer, side, since=since, added=result.events),
            added=result.events,
            **common,
        )
        read = build_board(
            result.game,
            viewer,
            board_read(result.game, viewer, side, since=since),
            **common,
        )
        assert {k: told[k] for k in compared} == {k: read[k] for k in compared}


def refresh(client, game, since):
    return client.get(
        f"/games/{game.public_id}/board", {"since": since}, HTTP_HX_REQUEST="true"
    )


def test_the_other_phone_catches_up_with_what_changed_only():
    game = new_game(OWNER)
    GameSeat.objects.create(game=game, role="b", guest_key="opponent-key")
    a, b = phone(), phone("opponent-key")
    shown = game.version
    cards = game.state["sides"]["a"]["cards"]
    act(a, game, type="set_sequence", side="a", order=cards)
    game.refresh_from_db()
    answer = refresh(b, game, shown)
    html = answer.content.decode()
    assert answer["HX-Retarget"] == "#game-panel"
    assert answer["HX-Reswap"] == "outerHTML"
    assert answer["X-Game-Version"] == str(game.version)
    assert html.lstrip().startswith('<section id="game-panel"')
    assert f'data-version="{game.version}" hx-swap-oob="true"' in html
    assert "set its activation sequence" in html  # the new log line
    assert 'id="game-fighters"' not in html  # no fighter changed
    panel = html.split('id="game-panel"', 1)[1].split("</section>")[0]
    assert f'value="{cards[0]}"' not in panel  # A's sequence stays A's (IV-A-1)
    # What B gets equals what its whole board says of the panel.
    whole = b.get(f"/games/{game.public_id}/board").content.decode()
    assert 'id="game-fighters"' in whole


@pytest.mark.parametrize("since", ["", "abc", "-1", "99999999999", "0"])
def test_a_refresh_without_a_usable_version_gets_the_whole_board(since):
    game = new_game(OWNER)
    answer = refresh(phone(), game, since)
    assert answer.status_code == 200
    assert not answer.has_header("HX-Retarget")
    assert 'id="game-fighters"' in answer.content.decode()


def test_after_an_undo_a_refresh_gets_the_whole_board():
    from battles.services import games as services

    game = new_game(OWNER)
    shown = game.version
    cards = game.state["sides"]["a"]["cards"]
    act(phone(), game, type="set_sequence", side="a", order=cards)
    game.refresh_from_db()
    services.undo_last_action(game, "a")
    game.refresh_from_db()
    for since in (shown, shown + 1):
        answer = refresh(phone(), game, since)
        assert not answer.has_header("HX-Retarget")
        assert 'id="game-fighters"' in answer.content.decode()
