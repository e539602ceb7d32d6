"""Army services: each action does all it says or nothing, with a clear reason."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from battles.files.army_json import (
    ArmyImportError,
    export_army_json,
    import_army_json,
)
from battles.models import armies as army_models
from battles.models.armies import (
    Army,
    ArmyCard,
    CardAbility,
    CardSource,
    People,
    ReferenceCard,
)
from battles.models.identity import Owner
from battles.services.armies import (
    ArmyError,
    add_card,
    change_count,
    create_army,
    create_custom_card,
    delete_army,
    duplicate_army,
    remove_card,
    undo_delete,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def with_cards(army: Army) -> Army:
    return Army.objects.with_cards().get(pk=army.pk)


# --- Abilities -----------------------------------------------------------------
def test_an_ability_reads_its_name_and_value():
    assert army_models.parse_ability("Régénération/5") == ("Régénération", "5")
    assert army_models.parse_ability("  Tueur  né / 1 ") == ("Tueur né", "1")
    assert army_models.parse_ability("Mercenaire") == ("Mercenaire", "")
    assert army_models.format_ability("Commandement", "X") == "Commandement/X"
    assert army_models.format_ability("Mercenaire", "") == "Mercenaire"


def test_abilities_typed_as_one_text_are_split_on_commas_semicolons_and_lines():
    assert army_models.parse_abilities("Tueur né/1, Créature;Paria\nVol/X,,") == [
        ("Tueur né", "1"),
        ("Créature", ""),
        ("Paria", ""),
        ("Vol", "X"),
    ]


# --- Database constraints (the last line of defence) ---------------------------
def test_the_database_refuses_a_card_with_both_courage_and_fear(wolfen, make_card):
    with pytest.raises(IntegrityError), transaction.atomic():
        make_card(wolfen, cou=5, peur=6)


def test_the_database_refuses_ranges_out_of_order(wolfen, make_card):
    with pytest.raises(IntegrityError), transaction.atomic():
        make_card(
            wolfen, weapon_strength=5, range_short=20, range_medium=10, range_long=30
        )


def test_the_database_refuses_an_army_card_without_fighters(wolfen, make_card, guest):
    army = create_army(guest, name="Meute", people=wolfen)
    card = make_card(wolfen)
    with pytest.raises(IntegrityError), transaction.atomic():
        ArmyCard.objects.create(army=army, card=card, fighters=0)


def test_two_library_cards_of_a_people_cannot_share_a_name(wolfen, make_card):
    make_card(wolfen, name="Repenti")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_card(wolfen, name="Repenti")


def test_a_guest_may_keep_a_card_named_like_a_library_card(wolfen, make_card, guest):
    make_card(wolfen, name="Guerrier")
    card = create_custom_card(guest, name="Guerrier", people=wolfen, att=6)
    assert card.guest_key == guest.guest_key
    assert card.source == CardSource.CUSTOM


# --- Armies --------------------------------------------------------------------------
def test_an_army_name_is_unique_for_its_owner_only(wolfen, guest, outsider):
    create_army(guest, name="Meute", people=wolfen)
    with pytest.raises(ArmyError) as refused:
        create_army(guest, name="Meute", people=wolfen)
    assert "name" in refused.value.message_dict
    assert create_army(outsider, name="Meute", people=wolfen).name == "Meute"


def test_nobody_cannot_own_an_army(wolfen):
    with pytest.raises(ArmyError):
        create_army(Owner(), name="Meute", people=wolfen)
    assert not Army.objects.exists()


def test_a_points_limit_of_zero_is_refused(wolfen, guest):
    with pytest.raises(ArmyError) as refused:
        create_army(guest, name="Meute", people=wolfen, points_limit=0)
    assert "points_limit" in refused.value.message_dict


def test_points_total_is_cost_times_fighters_and_cards_without_cost_count_zero(
    wolfen, make_card, guest
):
    army = create_army(guest, name="Meute", people=wolfen, points_limit=100)
    add_card(army, make_card(wolfen, name="A", cost=20), fighters=3)
    add_card(army, make_card(wolfen, name="B", cost=None), fighters=2)
    add_card(army, make_card(wolfen, name="C", cost=45))
    army = with_cards(army)
    assert army.points_total == 105
    assert army.points_over_limit == 5
    assert army.cards_without_cost == 1
    assert army.fighters_total == 6


def test_a_card_goes_to_the_end_with_its_default_fighters(wolfen, make_card, guest):
    army = create_army(guest, name="Meute", people=wolfen)
    first = add_card(army, make_card(wolfen, name="A"))
    second = add_card(army, make_card(wolfen, name="B", fighters_per_card=3))
    assert (first.position, second.position) == (0, 1)
    assert second.fighters == 3


def test_a_card_of_another_people_needs_the_ally_mark(
    wolfen, griffons, make_card, guest
):
    army = create_army(guest, name="Meute", people=wolfen)
    magistrat = make_card(griffons, name="Magistrat")
    with pytest.raises(ArmyError) as refused:
        add_card(army, magistrat)
    assert "ally" in str(refused.value.message_dict["card"])
    assert not army.cards.exists()
    assert add_card(army, magistrat, is_ally=True).is_ally


def test_a_card_of_the_armys_people_is_never_marked_ally(wolfen, make_card, guest):
    army = create_army(guest, name="Meute", people=wolfen)
    assert not add_card(army, make_card(wolfen), is_ally=True).is_ally


def test_someone_elses_custom_card_cannot_be_added(wolfen, guest, outsider):
    theirs = create_custom_card(outsider, name="Secret", people=wolfen)
    army = create_army(guest, name="Meute", people=wolfen)
    with pytest.raises(ArmyError):
        add_card(army, theirs)


def test_a_demo_army_is_read_only(wolfen, make_card):
    demo = Army.objects.create(name="Démo", people=wolfen, is_demo=True)
    with pytest.raises(ArmyError) as refused:
        add_card(demo, make_card(wolfen))
    assert "read-only" in str(refused.value)


def test_counts_go_up_and_down_but_never_below_one(wolfen, make_card, guest):
    army = create_army(guest, name="Meute", people=wolfen)
    army_card = add_card(army, make_card(wolfen), fighters=1)
    assert change_count(army, army_card.pk, +1).fighters == 2
    assert change_count(army, army_card.pk, -1).fighters == 1
    with pytest.raises(ArmyError) as refused:
        change_count(army, army_card.pk, -1)
    assert "fighters" in refused.value.message_dict
    army_card.refresh_from_db()
    assert army_card.fighters == 1


def test_a_count_above_fifty_is_refused(wolfen, make_card, guest):
    army = create_army(guest, name="Meute", people=wolfen)
    army_card = add_card(army, make_card(wolfen), fighters=50)
    with pytest.raises(ArmyError):
        change_count(army, army_card.pk, +1)


def test_a_card_of_another_army_cannot_be_counted_or_removed(wolfen, make_card, guest):
    army = create_army(guest, name="Meute", people=wolfen)
    other = create_army(guest, name="Autre", people=wolfen)
    theirs = add_card(other, make_card(wolfen))
    with pytest.raises(ArmyError):
        change_count(army, theirs.pk, +1)
    with pytest.raises(ArmyError):
        remove_card(army, theirs.pk)
    assert other.cards.count() == 1


def test_a_removed_card_leaves_the_army(wolfen, make_card, guest):
    army = create_army(guest, name="Meute", people=wolfen)
    army_card = add_card(army, make_card(wolfen))
    remove_card(army, army_card.pk)
    assert not army.cards.exists()


def test_a_duplicate_copies_every_card_in_order_with_a_new_name(
    wolfen, make_card, guest
):
    army = create_army(guest, name="Meute", people=wolfen, points_limit=300)
    for name, fighters in [("A", 1), ("B", 3), ("C", 2)]:
        add_card(army, make_card(wolfen, name=name), fighters=fighters)
    copy = duplicate_army(army, guest)
    again = duplicate_army(army, guest)
    assert copy.name == "Meute (copy)"
    assert again.name == "Meute (copy) (2)"
    assert copy.points_limit == 300
    assert [(c.card.name, c.fighters) for c in with_cards(copy).cards.all()] == [
        ("A", 1),
        ("B", 3),
        ("C", 2),
    ]


def test_a_demo_army_can_be_copied_into_ones_own(wolfen, make_card, guest):
    demo = Army.objects.create(name="Démo", people=wolfen, is_demo=True)
    ArmyCard.objects.create(army=demo, card=make_card(wolfen), fighters=2)
    copy = duplicate_army(demo, guest, name="Ma meute")
    assert copy.guest_key == guest.guest_key and not copy.is_demo
    assert copy.cards.get().fighters == 2


def test_a_deleted_army_can_be_brought_back_right_after(wolfen, make_card, guest):
    army = create_army(guest, name="Meute", people=wolfen)
    add_card(army, make_card(wolfen), fighters=2)
    delete_army(army)
    assert not Army.objects.alive().owned_by(guest).exists()
    restored = undo_delete(guest, army.pk)
    assert restored.deleted_at is None
    assert restored.cards.get().fighters == 2


def test_undo_comes_back_numbered_when_the_name_was_taken_meanwhile(wolfen, guest):
    army = create_army(guest, name="Meute", people=wolfen)
    delete_army(army)
    create_army(guest, name="Meute", people=wolfen)
    assert undo_delete(guest, army.pk).name == "Meute (2)"


def test_undo_is_refused_after_the_restore_window(wolfen, guest):
    army = create_army(guest, name="Meute", people=wolfen)
    delete_army(army)
    Army.objects.filter(pk=army.pk).update(
        deleted_at=timezone.now() - timedelta(hours=2)
    )
    with pytest.raises(ArmyError):
        undo_delete(guest, army.pk)


def test_an_outsider_cannot_undo_someone_elses_delete(wolfen, guest, outsider):
    army = create_army(guest, name="Meute", people=wolfen)
    delete_army(army)
    with pytest.raises(ArmyError):
        undo_delete(outsider, army.pk)


def test_old_deleted_armies_are_purged_by_the_next_delete(wolfen, guest):
    old = create_army(guest, name="Vieille", people=wolfen)
    delete_army(old)
    Army.objects.filter(pk=old.pk).update(deleted_at=timezone.now() - timedelta(days=1))
    delete_army(create_army(guest, name="Récente", people=wolfen))
    assert not Army.objects.filter(pk=old.pk).exists()


# --- Custom cards ------------------------------------------------------------------
def test_a_custom_card_keeps_its_abilities_in_order(wolfen, guest):
    card = create_custom_card(
        guest,
        name=" Chasseur ",
        people=wolfen,
        mou=Decimal("12.5"),
        peur=6,
        abilities="Tueur né/1, Créature, Régénération/5",
    )
    assert card.name == "Chasseur"
    assert card.abilities_text == "Tueur né/1, Créature, Régénération/5"
    assert card.attribution == "custom"


def test_a_bad_custom_card_is_refused_with_field_messages_and_nothing_saved(
    wolfen, guest
):
    with pytest.raises(ArmyError) as refused:
        create_custom_card(
            guest,
            name="Géant",
            people=wolfen,
            ini=99,
            cou=4,
            peur=5,
            weapon_strength=5,
            range_short=30,
            range_medium=20,
            range_long=40,
            abilities="Vol/X",
        )
    errors = refused.value.message_dict
    assert {"ini", "peur", "range_long"} <= set(errors)
    assert not ReferenceCard.objects.exists()
    assert not CardAbility.objects.exists()


def test_a_custom_card_name_is_unique_per_people_for_its_owner(wolfen, griffons, guest):
    create_custom_card(guest, name="Chasseur", people=wolfen)
    with pytest.raises(ArmyError) as refused:
        create_custom_card(guest, name="Chasseur", people=wolfen)
    assert "You already have a card" in str(refused.value)
    assert create_custom_card(guest, name="Chasseur", people=griffons)


# --- Export and import -------------------------------------------------------------
@pytest.fixture
def mixed_army(wolfen, griffons, make_card, guest):
    army = create_army(guest, name="Meute d'Yllia", people=wolfen, points_limit=350)
    add_card(
        army,
        make_card(
            wolfen,
            name="Repenti wolfen",
            mou=Decimal("15"),
            cou=None,
            peur=6,
            size="large",
            fighters_per_card=3,
            source=CardSource.RACKHAM,
            abilities=["Tueur né/1", "Créature", "Paria"],
        ),
    )
    add_card(
        army,
        create_custom_card(
            guest,
            name="Chasseur",
            people=wolfen,
            mou=Decimal("12.5"),
            tir=4,
            cou=4,
            weapon_name="Arc",
            weapon_strength=5,
            range_short=15,
            range_medium=30,
            range_long=45,
            abilities="Vol/X",
        ),
        fighters=2,
    )
    add_card(
        army,
        make_card(griffons, name="Magistrat du Griffon", foi=2, cost=None),
        is_ally=True,
    )
    return with_cards(army)


def test_an_export_holds_every_profile(mixed_army):
    data = export_army_json(mixed_army)
    assert data["format"] == "confrontation-army" and data["version"] == 1
    cards = data["army"]["cards"]
    assert [card["fighters"] for card in cards] == [3, 2, 1]
    repenti = cards[0]["profile"]
    assert repenti["characteristics"]["PEUR"] == 6
    assert repenti["characteristics"]["COU"] is None
    assert repenti["abilities"] == ["Tueur né/1", "Créature", "Paria"]
    assert cards[1]["profile"]["characteristics"]["MOU"] == 12.5
    assert cards[1]["profile"]["weapon"] == {
        "name": "Arc",
        "strength": 5,
        "ranges": [15, 30, 45],
    }
    assert cards[2]["is_ally"] is True
    json.dumps(data)  # plain JSON


def test_export_then_import_gives_the_same_army(mixed_army, outsider):
    exported = export_army_json(mixed_army)
    imported = import_army_json(outsider, json.dumps(exported).encode())
    assert export_army_json(with_cards(imported)) == exported
    # The outsider got their own copy of the owner's custom card, not the card.
    chasseur = imported.cards.get(card__name="Chasseur").card
    assert chasseur.guest_key == outsider.guest_key


def test_an_import_on_an_empty_server_recreates_peoples_and_cards(mixed_army, outsider):
    exported = export_army_json(mixed_army)
    Army.objects.all().delete()
    ReferenceCard.objects.all().delete()
    People.objects.all().delete()
    imported = import_army_json(outsider, exported)
    assert export_army_json(with_cards(imported)) == exported
    assert People.objects.count() == 2


def test_an_import_reuses_the_library_card_when_the_profile_is_the_same(
    mixed_army, outsider
):
    before = ReferenceCard.objects.count()
    import_army_json(outsider, export_army_json(mixed_army))
    # Only the owner's custom card is copied; library cards are reused.
    assert ReferenceCard.objects.count() == before + 1


def test_an_import_with_errors_is_refused_whole_with_every_path(mixed_army, outsider):
    data = export_army_json(mixed_army)
    data["army"]["cards"][0]["fighters"] = 0
    data["army"]["cards"][1]["profile"]["characteristics"]["ATT"] = 42
    data["army"]["cards"][2]["is_ally"] = False
    data["army"]["cards"][1]["profile"]["weapon"]["ranges"] = [30, 20, 10]
    counts = (
        Army.objects.count(),
        ReferenceCard.objects.count(),
        People.objects.count(),
    )
    with pytest.raises(ArmyImportError) as refused:
        import_army_json(outsider, data)
    paths = {path for path, _message in refused.value.problems}
    assert {
        "army.cards[0].fighters",
        "army.cards[1].profile.characteristics.ATT",
        "army.cards[1].profile.weapon.ranges",
        "army.cards[2].is_ally",
    } <= paths
    assert counts == (
        Army.objects.count(),
        ReferenceCard.objects.count(),
        People.objects.count(),
    )


@pytest.mark.parametrize(
    ("content", "path"),
    [
        (b"not json", "$"),
        (b"\xff\xfe", "$"),
        (b"[]", "$"),
        (b'{"format": "confrontation-army", "version": 2, "army": {}}', "version"),
        (b'{"format": "other", "version": 1, "army": {}}', "format"),
    ],
)
def test_a_file_that_is_not_an_army_file_is_refused(content, path, guest):
    with pytest.raises(ArmyImportError) as refused:
        import_army_json(guest, content)
    assert path in {where for where, _message in refused.value.problems}
    assert not Army.objects.exists()


def test_an_import_that_contradicts_ones_own_card_is_refused(mixed_army, guest):
    data = export_army_json(mixed_army)
    data["army"]["cards"][1]["profile"]["characteristics"]["INI"] = 9
    before = Army.objects.count()
    with pytest.raises(ArmyImportError) as refused:
        import_army_json(guest, data)
    assert refused.value.problems[0][0] == "army.cards[1].profile"
    assert Army.objects.count() == before


def test_an_import_into_the_same_owner_gets_a_numbered_name(mixed_army, guest):
    imported = import_army_json(guest, export_army_json(mixed_army))
    assert imported.name == "Meute d'Yllia (2)"
