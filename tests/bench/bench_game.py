"""Benchmark: one game action, request to response, against a trivial view.

Run: ``.venv/bin/python tests/bench/bench_game.py`` (``make bench`` runs it on
SQLite, and on PostgreSQL when ``BENCH_POSTGRES_URL`` is set). It builds a
throw-away test database (SQLite, or ``test_<name>`` beside ``DATABASE_URL``'s
PostgreSQL database, dropped at the end), loads the demo armies, starts a
game and has the test bot play it through the real view (``POST
/games/<id>/act`` with htmx and ``Accept-Encoding: br, gzip``, as a phone
sends it), and times each request in process with Django's test client.
Each action is paired with a ``/healthz`` request right after it (one
``SELECT 1``), so both see the same machine load. The last line is (on one
line) ``RESULT action_p50_ms=X action_p95_ms=Y healthz_p50_ms=Z ratio_p50=R
response_bytes_compressed_p50=B``.

Target: ratio_p50 at most 8.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.django_bench import percentile, start_django  # noqa: E402

start_django(LIVE_BUS="memory")

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from battles.models import Army, Game  # noqa: E402
from battles.models.armies import Owner  # noqa: E402
from battles.services.games import create_game  # noqa: E402
from tests.support.cast import phone_of  # noqa: E402
from tests.support.game_bot import next_command  # noqa: E402

ACTIONS = int(os.environ.get("BENCH_ACTIONS", "400"))


def form_data(command: dict, side: str, version: int, tap: str) -> dict:
    data: dict = {"side": side, "version": version, "tap": tap}
    for key, value in command.items():
        if isinstance(value, list):
            data[key] = value
        elif isinstance(value, bool):
            data[key] = "1" if value else "0"
        elif value is not None:
            data[key] = str(value)
    return data


def main() -> None:
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, keepdb=False)
    try:
        run()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run() -> None:
    call_command("load_demo", verbosity=0)
    client = phone_of(
        "bench-guest",
        Client(HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="br, gzip", secure=True),
    )
    army_a, army_b = Army.objects.filter(is_demo=True).order_by("pk")[:2]
    owner = Owner(guest_key="bench-guest")
    rng = random.Random(1)

    def new_game() -> Game:
        return create_game(
            owner=owner, army_a=army_a, army_b=army_b, turns=6, mode="one_phone"
        )

    game = new_game()
    timings, queries, sizes, trivial, trivial_queries = [], [], [], [], []
    for number in range(ACTIONS):
        game.refresh_from_db()
        if game.state["phase"] == "finished":
            game = new_game()
            continue
        side, command = next_command(game.state, rng)
        data = form_data(command, side, game.version, f"bench-{number}")
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = client.post(f"/games/{game.public_id}/act", data)
            timings.append(time.perf_counter() - start)
        queries.append(len(captured))
        sizes.append(len(response.content))
        assert response.status_code == 200, response.status_code
        assert response.get("Content-Encoding") in ("br", "gzip"), command
        # The paired trivial request, right after, under the same load.
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            health = client.get("/healthz")
            trivial.append(time.perf_counter() - start)
        trivial_queries.append(len(captured))
        assert health.status_code == 200

    events = game.events.count()
    print(f"database: {connection.vendor}; {len(timings)} game actions, each paired")
    print(f"{'request':<28}{'median ms':>10}{'p95 ms':>10}{'queries':>9}")
    for name, values, counts in (
        ("game action (POST /act)", timings, queries),
        ("trivial view (/healthz)", trivial, trivial_queries),
    ):
        print(
            f"{name:<28}{statistics.median(values) * 1000:>10.2f}"
            f"{percentile(values, 0.95) * 1000:>10.2f}"
            f"{statistics.median(counts):>9.0f}"
        )
    print(f"queries per action: min {min(queries)}, max {max(queries)}")
    print(f"last game's log: {events} events")
    print(
        f"RESULT action_p50_ms={statistics.median(timings) * 1000:.2f}"
        f" action_p95_ms={percentile(timings, 0.95) * 1000:.2f}"
        f" healthz_p50_ms={statistics.median(trivial) * 1000:.2f}"
        f" ratio_p50={statistics.median(timings) / statistics.median(trivial):.1f}"
        f" response_bytes_compressed_p50={statistics.median(sizes):.0f}"
    )


if __name__ == "__main__":
    main()
