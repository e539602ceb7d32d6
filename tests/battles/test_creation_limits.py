"""Limits on creation per guest and per account (issue 30): set in settings
for a club server; past the limit a clear message, and nothing is made.

Run on both: ``DATABASE_URL=postgres://... pytest tests/battles/test_creation_...``.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Army, Club, Game, Invitation, ReferenceCard
from tests.support.cast import phone_of
from tests.support.club import club_in_season
from tests.support.live import new_game_form

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]


@pytest.fixture
def limits(settings):
    """The server's defaults (those a club server runs with)."""
    from confrontation_site import settings as defaults

    settings.CREATION_LIMITS = dict(defaults.CREATION_LIMITS)
    return settings.CREATION_LIMITS


def _guest(key: str) -> Client:
    return phone_of(key, Client(HTTP_ACCEPT_LANGUAGE="en"))


def test_a_guest_making_games_as_fast_as_it_can_is_stopped_at_the_limit(
    limits, demo_armies
):
    """Before: 320 games in 30 s from one guest. Now the default allows 30
    an hour; the 31st is refused in words and makes nothing."""
    allowed, _seconds = limits["game"]
    phone = _guest("greedy-guest")
    form = new_game_form(*demo_armies)
    made = sum(
        phone.post("/games/new/", form).status_code == 302 for _ in range(allowed + 10)
    )
    assert made == allowed == 30
    refused = phone.post("/games/new/", form)
    assert refused.status_code == 200
    assert b"This server lets each player make 30 games per hour" in refused.content
    assert Game.objects.count() == allowed
    # Another guest (another player at the club) is not held back.
    assert _guest("other-guest").post("/games/new/", form).status_code == 302


def test_armies_and_custom_cards_have_their_own_limits(settings, demo_armies):
    settings.CREATION_LIMITS = {**settings.CREATION_LIMITS, "army": (2, 3600)}
    settings.CREATION_LIMITS["custom card"] = (1, 3600)
    wolfen = demo_armies[1].people
    phone = _guest("builder")
    army = {"people": wolfen.pk, "points_limit": 300}
    answers = [
        phone.post("/armies/new/", {**army, "name": f"Meute {n}"}).status_code
        for n in range(3)
    ]
    assert answers == [302, 302, 200]
    assert Army.objects.filter(guest_key="builder").count() == 2
    card = {
        "name": "Chasseur",
        "people": wolfen.pk,
        "size": "normal",
        "base_shape": "square",
        "fighters_per_card": 1,
        "cost": 21,
    }
    assert phone.post("/armies/cards/new/", card).status_code == 302
    refused = phone.post("/armies/cards/new/", {**card, "name": "Autre"})
    assert b"1 custom cards per hour" in refused.content
    assert ReferenceCard.objects.filter(guest_key="builder").count() == 1


def test_an_account_s_clubs_and_invitations_are_limited(settings):
    settings.CREATION_LIMITS = {
        **settings.CREATION_LIMITS,
        "club": (2, 24 * 3600),
        "invitation": (1, 3600),
    }
    cast = club_in_season("alice", ("bob",), password="a long passphrase 1")
    alice = Client(HTTP_ACCEPT_LANGUAGE="en")
    alice.force_login(cast["alice"])
    # club_in_season made alice's first club: one more is allowed today.
    assert alice.post(reverse("clubs"), {"name": "Deux"}).status_code == 302
    refused = alice.post(reverse("clubs"), {"name": "Trois"})
    assert b"make 2 clubs per day" in refused.content
    assert Club.objects.count() == 2
    invite = reverse("club_invite", args=[cast["club"].pk])
    alice.post(invite)
    refused = alice.post(invite, follow=True)
    assert b"make 1 invitations per hour" in refused.content
    assert Invitation.objects.count() == 1


def _guest_at(key: str, address: str, **headers) -> Client:
    return phone_of(
        key, Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR=address, **headers)
    )


def test_a_script_dropping_its_cookie_is_stopped_by_its_address(
    settings, demo_armies, django_user_model
):
    """Each new cookie is a new guest with a fresh allowance; the address is
    not: past LIMIT_GUEST_GAMES_PER_ADDRESS_HOUR its guests are refused in
    words and nothing is written. Another address, and an account at the
    same address, are not held back."""
    from confrontation_site import settings as defaults

    assert defaults.GUEST_ADDRESS_LIMITS["game"] == (200, 3600)
    settings.CREATION_LIMITS = {**settings.CREATION_LIMITS, "game": (2, 3600)}
    settings.GUEST_ADDRESS_LIMITS = {"game": (3, 3600)}
    form = new_game_form(*demo_armies)
    answers = [
        _guest_at(f"cookie-{n}", "203.0.113.7").post("/games/new/", form).status_code
        for n in range(3)
    ]
    assert answers == [302, 302, 302]
    before = Game.objects.count()
    refused = _guest_at("cookie-3", "203.0.113.7").post("/games/new/", form)
    assert refused.status_code == 200
    assert (
        b"This server lets guests at one address make 3 games per hour: sign in"
        in refused.content
    )
    assert Game.objects.count() == before
    assert (
        _guest_at("cookie-4", "198.51.100.2").post("/games/new/", form).status_code
        == 302
    )
    member = django_user_model.objects.create_user("club-member", password="x")
    account = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="203.0.113.7")
    account.force_login(member)
    assert account.post("/games/new/", form).status_code == 302


def test_behind_the_proxy_the_address_is_the_one_the_proxy_names(settings, demo_armies):
    """BEHIND_TLS_PROXY: two players behind the same proxy are two addresses
    (the proxy's last X-Forwarded-For hop), and a forged first hop gives no
    fresh allowance."""
    settings.BEHIND_TLS_PROXY = True
    settings.PROXY_ADDRESSES = ["10.0.0.1"]
    settings.GUEST_ADDRESS_LIMITS = {"game": (1, 3600)}
    form = new_game_form(*demo_armies)

    def post(key: str, forwarded: str) -> int:
        phone = _guest_at(key, "10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
        return phone.post("/games/new/", form).status_code

    assert post("k1", "203.0.113.7") == 302
    assert post("k2", "1.2.3.4, 203.0.113.7") == 200  # forged hop, same client
    assert post("k3", "198.51.100.2") == 302
