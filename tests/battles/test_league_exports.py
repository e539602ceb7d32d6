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
from django.utils import timezone, translation

from battles.league import services
from battles.league.services import exports
from battles.services.account_security import display_name, update_names
from rules.league import shown_rating
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
    # The club rating as the pages show it ("Cote" 1764 ± 354), not openskill's mu.
    rating = header.index("Cote" if language == "fr" else "Rating")
    spread = rating + 1
    assert header[spread] == ("Cote ±" if language == "fr" else "Rating ±")
    table = services.season_table(cast["season"])
    for row in table.rows:
        shown = shown_rating(row.rating)
        line = by_player[row.user.username]
        assert (line[rating], line[spread]) == (str(shown.value), str(shown.spread))
    assert not any("mu" in name for name in header)
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


def test_every_text_is_quoted_so_a_decimal_comma_stays_one_cell():
    sheet = exports.Sheet("x.csv", ["Name", "Average"], [["bob", 1.5, 3]])
    with translation.override("fr"):
        text = exports.csv_text(sheet)
    assert text.splitlines()[1] == '"bob";"1,500";3'
    with translation.override("en"):
        assert exports.csv_text(sheet).splitlines()[1] == '"bob","1.500",3'


def test_the_t3_export_lists_placement_names_nickname_and_people(cast):
    update_names(
        cast["carol"], display="La Lame", first_name="Carole", last_name="Dupont"
    )
    rows = download(cast, "season_t3_csv", "en")
    assert rows[0] == ["Placement", "First name", "Last name", "Nick", "Origin", "Army"]
    placements = {line[3]: line for line in rows[1:]}
    assert set(placements) == {"bob", "La Lame", "alice"}
    assert (placements["bob"][0], placements["La Lame"][0]) == ("1", "2")
    assert placements["La Lame"][1:3] == ["Carole", "Dupont"]
    assert placements["bob"][1:3] == ["bob", ""]  # no names given: the login
    assert placements["La Lame"][4] == "Les Griffons de Lyon"
    assert placements["La Lame"][5] == "Griffons d'Akkylannie"
    assert all(line[0].isdigit() for line in rows[1:])


def test_a_tournament_has_its_own_t3_file_with_its_tournament_block(cast):
    from battles.league.services import tournament as tournaments

    update_names(cast["bob"], display="Le Roc", first_name="Bob", last_name="Martin")
    day = tournaments.create_tournament(
        cast["season"],
        cast["alice"],
        name="Tournoi d’hiver",
        played_on=TODAY,
        players={
            cast["alice"].pk: "Wolfen d'Yllia",
            cast["bob"].pk: "Griffons d'Akkylannie",
        },
    )
    first = tournaments.create_round(day, cast["alice"])
    pairing = first.pairings.get()
    winner = cast["bob"] if pairing.player_a == cast["bob"] else cast["alice"]
    loser = cast["alice"] if winner == cast["bob"] else cast["bob"]
    result = tournaments.report_pairing_result(
        pairing, winner, result="won", score_for=300, score_against=100
    )
    services.confirm_result(result, loser)
    client = Client()
    client.force_login(cast["carol"])
    response = client.get(
        reverse("tournament_t3_csv", args=[day.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert response.status_code == 200
    assert "tournoi-dhiver-t3.csv" in response["Content-Disposition"]
    raw = response.content.decode("utf-8").removeprefix("\ufeff")
    rows = list(csv.reader(io.StringIO(raw), delimiter=";"))
    assert rows[:4] == [
        ["Tournament", "Tournoi d’hiver"],
        ["Game system", "Confrontation"],
        ["Place", "Les Griffons de Lyon"],
        ["Date", TODAY.isoformat()],
    ]
    assert rows[5] == ["Placement", "First name", "Last name", "Nick", "Origin", "Army"]
    by_nick = {line[3]: line for line in rows[6:]}
    assert by_nick[display_name(winner)][0] == "1"
    assert by_nick["Le Roc"][1:3] == ["Bob", "Martin"]
    assert by_nick["Le Roc"][5] == "Griffons d'Akkylannie"
    # Outsiders get nothing.
    outsider = Client()
    outsider.force_login(cast["olga"])
    assert outsider.get(reverse("tournament_t3_csv", args=[day.pk])).status_code == 403


def test_a_tournament_s_place_is_its_t3_place_and_shown_on_its_page(cast):
    from battles.league.services import tournament as tournaments

    day = tournaments.create_tournament(
        cast["season"],
        cast["alice"],
        name="Tournoi d’été",
        played_on=TODAY,
        place="  Salle des fêtes, Villeurbanne ",
        players={cast["alice"].pk: "", cast["bob"].pk: ""},
    )
    client = Client()
    client.force_login(cast["carol"])
    raw = client.get(reverse("tournament_t3_csv", args=[day.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(raw.removeprefix("\ufeff")), delimiter=";"))
    assert ["Place", "Salle des fêtes, Villeurbanne"] in rows[:4]
    page = client.get(reverse("tournament", args=[day.pk])).content.decode()
    assert "Salle des fêtes, Villeurbanne" in page
