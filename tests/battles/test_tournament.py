"""A tournament day inside a season: players and peoples, Swiss rounds with
table numbers, results per table confirmed as other results are (or counted
from a finished in-app game), standings after each round, and who may do what."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.league import services as league_services
from battles.league.models.league import LeagueResult, Membership, ResultStatus
from battles.league.models.tournament import TournamentPairing, TournamentRound
from battles.league.services import tournament as services
from battles.league.services.errors import LeagueError
from battles.models.armies import Owner
from battles.models.games import SeatRole
from battles.services.games import perform_action
from tests.support.club import club_in_season
from tests.support.live import new_game, seat

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

TODAY = timezone.localdate()
PLAYERS = ("bob", "carol", "dave", "erin")


@pytest.fixture
def cast():
    """alice runs the club; bob, carol, dave, erin play; olga is an outsider."""
    return club_in_season("alice", PLAYERS, ("olga",), password="a long passphrase 1")


def day(cast, names=PLAYERS, peoples=None):
    peoples = peoples or {}
    return services.create_tournament(
        cast["season"],
        cast["alice"],
        name="Tournoi de printemps",
        played_on=TODAY,
        players={cast[n].pk: peoples.get(n, "") for n in names},
    )


def tables(round_):
    rows = [
        (p.table, p.player_a.username, p.player_b.username if p.player_b else None)
        for p in round_.pairings.select_related("player_a", "player_b")
    ]
    return sorted(rows, key=lambda row: (row[0] is not None, row[0] or 0))


def play_round(cast, round_, winner_first=True):
    """Every table reported by its first player (a win) and confirmed."""
    for pairing in round_.pairings.exclude(player_b=None):
        result = services.report_pairing_result(
            pairing,
            pairing.player_a,
            result="won" if winner_first else "lost",
            score_for=300,
            score_against=100,
        )
        league_services.confirm_result(result, pairing.player_b)


def test_rounds_are_paired_by_swiss_with_tables_and_a_bye_for_odd_numbers(cast):
    Membership.objects.create(club=cast["club"], user=cast["olga"])
    cast["season"].participants.add(cast["olga"])
    tournament = day(cast, (*PLAYERS, "olga"))
    first = services.create_round(tournament, cast["alice"])
    assert first.number == 1
    assert tables(first) == [
        (None, "olga", None),
        (1, "bob", "carol"),
        (2, "dave", "erin"),
    ]
    play_round(cast, first)
    second = services.create_round(tournament, cast["alice"])
    rows = tables(second)
    # bob and dave won: they meet on table 1; olga had the bye (no points, but
    # no goal average lost either: she ranks above carol); erin (last) sits out.
    assert rows[1:] == [(1, "bob", "dave"), (2, "olga", "carol")]
    assert rows[0] == (None, "erin", None)
    view = services.tournament_view(tournament)
    lines = [row["line"] for row in view.rounds[0].standings]
    after_first = [(line.player, line.points) for line in lines]
    assert after_first[:2] == [("bob", 3), ("dave", 3)]
    assert not view.rounds[1].complete and view.rounds[0].complete


def test_the_next_round_waits_for_every_table_s_confirmed_result(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = first.pairings.first()
    services.report_pairing_result(
        pairing, pairing.player_a, result="won", score_for=200, score_against=100
    )
    with pytest.raises(LeagueError, match="Round 1 is not over"):
        services.create_round(tournament, cast["alice"])
    assert TournamentRound.objects.count() == 1


def test_people_are_kept_apart_when_points_allow(cast):
    tournament = day(
        cast,
        peoples={
            "bob": "Wolfen d'Yllia",
            "carol": "Wolfen d'Yllia",
            "dave": "Griffons d'Akkylannie",
            "erin": "Griffons d'Akkylannie",
        },
    )
    first = services.create_round(tournament, cast["alice"])
    assert tables(first) == [(1, "bob", "dave"), (2, "carol", "erin")]


def test_no_rematch_over_three_rounds_of_four(cast):
    tournament = day(cast)
    met = set()
    for _ in range(3):
        round_ = services.create_round(tournament, cast["alice"])
        for _table, a, b in tables(round_):
            assert frozenset((a, b)) not in met
            met.add(frozenset((a, b)))
        play_round(cast, round_)
    assert len(met) == 6


def test_only_an_admin_creates_a_day_or_a_round(cast):
    with pytest.raises(LeagueError, match="Only an admin"):
        services.create_tournament(
            cast["season"],
            cast["bob"],
            name="x",
            played_on=TODAY,
            players={cast["bob"].pk: "", cast["carol"].pk: ""},
        )
    tournament = day(cast)
    with pytest.raises(LeagueError, match="Only an admin"):
        services.create_round(tournament, cast["bob"])


def test_an_outsider_cannot_be_entered_and_the_date_is_in_the_season(cast):
    with pytest.raises(LeagueError, match="take part in the season"):
        day(cast, ("bob", "olga"))
    with pytest.raises(LeagueError, match="outside the season"):
        services.create_tournament(
            cast["season"],
            cast["alice"],
            name="x",
            played_on=cast["season"].ends + timezone.timedelta(days=1),
            players={cast["bob"].pk: "", cast["carol"].pk: ""},
        )


def test_only_the_table_s_players_report_and_only_once(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = first.pairings.get(table=1)
    with pytest.raises(LeagueError, match="Only the players of this table"):
        services.report_pairing_result(
            pairing, cast["dave"], result="won", score_for=1, score_against=0
        )
    result = services.report_pairing_result(
        pairing, pairing.player_b, result="won", score_for=250, score_against=50
    )
    # The opponent confirms, as any result: the reporter cannot.
    with pytest.raises(LeagueError):
        league_services.confirm_result(result, pairing.player_b)
    with pytest.raises(LeagueError, match="already recorded"):
        services.report_pairing_result(
            pairing, pairing.player_a, result="won", score_for=1, score_against=0
        )
    assert result.people_a == "" and result.played_on == TODAY


def test_a_finished_in_app_game_counts_for_the_table(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = first.pairings.get(table=1)  # bob – carol
    with pytest.raises(LeagueError, match="No finished game"):
        services.count_game_for_pairing(pairing, cast["bob"])
    game = new_game(Owner(user_id=cast["bob"].pk))
    seat(game, Owner(user_id=cast["carol"].pk), SeatRole.SIDE_B)
    perform_action(game, "b", {"type": "concede"})
    game.refresh_from_db()
    season = cast["season"]
    league_services.propose_game_outcome(
        game, "a", outcome="a", score_a=180, score_b=60, season_id=season.pk
    )
    league_services.confirm_game_outcome(game, "b")
    # One step (issue #29): both phones' agreement counts it for the table.
    pairing.refresh_from_db()
    with pytest.raises(LeagueError, match="already recorded"):
        services.count_game_for_pairing(pairing, cast["carol"])
    assert pairing.result.game == game
    assert pairing.result.status == ResultStatus.CONFIRMED
    view = services.tournament_view(tournament)
    points = {r["line"].player: r["line"].points for r in view.rounds[0].standings}
    assert points["bob"] == 3 and points["carol"] == 0


def test_a_voided_table_result_can_be_reported_again(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = first.pairings.get(table=1)
    result = services.report_pairing_result(
        pairing, pairing.player_a, result="won", score_for=200, score_against=100
    )
    league_services.admin_void(result, cast["alice"], "wrong table")
    again = services.report_pairing_result(
        pairing, pairing.player_a, result="lost", score_for=100, score_against=200
    )
    pairing.refresh_from_db()
    assert pairing.result == again
    assert LeagueResult.objects.count() == 2


# --- over HTTP ------------------------------------------------------------------------


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_pages_over_http(cast):
    admin = signed_in(cast["alice"])
    url = reverse("tournament_new", args=[cast["season"].pk])
    assert signed_in(cast["bob"]).get(url).status_code == 403
    page = admin.get(url)
    assert page.status_code == 200 and b"People of bob" in page.content
    answer = admin.post(
        url,
        {
            "name": "Tournoi",
            "played_on": TODAY.isoformat(),
            "players": [cast[n].pk for n in PLAYERS],
            f"people_{cast['bob'].pk}": "Wolfen d'Yllia",
            f"people_{cast['carol'].pk}": "not a people",
        },
    )
    assert answer.status_code == 200
    assert b"Select a valid choice" in answer.content
    answer = admin.post(
        url,
        {
            "name": "Tournoi",
            "played_on": TODAY.isoformat(),
            "players": [cast[n].pk for n in PLAYERS],
            f"people_{cast['bob'].pk}": "Wolfen d'Yllia",
        },
    )
    tournament = cast["season"].tournaments.get()
    assert answer.status_code == 302
    assert tournament.players.get(user=cast["bob"]).people == "Wolfen d'Yllia"
    page_url = reverse("tournament", args=[tournament.pk])
    # A member may not pair a round.
    bob = signed_in(cast["bob"])
    bob.post(reverse("tournament_round", args=[tournament.pk]))
    assert TournamentRound.objects.count() == 0
    tables_url = reverse("tournament_tables", args=[tournament.pk])
    assert b"No round yet" in bob.get(tables_url).content
    admin.post(reverse("tournament_round", args=[tournament.pk]))
    assert TournamentRound.objects.count() == 1
    # A phone still showing "no round" fetches the live box when the day's
    # stream says it changed: round 1's tables, with no reload.
    fetched = bob.get(tables_url, HTTP_HX_REQUEST="true")
    assert (
        b"tournament-table" in fetched.content and b"Your table: 1" in fetched.content
    )
    assert b"<html" not in fetched.content
    page = bob.get(page_url)
    assert b"Your table: 1" in page.content
    assert b"Report table 1" in page.content
    assert signed_in(cast["olga"]).get(page_url).status_code == 403
    pairing = TournamentPairing.objects.get(player_a=cast["bob"])
    report = reverse("pairing_report", args=[tournament.pk, pairing.pk])
    won = {"result": "won", "score_against": "0"}
    bad = bob.post(report, {**won, "score_for": "-3"})
    assert bad.status_code == 200 and LeagueResult.objects.count() == 0
    answer = bob.post(report, {**won, "score_for": "200"})
    assert answer.status_code == 302
    assert b"Report table 1" not in bob.get(page_url).content
    # dave, at another table, is refused in words and nothing changes.
    dave = signed_in(cast["dave"])
    refused = dave.post(report, {**won, "score_for": "9"}, follow=True)
    assert b"Only the players of this table" in refused.content
    assert LeagueResult.objects.count() == 1
    # So is alice, who runs the day and sits at no table.
    refused = admin.post(report, {**won, "score_for": "9"}, follow=True)
    assert refused.redirect_chain[-1][0] == page_url
    assert b"Only the players of this table" in refused.content
    assert LeagueResult.objects.count() == 1
    board = bob.get(reverse("tournament_print", args=[tournament.pk]))
    assert board.status_code == 200 and b"Round 1" in board.content
    qr = bob.get(reverse("tournament_qr", args=[tournament.pk]))
    assert qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
    assert signed_in(cast["olga"]).get(qr.request["PATH_INFO"]).status_code == 403
    season_page = admin.get(reverse("season", args=[cast["season"].pk]))
    assert b"Tournament day: Tournoi" in season_page.content


def test_a_closed_season_gets_no_new_day_nor_round(cast):
    from battles.league.services import seasons

    tournament = day(cast)
    seasons.close_season(cast["season"], cast["alice"])
    cast["season"].refresh_from_db()
    tournament.refresh_from_db()
    with pytest.raises(LeagueError, match="closed"):
        services.create_round(tournament, cast["alice"])
    with pytest.raises(LeagueError, match="closed"):
        day(cast)
    assert TournamentRound.objects.count() == 0


def test_a_nine_player_day_over_three_rounds_no_rematch_and_fair_byes(db):
    names = tuple(f"joueur{n}" for n in range(1, 10))
    cast = club_in_season("alice", names)
    tournament = day(cast, names)
    met, byes = set(), []
    for number in range(1, 4):
        before = services.tournament_view(tournament)
        order = (
            [row["line"].player for row in before.rounds[-1].standings]
            if before.rounds
            else sorted(names)
        )
        round_ = services.create_round(tournament, cast["alice"])
        rows = tables(round_)
        assert rows[0][0] is None and rows[0][2] is None  # the bye, no table
        bye = rows[0][1]
        # The lowest-ranked player who has not had a bye yet.
        assert bye == [name for name in order if name not in byes][-1]
        byes.append(bye)
        assert [row[0] for row in rows[1:]] == [1, 2, 3, 4]
        for _table, a, b in rows[1:]:
            assert frozenset((a, b)) not in met, (number, a, b)
            met.add(frozenset((a, b)))
        # The better-numbered player wins, so the standings spread out.
        for pairing in round_.pairings.exclude(player_b=None):
            a, b = pairing.player_a.username, pairing.player_b.username
            first_wins = int(a[6:]) < int(b[6:])
            play = services.report_pairing_result(
                pairing,
                pairing.player_a,
                result="won" if first_wins else "lost",
                score_for=200 if first_wins else 50,
                score_against=50 if first_wins else 200,
            )
            league_services.confirm_result(play, pairing.player_b)
    assert len(set(byes)) == 3 and len(met) == 12
    final = services.tournament_view(tournament).rounds[-1].standings
    assert final[0]["line"].player == "joueur1" and final[0]["line"].points == 9
