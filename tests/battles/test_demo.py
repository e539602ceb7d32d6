"""The demo data: attributed profiles, peoples by alliance, two ready armies."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from battles.demo import (
    ARCHETYPES,
    CHARACTER,
    CHARACTERS,
    DEMO_ARMIES,
    PEOPLES,
    PRINTED_CARDS,
    WOLFEN,
    load_demo,
)
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
    assert {card.attribution for card in archetypes.exclude(people__name=WOLFEN)} == {
        "archétype",
        "archétype (profil de personnage estimé)",  # the Griffons' character
    }
    assert {card.attribution for card in archetypes.filter(people__name=WOLFEN)} == {
        "archétype (profil wolfen estimé)"
    }
    assert archetypes.count() == (
        len(ARCHETYPES) * People.objects.count() + len(CHARACTERS)
    )
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


def test_every_demo_shooter_carries_a_weapon_it_can_shoot_with():
    load_demo()
    shooters = ReferenceCard.objects.filter(is_demo=True, tir__isnull=False)
    assert shooters.count() > len(PEOPLES)  # the Magistrat and the archetypes
    for card in shooters:
        assert card.has_weapon, card
        assert card.weapon_strength > 0 and card.ranges[2] > 0


def test_archetype_weapons_are_labelled_as_such():
    load_demo()
    weapons = set(
        ReferenceCard.objects.filter(source="archetype", tir__isnull=False)
        .values_list("weapon_name", flat=True)
        .distinct()
    )
    assert weapons and all("(arme d'archétype)" in name for name in weapons)
    printed = ReferenceCard.objects.get(name="Magistrat du Griffon")
    assert printed.weapon_name == "Pistolet"


def test_every_demo_card_costs_something_and_unprinted_costs_are_estimates():
    load_demo()
    cards = ReferenceCard.objects.filter(is_demo=True)
    assert not cards.filter(cost__isnull=True).exists()
    assert not cards.filter(cost=0).exists()
    assert list(cards.filter(cost_estimated=False).values_list("name", "cost")) == [
        ("Guerrier de Pierre", 40)
    ]


def test_the_demo_armies_total_something_within_their_limit():
    load_demo()
    for army in Army.objects.with_cards().demo():
        assert 0 < army.points_total <= army.points_limit
        assert army.cards_without_cost == 0


def test_no_demo_army_holds_the_same_card_twice():
    for _people, _limit, entries in DEMO_ARMIES.values():
        names = [name for name, _fighters in entries]
        assert len(names) == len(set(names))
    load_demo()
    for army in Army.objects.with_cards().demo():
        card_ids = [army_card.card_id for army_card in army.cards.all()]
        assert len(card_ids) == len(set(card_ids))


def test_the_wolfen_archetypes_are_wolfen_like_not_human():
    load_demo()
    human = ReferenceCard.objects.get(
        name="Guerrier", people__name="Griffons d'Akkylannie"
    )
    wolfen = ReferenceCard.objects.get(name="Guerrier", people__name=WOLFEN)
    repenti = ReferenceCard.objects.get(name="Repenti wolfen")
    assert wolfen.size == repenti.size == "large"
    assert wolfen.mou == repenti.mou == 15
    assert (wolfen.cou, wolfen.peur) == (None, 6)
    assert wolfen.force > human.force
    for card in ReferenceCard.objects.filter(source="archetype", people__name=WOLFEN):
        assert card.size == "large" and card.peur is not None and card.cou is None
        assert card.source_detail == "profil wolfen estimé" and card.cost_estimated


def test_the_demo_army_pages_say_which_costs_are_estimated(client, settings):
    settings.LANGUAGE_CODE = "en"
    load_demo()
    army = Army.objects.demo().get(name="Wolfen d'Yllia (démo)")
    body = client.get(f"/armies/{army.pk}/").content.decode()
    assert "385 / 400 points" in body
    assert "7 cards' costs are estimates: no source prints them." in body


def test_each_demo_army_has_a_character_with_the_melee_abilities():
    """Issue 31: "no character has Enchaînement, Coup de maître or
    Contre-attaque" (melee-sources.md §4: built in for characters, S5, S11)."""
    from rules.melee import COUNTER_ATTACK, MASTER_STRIKE, SEQUENCE, ability

    load_demo()
    for army in Army.objects.with_cards().demo():
        (character,) = [c.card for c in army.cards.all() if c.card.name == CHARACTER]
        skills = [
            f"{a.name}/{a.value}" if a.value else a.name
            for a in character.abilities.all()
        ]
        for name in (SEQUENCE, MASTER_STRIKE, COUNTER_ATTACK):
            assert ability(skills, name)[0], (army.name, name)
        assert character.cost_estimated and character.source_detail  # estimates


def test_the_demo_armies_hold_a_fear_matchup_that_can_fail():
    """Issue 31: "every Griffon has COU 5 against wolfen PEUR 5-6, so no fear
    test can ever fail". IX (melee-sources.md §3 [read]): 1d6 + COU against
    the PEUR faced; a success is certain when COU + 1 reaches the PEUR."""
    from rules.odds import test_success

    load_demo()
    griffons = (
        Army.objects.with_cards().demo().get(people__name="Griffons d'Akkylannie")
    )
    wolfen = Army.objects.with_cards().demo().get(people__name=WOLFEN)
    courages = {c.card.cou for c in griffons.cards.all() if c.card.cou is not None}
    fears = {c.card.peur for c in wolfen.cards.all() if c.card.peur is not None}
    chances = [test_success(cou, peur) for cou in courages for peur in fears]
    assert min(chances) < 1  # some Griffon can fail against some wolfen
    assert max(fears) == 7


def test_the_characters_load_twice_without_change():
    load_demo()
    before = snapshot()
    assert load_demo()["cards"] == 0
    assert snapshot() == before
