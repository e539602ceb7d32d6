"""Fixtures shared by the app's tests, one block per area."""

from __future__ import annotations

from decimal import Decimal

import pytest

# --- Armies and reference cards ------------------------------------------------


@pytest.fixture
def griffons(db):
    from battles.models.armies import People, Voie

    return People.objects.create(name="Griffons d'Akkylannie", voie=Voie.LUMIERE)


@pytest.fixture
def wolfen(db):
    from battles.models.armies import People, Voie

    return People.objects.create(name="Wolfen d'Yllia", voie=Voie.DESTIN)


@pytest.fixture
def guest():
    """A guest's identity (as a guest's session holds it): the cast's owner."""
    from tests.support.cast import OWNER

    return OWNER


@pytest.fixture
def outsider():
    """A guest who owns nothing of the others' and holds no seat."""
    from tests.support.cast import OUTSIDER

    return OUTSIDER


@pytest.fixture
def make_card(db):
    """A shared library card with sensible defaults; keyword arguments override."""
    from battles.models.armies import CardSource, ReferenceCard
    from battles.services.armies import _set_abilities

    def make(people, name="Guerrier", abilities=(), **fields):
        values = {
            "mou": Decimal("10"),
            "ini": 4,
            "att": 5,
            "force": 7,
            "defense": 5,
            "res": 7,
            "cou": 5,
            "dis": 4,
            "cost": 20,
            "source": CardSource.ARCHETYPE,
            "is_demo": True,
            **fields,
        }
        card = ReferenceCard.objects.create(people=people, name=name, **values)
        _set_abilities(card, [tuple((text + "/").split("/")[:2]) for text in abilities])
        return card

    return make


@pytest.fixture
def guest_client(client, guest):
    """A test client whose session is a guest's (the key of ``guest``)."""
    from tests.support.cast import phone_of

    return phone_of(guest, client)


@pytest.fixture
def outsider_client(db, outsider):
    from tests.support.cast import phone_of

    return phone_of(outsider)


@pytest.fixture
def anne(db, django_user_model):
    """A registered player, "anne", whose password is ``cast.PASSWORD``."""
    from tests.support.cast import PASSWORD

    return django_user_model.objects.create_user("anne", password=PASSWORD)


# --- A game between two guests' phones -------------------------------------------
# (test_games and test_legal_and_undo; a test file with its own ``game`` keeps it.)


@pytest.fixture
def demo_armies(db):
    """The two demo armies: the Griffons, then the Wolfen."""
    from tests.support.live import demo_armies

    return demo_armies()


@pytest.fixture
def owner_client(client):
    """Side A's phone (the guest "owner-key"), reading English."""
    from tests.support.cast import phone_of

    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"  # the texts checked are English
    return phone_of("owner-key", client)


@pytest.fixture
def opponent_client():
    """Side B's phone (the guest "opponent-key"), reading English."""
    from django.test import Client

    from tests.support.cast import phone_of

    return phone_of("opponent-key", Client(HTTP_ACCEPT_LANGUAGE="en"))


@pytest.fixture
def game(demo_armies, owner_client, opponent_client):
    """Anne (side A, ``owner_client``) against Bruno (side B, ``opponent_client``),
    six turns."""
    from tests.support.live import guests_game

    return guests_game(
        "owner-key", "opponent-key", turns=6, player_a="Anne", player_b="Bruno"
    )


# --- Limits on creation (issue 30) ------------------------------------------------


@pytest.fixture(autouse=True)
def roomy_creation_limits(settings):
    """Tests make many games and armies as one guest: the limits on creation
    stay counted but far away, unless a test sets its own."""
    settings.CREATION_LIMITS = {
        kind: (10_000, seconds)
        for kind, (_n, seconds) in settings.CREATION_LIMITS.items()
    }
    settings.GUEST_ADDRESS_LIMITS = {
        kind: (10_000, seconds)
        for kind, (_n, seconds) in settings.GUEST_ADDRESS_LIMITS.items()
    }
