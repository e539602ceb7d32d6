"""The community catalogues' ordinary notations are read, one small file each.

The files under ``data/notations/`` are hand-written for these tests (never a
community catalogue): one per notation the catalogues use.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from battles.demo import PEOPLES
from battles.files.battlescribe import read_catalogue
from battles.files.people_names import PEOPLE_NAMES, people_for
from battles.forms.armies import ArmyForm, CatalogueUploadForm
from battles.models.armies import MysticRank, Owner, People, ReferenceCard, Voie
from battles.services.catalogues import import_catalogue

NOTATIONS = Path(__file__).parent / "data" / "notations"

pytestmark = pytest.mark.usefixtures("english")


def read(name: str):
    return read_catalogue((NOTATIONS / name).read_bytes())


def profiles(name: str) -> dict:
    return {profile.name: profile for profile in read(name).profiles}


# --- Courage or fear as a bare number -----
def test_a_bare_number_is_courage_and_the_reading_is_noted():
    archer = profiles("bare-courage.cat")["Archer daïkinee"]
    assert (archer.values["cou"], archer.values["peur"]) == (4, None)
    assert archer.notes == ["Cou/Fea “4” read as courage (no C or F)"]
    assert not archer.problems


def test_a_bare_number_is_fear_when_the_abilities_say_the_fighter_causes_fear():
    dryade = profiles("bare-courage.cat")["Dryade"]
    assert (dryade.values["cou"], dryade.values["peur"]) == (None, 5)
    assert "read as fear" in dryade.notes[0]


def test_an_immunity_to_fear_does_not_make_a_fear_value():
    gardien = profiles("bare-courage.cat")["Gardien sylvestre"]
    assert (gardien.values["cou"], gardien.values["peur"]) == (3, None)


def test_a_written_c_or_f_needs_no_assumption():
    assert profiles("bare-courage.cat")["Faucon"].notes == []


# --- A flyer's movement -----
@pytest.mark.parametrize(
    ("name", "ground", "flight"),
    [
        ("Harpie", "12.5", "20"),  # "12,5/20"
        ("Guêpe", "7.5", "15"),  # "7.5/15"
        ("Chimère", "12.5", "20"),  # "12,5 / 20"
        ("Wyverne", "10", "20"),  # "10/20"
    ],
)
def test_a_flyers_movement_keeps_the_ground_and_the_flight_value(name, ground, flight):
    flyer = profiles("flight.cat")[name]
    assert not flyer.problems
    assert flyer.values["mou"] == Decimal(ground)
    assert flyer.values["mou_flight"] == Decimal(flight)


def test_a_walker_has_no_flight_value():
    assert profiles("flight.cat")["Araignée"].values["mou_flight"] is None


# --- A faithful's three aspects -----
@pytest.mark.parametrize(
    ("name", "aspects", "foi"),
    [
        ("Prêtre", (1, 1, 1), None),  # "1-1-1"
        ("Inquisiteur", (0, 2, 1), None),  # "0\2\1"
        ("Novice", (0, 1, 1), None),  # "0-1-1 (devout)"
        ("Abbé", (1, 2, 0), 4),  # "4 (1-2-0)"
        ("Templier", (2, 0, 1), 3),  # Fervour "3", Aspects "2-0-1"
    ],
)
def test_the_three_aspects_are_read_creation_alteration_destruction(name, aspects, foi):
    faithful = profiles("aspects.cat")[name]
    assert not faithful.problems
    values = faithful.values
    assert (values["creation"], values["alteration"], values["destruction"]) == aspects
    assert values["foi"] == foi


def test_the_rank_written_after_the_aspects_is_the_faithfuls_rank():
    assert profiles("aspects.cat")["Novice"].values["mystic_rank"] == MysticRank.DEVOT


# --- A characteristic given as "-" -----
def test_a_dash_is_a_characteristic_the_card_does_not_have():
    baliste = profiles("no-characteristic.cat")["Baliste"]
    assert not baliste.problems
    assert (baliste.values["defense"], baliste.values["res"]) == (None, 8)
    assert baliste.values["att"] is baliste.values["force"] is None
    canon = profiles("no-characteristic.cat")["Canon de forge"]
    assert (canon.values["defense"], canon.values["res"], canon.values["ini"]) == (
        None,
        9,
        None,
    )


# --- A name that appears twice -----
def test_namesakes_that_differ_are_told_apart_by_their_selection_entry():
    names = [profile.name for profile in read("namesakes.cat").profiles]
    assert names == [
        "Garde du lion (Bannière)",
        "Garde du lion (Musicien)",
        "Chevalier",
    ]


def test_equal_namesakes_are_read_once():
    catalogue = read("namesakes.cat")
    assert catalogue.repeated == 2
    assert [p.name for p in catalogue.profiles].count("Chevalier") == 1


# --- A value no reading can mend -----
def test_a_value_no_reading_can_mend_is_a_problem_with_its_reason():
    broken = profiles("unmendable.cat")["Guerrier mal saisi"]
    assert broken.problems == ["Atk-Str “7-117-8” is not two numbers like 4-7"]


# --- Importing them -----
pytestmark_db = pytest.mark.django_db


@pytestmark_db
def test_every_notation_imports_with_its_characteristics(guest):
    import_catalogue((NOTATIONS / "flight.cat").read_bytes(), owner=guest)
    import_catalogue((NOTATIONS / "aspects.cat").read_bytes(), owner=guest)
    summary = import_catalogue((NOTATIONS / "bare-courage.cat").read_bytes())
    harpie = ReferenceCard.objects.get(name="Harpie")
    assert (harpie.mou, harpie.mou_flight) == (Decimal("12.5"), Decimal("20"))
    assert ReferenceCard.objects.get(name="Inquisiteur").aspects == (0, 2, 1)
    assert ("Archer daïkinee", "Cou/Fea “4” read as courage (no C or F)") in (
        summary.assumed
    )


@pytestmark_db
def test_an_unmendable_profile_is_skipped_with_its_reason_and_the_rest_imported():
    summary = import_catalogue((NOTATIONS / "unmendable.cat").read_bytes())
    assert summary.imported == ["Guerrier drune"]
    assert dict(summary.skipped) == {
        "Guerrier mal saisi": "Atk-Str “7-117-8” is not two numbers like 4-7"
    }
    assert not ReferenceCard.objects.filter(name="Guerrier mal saisi").exists()


@pytestmark_db
def test_a_reimport_changes_nothing_and_says_unchanged():
    first = import_catalogue((NOTATIONS / "namesakes.cat").read_bytes())
    before = list(ReferenceCard.objects.values_list("pk", "name", "updated"))
    again = import_catalogue((NOTATIONS / "namesakes.cat").read_bytes())
    assert again.unchanged == first.imported
    assert again.imported == again.updated == again.skipped == []
    assert list(ReferenceCard.objects.values_list("pk", "name", "updated")) == before


@pytestmark_db
def test_the_import_rate_of_the_notation_files_is_at_least_98_percent():
    """Every distinct profile of the notation files (the deliberately broken
    "7-117-8" file apart) becomes a card with every characteristic."""
    distinct = imported = 0
    for path in sorted(NOTATIONS.glob("*.cat")):
        if path.name == "unmendable.cat":
            continue
        catalogue = read_catalogue(path.read_bytes())
        distinct += len(catalogue.profiles)
        imported += len(import_catalogue(path.read_bytes()).imported)
    assert distinct == 20
    assert imported / distinct >= 0.98


# --- Peoples -----
def test_the_table_names_the_23_peoples_of_the_library():
    library = [name for names in PEOPLES.values() for name in names]
    assert len(library) == 23 and sorted(PEOPLE_NAMES) == sorted(library)


@pytest.mark.parametrize(
    ("catalogue_name", "people"),
    [
        ("Daikinee Elves", "Elfes Daïkinees"),
        ("Elfes Daïkinees", "Elfes Daïkinees"),
        ("elfes daikinees", "Elfes Daïkinees"),
        ("Confrontation C5 - Wolfen of Yllia", "Wolfen d'Yllia"),
        ("Orcs of the Behemoth", "Orques du Béhémoth"),
        ("Orcs of Bran-O-Kor", "Orques de Bran-Ô-Kor"),
        ("Drune Kelts", "Keltois Drunes"),
        ("Dwarves of Mid-Nor", "Nains de Mid-Nor"),
        ("Living Dead of Acheron", "Morts-vivants d'Achéron"),
        ("Mercenaries", "Mercenaires"),
        ("Vampires of Sylvania", None),
        ("", None),
    ],
)
def test_a_catalogue_name_in_english_or_french_finds_its_people(catalogue_name, people):
    assert people_for(catalogue_name) == people


@pytestmark_db
def test_an_english_catalogue_name_maps_to_the_existing_french_people(guest):
    daikinee = People.objects.create(name="Elfes Daïkinees", voie=Voie.DESTIN)
    summary = import_catalogue(
        (NOTATIONS / "bare-courage.cat").read_bytes(), owner=guest
    )
    assert summary.people == "Elfes Daïkinees" and summary.people_matched
    assert not summary.people_created
    assert set(ReferenceCard.objects.values_list("people", flat=True)) == {daikinee.pk}
    assert People.objects.count() == 1


def vampires_catalogue() -> bytes:
    """A catalogue of a people no table knows yet: "Vampires of Sylvania"."""
    return (
        (NOTATIONS / "unmendable.cat")
        .read_bytes()
        .replace(b'name="Kelts Drune"', b'name="Vampires of Sylvania"')
    )


@pytestmark_db
def test_a_people_created_by_an_upload_stays_private_to_the_uploader(guest, outsider):
    catalogue = vampires_catalogue()
    summary = import_catalogue(catalogue, owner=guest)
    assert summary.people_created
    vampires = People.objects.get(name="Vampires of Sylvania")
    assert vampires.guest_key == guest.guest_key and not vampires.is_shared
    assert vampires in ArmyForm(owner=guest).fields["people"].queryset
    assert vampires not in ArmyForm(owner=outsider).fields["people"].queryset
    assert vampires not in CatalogueUploadForm(owner=outsider).fields["people"].queryset
    assert vampires not in ArmyForm().fields["people"].queryset


@pytestmark_db
def test_a_second_upload_of_the_same_private_people_reuses_it(guest):
    catalogue = vampires_catalogue()
    import_catalogue(catalogue, owner=guest)
    again = import_catalogue(catalogue, owner=guest)
    assert not again.people_created and again.unchanged == ["Guerrier drune"]
    assert People.objects.filter(name="Vampires of Sylvania").count() == 1


@pytestmark_db
def test_another_player_may_upload_a_people_of_the_same_name(guest, outsider):
    catalogue = vampires_catalogue()
    import_catalogue(catalogue, owner=guest)
    import_catalogue(catalogue, owner=outsider)
    owners = set(
        People.objects.filter(name="Vampires of Sylvania").values_list(
            "guest_key", flat=True
        )
    )
    assert owners == {guest.guest_key, outsider.guest_key}


@pytestmark_db
def test_the_operators_import_makes_a_shared_people():
    catalogue = vampires_catalogue()
    import_catalogue(catalogue)
    vampires = People.objects.get(name="Vampires of Sylvania")
    assert vampires.is_shared
    assert (
        vampires in ArmyForm(owner=Owner(guest_key="anyone")).fields["people"].queryset
    )


@pytestmark_db
def test_an_imported_flyer_plays_with_its_ground_and_flight_values(guest):
    from battles.models.armies import Army
    from battles.services.armies import add_card, create_army
    from battles.services.games import side_setup

    import_catalogue((NOTATIONS / "flight.cat").read_bytes(), owner=guest)
    harpie = ReferenceCard.objects.get(name="Harpie")
    army = create_army(guest, name="Nid", people=harpie.people)
    add_card(army, harpie)
    setup = side_setup(Army.objects.with_cards().get(pk=army.pk), "Anne")
    assert setup["cards"][0]["profile"]["MOU"] == 12.5
    assert setup["cards"][0]["flight_mou"] == 20


@pytestmark_db
def test_a_people_an_army_file_creates_is_private_to_the_importer(guest, outsider):
    from battles.files.army_json import ARMY_JSON_FORMAT, import_army_json

    import_army_json(
        guest,
        {
            "format": ARMY_JSON_FORMAT,
            "version": 1,
            "army": {
                "name": "Nuit",
                "people": {"name": "Vampires of Sylvania", "voie": "other"},
                "points_limit": 200,
                "cards": [],
            },
        },
    )
    vampires = People.objects.get(name="Vampires of Sylvania")
    assert vampires.guest_key == guest.guest_key
    assert vampires not in ArmyForm(owner=outsider).fields["people"].queryset


@pytestmark_db
def test_different_namesakes_sharing_one_profile_id_are_both_imported():
    catalogue = (
        (NOTATIONS / "namesakes.cat")
        .read_bytes()
        .replace(b'id="prof-garde2"', b'id="prof-garde1"')
    )
    summary = import_catalogue(catalogue)
    assert summary.imported == [
        "Garde du lion (Bannière)",
        "Garde du lion (Musicien)",
        "Chevalier",
    ]
    again = import_catalogue(catalogue)
    assert again.unchanged == summary.imported and again.skipped == []


@pytestmark_db
def test_the_catalogue_page_says_the_people_matched_and_the_readings_assumed(
    client, settings
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    People.objects.create(name="Elfes Daïkinees", voie=Voie.DESTIN)
    upload = SimpleUploadedFile(
        "daikinee.cat", (NOTATIONS / "bare-courage.cat").read_bytes()
    )
    body = client.post("/armies/catalogues/", {"file": upload}).content.decode()
    assert "4 imported, 0 updated, 0 unchanged, 0 skipped." in body
    assert "“Daikinee Elves” is the catalogue's name for Elfes Daïkinees." in body
    assert "Readings assumed" in body
    assert "Cou/Fea “4” read as courage (no C or F)" in body
