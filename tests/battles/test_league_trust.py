"""No admin above the rules, each hole tried by the one who would gain:
taking over a member's account (no admin sets a password), confirming or voiding
one's own game alone, removing the founder; and results that make sense."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from battles.league import services
from battles.league.models.league import (
    Invitation,
    LeagueResult,
    Membership,
    ResultStatus,
)
from battles.league.services.errors import LeagueError
from battles.services.account_security import new_recovery_codes
from tests.support.club import club_in_season

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

User = get_user_model()
TODAY = timezone.localdate()
NEW = {"new_password1": "brand new words 77", "new_password2": "brand new words 77"}
OLD = "a long passphrase 1"


@pytest.fixture
def cast():
    """alice founded the club; mallory is an admin promoted a minute ago;
    bob and carol are members; olga is not in the club."""
    cast = club_in_season("alice", ("mallory", "bob", "carol"), ("olga",), password=OLD)
    services.promote_admin(cast["club"], cast["alice"], cast["mallory"].pk)
    return cast


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def report(cast, reporter="bob", opponent="carol", **extra) -> LeagueResult:
    values = {
        "opponent_id": cast[opponent].pk,
        "played_on": TODAY,
        "result": "won",
        "score_for": 200,
        "score_against": 120,
        **extra,
    }
    return services.report_result(cast["season"], cast[reporter], **values)


# --- no admin sets anyone's password (issue #29) -----------------------------------


def test_no_admin_power_over_a_password_is_left(cast):
    """The password links are gone: no service, no URL, no button."""
    assert not hasattr(services, "issue_password_reset")
    assert not hasattr(services, "use_password_reset")
    with pytest.raises(NoReverseMatch):
        reverse("password_reset_link", args=["x" * 43])
    assert (
        signed_in(cast["mallory"]).get("/clubs/password/" + "x" * 43).status_code == 404
    )
    client = signed_in(cast["mallory"])
    page = client.get(reverse("club_admin", args=[cast["club"].pk])).content.decode()
    assert "Password link" not in page and "/reset" not in page
    url = reverse("club_member_action", args=[cast["club"].pk, cast["bob"].pk, "reset"])
    assert client.post(url).status_code == 404
    cast["bob"].refresh_from_db()
    assert cast["bob"].check_password(OLD)


def test_the_borrowed_phone_gives_an_admin_no_way_into_a_member_s_account(cast):
    """Bob signed in once on mallory's phone, then signed out: that phone has
    nothing left to open bob's account with, and bob's recovery codes are
    his alone."""
    phone = Client()
    phone.post(reverse("login"), {"username": "bob", "password": OLD})
    phone.post(reverse("logout"))
    # Mallory, on that phone, tries the account page and a recovery: refused.
    assert phone.get(reverse("account")).status_code == 302
    phone.force_login(cast["mallory"])
    codes = new_recovery_codes(cast["mallory"])  # his own codes do not open bob's
    answer = phone.post(
        reverse("recover"),
        {"username": "bob", "code": codes[0], **NEW},
    )
    assert "do not match an unused code" in answer.content.decode()
    cast["bob"].refresh_from_db()
    assert cast["bob"].check_password(OLD)


# --- no admin confirms, corrects or voids his own game alone -------------------------


def test_an_admin_who_played_cannot_confirm_his_own_result_alone(cast):
    result = report(
        cast, reporter="mallory", opponent="bob", score_for=300, score_against=50
    )
    services.admin_confirm(result, cast["mallory"], "I won, trust me")
    result.refresh_from_db()
    assert result.status == ResultStatus.PENDING
    assert result.proposal["action"] == "confirm"
    rows = services.season_table(cast["season"]).rows
    assert all(row.line.played == 0 for row in rows)
    with pytest.raises(LeagueError, match="not the admin who proposed"):
        services.approve_proposal(result, cast["mallory"])
    # The opponent sees it waiting for him, and agrees: it counts.
    assert result in services.pending_for(cast["bob"])
    services.approve_proposal(result, cast["bob"])
    result.refresh_from_db()
    assert (result.status, result.proposal) == (ResultStatus.CONFIRMED, None)


def test_an_admin_who_played_cannot_void_or_correct_his_game_alone(cast):
    result = report(cast, reporter="bob", opponent="mallory")
    services.confirm_result(result, cast["mallory"])
    services.admin_void(result, cast["mallory"], "Bob cheated")
    services.admin_correct(
        result,
        cast["mallory"],
        "It was my win",
        played_on=TODAY,
        outcome="b",
        score_a=0,
        score_b=400,
    )
    result.refresh_from_db()
    assert (result.status, result.outcome) == (ResultStatus.CONFIRMED, "a")
    assert result.proposal["action"] == "correct"
    # No other admin answers it: only the opponent, bob, who refuses it.
    with pytest.raises(LeagueError, match="Only the opponent"):
        services.approve_proposal(result, cast["alice"])
    services.refuse_proposal(result, cast["bob"], "The table photo says otherwise")
    result.refresh_from_db()
    assert (result.status, result.outcome, result.proposal) == (
        ResultStatus.CONFIRMED,
        "a",
        None,
    )


def test_over_http_an_admins_own_confirm_waits_and_says_so(cast):
    result = report(cast, reporter="mallory", opponent="bob")
    client = signed_in(cast["mallory"])
    page = client.get(reverse("result", args=[result.pk])).content.decode()
    assert "You played this game: what you do here waits" in page
    url = reverse("result_admin", args=[result.pk, "confirm"])
    response = client.post(url, {"reason": "mine"}, follow=True)
    assert "your change waits for your opponent&#x27;s agreement" in (
        response.content.decode()
    )
    result.refresh_from_db()
    assert result.status == ResultStatus.PENDING
    bob_page = signed_in(cast["bob"]).get(reverse("result", args=[result.pk]))
    assert "who played this game, asks to confirm it" in bob_page.content.decode()
    signed_in(cast["bob"]).post(reverse("result_answer", args=[result.pk, "approve"]))
    result.refresh_from_db()
    assert result.status == ResultStatus.CONFIRMED


def test_an_admin_who_did_not_play_settles_at_once(cast):
    result = report(cast)
    services.admin_void(result, cast["mallory"], "Never played")
    result.refresh_from_db()
    assert result.status == ResultStatus.VOID and result.proposal is None


# --- removing members ---------------------------------------------------------------


def test_a_newer_admin_cannot_remove_the_founder_or_an_older_admin(cast):
    with pytest.raises(LeagueError, match="founder"):
        services.remove_member(cast["club"], cast["mallory"], cast["alice"].pk)
    services.promote_admin(cast["club"], cast["alice"], cast["bob"].pk)
    # mallory joined before bob: bob, the newer admin, cannot remove him.
    with pytest.raises(LeagueError, match="older admin"):
        services.remove_member(cast["club"], cast["bob"], cast["mallory"].pk)
    assert Membership.objects.filter(club=cast["club"]).count() == 4
    # Over HTTP too: nothing changes.
    client = signed_in(cast["mallory"])
    url = reverse(
        "club_member_action", args=[cast["club"].pk, cast["alice"].pk, "remove"]
    )
    client.post(url, {"confirmed": "yes"})
    assert Membership.objects.filter(user=cast["alice"]).exists()


def test_the_founder_removes_an_admin_and_the_last_admin_stays(cast):
    services.remove_member(cast["club"], cast["alice"], cast["mallory"].pk)
    with pytest.raises(LeagueError, match="last admin"):
        services.remove_member(cast["club"], cast["alice"], cast["alice"].pk)


def test_removing_asks_first_then_results_stay_and_the_member_is_restored(cast):
    result = report(cast)
    services.confirm_result(result, cast["carol"])
    client = signed_in(cast["mallory"])
    url = reverse(
        "club_member_action", args=[cast["club"].pk, cast["bob"].pk, "remove"]
    )
    page = client.post(url)
    assert page.status_code == 200
    assert "Remove bob from Les Griffons de Lyon?" in page.content.decode()
    assert Membership.objects.filter(user=cast["bob"]).exists()
    client.post(url, {"confirmed": "yes"})
    assert not Membership.objects.filter(user=cast["bob"]).exists()
    rows = {r.user.username: r.line for r in services.season_table(cast["season"]).rows}
    assert rows["bob"].won == 1  # his results stay
    admin_page = client.get(reverse("club_admin", args=[cast["club"].pk]))
    assert "Removed members" in admin_page.content.decode()
    restore = reverse(
        "club_member_action", args=[cast["club"].pk, cast["bob"].pk, "restore"]
    )
    client.post(restore)
    assert Membership.objects.get(user=cast["bob"]).role == "member"
    told = signed_in(cast["bob"]).get(reverse("club", args=[cast["club"].pk]))
    assert "mallory removed you from" in told.content.decode()


# --- results that make sense ---------------------------------------------------------


def test_no_result_in_the_future(cast):
    with pytest.raises(LeagueError, match="future"):
        report(cast, played_on=TODAY + timedelta(days=1))


@pytest.mark.parametrize(
    ("result", "score_for", "score_against"), [("won", 100, 200), ("lost", 300, 10)]
)
def test_a_win_is_never_scored_below_the_loser(cast, result, score_for, score_against):
    with pytest.raises(LeagueError, match="winner's score"):
        report(cast, result=result, score_for=score_for, score_against=score_against)
    assert not LeagueResult.objects.exists()


def test_a_second_report_of_the_same_pair_and_day_is_refused_unless_a_second_game(
    cast,
):
    first = report(cast)
    assert not services.is_second_game(first)
    with pytest.raises(LeagueError, match="already have a result on this day"):
        report(
            cast,
            reporter="carol",
            opponent="bob",
            result="lost",
            score_for=120,
            score_against=200,
        )
    second = report(cast, second_game=True)
    assert services.is_second_game(second)
    page = signed_in(cast["carol"]).get(reverse("result", args=[second.pk]))
    assert "second game of these two players" in page.content.decode()


def test_a_report_sent_twice_with_one_tap_key_makes_one_result(cast):
    first = report(cast, tap_key="k1")
    again = report(cast, tap_key="k1")
    assert first.pk == again.pk
    assert LeagueResult.objects.count() == 1


def test_the_reporter_withdraws_a_pending_report_and_only_he(cast):
    result = report(cast)
    with pytest.raises(LeagueError, match="Only whoever reported"):
        services.withdraw_result(result, cast["carol"])
    services.withdraw_result(result, cast["bob"])
    result.refresh_from_db()
    assert result.status == ResultStatus.WITHDRAWN
    report(cast)  # the same day again: the withdrawn one does not count


def test_a_dispute_carries_a_reason_and_a_counter_score_and_admins_see_it(cast):
    result = report(cast)
    with pytest.raises(LeagueError, match="Say what is wrong"):
        services.dispute_result(result, cast["carol"], "  ")
    services.dispute_result(
        result, cast["carol"], "I won", outcome="b", score_a=50, score_b=210
    )
    entry = services.result_history(result)[-1]
    assert entry.reason == "I won"
    assert entry.data["counter"] == {"outcome": "b", "score_a": 50, "score_b": 210}
    home = signed_in(cast["alice"]).get(reverse("home")).content.decode()
    assert "Disputes to settle" in home
    page = signed_in(cast["alice"]).get(reverse("result", args=[result.pk]))
    assert "as the opponent saw it: carol won 50–210" in page.content.decode()
    assert result not in services.disputes_to_settle(cast["bob"])


# --- in-app games ------------------------------------------------------------------


def finished_game(cast, a="bob", b="carol"):
    from battles.models.armies import Owner
    from battles.models.games import SeatRole
    from battles.services.games import perform_action
    from tests.support.live import new_game, seat

    game = new_game(Owner(user_id=cast[a].pk))
    seat(game, Owner(user_id=cast[b].pk), SeatRole.SIDE_B)
    perform_action(game, "b", {"type": "concede"})
    game.refresh_from_db()
    return game


def test_a_finished_game_between_members_of_one_open_season_preselects_it(cast):
    game = finished_game(cast)
    assert services.default_outcome(game)["season"] == cast["season"].pk
    page = signed_in(cast["bob"]).get(reverse("game_outcome", args=[game.public_id]))
    body = page.content.decode()
    assert f'<option value="{cast["season"].pk}" selected>' in body
    assert "bob won" in body or "won" in body


def test_a_proposal_that_differs_from_the_log_is_flagged_to_both(cast):
    game = finished_game(cast)
    destroyed = services.army_points_destroyed(game)
    services.propose_game_outcome(
        game,
        "a",
        outcome="a",
        score_a=destroyed["a"] + 250,
        score_b=destroyed["b"],
        season_id=cast["season"].pk,
    )
    url = reverse("game_outcome", args=[game.public_id])
    for who in ("bob", "carol"):
        body = signed_in(cast[who]).get(url).content.decode()
        assert "differs from the log" in body
    services.confirm_game_outcome(game, "b")
    result = LeagueResult.objects.get(game=game)
    assert services.result_history(result)[0].data["differs_from_log"] is True
    page = signed_in(cast["carol"]).get(reverse("result", args=[result.pk]))
    assert "not the log&#x27;s army points destroyed" in page.content.decode()


def test_a_game_agreed_without_a_season_is_counted_afterwards_when_both_confirm(cast):
    game = finished_game(cast)
    services.propose_game_outcome(game, "a", outcome="a", score_a=10, score_b=0)
    services.confirm_game_outcome(game, "b")
    assert not LeagueResult.objects.exists()
    # Later: counted for the season, once both confirm again.
    services.propose_game_outcome(
        game, "b", outcome="a", score_a=10, score_b=0, season_id=cast["season"].pk
    )
    assert not LeagueResult.objects.exists()
    services.confirm_game_outcome(game, "a")
    result = LeagueResult.objects.get(game=game)
    assert (result.status, result.score_a) == (ResultStatus.CONFIRMED, 10)
    with pytest.raises(LeagueError, match="already (agreed|counts)"):
        services.propose_game_outcome(
            game, "a", outcome="b", score_a=0, score_b=10, season_id=cast["season"].pk
        )


def test_a_game_outcome_win_is_never_scored_below_the_loser(cast):
    game = finished_game(cast)
    with pytest.raises(LeagueError, match="winner's score"):
        services.propose_game_outcome(game, "a", outcome="a", score_a=100, score_b=200)


def test_english_dates_are_day_first(cast):
    result = report(cast, played_on=cast["season"].starts)
    client = signed_in(cast["bob"])
    page = client.get(
        reverse("result", args=[result.pk]), HTTP_ACCEPT_LANGUAGE="en-GB"
    ).content.decode()
    day = cast["season"].starts
    assert f"{day.day} {day.strftime('%B')} {day.year}" in page
    assert day.strftime("%B %-d, %Y") not in page


# --- the smaller points ------------------------------------------------------------


def test_an_invitation_link_shows_on_every_admin_device_and_says_who_used_it(cast):
    signed_in(cast["alice"]).post(reverse("club_invite", args=[cast["club"].pk]))
    other_device = signed_in(cast["mallory"])  # another admin, another phone
    page = other_device.get(reverse("club_admin", args=[cast["club"].pk]))
    body = page.content.decode()
    link = body.split('class="share-url" type="text" readonly value="')[1].split('"')[0]
    assert "/clubs/join/" in link
    token = link.rsplit("/", 1)[1]
    assert token not in str(list(Invitation.objects.values()))  # derived, not kept
    qr = other_device.get(
        reverse(
            "club_invite_qr",
            args=[cast["club"].pk, cast["club"].invitations.get().pk],
        )
    )
    assert qr.status_code == 200
    services.accept_invitation(token, cast["olga"])
    body = other_device.get(reverse("club_admin", args=[cast["club"].pk])).content
    assert "Used by olga on" in body.decode()


def test_public_standings_say_noindex_and_an_admin_switches_them_off(cast):
    season = cast["season"]
    public = reverse("season_public", args=[season.public_key])
    response = Client().get(public)
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert (
        '<meta name="robots" content="noindex, nofollow">' in response.content.decode()
    )
    switch = reverse("season_public_switch", args=[season.pk])
    signed_in(cast["bob"]).post(switch)  # a member cannot
    assert Client().get(public).status_code == 200
    signed_in(cast["alice"]).post(switch)
    assert Client().get(public).status_code == 404
    assert Client().get(public.rstrip("/") + ".svg").status_code == 404
    share = signed_in(cast["alice"]).get(reverse("season_share", args=[season.pk]))
    assert "The public standings are off" in share.content.decode()
    signed_in(cast["alice"]).post(switch, {"public": "on"})
    assert Client().get(public).status_code == 200


def test_the_printed_page_has_the_public_standings_qr(cast):
    page = signed_in(cast["bob"]).get(reverse("season_print", args=[cast["season"].pk]))
    body = page.content.decode()
    assert reverse("season_public_qr", args=[cast["season"].public_key]) in body
    assert "league-print-qr" in body


def test_club_pages_are_not_listed_to_anonymous_visitors(cast):
    response = Client().get(reverse("club", args=[cast["club"].pk]))
    assert response.status_code == 302 and "/accounts/login/" in response.url
    missing = Client().get(reverse("club", args=[cast["club"].pk + 1]))
    assert missing.status_code == 302  # the same answer: nothing to count


def test_forms_say_the_players_names(cast):
    result = report(cast)
    services.dispute_result(result, cast["carol"], "no")
    page = signed_in(cast["alice"]).get(reverse("result", args=[result.pk]))
    body = page.content.decode()
    assert "Score of bob" in body and "Score of carol" in body
    assert "Player A" not in body


def test_seniority_counts_from_becoming_an_admin_not_from_joining(cast):
    # carol joined long ago; olga joins now and is made admin before carol.
    Membership.objects.create(club=cast["club"], user=cast["olga"])
    services.promote_admin(cast["club"], cast["alice"], cast["olga"].pk)
    Membership.objects.filter(user=cast["carol"]).update(
        joined=timezone.now() - timedelta(days=900)
    )
    services.promote_admin(cast["club"], cast["alice"], cast["carol"].pk)
    with pytest.raises(LeagueError, match="older admin"):
        services.remove_member(cast["club"], cast["carol"], cast["olga"].pk)
    services.remove_member(cast["club"], cast["olga"], cast["carol"].pk)


def test_the_home_page_opens_the_waiting_stream_for_club_members_only(cast):
    stream = reverse("league_waiting_stream")
    assert stream in signed_in(cast["bob"]).get("/").content.decode()
    assert stream not in signed_in(cast["olga"]).get("/").content.decode()
    assert stream not in Client().get("/").content.decode()
