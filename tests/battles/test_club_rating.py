"""The club-wide rating: it carries across the club's seasons, reads on the
club's scale (1500 for a newcomer), is provisional below 5 games in the club,
and its curve has axes and dates."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from battles.league import services
from battles.league.models.league import Season
from battles.league.presenters import rating_chart
from rules.league import (
    RATING_BASE,
    RATING_SCALE,
    GameResult,
    Rating,
    ratings,
    shown_rating,
)
from tests.support.club import club_in_season

TODAY = timezone.localdate()


def test_a_newcomer_reads_1500_and_one_ordinal_unit_is_48_points():
    newcomer = Rating(mu=25.0, sigma=25 / 3, ordinal=0.0)
    assert shown_rating(newcomer).value == RATING_BASE == 1500
    assert shown_rating(newcomer).spread == 400
    assert shown_rating(Rating(30.0, 2.0, 24.0)).value == 1500 + 24 * RATING_SCALE
    after_a_loss = ratings([GameResult("a", "b", "a")])["b"]
    assert after_a_loss.ordinal < 0 < shown_rating(after_a_loss).value < 1500


@pytest.fixture
def two_seasons(db):
    cast = club_in_season(
        "alice", ("bob", "carol"), began_days_ago=200, ends_in_days=30
    )
    old = cast["season"]
    old.starts, old.ends = TODAY - timedelta(days=200), TODAY - timedelta(days=100)
    old.save()
    new = services.create_season(
        cast["club"],
        cast["alice"],
        name="Saison 2",
        starts=TODAY - timedelta(days=10),
        ends=TODAY + timedelta(days=30),
    )
    return {**cast, "old": old, "new": new}


def play(cast, season, day, reporter="bob", opponent="carol", result="won"):
    row = services.report_result(
        season,
        cast[reporter],
        opponent_id=cast[opponent].pk,
        played_on=day,
        result=result,
        score_for=200,
        score_against=100,
    )
    services.confirm_result(row, cast[opponent])
    return row


def test_the_rating_carries_across_seasons_and_matches_openskill(two_seasons):
    cast = two_seasons
    old_day = TODAY - timedelta(days=150)
    # The old season's results were recorded while it was open.
    Season.objects.filter(pk=cast["old"].pk).update(reopened=True)
    cast["old"].refresh_from_db()
    # (One game a day: a second game the same day is another matter.)
    old_days = [old_day + timedelta(days=n) for n in range(3)]
    for day in old_days:
        play(cast, cast["old"], day)
    yesterday = TODAY - timedelta(days=1)
    play(cast, cast["new"], yesterday, reporter="carol", opponent="bob")
    expected = ratings(
        [GameResult("bob", "carol", "a")] * 3 + [GameResult("carol", "bob", "a")]
    )
    rows = {row.user.username: row for row in services.season_table(cast["new"]).rows}
    assert rows["bob"].rating == expected["bob"]
    assert rows["carol"].rating == expected["carol"]
    # Four games in the club: still provisional (below 5), though one this season.
    assert rows["bob"].provisional and rows["bob"].line.played == 1
    play(cast, cast["new"], TODAY)
    rows = {row.user.username: row for row in services.season_table(cast["new"]).rows}
    assert not rows["bob"].provisional
    page = services.player_page(cast["new"], cast["bob"])
    dates = [point["date"] for point in page.curve]
    assert dates == [old_day, *old_days, yesterday, TODAY]
    assert page.rating == rows["bob"].rating
    # The history of this season's games, each change on the club's scale.
    assert len(page.history) == 2
    assert all(isinstance(h["change"], int) for h in page.history)


def test_the_curve_has_axes_with_values_and_dates():
    start = TODAY - timedelta(days=30)
    history = ratings([GameResult("a", "b", "a")])
    points = [
        {"date": start, "rating": Rating(25.0, 25 / 3, 0.0)},
        {"date": start, "rating": history["a"]},
        {"date": TODAY, "rating": Rating(30.0, 3.0, 21.0)},
    ]
    chart = rating_chart(points)
    assert [tick["date"] for tick in chart["x_ticks"]] == [start, TODAY]
    values = [tick["value"] for tick in chart["y_ticks"]]
    assert values[0] == 1500 and values[-1] == 1500 + 21 * 48
    xs = [float(pair.split(",")[0]) for pair in chart["points"].split()]
    assert xs == sorted(xs) and xs[0] == chart["left"] and xs[-1] == chart["right"]
    assert rating_chart([]) is None


@pytest.mark.django_db
@pytest.mark.usefixtures("english")
def test_the_pages_show_the_club_scale_and_explain_provisional(two_seasons):
    cast = two_seasons
    play(cast, cast["new"], TODAY)
    client = Client()
    client.force_login(cast["carol"])
    season_page = client.get(reverse("season", args=[cast["new"].pk])).content.decode()
    assert "Provisional: fewer than 5 games in the club" in season_page
    value = shown_rating(ratings([GameResult("bob", "carol", "a")])["bob"]).value
    assert f">{value}<" in season_page
    player = client.get(
        reverse("season_player", args=[cast["new"].pk, cast["bob"].pk])
    ).content.decode()
    assert 'class="chart-axis"' in player and 'class="chart-label"' in player
    assert ">1500</text>" in player
    day = date_format(TODAY, "SHORT_DATE_FORMAT")
    assert f'class="chart-label">{day}</text>' in player
