"""Hostile input on every endpoint the URLconf lists: never a 5xx (issue #13).

The endpoints are read from the URLconf itself, so a new view is fuzzed the
day it is added. Hypothesis posts what a hostile phone might: text with NUL
and other control characters, unicode, HTML- and SQL-looking strings, huge
and negative numbers, repeated and missing fields, files where text is
expected and raw bodies that are no form at all. Every answer is below 500,
and an answer that refuses the input (an error status, or a form error on
the page) has changed nothing in the database.

Kept quick for CI: a few examples per endpoint (``EXAMPLES``), one shared set
of data, and cheap password hashing.
"""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import re

import pytest
from django import forms
from django.core import serializers
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import battles.forms
from battles.backup import backed_up_models
from battles.models import Army, GameSeat
from battles.models.armies import Owner
from battles.models.games import JoinLinkRole
from battles.services import armies as army_services
from battles.services import games as services
from battles.services import sharing
from rules.game import COMMANDS, replay

EXAMPLES = 4
GUEST = "fuzz-guest"
# Django's own admin sits behind a staff login; everything else is fuzzed.
SKIPPED_PREFIXES = ("admin/",)
# Tables a refused request may still touch: its session, its rate-limit count.
BOOKKEEPING = {"sessions.session", "battles.ratelimithit"}
# What a page shows when it refuses a field or a request.
REFUSAL_MARKS = ("errorlist", "message-error", 'aria-invalid="true"', 'field-error">')


def endpoints() -> list[tuple[str, URLPattern]]:
    """Every route of the URLconf, as (route, pattern)."""
    found = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if route.startswith(SKIPPED_PREFIXES):
                continue
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            else:
                found.append((route, pattern))

    walk(get_resolver().url_patterns, "")
    return found


def form_field_names() -> set[str]:
    """Every field name of every form in ``battles.forms`` (found, not listed)."""
    names: set[str] = set()
    for module_info in pkgutil.iter_modules(battles.forms.__path__):
        module = importlib.import_module(f"battles.forms.{module_info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, forms.BaseForm):
                names.update(getattr(value, "base_fields", {}))
    return names


# The fields the hand-read taps and pages use, besides the forms' own.
TAP_FIELDS = {
    "type", "side", "version", "tap", "faces", "fighter", "target", "targets",
    "action", "order", "first", "distance_cm", "combat", "attack", "defence",
    "attacker", "parry", "key", "rallied", "value", "method", "one", "two",
    "contact", "difficulty", "nearest_friend", "amplified", "attenuated", "mana",
    "faith", "routed", "player_name", "role", "card", "direction", "delta", "q",
    "next", "language", "opponent:a1.1", "army", "dice", "counter", "sequence",
    "master_strike", "war_fury", "each", "a1.1:attack", "a1.1:fighter",
}  # fmt: skip

HOSTILE_TEXT = st.one_of(
    st.sampled_from(
        [
            "",
            "\x00",
            "a\x00b",
            "\x1b[2J",
            "\x7f\x85\x9f",
            "<script>alert(1)</script>",
            "' OR 1=1 --",
            "'; DROP TABLE battles_game; --",
            "{{ 7*7 }}",
            "../../etc/passwd",
            "\u202e\ufeff\u200b",
            "😀" * 50,
            "x" * 5000,
        ]
    ),
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=12),
)
HOSTILE_NUMBER = st.one_of(
    st.sampled_from(
        ["1e308", "-1e308", "inf", "-inf", "nan", "1e-400", "0x10", "²", "٣", "1_0"]
    ),
    st.integers(-(10**40), 10**40).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
HOSTILE_VALUE = st.one_of(
    HOSTILE_TEXT,
    HOSTILE_NUMBER,
    st.sampled_from(sorted(COMMANDS)),
    st.sampled_from(["a", "b", "spectator", "up", "down", "1", "-1", "on", "DEF"]),
    st.lists(HOSTILE_TEXT | HOSTILE_NUMBER, min_size=2, max_size=4),  # repeated
    st.binary(max_size=64).map(
        lambda data: SimpleUploadedFile("f.json", data, "application/json")
    ),  # a file where text is expected
)


def field_names() -> list[str]:
    return sorted(form_field_names() | TAP_FIELDS)


def fingerprint() -> dict[str, str]:
    """A digest of every table but the bookkeeping ones."""
    digest = {}
    for model in backed_up_models():
        label = model._meta.label_lower
        if label in BOOKKEEPING:
            continue
        rows = serializers.serialize("json", model._base_manager.order_by("pk"))
        digest[label] = hashlib.sha256(rows.encode()).hexdigest()
    return digest


def refused(response) -> bool:
    if response.status_code >= 400:
        return True
    if response.status_code != 200:
        return False
    body = response.content.decode(errors="replace")
    return any(mark in body for mark in REFUSAL_MARKS)


@pytest.fixture
def world(db, settings):
    """A guest with an army and a game, a shared game, a join link; the values
    of every URL parameter the routes use."""
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", verbosity=0)
    owner = Owner(guest_key=GUEST)
    army_a, army_b = Army.objects.filter(is_demo=True).order_by("pk")[:2]
    army = army_services.create_army(owner, name="Fuzzed", people=army_a.people)
    card = army_a.cards.first().card
    army_card = army_services.add_card(army, card)
    game = services.create_game(owner=owner, army_a=army_a, army_b=army_b)
    GameSeat.objects.create(game=game, role="b", guest_key="fuzz-b")
    token = sharing.open_share_links(game, {})[JoinLinkRole.SPECTATOR].token
    return {
        "game": game,
        "values": {
            "public_id": game.public_id,
            "army_id": str(army.pk),
            "army_card_id": str(army_card.pk),
            "action": "1",
            "token": token,
            "role": "b",
        },
    }


def url_for(route: str, values: dict[str, str]) -> str:
    """The route with its parameters filled (a known value, else a plausible one)."""

    def fill(match: re.Match) -> str:
        converter, name = match.group(1) or "str", match.group(2)
        if name in values:
            return values[name]
        return "1" if converter == "int" else "x"

    path = re.sub(r"<(?:(\w+):)?(\w+)>", fill, route)
    return "/" + path


def test_the_urlconf_lists_the_form_and_action_endpoints():
    routes = [route for route, _pattern in endpoints()]
    for expected in (
        "games/<public_id:public_id>/act",
        "games/<public_id:public_id>/undo",
        "join/<str:token>",
        "armies/cards/new/",
        "accounts/login/",
        "i18n/setlang/",
    ):
        assert expected in routes
    assert not any(route.startswith("admin/") for route in routes)


@pytest.mark.django_db
def test_no_endpoint_answers_hostile_input_with_a_5xx_or_a_change(world):
    values = world["values"]
    names = field_names()

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        data=st.dictionaries(st.sampled_from(names), HOSTILE_VALUE, max_size=6),
        htmx=st.booleans(),
        raw=st.one_of(st.none(), st.binary(max_size=200)),
    )
    def hostile_post(url: str, data, htmx: bool, raw) -> None:
        phone = Client(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
        session = phone.session
        session["guest_key"] = GUEST
        session.save()
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        before = fingerprint()
        if raw is not None:
            response = phone.post(url, raw, content_type="application/json", **headers)
        else:
            response = phone.post(url, data, **headers)
        assert response.status_code < 500, (url, data, response.status_code)
        if refused(response):
            assert fingerprint() == before, (url, data, response.status_code)

    for route, _pattern in endpoints():
        hostile_post(url_for(route, values))

    game = world["game"]
    game.refresh_from_db()
    assert replay(services.rules_events(game)) == game.state
