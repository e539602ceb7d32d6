"""A game's addresses are reversed once per process (``battles.presenters.
urls``): the same address as ``reverse`` gives, under the script prefix in
use, and a board's links all go through it."""

from __future__ import annotations

import re

import pytest
from django.urls import clear_script_prefix, reverse, set_script_prefix

from battles.presenters.urls import _reversed, game_address
from tests.support.cast import OWNER, phone_of
from tests.support.live import two_phone_game


def test_the_address_is_the_reversed_one_and_is_reversed_once():
    _reversed.cache_clear()
    assert game_address("game_tool", "abc", "test") == reverse(
        "game_tool", args=["abc", "test"]
    )
    game_address("game_tool", "abc", "test")
    assert _reversed.cache_info().hits == 1


def test_a_script_prefix_is_part_of_the_address():
    plain = game_address("game_act", "abc")
    set_script_prefix("/club/")
    try:
        assert game_address("game_act", "abc") == "/club" + plain
    finally:
        clear_script_prefix()
    assert game_address("game_act", "abc") == plain


@pytest.mark.django_db
def test_a_board_links_to_its_own_game():
    game = two_phone_game()
    page = phone_of(OWNER).get(f"/games/{game.public_id}/").content.decode()
    act = reverse("game_act", args=[game.public_id])
    assert f'hx-post="{act}"' in page
    tools = re.findall(r'hx-get="(/games/[^"]+/tools/[^"]+)"', page)
    assert tools == [
        reverse("game_tool", args=[game.public_id, name])
        for name in ("test", "scatter", "effect")
    ]


@pytest.mark.django_db
def test_a_requests_answer_form_posts_to_the_act_address_and_works(
    game, owner_client, opponent_client
):
    """The answer to a request names the board's one ``act_url``: B's "Agree"
    form, posted as the page writes it, switches the dice."""
    owner_client.post(
        f"/games/{game.public_id}/dice-mode",
        {"mode": "entered", "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    page = opponent_client.get(f"/games/{game.public_id}/board").content.decode()
    act = reverse("game_act", args=[game.public_id])
    forms = re.findall(
        r'<form hx-post="([^"]+)"[^>]*action="([^"]+)">(.*?)</form>', page, re.S
    )
    post, action, body = next(f for f in forms if 'name="agree" value="1"' in f[2])
    assert post == action == act
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', body))
    assert fields["type"] == "answer_dice_mode" and fields["side"] == "b"
    opponent_client.post(act, fields, HTTP_HX_REQUEST="true")
    game.refresh_from_db()
    assert game.dice_mode == "entered"
