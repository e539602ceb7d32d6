"""The season's files, read back with the csv module as a spreadsheet would:
a BOM, ';' and decimal commas in French, numbers as numbers (a negative
rating is no formula), words not codes, the season in every row, and the T³
placements."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.services import league as services
from tests.support.club import club_in_season

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]
TODAY = timezone.localdate()


@pytest.fixture
def cast():
    cast = club_in_season("alice", ("bob", "carol"), ("olga",), season="Saison d’été")
    for people, reporter, opponent in (
        ("=HYPERLINK(1)", "bob", "carol"),
        ("Griffons d’Akkylannie", "carol", "alice"),
    ):
        result = services.report_result(
            cast["season"],
            cast[reporter],
            opponent_id=cast[opponent].pk,
            played_on=TODAY,
            result="won",
            score_for=200,
            score_against=120,
            people_for=people,
        )
        services.confirm_result(result, cast[opponent])
    return cast


def download(cast, name, language):
    client = Client()
    client.force_login(cast["bob"])
    response = client.get(
        reverse(name, args=[cast["season"].pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "saison-dete" in response["Content-Disposition"]
    raw = response.content.decode("utf-8")
    assert raw.startswith("\ufeff")  # the BOM: accents right in a spreadsheet
    delimiter = ";" if language == "fr" else ","
    return list(
        csv.reader(io.StringIO(raw.removeprefix("\ufeff")), delimiter=delimiter)
    )


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_standings_csv_has_numbers_as_numbers_and_the_season(cast, language):
    rows = download(cast, "season_standings_csv", language)
    header, lines = rows[0], rows[1:]
    assert len(header) > 10 and all(len(line) == len(header) for line in lines)
    assert {line[0] for line in lines} == {"Saison d’été"}
    by_player = {line[2]: line for line in lines}
    assert set(by_player) == {"alice", "bob", "carol"}
    points = header.index("Points")
    assert by_player["carol"][points] == "3"
    ordinal = [i for i, name in enumerate(header) if "ordinal" in name][0]
    for line in lines:
        value = line[ordinal]
        assert not value.startswith("'")  # no formula guard on numbers
        number = float(value.replace(",", ".") if language == "fr" else value)
        assert isinstance(number, float)
        if language == "fr":
            assert "," in value and "." not in value
    assert any(line[ordinal].startswith("-") for line in lines)  # a negative one
    peoples = by_player["carol"][-1]
    assert peoples == "Griffons d'Akkylannie"


def test_the_results_csv_says_who_won_in_words_and_guards_formulas(cast):
    rows = download(cast, "season_results_csv", "en")
    header, lines = rows[0], rows[1:]
    assert header[:6] == ["Season", "Number", "Date", "Player A", "Player B", "Result"]
    first = lines[0]
    assert first[3:8] == ["bob", "carol", "bob won", "200", "120"]
    assert first[8] == "'=HYPERLINK(1)"  # text a spreadsheet would run: guarded
    assert first[12] == "Confirmed"
    french = download(cast, "season_results_csv", "fr")
    assert french[1][5] == "bob a gagné"


def test_the_t3_export_lists_placement_player_and_people(cast):
    rows = download(cast, "season_t3_csv", "en")
    assert rows[0] == ["Placement", "Name", "Nick", "Origin", "Army"]
    placements = {line[2]: line for line in rows[1:]}
    assert (placements["bob"][0], placements["carol"][0]) == ("1", "2")  # head to head
    assert placements["carol"][3] == "Les Griffons de Lyon"
    assert placements["carol"][4] == "Griffons d'Akkylannie"
    assert all(line[0].isdigit() for line in rows[1:])
