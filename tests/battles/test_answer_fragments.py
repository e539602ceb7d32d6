"""A tap's answer is a fragment only htmx swaps in: its forms carry no CSRF
token field (htmx sends the page's in a header, ``base.html``'s
``hx-headers``), and every form a fresh tap key."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from battles.live.push import personal, tap_keys
from battles.models.games import Game
from tests.support.cast import OWNER, phone_of
from tests.support.live import two_phone_game

pytestmark = pytest.mark.django_db


class _Forms(HTMLParser):
    """The htmx forms of a page or fragment, each as what htmx would post:
    its inputs' values and each select's first option."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("hx-post"):
            self.forms.append((attrs["hx-post"], {}))
        elif not self.forms:
            return
        fields = self.forms[-1][1]
        if tag == "input" and attrs.get("name"):
            fields.setdefault(attrs["name"], attrs.get("value") or "")
        elif tag == "select":
            self._select = attrs.get("name")
        elif tag == "option" and self._select:
            fields.setdefault(self._select, attrs.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def forms_of(html: str) -> list[tuple[str, dict[str, str]]]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


def _page_token(phone: Client, game: Game) -> str:
    page = phone.get(reverse("game", args=[game.public_id])).content.decode()
    return re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", page).group(1)


def _tap(phone: Client, game: Game, token: str | None) -> tuple[str, dict, object]:
    """The first tap the page's panel offers, posted as htmx posts it."""
    board = phone.get(
        reverse("game_board", args=[game.public_id]), HTTP_HX_REQUEST="true"
    ).content.decode()
    url, fields = next(
        (url, fields) for url, fields in forms_of(board) if url.endswith("/act")
    )
    fields.pop("csrfmiddlewaretoken", None)  # the header alone carries it
    headers = {"HTTP_HX_REQUEST": "true"}
    if token is not None:
        headers["HTTP_X_CSRFTOKEN"] = token
    return url, fields, phone.post(url, fields, **headers)


def test_an_answer_has_no_token_field_and_its_forms_post_with_the_header():
    game = two_phone_game()
    phone = phone_of(OWNER, Client(enforce_csrf_checks=True))
    token = _page_token(phone, game)
    _url, _fields, answer = _tap(phone, game, token)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "csrfmiddlewaretoken" not in html
    game.refresh_from_db()
    assert answer["X-Game-Version"] == str(game.version)
    # A form of that answer, posted as htmx posts it (the header, no field).
    url, fields = next((u, f) for u, f in forms_of(html) if u.endswith("/act"))
    again = phone.post(url, fields, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert again.status_code == 200
    assert "X-Game-Version" in again


def test_without_the_header_the_same_tap_is_refused_and_changes_nothing():
    game = two_phone_game()
    phone = phone_of(OWNER, Client(enforce_csrf_checks=True))
    _page_token(phone, game)  # the page (and its CSRF cookie) first
    version = game.version
    _url, _fields, refused = _tap(phone, game, None)
    assert refused.status_code == 403
    game.refresh_from_db()
    assert game.version == version
    assert not game.events.filter(seq__gt=version).exists()


def test_the_whole_page_keeps_its_token_fields_for_a_plain_post():
    """Only the fragments drop the field: the page itself posts without
    JavaScript (its forms' ``action``), so each form carries the token."""
    game = two_phone_game()
    phone = phone_of(OWNER, Client(enforce_csrf_checks=True))
    page = phone.get(reverse("game", args=[game.public_id])).content.decode()
    forms = forms_of(page)
    assert forms
    assert all("csrfmiddlewaretoken" in fields for _url, fields in forms)
    url, fields = next((u, f) for u, f in forms if u.endswith("/act"))
    # No header, no htmx: a plain post passes the CSRF check with its field,
    # and fails without it.
    assert phone.post(url, fields).status_code != 403
    fields.pop("csrfmiddlewaretoken")
    assert phone.post(url, fields).status_code == 403


def test_every_form_of_an_answer_has_a_key_of_its_own():
    game = two_phone_game()
    phone = phone_of(OWNER, Client())
    first = phone.get(
        reverse("game_board", args=[game.public_id]), HTTP_HX_REQUEST="true"
    ).content.decode()
    second = phone.get(
        reverse("game_board", args=[game.public_id]), HTTP_HX_REQUEST="true"
    ).content.decode()
    keys = [re.findall(r'name="tap" value="([^"]+)"', page) for page in (first, second)]
    assert len(keys[0]) >= 2
    every = keys[0] + keys[1]
    assert len(set(every)) == len(every)  # within a render and across renders


def test_tap_keys_are_new_for_each_button_and_each_render():
    one, two = tap_keys(), tap_keys()
    keys = [one() for _ in range(50)] + [two() for _ in range(50)]
    assert len(set(keys)) == 100
    assert all(16 <= len(key) <= 64 for key in keys)  # parse_tap takes 64 at most
    page = "live-tap-placeholder|live-tap-placeholder"
    mine, yours = personal(page).split("|"), personal(page).split("|")
    assert len(set(mine + yours)) == 4
