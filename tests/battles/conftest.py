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
    """A guest's identity (as a guest's session holds it)."""
    from battles.models.armies import Owner

    return Owner(guest_key="guest-key-of-the-owner")


@pytest.fixture
def outsider():
    from battles.models.armies import Owner

    return Owner(guest_key="guest-key-of-an-outsider")


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
def guest_client(client):
    """A test client whose session is a guest's (the key of ``guest``)."""
    session = client.session
    session["guest_key"] = "guest-key-of-the-owner"
    session.save()
    return client


@pytest.fixture
def outsider_client(db):
    from django.test import Client

    client = Client()
    session = client.session
    session["guest_key"] = "guest-key-of-an-outsider"
    session.save()
    return client
