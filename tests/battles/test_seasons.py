"""Seasons managed by the club's admins: edit while no result counts, who takes
part, close (and reopen), archive, delete an empty one, the rules shown."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.league import services as league_services
from battles.league.models.league import ResultStatus, Season
from battles.league.services import seasons as services
from battles.league.services.errors import LeagueError
from tests.support.club import club_in_season

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

TODAY = timezone.localdate()


@pytest.fixture
def cast():
    return club_in_season("alice", ("bob", "carol", "dave"), ("olga",))


def report(cast, reporter="bob", opponent="carol", day=TODAY):
    return league_services.report_result(
        cast["season"],
        cast[reporter],
        opponent_id=cast[opponent].pk,
        played_on=day,
        result="won",
        score_for=200,
        score_against=100,
    )


def fields(season, **changes):
    values = {
        name: getattr(season, name)
        for name in ("name", "starts", "ends", "win", "draw", "loss", "tiebreakers")
    }
    return {**values, **changes}


def test_the_rules_change_while_no_result_counts_and_never_after(cast):
    season = cast["season"]
    services.edit_season(season, cast["alice"], **fields(season, win=2, name="S2"))
    season.refresh_from_db()
    assert (season.win, season.name) == (2, "S2")
    pending = report(cast)
    # A pending result outside the new dates keeps them.
    with pytest.raises(LeagueError, match="outside these dates"):
        services.edit_season(
            season, cast["alice"], **fields(season, ends=TODAY - timedelta(days=1))
        )
    league_services.confirm_result(pending, cast["carol"])
    with pytest.raises(LeagueError, match="already counts"):
        services.edit_season(season, cast["alice"], **fields(season, win=5))
    season.refresh_from_db()
    assert season.win == 2
    with pytest.raises(LeagueError, match="Only an admin"):
        services.edit_season(season, cast["bob"], **fields(season, win=1))


def test_who_takes_part_is_chosen_per_season(cast):
    season = cast["season"]
    services.set_participants(season, cast["alice"], [cast["bob"].pk, cast["carol"].pk])
    # dave is a member of the club but not in this season.
    with pytest.raises(LeagueError, match="does not play in this season"):
        report(cast, opponent="dave")
    with pytest.raises(LeagueError, match="You do not play"):
        report(cast, reporter="dave", opponent="bob")
    names = [row.user.username for row in league_services.season_table(season).rows]
    assert names == ["bob", "carol"]
    with pytest.raises(LeagueError, match="member of the club"):
        services.set_participants(season, cast["alice"], [cast["olga"].pk])
    # A new season: only the players the admin ticked.
    other = league_services.create_season(
        cast["club"],
        cast["alice"],
        name="Été",
        starts=TODAY,
        ends=TODAY,
        participants=[cast["dave"].pk],
    )
    assert list(other.participants.all()) == [cast["dave"]]


def test_a_closed_season_takes_no_result_until_an_admin_reopens_it(cast):
    season = cast["season"]
    pending = report(cast)
    services.close_season(season, cast["alice"])
    season.refresh_from_db()
    with pytest.raises(LeagueError, match="closed"):
        report(cast, reporter="carol", opponent="dave")
    with pytest.raises(LeagueError, match="closed"):
        league_services.confirm_result(pending, cast["carol"])
    # Nor does an admin settle it behind the closed door.
    with pytest.raises(LeagueError, match="closed"):
        league_services.admin_void(pending, cast["alice"], "late")
    pending.refresh_from_db()
    assert pending.status == ResultStatus.PENDING
    with pytest.raises(LeagueError, match="Only an admin"):
        services.reopen_season(season, cast["bob"])
    services.reopen_season(season, cast["alice"])
    league_services.confirm_result(pending, cast["carol"])
    pending.refresh_from_db()
    assert pending.status == ResultStatus.CONFIRMED


def test_a_season_past_its_last_day_takes_no_late_result_unless_reopened(cast):
    season = cast["season"]
    Season.objects.filter(pk=season.pk).update(
        starts=TODAY - timedelta(days=90), ends=TODAY - timedelta(days=60)
    )
    season.refresh_from_db()
    with pytest.raises(LeagueError, match="closed"):
        report(cast, day=TODAY - timedelta(days=70))
    services.reopen_season(season, cast["alice"])
    season.refresh_from_db()
    late = report(cast, day=TODAY - timedelta(days=70))
    assert late.played_on == TODAY - timedelta(days=70)
    # Never dated after its last day, reopened or not.
    with pytest.raises(LeagueError, match="outside the season"):
        report(cast, day=TODAY)


def test_archive_needs_a_closed_or_finished_season(cast):
    season = cast["season"]
    with pytest.raises(LeagueError, match="Close the season"):
        services.archive_season(season, cast["alice"])
    services.close_season(season, cast["alice"])
    services.archive_season(season, cast["alice"])
    season.refresh_from_db()
    assert season.archived and not season.accepts_results


def test_only_an_empty_season_is_deleted(cast):
    season = cast["season"]
    result = report(cast)
    league_services.admin_void(result, cast["alice"], "typo")
    with pytest.raises(LeagueError, match="holds results"):
        services.delete_season(season, cast["alice"])
    empty = league_services.create_season(
        cast["club"], cast["alice"], name="Vide", starts=TODAY, ends=TODAY
    )
    with pytest.raises(LeagueError, match="Only an admin"):
        services.delete_season(empty, cast["bob"])
    services.delete_season(empty, cast["alice"])
    assert not Season.objects.filter(pk=empty.pk).exists()


def test_the_management_page_over_http_and_the_rules_on_the_season_page(cast):
    season = cast["season"]
    admin, bob = Client(), Client()
    admin.force_login(cast["alice"])
    bob.force_login(cast["bob"])
    url = reverse("season_manage", args=[season.pk])
    assert bob.get(url).status_code == 403
    assert (
        bob.post(reverse("season_state", args=[season.pk, "close"])).status_code == 403
    )
    page = admin.get(url)
    assert page.status_code == 200 and b"Who takes part" in page.content
    answer = admin.post(
        reverse("season_participants", args=[season.pk]),
        {"participants": [cast["bob"].pk, cast["carol"].pk]},
    )
    assert answer.status_code == 302
    assert set(season.participants.all()) == {cast["bob"], cast["carol"]}
    dave = Client()
    dave.force_login(cast["dave"])
    page = dave.get(reverse("season", args=[season.pk])).content.decode()
    assert "You do not take part in this season" in page
    answer = admin.post(
        url,
        {
            "name": "Renamed",
            "starts": season.starts.isoformat(),
            "ends": (season.starts - timedelta(days=1)).isoformat(),
            "points_limit": 400,
            "scale": "win_draw_loss",
            "win": 3,
            "draw": 1,
            "loss": 0,
            "major_win": 5,
            "minor_win": 4,
            "minor_loss": 1,
            "major_loss": 0,
            "margin": 100,
            "pairing": "anyone",
            "tiebreaker_1": "goal_average",
        },
    )
    assert answer.status_code == 200 and b"ends after it starts" in answer.content
    season.refresh_from_db()
    assert season.name != "Renamed"
    admin.post(reverse("season_state", args=[season.pk, "close"]))
    season.refresh_from_db()
    assert season.closed
    season_page = bob.get(reverse("season", args=[season.pk])).content.decode()
    assert "The season's rules" in season_page
    assert "Win 3 · draw 1 · loss 0" in season_page
    assert "Head to head" in season_page and "no result can be reported" in season_page
    admin.post(reverse("season_state", args=[season.pk, "archive"]))
    club_page = bob.get(reverse("club", args=[cast["club"].pk])).content.decode()
    assert "1 archived season" in club_page
    nope = admin.post(reverse("season_state", args=[season.pk, "nope"]))
    assert nope.status_code == 403
    # An empty season is deleted; the page goes back to the club.
    answer = admin.post(reverse("season_state", args=[season.pk, "delete"]))
    assert answer.status_code == 302 and not Season.objects.filter(pk=season.pk)


def test_the_migration_keeps_every_member_in_the_seasons_made_before(cast):
    import importlib

    from django.apps import apps

    season = cast["season"]
    season.participants.clear()
    migration = importlib.import_module("battles.migrations.0010_league_seasons")
    migration.everyone_in_existing_seasons(apps, None)
    names = sorted(season.participants.values_list("username", flat=True))
    assert names == ["alice", "bob", "carol", "dave"]
