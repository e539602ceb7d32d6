"""The army builder answers where the finger is: "Add" confirms next to the
button, and a second tap raises the count instead of adding a second row."""

from __future__ import annotations

from decimal import Decimal

import pytest

from battles.models.armies import ArmyCard
from battles.services.armies import ArmyError, add_card, create_army

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def army(wolfen, guest):
    return create_army(guest, name="Meute", people=wolfen, points_limit=100)


def test_adding_a_card_already_in_the_army_raises_its_count(army, wolfen, make_card):
    repenti = make_card(wolfen, name="Repenti", cost=30, fighters_per_card=3)
    first = add_card(army, repenti)
    second = add_card(army, repenti)
    assert second.pk == first.pk and second.fighters == 6
    assert ArmyCard.objects.filter(army=army).count() == 1


def test_the_same_card_as_an_ally_and_not_stays_apart(
    army, wolfen, griffons, make_card
):
    magistrat = make_card(griffons, name="Magistrat")
    add_card(army, magistrat, is_ally=True)
    assert add_card(army, magistrat, is_ally=True).fighters == 2
    assert ArmyCard.objects.filter(army=army).count() == 1


def test_a_raised_count_above_fifty_is_refused_and_changes_nothing(
    army, wolfen, make_card
):
    card = make_card(wolfen, name="Nuée", fighters_per_card=20)
    add_card(army, card, fighters=40)
    with pytest.raises(ArmyError):
        add_card(army, card)
    assert ArmyCard.objects.get(army=army).fighters == 40


def test_add_answers_next_to_the_button_with_the_count_and_points(
    guest_client, army, wolfen, make_card
):
    repenti = make_card(wolfen, name="Repenti", cost=15, fighters_per_card=2)
    response = guest_client.post(
        f"/armies/{army.pk}/cards/", {"card": repenti.pk}, **HTMX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert f'id="added-{repenti.pk}"' in body and 'hx-swap-oob="true"' in body
    assert "Added: 2 fighters · 30 pts · army 30 / 100" in body

    again = guest_client.post(f"/armies/{army.pk}/cards/", {"card": repenti.pk}, **HTMX)
    assert "Count raised: 4 fighters · 60 pts · army 60 / 100" in again.content.decode()
    assert ArmyCard.objects.get(army=army).fighters == 4


def test_a_refused_add_says_why_next_to_the_button(
    guest_client, army, griffons, make_card
):
    magistrat = make_card(griffons, name="Magistrat")
    response = guest_client.post(
        f"/armies/{army.pk}/cards/", {"card": magistrat.pk}, **HTMX
    )
    body = response.content.decode()
    assert f'id="added-{magistrat.pk}"' in body
    assert "add it as an ally" in body and "field-error" in body
    assert not ArmyCard.objects.filter(army=army).exists()


def test_without_htmx_add_goes_back_to_the_army(guest_client, army, wolfen, make_card):
    card = make_card(wolfen, name="Repenti")
    response = guest_client.post(f"/armies/{army.pk}/cards/", {"card": card.pk})
    assert response.status_code == 302
    assert ArmyCard.objects.get(army=army).card == card


def test_a_card_shows_its_flight_movement_aspects_and_estimated_cost(
    guest_client, army, wolfen, make_card
):
    card = make_card(
        wolfen,
        name="Harpie",
        mou_flight=Decimal("20"),
        creation=1,
        alteration=0,
        destruction=2,
        cost=25,
        cost_estimated=True,
    )
    add_card(army, card)
    body = guest_client.get(f"/armies/{army.pk}/").content.decode()
    assert "Flight 20" in body
    assert "Création 1 · Altération 0 · Destruction 2" in body
    assert '25 pts <span class="estimate">(estimated)</span>' in body
