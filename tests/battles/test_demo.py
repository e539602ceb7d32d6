"""The demo data: attributed profiles, peoples by alliance, two ready armies."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from battles.demo import ARCHETYPES, PEOPLES, PRINTED_CARDS, load_demo
from battles.files.army_json import export_army_json
from battles.models.armies import Army, ArmyCard, CardAbility, People, ReferenceCard

pytestmark = pytest.mark.django_db


def snapshot() -> dict:
    return {
        "peoples": list(People.objects.values_list("pk", "name", "voie")),
        "cards": list(ReferenceCard.objects.values_list("pk", "name", "updated")),
        "abilities": list(CardAbility.objects.values_list("pk", "name", "value")),
        "armies": list(Army.objects.values_list("pk", "name", "updated")),
        "army_cards": list(ArmyCard.objects.values_list("pk", "card", "fighters")),
    }


def test_loading_the_demo_twice_changes_nothing():
    first = load_demo()
    assert first["armies"] == 2
    before = snapshot()
    assert load_demo() == {"peoples": 0, "cards": 0, "armies": 0}
    assert snapshot() == before


def test_the_command_says_when_everything_is_already_there(capsys):
    call_command("load_demo")
    call_command("load_demo")
    assert "already up to date" in capsys.readouterr().out


def test_every_people_is_on_its_alliance_path():
    load_demo()
    assert People.objects.count() == sum(len(names) for names in PEOPLES.values())
    assert People.objects.get(name="Wolfen d'Yllia").voie == "destin"
    assert People.objects.get(name="Alchimistes de Dirz").voie == "tenebres"
    assert People.objects.get(name="Griffons d'Akkylannie").voie == "lumiere"


def test_printed_profiles_are_attributed_and_archetypes_labelled():
    load_demo()
    repenti = ReferenceCard.objects.get(name="Repenti wolfen")
    assert repenti.attribution == "Profil Rackham" and repenti.is_demo
    assert (repenti.peur, repenti.cou, repenti.size) == (6, None, "large")
    assert repenti.fighters_per_card == 3
    assert repenti.abilities_text == "Tueur né/1, Créature, Paria"
    seigneur = ReferenceCard.objects.get(name="Seigneur des Carnages")
    assert str(seigneur.mou) == "12.5" and seigneur.pou == 2
    magistrat = ReferenceCard.objects.get(name="Magistrat du Griffon")
    assert magistrat.ranges == (10, 15, 20) and magistrat.weapon_strength == 6
    assert ReferenceCard.objects.get(name="Guerrier de Pierre").cost == 40
    archetypes = ReferenceCard.objects.filter(source="archetype")
    assert {card.attribution for card in archetypes} == {"archétype"}
    assert archetypes.count() == len(ARCHETYPES) * People.objects.count()
    assert ReferenceCard.objects.filter(source="rackham").count() == len(PRINTED_CARDS)
    assert not ReferenceCard.objects.filter(is_demo=False).exists()


def test_the_two_demo_armies_are_ready_and_read_only():
    load_demo()
    armies = Army.objects.with_cards().demo()
    assert armies.count() == 2
    for army in armies:
        cards = list(army.cards.all())
        assert len(cards) >= 6
        assert all(card.card.people_id == army.people_id for card in cards)
        assert army.is_shared
        export_army_json(army)  # exportable as any army


def test_a_changed_demo_card_is_brought_back_by_the_next_load():
    load_demo()
    ReferenceCard.objects.filter(name="Repenti wolfen").update(att=1)
    assert load_demo()["cards"] == 1
    assert ReferenceCard.objects.get(name="Repenti wolfen").att == 4
