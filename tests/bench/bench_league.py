"""Benchmark: a club season of 60 players and 2,000 confirmed results.

Run: ``.venv/bin/python tests/bench/bench_league.py`` (``make bench`` runs it).
It builds a throw-away SQLite database (or uses ``DATABASE_URL``), makes one
club of 60 members and one season with 2,000 confirmed results, then times:

- recomputing the standings (``rules.league.standings``) and the ratings
  (``rules.league.ratings``, openskill) from the 2,000 results, pure Python;
- the whole ``season_table`` service (database reads + both computations);
- the standings page (``GET /league/<id>/``) through Django's test client;
- the trivial view ``/healthz`` in the same run, as the yardstick.

Everything is reported in milliseconds and as a ratio to /healthz's median.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.django_bench import percentile, start_django  # noqa: E402

start_django()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from battles.league.models.league import (  # noqa: E402
    Club,
    LeagueResult,
    Membership,
    ResultStatus,
    Season,
)
from battles.league.services.standings import season_table  # noqa: E402
from rules.league import GameResult, ratings, standings  # noqa: E402

PLAYERS = int(os.environ.get("BENCH_LEAGUE_PLAYERS", "60"))
RESULTS = int(os.environ.get("BENCH_LEAGUE_RESULTS", "2000"))
REPEATS = int(os.environ.get("BENCH_LEAGUE_REPEATS", "20"))
PAGES = int(os.environ.get("BENCH_LEAGUE_PAGES", "60"))
TRIVIAL = int(os.environ.get("BENCH_TRIVIAL", "300"))
PEOPLES = ["Griffons", "Wolfen", "Alchimistes", "Kelts", "Orques", "Drunes"]


def timed(function, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def build_season() -> Season:
    User = get_user_model()
    users = User.objects.bulk_create(
        [User(username=f"player{i:02d}", password="!") for i in range(PLAYERS)]
    )
    users = list(User.objects.order_by("pk"))
    club = Club.objects.create(name="Bench club")
    Membership.objects.bulk_create([Membership(club=club, user=user) for user in users])
    today = timezone.localdate()
    season = Season.objects.create(
        club=club,
        name="Bench season",
        starts=today - timedelta(days=365),
        ends=today,
    )
    rng = random.Random(14)
    rows = []
    for number in range(RESULTS):
        a, b = rng.sample(users, 2)
        score_a, score_b = rng.randrange(0, 400, 10), rng.randrange(0, 400, 10)
        outcome = "draw" if score_a == score_b else ("a" if score_a > score_b else "b")
        rows.append(
            LeagueResult(
                season=season,
                player_a=a,
                player_b=b,
                played_on=season.starts + timedelta(days=number * 365 // RESULTS),
                outcome=outcome,
                score_a=score_a,
                score_b=score_b,
                people_a=rng.choice(PEOPLES),
                people_b=rng.choice(PEOPLES),
                status=ResultStatus.CONFIRMED,
                reported_by=a,
            )
        )
    LeagueResult.objects.bulk_create(rows, batch_size=500)
    return season


def main() -> None:
    # The full page names static files; without collectstatic's manifest
    # (DEBUG off) plain static storage names them, as a dev server would.
    override_settings(
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {
                "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
            },
        }
    ).enable()
    call_command("migrate", verbosity=0)
    season = build_season()
    viewer = season.club.members.select_related("user").first().user
    games = [
        GameResult(
            r.player_a.username, r.player_b.username, r.outcome, r.score_a, r.score_b
        )
        for r in LeagueResult.objects.filter(season=season)
        .select_related("player_a", "player_b")
        .order_by("played_on", "id")
    ]
    names = [f"player{i:02d}" for i in range(PLAYERS)]
    scheme = season.scheme()

    standings_times = timed(lambda: standings(names, games, scheme), REPEATS)
    ratings_times = timed(lambda: ratings(games), REPEATS)
    table_times = timed(lambda: season_table(season), max(3, REPEATS // 4))

    client = Client(secure=True)
    client.force_login(viewer)
    url = f"/league/{season.pk}/"
    assert client.get(url).status_code == 200  # warm up
    page_times, page_queries = [], []
    for _ in range(PAGES):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.get(url)
            page_times.append(time.perf_counter() - start)
        page_queries.append(len(captured))
        assert response.status_code == 200
    trivial = []
    for _ in range(TRIVIAL):
        start = time.perf_counter()
        response = client.get("/healthz")
        trivial.append(time.perf_counter() - start)
        assert response.status_code == 200

    base = statistics.median(trivial)
    print(
        f"database: {connection.vendor}; a season of {PLAYERS} players and "
        f"{RESULTS} confirmed results"
    )
    print(f"{'measure':<40}{'median ms':>10}{'p95 ms':>10}{'× healthz':>11}")
    for name, values in (
        ("standings recompute (rules.league)", standings_times),
        ("ratings recompute (openskill)", ratings_times),
        ("season_table service (db + both)", table_times),
        ("standings page GET /league/<id>/", page_times),
        ("trivial view (/healthz)", trivial),
    ):
        median = statistics.median(values)
        print(
            f"{name:<40}{median * 1000:>10.2f}"
            f"{percentile(values, 0.95) * 1000:>10.2f}{median / base:>11.1f}"
        )
    print(f"standings page queries: {min(page_queries)}–{max(page_queries)}")


if __name__ == "__main__":
    main()
