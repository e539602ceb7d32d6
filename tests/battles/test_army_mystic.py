"""An army's magicians and faithful carry their spells and miracles (#32):
their points in the army's total, the army file and the printable sheet."""

from __future__ import annotations

import pytest

from battles.files.army_json import export_army_json, import_army_json
from battles.models import Miracle, Spell
from battles.models.armies import Army
from battles.services.armies import ArmyError, add_card, create_army
from battles.services.mystic import mystic_setup, set_known
from tests.support.cast import OUTSIDER

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def library(db):
    fire = Spell.objects.create(
        name="Boule de feu",
        cost={"fire": 2},
        cost_text="2 Feu",
        difficulty=7,
        difficulty_text="7",
        frequency=1,
        points=5,
        duration="instant",
    )
    aura = Spell.objects.create(
        name="Aura", cost={"neutral": 1}, difficulty_text="POT + 3", points=0
    )
    blessing = Miracle.objects.create(
        name="Bénédiction",
        cult="Merin",
        fervour=None,
        fervour_text="x libero",
        difficulty_text="x + 4",
        points=3,
        duration="end_of_round",
    )
    return fire, aura, blessing


@pytest.fixture
def army(wolfen, make_card, guest, library):
    army = create_army(guest, name="Meute", people=wolfen, points_limit=200)
    magician = add_card(army, make_card(wolfen, name="Mage", cost=40, pou=5))
    priest = add_card(army, make_card(wolfen, name="Prêtre", cost=30, foi=4))
    set_known(magician, guest, spells=["Boule de feu", "Aura"])
    set_known(priest, guest, miracles=["Bénédiction"])
    return Army.objects.with_cards().get(pk=army.pk)


def test_the_spells_and_miracles_points_count_in_the_army_s_total(army):
    assert army.points_total == 40 + 5 + 30 + 3


def test_only_a_magician_knows_spells_and_only_known_names_are_taken(
    army, guest, wolfen, make_card
):
    priest = army.cards.all()[1]
    with pytest.raises(ArmyError, match="magician"):
        set_known(priest, guest, spells=["Aura"])
    magician = army.cards.all()[0]
    with pytest.raises(ArmyError, match="Unknown"):
        set_known(magician, guest, spells=["Nulle part"])


def test_the_army_file_carries_them_and_brings_them_back(army, guest):
    document = export_army_json(army)
    first = document["army"]["cards"][0]
    assert [s["name"] for s in first["spells"]] == ["Aura", "Boule de feu"]
    assert first["spells"][1]["cost"] == {"fire": 2}
    assert document["army"]["cards"][1]["miracles"][0]["name"] == "Bénédiction"
    # Another player, whose server lacks the spell: it is created as theirs.
    Spell.objects.filter(name="Aura").delete()
    copy = import_army_json(OUTSIDER, document)
    copy = Army.objects.with_cards().get(pk=copy.pk)
    magician = copy.cards.all()[0]
    assert sorted(s.name for s in magician.spells.all()) == ["Aura", "Boule de feu"]
    aura = magician.spells.get(name="Aura")
    assert aura.guest_key == OUTSIDER.guest_key and aura.difficulty_text == "POT + 3"
    assert copy.points_total == army.points_total


def test_a_bad_spell_in_the_army_file_is_refused_with_its_path(army, guest):
    document = export_army_json(army)
    document["army"]["cards"][0]["spells"][0]["difficulty"] = "hard"
    with pytest.raises(ArmyError) as refused:
        import_army_json(OUTSIDER, document)
    assert any(
        "army.cards[0].spells[0].difficulty" in m for m in refused.value.messages
    )


def test_the_printable_sheet_lists_them(guest_client, army):
    body = guest_client.get(f"/armies/{army.pk}/sheet/").content.decode()
    assert "Spells:" in body and "Boule de feu (2 Feu, diff. 7, 5 pts)" in body
    assert "Miracles:" in body and "Bénédiction (fervour x libero, diff. x + 4" in body


def test_the_game_s_setup_takes_them_in_the_rules_shape(army):
    spells, miracles, known_spells, known_miracles = mystic_setup(army.cards.all())
    assert spells["Boule de feu"] == {
        "cost": {"fire": 2},
        "difficulty": 7,
        "frequency": 1,
        "duration": "instant",
    }
    assert miracles["Bénédiction"]["difficulty"] == "x + 4"
    assert known_spells == [["Aura", "Boule de feu"], []]
    assert known_miracles == [[], ["Bénédiction"]]


def known(army_card) -> list[str]:
    from battles.models.armies import ArmyCard

    return [s.name for s in ArmyCard.objects.get(pk=army_card.pk).spells.all()]


def test_the_army_page_chooses_the_spells_a_magician_knows(guest_client, army, library):
    magician = army.cards.all()[0]
    body = guest_client.get(f"/armies/{army.pk}/").content.decode()
    assert "Spells known" in body and 'name="spells" value="Aura"' in body
    url = f"/armies/{army.pk}/cards/{magician.pk}/known/"
    response = guest_client.post(url, {"spells": ["Aura"]}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert known(magician) == ["Aura"]
    refused = guest_client.post(url, {"spells": ["Nowhere"]}, HTTP_HX_REQUEST="true")
    assert "Unknown spell or miracle: Nowhere." in refused.content.decode()
    assert known(magician) == ["Aura"]


def test_another_player_cannot_change_the_spells_of_my_army(outsider_client, army):
    magician = army.cards.all()[0]
    url = f"/armies/{army.pk}/cards/{magician.pk}/known/"
    assert outsider_client.post(url, {"spells": []}).status_code == 404
    assert known(magician) == ["Aura", "Boule de feu"]
