"""The organiser runs the day's field (issue #29): drops, late entries, a
table's result entered, confirmed or forfeited by the organiser, a round
paired again, the clock, the number of rounds and final standings, bonus and
penalty points; the day's own bye, tie-breakers and round-1 seed; the board
names the winner; the standings after each round are rules.league's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from battles.league import services as league_services
from battles.league.live.tournament import tournament_version
from battles.league.models.league import EntryAction, LeagueResult, ResultStatus
from battles.league.models.tournament import TournamentPairing, TournamentRound
from battles.league.services import tournament as services
from battles.league.services.errors import LeagueError
from rules.league import SWISS_TIEBREAKERS, GameResult, standings, swiss_round
from tests.support.club import club_in_season

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

TODAY = timezone.localdate()
PLAYERS = ("bob", "carol", "dave", "erin", "fanny")


@pytest.fixture
def cast():
    """alice organises; bob..fanny play; gus is a member who comes late."""
    return club_in_season("alice", (*PLAYERS, "gus"), ("olga",))


def day(cast, names=PLAYERS, **rules):
    return services.create_tournament(
        cast["season"],
        cast["alice"],
        name="Nuit suisse",
        played_on=TODAY,
        players={cast[n].pk: "" for n in names},
        **rules,
    )


def entrant(tournament, user):
    return tournament.players.get(user=user)


def games_of(round_):
    return list(round_.pairings.exclude(player_b=None).select_related("player_a"))


def play(cast, round_, winner="a", score=(200, 100)):
    """Every table reported by its first player and confirmed by the other."""
    for pairing in games_of(round_):
        row = services.report_pairing_result(
            pairing,
            pairing.player_a,
            result="won" if winner == "a" else "lost",
            score_for=score[0] if winner == "a" else score[1],
            score_against=score[1] if winner == "a" else score[0],
        )
        league_services.confirm_result(row, pairing.player_b)


def names_in(round_):
    return {
        p.username
        for pairing in round_.pairings.select_related("player_a", "player_b")
        for p in (pairing.player_a, pairing.player_b)
        if p is not None
    }


def rules_standings(tournament, number):
    """rules.league over the day's confirmed games, byes and adjustments up to
    round ``number``: what the page must show."""
    games, byes, extra = [], [], {}
    for pairing in TournamentPairing.objects.filter(
        round__tournament=tournament, round__number__lte=number
    ).select_related("player_a", "result__player_a", "result__player_b"):
        if pairing.is_bye:
            byes.append(pairing.player_a.username)
        elif pairing.outcome:  # a guest's table: the day's own result
            games.append(
                GameResult(
                    pairing.player_a.username,
                    pairing.player_b.username,
                    pairing.outcome,
                    pairing.score_a,
                    pairing.score_b,
                )
            )
        elif pairing.result and pairing.result.status == ResultStatus.CONFIRMED:
            r = pairing.result
            games.append(
                GameResult(
                    r.player_a.username,
                    r.player_b.username,
                    r.outcome,
                    r.score_a,
                    r.score_b,
                )
            )
    for row in tournament.adjustments.filter(after_round__lte=number):
        name = row.player.user.username
        extra[name] = extra.get(name, 0) + row.points
    names = [e.user.username for e in tournament.players.select_related("user")]
    return standings(names, games, tournament.scheme(), byes=byes, adjustments=extra)


def shown_standings(tournament, number):
    view = services.tournament_view(tournament)
    return [row["line"] for row in view.rounds[number - 1].standings]


# --- the day's own rules ------------------------------------------------------------


def test_a_day_defaults_to_a_winning_bye_and_the_swiss_order(cast):
    tournament = day(cast)
    assert tournament.bye_points == 3 and tournament.bye_score == 0
    assert tuple(tournament.tiebreakers) == SWISS_TIEBREAKERS
    first = services.create_round(tournament, cast["alice"])
    bye = first.pairings.get(player_b=None).player_a.username
    line = next(x for x in shown_standings(tournament, 1) if x.player == bye)
    assert (line.played, line.won, line.points) == (1, 1, 3)


def test_round_one_is_the_seed_s_shuffle_shown_to_everyone(cast):
    tournament = day(cast, seed="c0ffee42")
    first = services.create_round(tournament, cast["alice"])
    want = swiss_round(sorted(PLAYERS), [], scheme=tournament.scheme(), seed="c0ffee42")
    got = [
        (p.player_a.username, p.player_b.username if p.player_b else None)
        for p in first.pairings.select_related("player_a", "player_b")
    ]
    assert sorted(got, key=str) == sorted(want, key=str)
    page = signed_in(cast["bob"]).get(reverse("tournament", args=[tournament.pk]))
    assert b"c0ffee42" in page.content


def test_the_rules_are_checked_when_the_day_is_created(cast):
    with pytest.raises(LeagueError, match="rounds"):
        day(cast, rounds_planned=0)
    with pytest.raises(LeagueError, match="listed once"):
        day(cast, tiebreakers=("goal_average", "goal_average"))
    with pytest.raises(LeagueError):
        day(cast, first_round="coin")
    assert cast["season"].tournaments.count() == 0


# --- the field ------------------------------------------------------------------------


def test_a_dropped_player_is_never_paired_again_and_stays_in_the_standings(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    play(cast, first)
    services.drop_player(tournament, cast["alice"], entrant(tournament, cast["bob"]).pk)
    second = services.create_round(tournament, cast["alice"])
    assert "bob" not in names_in(second)
    assert "bob" in [x.player for x in shown_standings(tournament, 2)]
    with pytest.raises(LeagueError, match="already dropped"):
        services.drop_player(
            tournament, cast["alice"], entrant(tournament, cast["bob"]).pk
        )


def test_a_late_entry_is_paired_from_the_next_round_with_the_missed_points(cast):
    tournament = day(cast, late_points=1)
    first = services.create_round(tournament, cast["alice"])
    late = services.add_late_player(tournament, cast["alice"], cast["gus"].pk)
    assert late.joined_round == 2
    assert "gus" not in names_in(first)
    play(cast, first)
    second = services.create_round(tournament, cast["alice"])
    assert "gus" in names_in(second)
    gus = next(x for x in shown_standings(tournament, 1) if x.player == "gus")
    assert (gus.played, gus.points) == (0, 1)
    assert tournament.adjustments.get().reason == "Late entry: 1 round(s) missed"
    with pytest.raises(LeagueError, match="already in the day"):
        services.add_late_player(tournament, cast["alice"], cast["gus"].pk)
    with pytest.raises(LeagueError, match="take part"):
        services.add_late_player(tournament, cast["alice"], cast["olga"].pk)


def test_the_organiser_enters_a_table_s_result_and_the_history_names_her(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = games_of(first)[0]
    row = services.record_table_result(
        tournament, cast["alice"], pairing.pk, outcome="b", score_a=100, score_b=250
    )
    assert row.status == ResultStatus.CONFIRMED
    entry = row.entries.get()
    assert entry.actor == cast["alice"] and entry.action == EntryAction.ADMIN_CONFIRMED
    assert "organiser" in entry.reason
    with pytest.raises(LeagueError, match="already recorded"):
        services.record_table_result(
            tournament, cast["alice"], pairing.pk, outcome="a", score_a=1, score_b=0
        )
    # A bad score changes nothing.
    other = games_of(first)[1]
    with pytest.raises(LeagueError, match="below the loser"):
        services.record_table_result(
            tournament, cast["alice"], other.pk, outcome="a", score_a=1, score_b=9
        )
    assert LeagueResult.objects.count() == 1


def test_an_organiser_who_plays_at_the_table_cannot_enter_its_result(db):
    cast = club_in_season("alice", PLAYERS)
    tournament = services.create_tournament(
        cast["season"],
        cast["alice"],
        name="Nuit",
        played_on=TODAY,
        players={cast[n].pk: "" for n in ("alice", "bob")},
    )
    first = services.create_round(tournament, cast["alice"])
    pairing = games_of(first)[0]
    with pytest.raises(LeagueError, match="You play at this table"):
        services.record_table_result(
            tournament, cast["alice"], pairing.pk, outcome="a", score_a=1, score_b=0
        )
    with pytest.raises(LeagueError, match="You play at this table"):
        services.record_forfeit(tournament, cast["alice"], pairing.pk, cast["bob"].pk)
    assert LeagueResult.objects.count() == 0


def test_a_forfeit_scores_the_day_s_forfeit_score_not_a_typed_one(cast):
    tournament = day(cast, forfeit_score=150)
    first = services.create_round(tournament, cast["alice"])
    pairing = games_of(first)[0]
    row = services.record_forfeit(
        tournament, cast["alice"], pairing.pk, pairing.player_a_id
    )
    assert (row.outcome, row.score_a, row.score_b) == ("b", 0, 150)
    line = services.table_line(TournamentPairing.objects.get(pk=pairing.pk))
    assert line.winner == pairing.player_b and line.counted
    with pytest.raises(LeagueError, match="player of this table"):
        services.record_forfeit(
            tournament, cast["alice"], games_of(first)[1].pk, cast["olga"].pk
        )


def test_the_organiser_confirms_a_result_one_player_reported(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = games_of(first)[0]
    with pytest.raises(LeagueError, match="no result waiting"):
        services.confirm_table_result(tournament, cast["alice"], pairing.pk)
    services.report_pairing_result(
        pairing, pairing.player_a, result="won", score_for=210, score_against=190
    )
    row = services.confirm_table_result(tournament, cast["alice"], pairing.pk)
    assert row.status == ResultStatus.CONFIRMED


def test_a_round_is_paired_again_only_while_none_of_its_results_is_in(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    play(cast, first)
    second = services.create_round(tournament, cast["alice"])
    # A drop after round 2 was paired: pair it again without the player.
    leaving = games_of(second)[0].player_a
    services.drop_player(tournament, cast["alice"], entrant(tournament, leaving).pk)
    again = services.repair_round(tournament, cast["alice"])
    assert again.number == 2 and leaving.username not in names_in(again)
    assert TournamentRound.objects.filter(tournament=tournament).count() == 2
    pairing = games_of(again)[0]
    services.report_pairing_result(
        pairing, pairing.player_a, result="won", score_for=1, score_against=0
    )
    with pytest.raises(LeagueError, match="can no longer be paired again"):
        services.repair_round(tournament, cast["alice"])


def test_the_number_of_rounds_and_the_final_standings(cast):
    tournament = day(cast, rounds_planned=1)
    first = services.create_round(tournament, cast["alice"])
    with pytest.raises(LeagueError, match="not over"):
        services.finish_tournament(tournament, cast["alice"])
    play(cast, first)
    with pytest.raises(LeagueError, match="1 rounds"):
        services.create_round(tournament, cast["alice"])
    services.finish_tournament(tournament, cast["alice"])
    tournament.refresh_from_db()
    view = services.tournament_view(tournament)
    assert view.final and not view.can_pair_next and not view.can_repair
    with pytest.raises(LeagueError, match="final"):
        services.add_adjustment(
            tournament, cast["alice"], entrant(tournament, cast["bob"]).pk, 1, "late"
        )
    page = signed_in(cast["bob"]).get(reverse("tournament", args=[tournament.pk]))
    assert b"The standings are final." in page.content


def test_the_round_clock_is_shown_on_every_phone(cast):
    tournament = day(cast, round_minutes=90)
    services.create_round(tournament, cast["alice"])
    current = services.start_clock(tournament, cast["alice"])
    assert current.ends_at - current.clock_started == timedelta(minutes=90)
    ends = timezone.localtime(current.ends_at).strftime("%H:%M")
    page = signed_in(cast["carol"]).get(reverse("tournament", args=[tournament.pk]))
    assert f"The round ends at {ends}".encode() in page.content


def test_bonus_and_penalty_points_with_their_reason(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    carol = entrant(tournament, cast["carol"]).pk
    services.add_adjustment(tournament, cast["alice"], carol, 2, "Best painted army")
    services.add_adjustment(tournament, cast["alice"], carol, -1, "Late list")
    with pytest.raises(LeagueError, match="Say why"):
        services.add_adjustment(tournament, cast["alice"], carol, 1, "  ")
    with pytest.raises(LeagueError, match="not 0"):
        services.add_adjustment(tournament, cast["alice"], carol, 0, "nothing")
    play(cast, first)
    line = next(x for x in shown_standings(tournament, 1) if x.player == "carol")
    assert line.points == rules_standings_points(tournament, "carol")
    page = signed_in(cast["bob"]).get(reverse("tournament", args=[tournament.pk]))
    assert b"Best painted army" in page.content and b"Late list" in page.content


def rules_standings_points(tournament, name):
    return next(x.points for x in rules_standings(tournament, 1) if x.player == name)


# --- the board ----------------------------------------------------------------------


def test_a_table_names_its_winner_in_the_pairing_s_order(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = games_of(first)[0]
    # The table's second player reports her win: the board still reads in the
    # pairing's order and names her.
    row = services.report_pairing_result(
        pairing, pairing.player_b, result="won", score_for=210, score_against=190
    )
    league_services.confirm_result(row, pairing.player_a)
    page = signed_in(cast["bob"]).get(reverse("tournament", args=[tournament.pk]))
    winner = pairing.player_b.username
    assert f"{winner} wins 210–190".encode() in page.content


def test_shared_ranks_read_with_an_equals_sign_and_every_deciding_column_shows(cast):
    tournament = day(cast, names=("bob", "carol", "dave", "erin"))
    first = services.create_round(tournament, cast["alice"])
    play(cast, first, score=(100, 100))
    page = signed_in(cast["bob"]).get(reverse("tournament", args=[tournament.pk]))
    assert b'<td class="rank">1=</td>' in page.content
    for head in (b">SoS<", b">ESoS<", b">+/\xe2\x88\x92<"):
        assert head in page.content


def test_standings_after_each_round_equal_rules_league(cast):
    tournament = day(cast, seed="s", bye_score=100, forfeit_score=120)
    for number in (1, 2, 3):
        round_ = services.create_round(tournament, cast["alice"])
        tables = games_of(round_)
        services.record_forfeit(
            tournament, cast["alice"], tables[0].pk, tables[0].player_b_id
        )
        for pairing in tables[1:]:
            row = services.report_pairing_result(
                pairing,
                pairing.player_a,
                result="lost",
                score_for=80,
                score_against=230,
            )
            league_services.confirm_result(row, pairing.player_b)
        services.add_adjustment(
            tournament,
            cast["alice"],
            entrant(tournament, tables[0].player_a).pk,
            1,
            "Fair play",
        )
        assert shown_standings(tournament, number) == rules_standings(
            tournament, number
        )


# --- who may do what, over HTTP -------------------------------------------------------


def signed_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_only_the_organiser_runs_the_field_and_bad_input_changes_nothing(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = games_of(first)[0]
    bob = signed_in(cast["bob"])
    for name, args in (
        ("tournament_repair", [tournament.pk]),
        ("tournament_finish", [tournament.pk]),
        ("tournament_clock", [tournament.pk]),
        ("tournament_drop", [tournament.pk]),
        ("table_result", [tournament.pk, pairing.pk]),
        ("table_forfeit", [tournament.pk, pairing.pk]),
    ):
        assert bob.post(reverse(name, args=args)).status_code == 403, name
    admin = signed_in(cast["alice"])
    answer = admin.post(
        reverse("table_result", args=[tournament.pk, pairing.pk]),
        {"outcome": "a", "score_a": "-5", "score_b": "0"},
        follow=True,
    )
    assert answer.status_code == 200 and LeagueResult.objects.count() == 0
    assert b"message-error" in answer.content or b"errorlist" in answer.content
    answer = admin.post(
        reverse("table_result", args=[tournament.pk, pairing.pk]),
        {"outcome": "a", "score_a": "210", "score_b": "190"},
        follow=True,
    )
    assert b"The table&#x27;s result counts." in answer.content
    winner = pairing.player_a.username
    assert f"{winner} wins 210–190".encode() in answer.content


def test_the_home_page_says_round_and_table_and_the_day_s_version_grows(cast):
    tournament = day(cast)
    before = tournament_version(tournament.pk)
    first = services.create_round(tournament, cast["alice"])
    assert tournament_version(tournament.pk) > before
    pairing = games_of(first)[0]
    home = signed_in(pairing.player_a).get(reverse("home"))
    assert f"Round 1: your table {pairing.table}".encode() in home.content
    fetched = signed_in(pairing.player_a).get(
        reverse("tournament_mine", args=[tournament.pk]), HTTP_HX_REQUEST="true"
    )
    assert b"Round 1: your table" in fetched.content and b"<html" not in fetched.content


def test_a_conceded_shared_game_counts_for_its_table_once_both_phones_agree(cast):
    from battles.models.armies import Owner
    from battles.models.games import SeatRole
    from battles.services.games import perform_action
    from tests.support.live import new_game, seat

    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = games_of(first)[0]
    game = new_game(Owner(user_id=pairing.player_a_id))
    seat(game, Owner(user_id=pairing.player_b_id), SeatRole.SIDE_B)
    perform_action(game, "b", {"type": "concede"})
    game.refresh_from_db()
    # The end-of-game form proposes the log's army points destroyed, the
    # conceding side losing, and the one open season.
    proposal = league_services.default_outcome(game)
    assert proposal["outcome"] == "a" and proposal["season"] == cast["season"].pk
    league_services.propose_game_outcome(
        game,
        "a",
        outcome=proposal["outcome"],
        score_a=proposal["score_a"],
        score_b=proposal["score_b"],
        season_id=proposal["season"],
    )
    pairing.refresh_from_db()
    assert pairing.result is None  # one phone is not enough
    league_services.confirm_game_outcome(game, "b")
    pairing.refresh_from_db()
    assert pairing.result.game == game and pairing.result.status == "confirmed"
    line = services.table_line(pairing)
    assert line.winner == pairing.player_a


def test_round_one_may_be_paired_by_club_rating(cast):
    # carol beat everyone this season: she tops the club rating, then bob.
    for loser in ("bob", "dave", "erin", "fanny"):
        row = league_services.report_result(
            cast["season"],
            cast["carol"],
            opponent_id=cast[loser].pk,
            played_on=TODAY,
            result="won",
            score_for=200,
            score_against=100,
        )
        league_services.confirm_result(row, cast[loser])
    for loser in ("dave", "erin", "fanny"):
        row = league_services.report_result(
            cast["season"],
            cast["bob"],
            opponent_id=cast[loser].pk,
            played_on=TODAY,
            result="won",
            score_for=200,
            score_against=100,
            second_game=True,
        )
        league_services.confirm_result(row, cast[loser])
    tournament = day(cast, first_round="rating", seed="ignored")
    first = services.create_round(tournament, cast["alice"])
    top = first.pairings.get(table=1)
    assert {top.player_a.username, top.player_b.username} == {"carol", "bob"}


def test_the_live_box_and_the_home_box_answer_htmx_and_whole_pages_alike(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = games_of(first)[0]
    client = signed_in(pairing.player_a)
    for name in ("tournament_tables", "tournament_mine"):
        url = reverse(name, args=[tournament.pk])
        fragment = client.get(url, HTTP_HX_REQUEST="true")
        assert fragment.status_code == 200 and b"<html" not in fragment.content
        assert "HX-Request" in fragment["Vary"]
        assert b"data-version" in fragment.content
    outsider = signed_in(cast["olga"])
    assert (
        outsider.get(reverse("tournament_tables", args=[tournament.pk])).status_code
        == 403
    )
    assert (
        outsider.get(reverse("tournament_stream", args=[tournament.pk])).status_code
        == 403
    )


def test_the_notice_board_names_each_table_s_winner(cast):
    tournament = day(cast)
    first = services.create_round(tournament, cast["alice"])
    pairing = games_of(first)[0]
    services.record_table_result(
        tournament, cast["alice"], pairing.pk, outcome="b", score_a=190, score_b=210
    )
    board = signed_in(cast["bob"]).get(
        reverse("tournament_print", args=[tournament.pk])
    )
    assert f"{pairing.player_b.username} wins 210–190".encode() in board.content


def test_the_day_s_page_costs_the_same_queries_whatever_its_rounds(cast):
    tournament = day(cast)
    client = signed_in(cast["bob"])
    url = reverse("tournament_tables", args=[tournament.pk])
    client.get(url)  # the session's first page records its device once
    counts = []
    for _number in range(3):
        round_ = services.create_round(tournament, cast["alice"])
        play(cast, round_)
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        counts.append(len(queries))
    assert counts[0] == counts[1] == counts[2], counts


def test_a_guest_without_an_account_plays_the_day_and_never_the_season(cast):
    tournament = day(cast, names=("bob", "carol", "dave"))
    guest = services.add_guest(tournament, cast["alice"], "  Marc   Dupont ")
    assert guest.guest and guest.user.username == "Marc Dupont (guest)"
    assert not guest.user.is_active and not guest.user.has_usable_password()
    first = services.create_round(tournament, cast["alice"])
    # Four players, no bye: the guest has a table.
    guest_table = first.pairings.get(Q(player_a=guest.user) | Q(player_b=guest.user))
    member = (
        guest_table.player_b
        if guest_table.player_a == guest.user
        else guest_table.player_a
    )
    # The member cannot report a guest's table: the organiser enters it.
    with pytest.raises(LeagueError, match="guest"):
        services.report_pairing_result(
            guest_table, member, result="won", score_for=1, score_against=0
        )
    entered = services.record_table_result(
        tournament, cast["alice"], guest_table.pk, outcome="a", score_a=200, score_b=100
    )
    assert entered is None and LeagueResult.objects.count() == 0  # never the season's
    assert (
        services.table_line(TournamentPairing.objects.get(pk=guest_table.pk)).winner
        == guest_table.player_a
    )
    assert shown_standings(tournament, 1) == rules_standings(tournament, 1)
    with pytest.raises(LeagueError, match="can no longer be paired again"):
        services.repair_round(tournament, cast["alice"])
    with pytest.raises(LeagueError, match="name"):
        services.add_guest(tournament, cast["alice"], "   ")
    second = services.add_guest(tournament, cast["alice"], "Marc Dupont")
    assert second.user.username == "Marc Dupont (guest) 2" and second.joined_round == 2
