"""The league's peoples come from the app's list: forms offer the list, services
store the app's name, and entries typed before are mapped (case, accents and
English names do not matter), so the statistics count one faction once."""

from __future__ import annotations

import importlib
from datetime import timedelta
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.utils import timezone

from battles.files.people_names import PEOPLE_NAMES, canonical_people
from battles.league import services
from battles.league.forms.league import ReportForm
from battles.league.models.league import LeagueResult, ResultStatus
from battles.league.services.peoples import league_peoples, map_league_peoples
from tests.support.club import club_in_season

TODAY = timezone.localdate()
GRIFFONS = "Griffons d'Akkylannie"


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("griffons d'akkylannie", GRIFFONS),
        ("GRIFFONS D’AKKYLANNIE", GRIFFONS),
        ("Griffins of Akkylannia", GRIFFONS),
        ("elfes daikinees", "Elfes Daïkinees"),
        ("  Wolfen ", "Wolfen d'Yllia"),
        ("Kelts", "Kelts"),  # Sessairs or Drunes? left as typed
        ("", ""),
    ],
)
def test_a_typed_people_is_the_app_s_name(typed, name):
    assert canonical_people(typed) == name


def test_a_library_people_matches_but_for_case_and_accents():
    assert canonical_people("les zélotes", ["Les Zélotes"]) == "Les Zélotes"


@pytest.fixture
def cast(db):
    return club_in_season("alice", ("bob", "carol"))


def legacy(cast, people_a, people_b, outcome="a"):
    return LeagueResult.objects.create(
        season=cast["season"],
        player_a=cast["bob"],
        player_b=cast["carol"],
        played_on=TODAY,
        outcome=outcome,
        people_a=people_a,
        people_b=people_b,
        status=ResultStatus.CONFIRMED,
        reported_by=cast["bob"],
    )


@pytest.mark.django_db
def test_the_forms_offer_the_app_s_list_and_refuse_free_text(cast):
    assert set(PEOPLE_NAMES) <= set(league_peoples())
    data = {
        "opponent": cast["carol"].pk,
        "played_on": TODAY.isoformat(),
        "result": "won",
        "score_for": 1,
        "score_against": 0,
    }
    good = ReportForm({**data, "people_for": GRIFFONS}, opponents=[cast["carol"]])
    assert good.is_valid(), good.errors
    bad = ReportForm(
        {**data, "people_for": "griffons d'akkylannie"}, opponents=[cast["carol"]]
    )
    assert not bad.is_valid() and "people_for" in bad.errors


@pytest.mark.django_db
def test_two_spellings_of_a_people_are_one_faction_in_the_statistics(cast):
    for days_ago, typed in enumerate(("griffons d'akkylannie", GRIFFONS)):
        result = services.report_result(
            cast["season"],
            cast["bob"],
            opponent_id=cast["carol"].pk,
            played_on=TODAY - timedelta(days=days_ago),
            result="won",
            score_for=200,
            score_against=100,
            people_for=typed,
            people_against="wolfen",
        )
        assert (result.people_a, result.people_b) == (GRIFFONS, "Wolfen d'Yllia")
        services.confirm_result(result, cast["carol"])
    # And an entry typed before the list, never mapped, still counts as one.
    legacy(cast, "GRIFFONS D'AKKYLANNIE", "Wolfen")
    rows = {
        row["people"]: row for row in services.people_statistics(cast["season"])["rows"]
    }
    assert list(rows) == [GRIFFONS, "Wolfen d'Yllia"]
    assert rows[GRIFFONS]["games"] == 3 and rows[GRIFFONS]["wins"] == 3


@pytest.mark.django_db
def test_the_command_maps_the_entries_typed_before(cast):
    legacy(cast, "griffons d'akkylannie", "Wolfen")
    legacy(cast, GRIFFONS, "Orques de Bran-O-Kor")
    legacy(cast, "Kelts", "")
    out = StringIO()
    call_command("map_league_peoples", "--dry-run", stdout=out)
    assert 'would rename "griffons d\'akkylannie"' in out.getvalue()
    assert LeagueResult.objects.filter(people_a="griffons d'akkylannie").exists()
    call_command("map_league_peoples", stdout=out)
    assert "unknown people 'Kelts' (1), left as typed" in out.getvalue()
    peoples = set(LeagueResult.objects.values_list("people_a", flat=True)) | set(
        LeagueResult.objects.values_list("people_b", flat=True)
    )
    assert peoples == {GRIFFONS, "Wolfen d'Yllia", "Orques de Bran-Ô-Kor", "Kelts", ""}
    assert not sum(map_league_peoples().renamed.values())  # a second run: nothing


@pytest.mark.django_db
def test_the_migration_maps_the_existing_entries(cast):
    legacy(cast, "elfes daikinees", "griffins")
    migration = importlib.import_module("battles.migrations.0010_league_seasons")
    migration.peoples_from_the_app_list(apps, None)
    result = LeagueResult.objects.get()
    assert (result.people_a, result.people_b) == ("Elfes Daïkinees", GRIFFONS)
