"""The club league: clubs, invitations, seasons, results and their confirmation,
admin corrections, the standings page, and a finished game counted in one step."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from battles.league import services
from battles.league.models import league
from battles.league.services import ratings as club_ratings
from battles.league.services.errors import LeagueError
from battles.models.armies import Owner
from battles.models.fighters import Fighter
from battles.models.games import SeatRole
from battles.services.games import perform_action
from tests.support.club import club_in_season
from tests.support.live import new_game, seat

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

User = get_user_model()
TODAY = timezone.localdate()


@pytest.fixture
def cast():
    """An admin (alice), two members (bob, carol), an outsider (olga)."""
    return club_in_season(
        "alice", ("bob", "carol"), ("olga",), password="a long passphrase 1"
    )


def report(cast, reporter="bob", opponent="carol", result="won", **extra):
    values = {
        "opponent_id": cast[opponent].pk,
        "played_on": TODAY,
        "result": result,
        "score_for": 200,
        "score_against": 120,
        "people_for": "Griffons d'Akkylannie",
        "people_against": "Wolfen d'Yllia",
        **extra,
    }
    return services.report_result(cast["season"], cast[reporter], **values)


def saved():
    return (
        league.LeagueResult.objects.count(),
        league.ResultEntry.objects.count(),
        list(league.LeagueResult.objects.values_list("status", "outcome", "score_a")),
    )


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- results and their confirmation --------------------------------------------


def test_a_reported_result_counts_once_the_opponent_confirms_it(cast):
    result = report(cast)
    table = services.season_table(cast["season"])
    assert all(row.line.played == 0 for row in table.rows)
    services.confirm_result(result, cast["carol"])
    result.refresh_from_db()
    assert result.status == league.ResultStatus.CONFIRMED
    rows = {
        row.user.username: row.line
        for row in services.season_table(cast["season"]).rows
    }
    assert (rows["bob"].points, rows["bob"].won, rows["bob"].score_for) == (3, 1, 200)
    assert (rows["carol"].points, rows["carol"].lost) == (0, 1)
    actions = [entry.action for entry in services.result_history(result)]
    assert actions == ["reported", "confirmed"]


def test_a_disputed_result_does_not_count_until_an_admin_settles_it(cast):
    result = report(cast)
    services.dispute_result(result, cast["carol"], "It was a draw")
    rows = services.season_table(cast["season"]).rows
    assert all(row.line.played == 0 for row in rows)
    services.admin_correct(
        result,
        cast["alice"],
        "Photo of the table: it was a draw",
        played_on=TODAY,
        outcome="draw",
        score_a=150,
        score_b=150,
    )
    result.refresh_from_db()
    assert (result.status, result.outcome) == (league.ResultStatus.CONFIRMED, "draw")
    last = services.result_history(result)[-1]
    assert (last.action, last.actor, last.reason) == (
        "corrected",
        cast["alice"],
        "Photo of the table: it was a draw",
    )
    assert last.data["before"]["outcome"] == "a"


def test_an_admin_voids_a_result_with_a_reason_and_it_leaves_the_standings(cast):
    result = report(cast)
    services.confirm_result(result, cast["carol"])
    services.admin_void(result, cast["alice"], "Played with 500 points, not 400")
    rows = services.season_table(cast["season"]).rows
    assert all(row.line.played == 0 for row in rows)
    assert [e.action for e in services.result_history(result)][-1] == "voided"


def test_the_history_is_append_only(cast):
    entry = services.result_history(report(cast))[0]
    entry.reason = "rewritten"
    with pytest.raises(ValueError):
        entry.save()
    with pytest.raises(ValueError):
        entry.delete()


def test_results_waiting_for_me_are_those_reported_against_me(cast):
    result = report(cast)
    assert services.pending_for(cast["carol"]) == [result]
    assert services.pending_for(cast["bob"]) == []
    services.confirm_result(result, cast["carol"])
    assert services.pending_for(cast["carol"]) == []


# --- bad input: refused, nothing saved --------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        pytest.param(lambda c: report(c, opponent="olga"), id="opponent-outside"),
        pytest.param(
            lambda c: report(c, reporter="olga", opponent="bob"), id="reporter-outside"
        ),
        pytest.param(lambda c: report(c, opponent="bob"), id="against-oneself"),
        pytest.param(
            lambda c: report(c, played_on=c["season"].ends + timedelta(days=1)),
            id="date-after",
        ),
        pytest.param(
            lambda c: report(c, played_on=c["season"].starts - timedelta(days=1)),
            id="date-before",
        ),
        pytest.param(lambda c: report(c, result="crushed"), id="unknown-result"),
    ],
)
def test_a_report_that_cannot_count_is_refused_and_nothing_is_saved(cast, bad):
    before = saved()
    with pytest.raises(LeagueError):
        bad(cast)
    assert saved() == before


def test_a_reporter_cannot_confirm_their_own_report(cast):
    result = report(cast)
    before = saved()
    with pytest.raises(LeagueError, match="your opponent confirms it"):
        services.confirm_result(result, cast["bob"])
    assert saved() == before


def test_a_third_member_cannot_answer_for_the_opponent(cast):
    result = report(cast)
    before = saved()
    with pytest.raises(LeagueError):
        services.confirm_result(result, cast["alice"])
    assert saved() == before


@pytest.mark.parametrize("action", ["confirm", "void", "correct"])
def test_a_non_admin_cannot_confirm_void_or_correct(cast, action):
    result = report(cast)
    before = saved()
    with pytest.raises(LeagueError, match="Only an admin"):
        if action == "confirm":
            services.admin_confirm(result, cast["carol"], "why not")
        elif action == "void":
            services.admin_void(result, cast["bob"], "I lost")
        else:
            services.admin_correct(
                result,
                cast["carol"],
                "I won",
                played_on=TODAY,
                outcome="b",
                score_a=0,
                score_b=500,
            )
    assert saved() == before


def test_an_admin_action_needs_a_reason(cast):
    result = report(cast)
    before = saved()
    with pytest.raises(LeagueError, match="Say why"):
        services.admin_void(result, cast["alice"], "   ")
    assert saved() == before


def test_a_bad_report_over_http_says_why_next_to_the_field_and_saves_nothing(cast):
    client = client_for(cast["bob"])
    before = saved()
    url = reverse("result_report", args=[cast["season"].pk])

    def post(**fields):
        """A report of a game played after the season, with ``fields``."""
        data = {
            "opponent": cast["carol"].pk,
            "played_on": (cast["season"].ends + timedelta(days=3)).isoformat(),
            "result": "won",
            "score_for": "10",
            "score_against": "3",
            **fields,
        }
        return client.post(url, data)

    response = post(score_against="99999999999999999999")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Ensure this value is less than or equal to" in body
    assert saved() == before
    response = post(army_for="Griffons\x07")
    assert "invisible control characters" in response.content.decode()
    response = post()
    assert "The date is outside the season" in response.content.decode()
    assert saved() == before


# --- clubs, invitations, password-reset links ----------------------------------------


def test_an_invitation_seats_one_member_once(cast):
    issued = services.make_invitation(cast["club"], cast["alice"])
    assert (
        league.Invitation.objects.get().token_hash != issued.token
    )  # only the hash is kept
    services.accept_invitation(issued.token, cast["olga"])
    assert (
        services.membership(cast["club"], cast["olga"]).role == league.ClubRole.MEMBER
    )
    newcomer = User.objects.create_user("paul", password="another passphrase 2")
    members = league.Membership.objects.count()
    with pytest.raises(LeagueError, match="already been used"):
        services.accept_invitation(issued.token, newcomer)
    assert league.Membership.objects.count() == members


def test_an_expired_or_withdrawn_invitation_is_refused(cast):
    expired = services.make_invitation(cast["club"], cast["alice"])
    league.Invitation.objects.filter(pk=expired.row.pk).update(
        expires=timezone.now() - timedelta(minutes=1)
    )
    withdrawn = services.make_invitation(cast["club"], cast["alice"])
    services.revoke_invitation(cast["club"], cast["alice"], withdrawn.row.pk)
    members = league.Membership.objects.count()
    with pytest.raises(LeagueError, match="expired"):
        services.accept_invitation(expired.token, cast["olga"])
    with pytest.raises(LeagueError, match="withdrawn"):
        services.accept_invitation(withdrawn.token, cast["olga"])
    assert league.Membership.objects.count() == members
    response = Client().get(reverse("club_join", args=[expired.token]))
    assert response.status_code == 410
    assert response["Referrer-Policy"] == "no-referrer"


def test_only_an_admin_invites_removes_and_promotes(cast):
    with pytest.raises(LeagueError):
        services.make_invitation(cast["club"], cast["bob"])
    with pytest.raises(LeagueError):
        services.remove_member(cast["club"], cast["bob"], cast["carol"].pk)
    services.promote_admin(cast["club"], cast["alice"], cast["bob"].pk)
    services.remove_member(cast["club"], cast["bob"], cast["carol"].pk)
    assert not league.Membership.objects.filter(user=cast["carol"]).exists()


def test_the_last_admin_cannot_be_removed(cast):
    with pytest.raises(LeagueError, match="last admin"):
        services.remove_member(cast["club"], cast["alice"], cast["alice"].pk)


# --- the standings page ---------------------------------------------------------


def confirmed_results(cast, count):
    season, users = cast["season"], [cast["alice"], cast["bob"], cast["carol"]]
    rows = []
    for i in range(count):
        a, b = users[i % 3], users[(i + 1) % 3]
        rows.append(
            league.LeagueResult(
                season=season,
                player_a=a,
                player_b=b,
                played_on=TODAY,
                outcome=("a", "b", "draw")[i % 3],
                score_a=i,
                score_b=2 * i,
                people_a="Griffons",
                people_b="Wolfen",
                status=league.ResultStatus.CONFIRMED,
                reported_by=a,
            )
        )
    league.LeagueResult.objects.bulk_create(rows)


def test_the_standings_page_s_query_count_does_not_grow_with_the_results(cast):
    client = client_for(cast["bob"])
    url = reverse("season", args=[cast["season"].pk])
    confirmed_results(cast, 3)
    client.get(url)
    services._COMPUTED.clear()  # both measures recompute the standings
    club_ratings._HISTORIES.clear()  # and the club ratings
    with CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    confirmed_results(cast, 60)
    services._COMPUTED.clear()
    club_ratings._HISTORIES.clear()
    with CaptureQueriesContext(connection) as many:
        response = client.get(url)
    assert response.status_code == 200
    assert len(many) == len(few)


def test_the_standings_page_shows_shared_ranks_and_the_tie_breakers(cast):
    services.confirm_result(
        report(cast, "bob", "carol", "draw", score_for=100, score_against=100),
        cast["carol"],
    )
    response = client_for(cast["alice"]).get(
        reverse("season", args=[cast["season"].pk])
    )
    body = response.content.decode()
    assert "1=" in body  # bob and carol share first place
    assert "H2H" in body and "SoS" in body
    assert "provisional" in body


def test_the_standings_partial_is_a_fragment_for_htmx(cast):
    client = client_for(cast["bob"])
    url = reverse("season", args=[cast["season"].pk])
    full = client.get(url)
    part = client.get(url, HTTP_HX_REQUEST="true")
    assert "<html" in full.content.decode()
    assert "<html" not in part.content.decode()
    assert 'id="standings"' in part.content.decode()
    assert "HX-Request" in part["Vary"]


def test_the_public_link_shows_the_standings_without_an_account(cast):
    services.confirm_result(report(cast), cast["carol"])
    season = cast["season"]
    response = Client().get(reverse("season_public", args=[season.public_key]))
    assert response.status_code == 200
    assert "bob" in response.content.decode()
    qr = Client().get(reverse("season_public_qr", args=[season.public_key]))
    assert qr["Content-Type"] == "image/svg+xml"
    old = season.public_key
    services.renew_public_link(season, cast["alice"])
    assert Client().get(reverse("season_public", args=[old])).status_code == 404


def test_the_player_page_shows_history_opponents_peoples_and_rating_changes(cast):
    for _ in range(2):
        services.confirm_result(report(cast, second_game=True), cast["carol"])
    page = services.player_page(cast["season"], cast["bob"])
    assert [h["outcome"] for h in page.history] == ["won", "won"]
    assert page.opponents[0]["won"] == 2
    assert page.peoples == [("Griffons d'Akkylannie", 2)]
    assert page.provisional and page.rating.mu > 25
    assert all(h["change"] > 0 for h in page.history)
    response = client_for(cast["carol"]).get(
        reverse("season_player", args=[cast["season"].pk, cast["bob"].pk])
    )
    assert response.status_code == 200
    assert "<polyline" in response.content.decode()


def test_people_statistics_count_games_wins_and_match_ups(cast):
    services.confirm_result(report(cast), cast["carol"])
    lost = report(
        cast, result="lost", score_for=120, score_against=200, second_game=True
    )
    services.confirm_result(lost, cast["carol"])
    stats = services.people_statistics(cast["season"])
    rows = {row["people"]: row for row in stats["rows"]}
    griffons, wolfen = rows["Griffons d'Akkylannie"], rows["Wolfen d'Yllia"]
    assert griffons["games"] == 2 and griffons["wins"] == 1
    assert wolfen["win_rate"] == 0.5
    assert stats["table"][0]["cells"][1] == {"games": 2, "wins": 1}


def test_a_round_robin_season_shows_the_circle_method_schedule(cast):
    league.Season.objects.filter(pk=cast["season"].pk).update(pairing="round_robin")
    response = client_for(cast["bob"]).get(
        reverse("season_schedule", args=[cast["season"].pk])
    )
    body = response.content.decode()
    assert body.count("Round ") >= 3


# --- a finished game's result ------------------------------------------------------


def finished_game(cast, a="bob", b="carol"):
    game = new_game(Owner(user_id=cast[a].pk))
    seat(game, Owner(user_id=cast[b].pk), SeatRole.SIDE_B)
    perform_action(game, "b", {"type": "concede"})
    game.refresh_from_db()
    return game


def test_army_points_destroyed_counts_each_eliminated_fighter_s_share_of_its_card(cast):
    game = finished_game(cast)
    state = game.state
    army_b = game.army_b
    first = army_b.cards.select_related("card").first()
    card_id = next(
        cid
        for cid in state["sides"]["b"]["cards"]
        if state["cards"][cid]["name"] == first.card.name
    )
    fighters = state["cards"][card_id]["fighters"]
    for fighter in fighters[:1]:
        state["fighters"][fighter]["eliminated"] = True
    game.state = state
    game.save(update_fields=["state"])
    Fighter.objects.filter(game=game, key__in=fighters[:1]).update(eliminated=True)
    same_name = sum(
        ac.fighters
        for ac in army_b.cards.select_related("card")
        if ac.card.name == first.card.name
    )
    same_points = sum(
        ac.points or 0
        for ac in army_b.cards.select_related("card")
        if ac.card.name == first.card.name
    )
    assert services.army_points_destroyed(game) == {
        "a": same_points // same_name,
        "b": 0,
    }


def test_a_finished_shared_game_becomes_a_confirmed_result_in_one_step(cast):
    game = finished_game(cast)
    season = cast["season"]
    assert services.seasons_for_game(game) == [season]
    services.propose_game_outcome(
        game, "a", outcome="a", score_a=120, score_b=40, season_id=season.pk
    )
    assert league.LeagueResult.objects.count() == 0
    agreed = services.confirm_game_outcome(game, "b")
    result = league.LeagueResult.objects.get()
    assert agreed.settled and agreed.result == result
    assert (result.status, result.player_a, result.player_b) == (
        league.ResultStatus.CONFIRMED,
        cast["bob"],
        cast["carol"],
    )
    assert (result.outcome, result.score_a, result.score_b, result.game) == (
        "a",
        120,
        40,
        game,
    )
    assert [e.action for e in services.result_history(result)] == ["from_game"]
    rows = {row.user.username: row.line for row in services.season_table(season).rows}
    assert rows["bob"].points == 3


def test_the_same_game_cannot_be_counted_twice(cast):
    game = finished_game(cast)
    season = cast["season"]
    services.propose_game_outcome(
        game, "a", outcome="a", score_a=1, score_b=0, season_id=season.pk
    )
    services.confirm_game_outcome(game, "b")
    before = saved()
    with pytest.raises(LeagueError):
        services.propose_game_outcome(
            game, "b", outcome="b", score_a=0, score_b=1, season_id=season.pk
        )
    league.GameOutcome.objects.filter(game=game).update(agreed_b=False)
    with pytest.raises(LeagueError, match="already counts"):
        services.confirm_game_outcome(game, "b")
    assert saved() == before


def test_a_side_cannot_confirm_its_own_proposal_and_outsiders_get_no_season(cast):
    game = finished_game(cast)
    services.propose_game_outcome(game, "a", outcome="draw", score_a=0, score_b=0)
    with pytest.raises(LeagueError, match="the other player confirms it"):
        services.confirm_game_outcome(game, "a")
    other = finished_game(cast, a="bob", b="olga")
    assert services.seasons_for_game(other) == []
    with pytest.raises(LeagueError, match="members of this open season"):
        services.propose_game_outcome(
            other, "a", outcome="a", score_a=1, score_b=0, season_id=cast["season"].pk
        )
    assert league.LeagueResult.objects.count() == 0


def test_the_end_of_game_screen_offers_the_season_and_both_phones_confirm_over_http(
    cast,
):
    game = finished_game(cast)
    bob, carol = client_for(cast["bob"]), client_for(cast["carol"])
    url = reverse("game_outcome", args=[game.public_id])
    page = bob.get(url).content.decode()
    assert "Saison 2026" in page and "Army points destroyed" in page
    bob.post(
        url,
        {"outcome": "a", "score_a": "80", "score_b": "0", "season": cast["season"].pk},
        HTTP_HX_REQUEST="true",
    )
    assert "Confirm this result" in carol.get(url).content.decode()
    response = carol.post(
        reverse("game_outcome_confirm", args=[game.public_id]), HTTP_HX_REQUEST="true"
    )
    assert "Both players agreed" in response.content.decode()
    assert league.LeagueResult.objects.get().status == league.ResultStatus.CONFIRMED


def test_an_unfinished_game_has_no_result_yet(cast):
    game = new_game(Owner(user_id=cast["bob"].pk))
    with pytest.raises(LeagueError, match="not finished"):
        services.propose_game_outcome(game, "a", outcome="a", score_a=1, score_b=0)
    assert not league.GameOutcome.objects.exists()


def test_a_player_s_luck_over_the_season_comes_from_the_odds_logged_in_their_games(
    cast,
):
    from battles.services.games import game_summary
    from tests.support.live import play

    game = new_game(Owner(user_id=cast["bob"].pk))
    seat(game, Owner(user_id=cast["carol"].pk), SeatRole.SIDE_B)
    play(game, 40, seed=5)
    game.refresh_from_db()
    if not game.finished:
        perform_action(game, "b", {"type": "concede"})
        game.refresh_from_db()
    services.propose_game_outcome(
        game, "a", outcome="a", score_a=10, score_b=0, season_id=cast["season"].pk
    )
    services.confirm_game_outcome(game, "b")
    expected = game_summary(game)["sides"]
    for user, side in ((cast["bob"], "a"), (cast["carol"], "b")):
        luck = services.player_page(cast["season"], user).luck
        assert len(luck) == 1
        assert luck[0]["tests"] == expected[side]["tests"] > 0
        assert luck[0]["successes"] == expected[side]["successes"]
        assert luck[0]["expected"] == pytest.approx(expected[side]["expected"])
        assert luck[0]["season_luck"] == pytest.approx(expected[side]["luck"])


@pytest.fixture
def email_configured(settings):
    """The site's URLs as they are with EMAIL_HOST set: Django's reset views on."""
    settings.PASSWORD_RESET_BY_EMAIL = True
    settings.ROOT_URLCONF = "tests.battles.email_urls"


def test_without_e_mail_settings_there_is_no_reset_by_e_mail(cast):
    assert Client().get("/accounts/password/reset/").status_code == 404


def test_django_s_password_reset_views_work_when_e_mail_is_configured(
    cast, email_configured, mailoutbox
):
    cast["bob"].email = "bob@example.org"
    cast["bob"].save()
    client = Client()
    assert "Forgot your password?" in client.get(reverse("login")).content.decode()
    response = client.post(reverse("password_reset"), {"email": "bob@example.org"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    link = next(
        line for line in mailoutbox[0].body.splitlines() if "/password/reset/" in line
    )
    path = link.split("testserver", 1)[1]
    form_page = client.get(path, follow=True)
    assert form_page.status_code == 200
    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "from the e-mail 99", "new_password2": "from the e-mail 99"},
    )
    assert response.status_code == 302
    cast["bob"].refresh_from_db()
    assert cast["bob"].check_password("from the e-mail 99")


def test_the_rating_curve_s_coordinates_are_never_localised(cast, settings):
    from battles.league.presenters import rating_curve_points

    curve = rating_curve_points([0.0, 3.5, -2.25])
    assert "," not in curve["zero"]
    services.confirm_result(report(cast), cast["carol"])
    client = client_for(cast["carol"])
    client.cookies["django_language"] = "fr"
    response = client.get(
        reverse("season_player", args=[cast["season"].pk, cast["bob"].pk]),
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    body = response.content.decode()
    svg = body[body.index("<svg") : body.index("</svg>")]
    assert 'y1="' in svg
    y1 = svg.split('y1="', 1)[1].split('"', 1)[0]
    assert "," not in y1
