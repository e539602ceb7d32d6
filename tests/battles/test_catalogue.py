"""Community catalogues: read safely, import idempotently, refuse whole."""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from battles.files.battlescribe import CatalogueError, read_catalogue
from battles.models.armies import CardSource, People, ReferenceCard
from battles.services.armies import ArmyError
from battles.services.catalogues import import_catalogue

DATA = Path(__file__).parent / "data"


pytestmark = pytest.mark.usefixtures("english")


def data(name: str) -> bytes:
    return (DATA / name).read_bytes()


def zipped(name: str, content: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, content)
    return buffer.getvalue()


# --- Reading (no database) ---------------------------------------------------------
def test_a_catalogue_gives_its_name_and_its_profile_cards():
    catalogue = read_catalogue(data("wolfen.cat"))
    assert catalogue.name == "Wolfen d'Yllia"
    assert [profile.name for profile in catalogue.profiles] == [
        "Prédateur wolfen",
        "Chasseur wolfen",
        "Mystique wolfen",
        "Profil mal saisi",
        "Géant impossible",
    ]
    assert catalogue.other_profiles == 1  # the "Weapon" profile


def test_atk_str_and_def_res_split_into_two_characteristics():
    predateur = read_catalogue(data("wolfen.cat")).profiles[0]
    assert predateur.values["att"] == 5 and predateur.values["force"] == 8
    assert predateur.values["defense"] == 4 and predateur.values["res"] == 7
    assert predateur.values["tir"] is None
    assert predateur.abilities == [("Tueur né", "1"), ("Bond", "")]


def test_cou_fea_tells_courage_from_fear():
    predateur, chasseur, mystique, *_ = read_catalogue(data("wolfen.cat")).profiles
    assert (predateur.values["cou"], predateur.values["peur"]) == (None, 6)
    assert (chasseur.values["cou"], chasseur.values["peur"]) == (4, None)
    assert mystique.values["foi"] == 3


def test_characteristics_named_only_by_type_id_and_a_comma_decimal_are_read():
    chasseur = read_catalogue(data("wolfen.cat")).profiles[1]
    assert chasseur.values["mou"] == Decimal("12.5")
    assert chasseur.values["tir"] == 4


def test_costs_are_the_pts_cost_of_the_entry():
    costs = [
        profile.values["cost"]
        for profile in read_catalogue(data("wolfen.cat")).profiles
    ]
    assert costs[:3] == [38, 21, 45]
    assert costs[3] is None


def test_a_profile_with_an_unreadable_value_says_why():
    broken = read_catalogue(data("wolfen.cat")).profiles[3]
    assert broken.problems and "Atk-Str" in broken.problems[0]


def test_a_zipped_catalogue_reads_like_the_plain_one():
    plain, packed = (
        read_catalogue(data("wolfen.cat")),
        read_catalogue(data("wolfen.catz")),
    )
    assert plain == packed


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (data("broken.cat"), "not well-formed XML"),
        (data("billion-laughs.cat"), "refused for safety"),
        (b"", "empty"),
        (b"<html><body>hello</body></html>", "not a BattleScribe"),
        (b"PK\x03\x04garbage", "not a readable zip"),
        (
            b"<catalogue>" + b" " * (5 * 1024 * 1024) + b"</catalogue>",
            "larger than 5 MB",
        ),
        (
            b'<?xml version="1.0"?><!DOCTYPE x SYSTEM "http://example.org/x.dtd">'
            b"<catalogue/>",
            "refused for safety",
        ),
    ],
)
def test_a_bad_or_hostile_file_is_refused_with_a_clear_message(content, message):
    with pytest.raises(CatalogueError) as refused:
        read_catalogue(content)
    assert message in str(refused.value)


def test_a_zip_bomb_is_refused_before_it_is_unpacked():
    bomb = zipped(
        "bomb.cat", b"<catalogue>" + b" " * (20 * 1024 * 1024) + b"</catalogue>"
    )
    assert len(bomb) < 5 * 1024 * 1024
    with pytest.raises(CatalogueError) as refused:
        read_catalogue(bomb)
    assert "zip bomb" in str(refused.value)


def test_an_archive_must_hold_one_catalogue():
    with pytest.raises(CatalogueError) as refused:
        read_catalogue(zipped("readme.txt", b"hello"))
    assert "exactly one" in str(refused.value)


# --- Importing -------------------------------------------------------------------
pytestmark_db = pytest.mark.django_db


@pytestmark_db
def test_an_import_creates_cards_of_the_catalogues_people_and_says_what_it_skipped():
    summary = import_catalogue(data("wolfen.cat"))
    assert summary.people == "Wolfen d'Yllia"
    assert summary.imported == [
        "Prédateur wolfen",
        "Chasseur wolfen",
        "Mystique wolfen",
    ]
    skipped = dict(summary.skipped)
    assert "Atk-Str" in skipped["Profil mal saisi"]
    assert "INI" in skipped["Géant impossible"]
    card = ReferenceCard.objects.get(name="Mystique wolfen")
    assert card.attribution == "catalogue: Wolfen d'Yllia"
    assert card.external_id == "prof-mystique"
    assert card.cost == 45 and card.is_shared
    assert card.abilities_text == "Régénération/5, Commandement/X"


@pytestmark_db
def test_importing_the_same_catalogue_twice_changes_nothing():
    import_catalogue(data("wolfen.cat"))
    before = list(ReferenceCard.objects.values_list("pk", "name", "updated"))
    summary = import_catalogue(data("wolfen.catz"))
    assert summary.imported == [] and summary.updated == []
    assert summary.unchanged == [
        "Prédateur wolfen",
        "Chasseur wolfen",
        "Mystique wolfen",
    ]
    assert "Chasseur wolfen" not in dict(summary.skipped)
    assert list(ReferenceCard.objects.values_list("pk", "name", "updated")) == before


@pytestmark_db
def test_a_changed_profile_updates_its_card_even_renamed():
    import_catalogue(data("wolfen.cat"))
    changed = (
        data("wolfen.cat")
        .replace(b'value="38.0"', b'value="40.0"')
        .replace(b'name="Pr\xc3\xa9dateur wolfen"', b'name="Pr\xc3\xa9dateur"')
    )
    summary = import_catalogue(changed)
    assert summary.updated == ["Prédateur"]
    card = ReferenceCard.objects.get(external_id="prof-predateur")
    assert (card.name, card.cost) == ("Prédateur", 40)
    assert ReferenceCard.objects.count() == 3


@pytestmark_db
def test_a_card_of_another_origin_is_never_overwritten(make_card):
    wolfen = People.objects.create(name="Wolfen d'Yllia")
    make_card(wolfen, name="Chasseur wolfen", source=CardSource.RACKHAM, att=9)
    summary = import_catalogue(data("wolfen.cat"))
    assert "Profil Rackham" in dict(summary.skipped)["Chasseur wolfen"]
    assert ReferenceCard.objects.get(name="Chasseur wolfen").att == 9


@pytestmark_db
def test_the_people_chosen_on_the_form_wins_over_the_catalogue_name(griffons):
    summary = import_catalogue(data("wolfen.cat"), people=griffons)
    assert summary.people == griffons.name
    assert ReferenceCard.objects.filter(people=griffons).count() == 3
    assert not People.objects.filter(name="Wolfen d'Yllia").exists()


@pytestmark_db
def test_a_hostile_file_writes_nothing_not_even_a_people():
    with pytest.raises(ArmyError):
        import_catalogue(data("billion-laughs.cat"))
    assert not People.objects.exists() and not ReferenceCard.objects.exists()


@pytestmark_db
def test_the_command_imports_and_reports(capsys):
    call_command("import_catalogue", str(DATA / "wolfen.catz"))
    out = capsys.readouterr().out
    assert "3 imported, 0 updated, 0 unchanged, 2 skipped" in out
    assert "skipped Profil mal saisi" in out


@pytestmark_db
def test_the_command_refuses_a_broken_file_and_writes_nothing(capsys):
    with pytest.raises(CommandError):
        call_command("import_catalogue", str(DATA / "broken.cat"))
    assert "not well-formed XML" in capsys.readouterr().err
    assert not ReferenceCard.objects.exists()
