"""A rogue admin with a second account of his own (issue #29), tried as the
one who would gain: no takeover of a member's account (the borrowed phone),
no self-approval (his sock puppet, promoted after the result), no silent
change (both players told, either disputes), and the audit names the actor."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.league import services
from battles.league.models.league import (
    AuditAction,
    ClubAudit,
    LeagueResult,
    ResultStatus,
)
from battles.league.services import seasons
from battles.league.services.errors import LeagueError
from tests.support.club import club_in_season

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

User = get_user_model()
TODAY = timezone.localdate()
PASSWORD = "a long passphrase 1"


@pytest.fixture
def cast():
    """alice founded the club; mallory is an admin; bob and carol are members;
    "malo" is mallory's second account, not yet in the club."""
    cast = club_in_season(
        "alice", ("mallory", "bob", "carol"), ("malo",), password=PASSWORD
    )
    services.promote_admin(cast["club"], cast["alice"], cast["mallory"].pk)
    return cast


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def report(cast, reporter, opponent, result="won", score_for=200, score_against=120):
    return services.report_result(
        cast["season"],
        cast[reporter],
        opponent_id=cast[opponent].pk,
        played_on=TODAY,
        result=result,
        score_for=score_for,
        score_against=score_against,
    )


def sock_puppet(cast):
    """mallory invites his second account and promotes it."""
    issued = services.make_invitation(cast["club"], cast["mallory"])
    services.accept_invitation(issued.token, cast["malo"])
    services.promote_admin(cast["club"], cast["mallory"], cast["malo"].pk)
    return cast["malo"]


def audit_rows(cast, action):
    return list(ClubAudit.objects.filter(club=cast["club"], action=action))


# --- no takeover ------------------------------------------------------------------


def test_the_borrowed_phone_cannot_take_bob_over_and_bob_signs_it_out(cast):
    borrowed = Client()  # mallory's phone, on which bob signs in at a club night
    borrowed.post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert borrowed.get(reverse("account")).status_code == 200
    # From his own phone, bob signs every other device out.
    own = Client()
    own.post(reverse("login"), {"username": "bob", "password": PASSWORD})
    page = own.get(reverse("account")).content.decode()
    assert page.count("<li>") >= 2  # two devices listed
    own.post(reverse("account"), {"form": "others"})
    assert borrowed.get(reverse("account")).status_code == 302
    # Nothing on the club's side sets a password: no link, no action.
    admin = signed_in(cast["mallory"])
    for action in ("reset", "password"):
        url = reverse(
            "club_member_action", args=[cast["club"].pk, cast["bob"].pk, action]
        )
        assert admin.post(url).status_code == 404
    # The recovery needs bob's own codes: mallory's do not open it.
    refused = borrowed.post(
        reverse("recover"),
        {
            "username": "bob",
            "code": "ABCDE-FGHJK",
            "new_password1": "stolen words 123",
            "new_password2": "stolen words 123",
        },
    )
    assert "do not match an unused code" in refused.content.decode()
    cast["bob"].refresh_from_db()
    assert cast["bob"].check_password(PASSWORD)


# --- no self-approval ----------------------------------------------------------------


def test_his_sock_puppet_promoted_after_the_result_has_no_say(cast):
    lost = report(cast, "bob", "mallory", score_for=300, score_against=50)
    services.confirm_result(lost, cast["mallory"])
    puppet = sock_puppet(cast)
    # mallory asks to turn his loss into a win: it waits for bob.
    services.admin_correct(
        lost,
        cast["mallory"],
        "Scoring error",
        played_on=TODAY,
        outcome="b",
        score_a=50,
        score_b=300,
    )
    lost.refresh_from_db()
    assert lost.outcome == "a" and lost.proposal["action"] == "correct"
    # The puppet cannot agree for bob, nor correct it himself, nor void it.
    with pytest.raises(LeagueError, match="Only the opponent"):
        services.approve_proposal(lost, puppet)
    with pytest.raises(LeagueError, match="became an admin after"):
        services.admin_correct(
            lost,
            puppet,
            "I saw it",
            played_on=TODAY,
            outcome="b",
            score_a=50,
            score_b=300,
        )
    with pytest.raises(LeagueError, match="became an admin after"):
        services.admin_void(lost, puppet, "Never played")
    # Over HTTP too: no admin form, the page says why, nothing changes.
    client = signed_in(puppet)
    page = client.get(reverse("result", args=[lost.pk])).content.decode()
    assert "you have no say over it" in page
    assert reverse("result_admin", args=[lost.pk, "correct"]) not in page
    client.post(reverse("result_answer", args=[lost.pk, "approve"]))
    client.post(reverse("result_admin", args=[lost.pk, "void"]), {"reason": "void it"})
    lost.refresh_from_db()
    assert (lost.status, lost.outcome) == (ResultStatus.CONFIRMED, "a")
    # Not even another, older admin agrees for bob: the result is bob's.
    with pytest.raises(LeagueError, match="Only the opponent"):
        services.approve_proposal(lost, cast["alice"])
    # bob refuses it.
    services.refuse_proposal(lost, cast["bob"], "I won, the photo shows it")
    lost.refresh_from_db()
    assert (lost.outcome, lost.proposal) == ("a", None)


def test_an_admin_promoted_before_the_result_still_settles_it(cast):
    result = report(cast, "bob", "carol")
    services.dispute_result(result, cast["carol"], "Wrong score")
    services.admin_confirm(result, cast["mallory"], "The photo agrees with bob")
    result.refresh_from_db()
    assert result.status == ResultStatus.CONFIRMED


# --- no silent change ---------------------------------------------------------------


def test_an_admins_change_of_others_game_is_told_to_both_and_either_disputes(cast):
    result = report(cast, "bob", "carol")
    services.confirm_result(result, cast["carol"])
    services.admin_void(result, cast["mallory"], "Played with a proxy army")
    result.refresh_from_db()
    assert result.status == ResultStatus.VOID
    # Both players are told on their home page, with the reason.
    for who in ("bob", "carol"):
        home = signed_in(cast[who]).get("/").content.decode()
        assert "Changed by an admin" in home
        assert "voided by an admin (mallory)" in home
        assert "Played with a proxy army" in home
    # The history keeps it, with the reason; bob disputes it from the page.
    bob = signed_in(cast["bob"])
    page = bob.get(reverse("result", args=[result.pk])).content.decode()
    assert "mallory changed your game (voided by an admin)" in page
    assert "Dispute this admin's change" in page
    bob.post(
        reverse("result_answer", args=[result.pk, "dispute"]),
        {
            "reason": "The army was legal",
            "outcome": "a",
            "score_a": 200,
            "score_b": 120,
        },
    )
    result.refresh_from_db()
    assert result.status == ResultStatus.DISPUTED
    entry = services.result_history(result)[-1]
    assert (entry.actor, entry.reason) == (cast["bob"], "The army was legal")
    assert result in services.disputes_to_settle(cast["alice"])
    # The admin who changed it cannot "dispute" his own change.
    assert services.admin_change_to_dispute(result, cast["mallory"]) is None


def test_a_player_cannot_dispute_an_ordinary_confirmation(cast):
    result = report(cast, "bob", "carol")
    services.confirm_result(result, cast["carol"])
    with pytest.raises(LeagueError, match="no longer waiting"):
        services.dispute_result(result, cast["carol"], "changed my mind")


# --- the audit names the actor ------------------------------------------------------


def test_every_result_change_season_close_promotion_and_removal_is_audited(cast):
    puppet = sock_puppet(cast)
    result = report(cast, "bob", "carol")
    services.admin_correct(
        result,
        cast["mallory"],
        "Typo",
        played_on=TODAY,
        outcome="a",
        score_a=210,
        score_b=120,
    )
    own = report(cast, "mallory", "carol")
    services.admin_confirm(own, cast["mallory"], "Mine")
    services.approve_proposal(own, cast["carol"])
    seasons.close_season(cast["season"], cast["mallory"])
    seasons.reopen_season(cast["season"], cast["mallory"])
    services.remove_member(cast["club"], cast["mallory"], puppet.pk)

    corrected = audit_rows(cast, AuditAction.RESULT_CORRECTED)[0]
    assert corrected.actor == cast["mallory"]
    assert corrected.data["account"] == "mallory"
    assert corrected.data["game"] == "bob – carol"
    assert corrected.data["reason"] == "Typo"
    assert audit_rows(cast, AuditAction.RESULT_PROPOSED)[0].actor == cast["mallory"]
    assert audit_rows(cast, AuditAction.RESULT_AGREED)[0].actor == cast["carol"]
    assert audit_rows(cast, AuditAction.SEASON_CLOSED)[0].actor == cast["mallory"]
    assert audit_rows(cast, AuditAction.SEASON_REOPENED)[0].actor == cast["mallory"]
    promoted = audit_rows(cast, AuditAction.ADMIN_PROMOTED)
    assert {(r.actor.username, r.subject.username) for r in promoted} == {
        ("alice", "mallory"),
        ("mallory", "malo"),
    }
    removed = audit_rows(cast, AuditAction.MEMBER_REMOVED)[0]
    assert (removed.actor, removed.subject) == (cast["mallory"], puppet)
    # Every admin sees it.
    page = signed_in(cast["alice"]).get(reverse("club_admin", args=[cast["club"].pk]))
    body = page.content.decode()
    for words in (
        "mallory: corrected a result <strong>bob – carol</strong>",
        "Reason: Typo",
        "carol: agreed to an admin&#x27;s change of their game",
        "mallory: closed a season <strong>Saison 2026</strong>",
        "mallory: reopened a season",
        "mallory: made an admin <strong>malo</strong>",
        "mallory: removed from the club <strong>malo</strong>",
    ):
        assert words in body, words
    # The opponent's agreement reads as his in the history, not an admin's.
    history = signed_in(cast["carol"]).get(reverse("result", args=[own.pk]))
    assert "confirmed by the opponent" in history.content.decode()
    assert LeagueResult.objects.get(pk=own.pk).status == ResultStatus.CONFIRMED
