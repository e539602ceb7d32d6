"""Every page sent with ``Referrer-Policy: no-referrer`` (its URL holds a
secret), and every form on it, posts fine with ``Origin: null``: what
Chromium sends under that policy. One mechanism (``no_referrer_page``) sets
the header and takes ``Origin: null`` from this very site only.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from battles.league import services
from battles.services import sharing
from battles.views.csrf import NO_REFERRER_VIEWS
from tests.support.club import club_in_season
from tests.support.live import new_game

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

NULL_ORIGIN = {"HTTP_ORIGIN": "null", "HTTP_SEC_FETCH_SITE": "same-origin"}
CROSS_SITE = {"HTTP_ORIGIN": "null", "HTTP_SEC_FETCH_SITE": "cross-site"}


def routed_views(resolver=None) -> set:
    """Every view the site's URLs lead to."""
    found = set()
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            found |= routed_views(entry)
        elif isinstance(entry, URLPattern):
            found.add(entry.callback)
    return found


class Forms(HTMLParser):
    """The forms of a page: action, method and fields with their values."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append(
                {
                    "action": attrs.get("action", ""),
                    "method": (attrs.get("method") or "get").lower(),
                    "fields": {},
                }
            )
        elif (
            tag in ("input", "select", "textarea") and self.forms and attrs.get("name")
        ):
            self.forms[-1]["fields"][attrs["name"]] = attrs.get("value", "")


def forms_of(body: str) -> list[dict]:
    parser = Forms()
    parser.feed(body)
    return [form for form in parser.forms if form["method"] == "post"]


def game_join(world) -> tuple[str, Client]:
    link = sharing.make_join_link(new_game(title="Friday"), "b")
    return reverse("join", args=[link.token]), Client(enforce_csrf_checks=True)


def club_join(world) -> tuple[str, Client]:
    issued = services.make_invitation(world["club"], world["alice"])
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["olga"])
    return reverse("club_join", args=[issued.token]), client


FILL = {"player_name": "Bruno"}
PAGES = {
    "battles.views.sharing.join": game_join,
    "battles.league.views.clubs.club_join": club_join,
}


@pytest.fixture
def world():
    return club_in_season("alice", ("bob",), ("olga",), password="a long passphrase 1")


def test_every_no_referrer_page_is_routed_and_listed_here():
    routed = {getattr(view, "no_referrer", False) and view for view in routed_views()}
    assert set(NO_REFERRER_VIEWS.values()) <= routed
    assert set(NO_REFERRER_VIEWS) == set(PAGES)
    assert settings.SECURE_REFERRER_POLICY != "no-referrer"


def test_no_page_says_no_referrer_but_through_the_one_mechanism():
    root = Path(settings.BASE_DIR) / "battles"
    sayers = {
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if re.search(r"[\"']no-referrer[\"']", path.read_text())
    }
    assert sayers == {"views/csrf.py"}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_form_of_a_no_referrer_page_posts_with_origin_null(world, name):
    url, client = PAGES[name](world)
    page = client.get(url)
    assert page.status_code == 200, page.content[:400]
    assert page["Referrer-Policy"] == "no-referrer"
    count = len(forms_of(page.content.decode()))
    assert count, "a no-referrer page with no form is not worth listing"
    for index in range(count):
        url, client = PAGES[name](world)  # a fresh link and browser per form
        form = forms_of(client.get(url).content.decode())[index]
        data = {**form["fields"]}
        data.update({k: v for k, v in FILL.items() if k in data})
        target = form["action"] or url
        refused = client.post(target, data, **CROSS_SITE)
        assert refused.status_code == 403, target  # another site: still refused
        answer = client.post(target, data, **NULL_ORIGIN)
        assert answer.status_code in (200, 302), (target, answer.status_code)
        if target == url:
            assert answer["Referrer-Policy"] == "no-referrer"
