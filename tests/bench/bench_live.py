"""Load benchmark of shared live games: many tables, two phones and a
spectator each, over real HTTP on loopback.

Run: ``.venv/bin/python tests/bench/bench_live.py`` (``make bench`` runs it),
or ``... bench_live.py --database postgres`` for PostgreSQL with the
LISTEN/NOTIFY bus and two uvicorn workers. Not collected by pytest.
``--levels 10,40`` and ``--seconds`` keep a run short.

For 10, 25, 40 and 80 concurrent games (by default): a uvicorn server run as
in production (``DEBUG=false``; the embedded default: one process, SQLite
file, in-process bus); per game three httpx clients (side A, side B, a
spectator), each holding the game's event stream and behaving as
``live.js`` does: a pushed ``event: board`` that applies to the version it
shows is taken as is (no request); an ``event: version`` (or a push that
does not fit) makes it fetch its board (``GET /games/<id>/board?since=``).
The tapping phone has its tap's answer: it never fetches its own board.
The phones play the test bot's commands (``tests/support/game_bot.py``)
through the real endpoint (``POST /games/<id>/act`` with htmx and CSRF),
each table acting every 2 s (a realistic pace at a table). The load
generator (the phones and the bot, which reads states from the database,
read only) runs in a process of its own, one per level, so the server's CPU
time is its own.

Reported per level: actions done, action latency (request to response)
median and p95, the other phone's delay **from the tap** (the start of the
actor's request) until it holds its new board, median and p95 (and the
spectator's), the share of boards that came pushed, and the server's CPU
time per action (its processes' user + system time over the level, divided
by the actions: the fan-out included; PostgreSQL's own processes are not
counted), and beside it where the rest of the two cores went: the load
generator's and PostgreSQL's CPU per action, the machine's share of its
cores busy (a level past saturation shows it near 100 %) and the
generator's own lag (its event loop's wake-up delay, p95: what it adds to
every arrival it times); under it, the server's CPU per action by thread,
read by the kernel's thread names (``battles.thread_names``): the request
workers (the taps as served, the boards fetched), the live look (the pushes'
renders), the event loop (HTTP, the streams' messages) and the rest (threads
ended meanwhile, other pools). Then the action alone in process: the same
requests through Django's test client in this process, warmed up first
(CPU time per action, answer rendered, no stream), timed before the levels
and after them (the machine's speed can move over a run: their mean,
both shown). The last line is ``RESULT
tables_held_at_p95_150ms=N cpu_ms_per_action=C action_alone_ms=A
tables_x_action_ms=N*A cpu_ratio=C/A workers_ms=W look_ms=L loop_ms=E
slower=F`` (C, W, L, E at the largest level held, or the first level; F:
``--slower``'s factor).

``--slower F``: as on a machine F times slower (``tests/bench/slower.py``:
every core given to everything else 1/F of the time, by real-time spinners;
needs root). CPU times are then scaled by F, so the action alone reads as
that machine's, and the machine's share busy is that of the server, the
generator and PostgreSQL.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tests.bench.slower import add_slower_option, slower  # noqa: E402
from tests.support.servers import (  # noqa: E402
    SERVER_PIDS,
    manage,
    reachable,
    server_env,
    shell_json,
    uvicorn,
)
from tests.support.sse import parse_sse  # noqa: E402

LEVELS = (10, 25, 40, 60, 80)
PACE_SECONDS = 2.0  # each table acts every 2 s
WARM_ACTIONS = 20  # played, not timed, before the action alone is timed
TARGET_P95 = 0.150
EXCEPTION_LINE = re.compile(r"^[\w.]+(Error|Exception)\b")  # a traceback's last line


def _form(command: dict, side: str, version: int) -> dict:
    """The form a phone's tap posts for ``command`` (what the board's forms send)."""
    fields: dict = {"side": side, "version": str(version), "tap": uuid.uuid4().hex}
    for name, value in command.items():
        if value is None:
            continue
        if isinstance(value, bool):
            if name == "free_side":
                if not value:
                    fields["no_free_side"] = "1"
                continue
            fields[name] = "1" if value else ""
        elif isinstance(value, list):
            fields[name] = [str(item) for item in value]
        else:
            fields[name] = str(value)
    return fields


class Phone:
    def __init__(self, base: str, session: str):
        self.client = httpx.AsyncClient(
            base_url=base,
            cookies={"sessionid": session},
            timeout=httpx.Timeout(30, read=None),
            # An idle connection is let go before uvicorn's keep-alive (5 s)
            # closes it: with both at 5 s, a tap sent as the server closes
            # the connection failed (``ReadError``), where a browser sends
            # it again on a new connection.
            limits=httpx.Limits(max_connections=4, keepalive_expiry=3),
        )
        self.heard: dict[int, float] = {}
        self.boards: dict[int, float] = {}  # version -> when its board arrived
        self.token = ""
        self.stream_task: asyncio.Task | None = None
        self.fetches: set[asyncio.Task] = set()
        self.shown = 0  # the version the board shows
        self.fetching = False
        self.again = False
        self.tapping = False  # a tap under way: news wait for its answer
        self.wanted = 0
        self.pushed = 0  # boards taken from the stream
        self.fetched = 0  # board requests made
        self.waiters: dict[int, asyncio.Future] = {}  # version -> its board's arrival

    async def board_time(self, version: int, timeout: float) -> float | None:
        """When the board showing ``version`` (or a later one) arrived; None
        if not within ``timeout``. Woken by its arrival, not by polling: a
        generator busy polling would delay the very arrivals it times."""
        if version not in self.boards:
            waiter = self.waiters.get(version)
            if waiter is None:
                waiter = asyncio.get_running_loop().create_future()
                self.waiters[version] = waiter
            try:
                await asyncio.wait_for(asyncio.shield(waiter), timeout)
            except TimeoutError:
                return None
        return self.boards[version]

    def _arrived(self) -> None:
        for version in [v for v in self.waiters if v in self.boards]:
            waiter = self.waiters.pop(version)
            if not waiter.done():
                waiter.set_result(None)

    async def open(self, public_id: str) -> None:
        page = await self.client.get(f"/games/{public_id}/")
        page.raise_for_status()
        self.shown = int(page.headers["X-Game-Version"])
        self.token = page.text.split('"X-CSRFToken": "', 1)[1].split('"', 1)[0]
        # DEBUG=false marks the CSRF cookie Secure; this loopback bench speaks
        # plain HTTP, so it hands the cookie back itself.
        csrf = page.cookies.get("csrftoken") or self.client.cookies.get("csrftoken")
        if csrf:
            self.client.cookies.set("csrftoken", csrf)
        connected = asyncio.Event()
        self.stream_task = asyncio.create_task(self._listen(public_id, connected))
        await asyncio.wait_for(connected.wait(), 30)

    async def _listen(self, public_id: str, connected: asyncio.Event) -> None:
        buffer = ""
        url = f"/games/{public_id}/stream"
        async with self.client.stream("GET", url) as response:
            async for text in response.aiter_text():
                connected.set()
                messages, _comments, buffer = parse_sse(buffer + text)
                now = time.perf_counter()
                for message in messages:
                    if message.event not in ("version", "board"):
                        continue
                    version = int(message.id)
                    if version in self.heard:
                        continue
                    self.heard[version] = now
                    if message.event == "board":
                        base = int(message.data.split("\n", 1)[0])
                        busy = self.fetching or self.tapping
                        if base == self.shown and not busy:
                            self._shows(version, now)
                            self.pushed += 1
                            continue
                    self.want(public_id, version)

    def _shows(self, version: int, when: float) -> None:
        for seen in range(self.shown + 1, version + 1):
            self.boards.setdefault(seen, when)
        self.shown = max(self.shown, version)
        self._arrived()

    def want(self, public_id: str, version: int) -> None:
        self.wanted = max(self.wanted, version)
        if self.tapping or version <= self.shown:
            return
        task = asyncio.create_task(self._board(public_id, version))
        self.fetches.add(task)
        task.add_done_callback(self.fetches.discard)

    def tapped(self, public_id: str, version: int) -> None:
        """The tap's answer is in: the board shows ``version``; news that came
        meanwhile is fetched only if it is newer (as live.js does)."""
        self.tapping = False
        self._shows(version, time.perf_counter())
        if self.wanted > self.shown:
            self.want(public_id, self.wanted)

    async def _board(self, public_id: str, version: int) -> None:
        """Fetch the board the stream announced, as live.js does: one fetch at
        a time, saying the version shown (the server answers with what
        changed since, or the whole board), again if news came meanwhile."""
        if version <= self.shown:
            return
        if self.fetching:
            self.again = True
            return
        self.fetching = True
        try:
            while True:
                self.again = False
                self.fetched += 1
                response = await self.client.get(
                    f"/games/{public_id}/board",
                    params={"since": self.shown},
                    headers={"HX-Request": "true"},
                )
                if response.status_code == 200:
                    shown = int(response.headers.get("X-Game-Version", "0"))
                    now = time.perf_counter()
                    self._shows(shown, now)
                if not self.again:
                    break
        except httpx.HTTPError:
            return
        finally:
            self.fetching = False

    async def close(self) -> None:
        for task in list(self.fetches):
            task.cancel()
        if self.stream_task:
            self.stream_task.cancel()
            try:
                await self.stream_task
            except (asyncio.CancelledError, httpx.HTTPError):
                pass
        await self.client.aclose()


# The bot's reads of the game's state, on one thread and one database
# connection kept for the level: a connection per read would cost PostgreSQL
# a new backend per action, CPU taken from the server it shares the machine
# with (a phone at a club reads nothing from the database).
_reads = ThreadPoolExecutor(1, thread_name_prefix="bot-read")


def _read_state(game_id: int):
    from battles.models.games import Game

    return Game.objects.values_list("state", "version").get(pk=game_id)


def _hang_up() -> None:
    from django.db import connection

    connection.close()


async def read_state(game_id: int):
    return await asyncio.get_running_loop().run_in_executor(
        _reads, _read_state, game_id
    )


async def open_table(game: dict, base: str) -> dict[str, Phone]:
    phones = {role: Phone(base, game["sessions"][role]) for role in game["sessions"]}
    for phone in phones.values():
        await phone.open(game["public_id"])
    return phones


async def play_table(game, phones, deadline: float, pace: float, results):
    from tests.support.game_bot import next_command

    try:
        rng = random.Random(game["id"])
        # Tables start out of step, as they would in a club.
        await asyncio.sleep(pace * rng.random())
        while time.perf_counter() < deadline:
            tick = time.perf_counter()
            state, version = await read_state(game["id"])
            if state["phase"] == "finished":
                break
            side, command = next_command(state, rng)
            started = time.perf_counter()
            actor = phones[side]
            actor.tapping = True
            try:
                answer = await actor.client.post(
                    f"/games/{game['public_id']}/act",
                    data=_form(command, side, version),
                    headers={"X-CSRFToken": actor.token, "HX-Request": "true"},
                )
            except httpx.HTTPError as error:  # a dropped connection: counted
                results["errors"].append(f"{type(error).__name__} {command['type']}")
                continue
            finally:
                actor.tapping = False
            answered = time.perf_counter()
            if answer.status_code != 200:
                results["errors"].append(f"{answer.status_code} {command['type']}")
                continue
            new_version = int(answer.headers["X-Game-Version"])
            actor.tapped(game["public_id"], new_version)
            if new_version == version:  # refused by the rules: shown on the board
                results["refused"] += 1
                continue
            results["latency"].append(answered - started)
            other = phones["b" if side == "a" else "a"]
            for listener, key in ((other, "other"), (phones["spectator"], "watch")):
                arrived = await listener.board_time(new_version, 10)
                if arrived is None:
                    results["lost"] += 1
                else:
                    # From the tap, not from the actor's answer.
                    results[key].append(arrived - started)
            await asyncio.sleep(max(0.0, tick + pace - time.perf_counter()))
    finally:
        for phone in phones.values():
            await phone.close()


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    values = sorted(values)
    index = min(len(values) - 1, max(0, round(q * (len(values) - 1))))
    return f"{values[index] * 1000:7.1f}"


LAG_PROBE_SECONDS = 0.01


async def loop_lag(deadline: float, lags: list[float]) -> None:
    """How late the generator's event loop wakes (a 10 ms sleep, again and
    again): every arrival it times is late by as much, so a level whose lag
    is not small measures the generator, not the server."""
    while time.perf_counter() < deadline:
        asked = time.perf_counter() + LAG_PROBE_SECONDS
        await asyncio.sleep(LAG_PROBE_SECONDS)
        lags.append(max(0.0, time.perf_counter() - asked))


async def run_level(
    games: list[dict], base: str, seconds: float, pace: float, on_connected=None
):
    results = {
        "latency": [],
        "other": [],
        "watch": [],
        "errors": [],
        "refused": 0,
        "lost": 0,
        "lag": [],
    }
    tables = await asyncio.gather(*(open_table(game, base) for game in games))
    deadline = time.perf_counter() + seconds  # once every phone is connected
    if on_connected is not None:
        on_connected()
    probe = asyncio.create_task(loop_lag(deadline, results["lag"]))
    await asyncio.gather(
        *(
            play_table(game, phones, deadline, pace, results)
            for game, phones in zip(games, tables, strict=True)
        )
    )
    await probe
    phones = [phone for table in tables for phone in table.values()]
    results["pushed"] = sum(phone.pushed for phone in phones)
    results["fetched"] = sum(phone.fetched for phone in phones)
    return results


def _generate(games, base, seconds, pace, settings, connected, out) -> None:
    """The load generator, in a process of its own: the phones and the bot."""
    os.environ.update(settings)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confrontation_site.settings")
    import logging

    import django

    django.setup()
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        results = asyncio.run(run_level(games, base, seconds, pace, connected.set))
    finally:
        _reads.submit(_hang_up).result()
    out.send(results)


def read_stat(path: str) -> tuple[str, list[str]] | None:
    """A ``/proc`` stat line: the name, then the fields after it (None when
    the process or thread has gone)."""
    try:
        with open(path) as stat:
            name, fields = stat.read().split(" (", 1)[1].rsplit(")", 1)
    except (OSError, ValueError):
        return None
    return name, fields.split()


def cpu_seconds(
    server: int, generator: int, spinners: Sequence[int] = ()
) -> dict[str, float]:
    """User + system CPU time so far of the server (its process and its
    children), of the load generator, of PostgreSQL's processes, of
    ``--slower``'s spinners, and of the whole machine (its busy time from
    ``/proc/stat``): where the cores went."""
    ticks = os.sysconf("SC_CLK_TCK")
    spent = dict.fromkeys(
        ("server", "generator", "postgres", "spinners", "workers", "look", "loop"), 0.0
    )
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or (found := read_stat(f"/proc/{entry}/stat")) is None:
            continue
        name, fields = found
        # fields[1] is the parent's pid; fields[11], [12]: utime, stime;
        # fields[13], [14]: those of its children that ended.
        used = (int(fields[11]) + int(fields[12])) / ticks
        if server in (int(entry), int(fields[1])):
            spent["server"] += used
            for part, seconds in server_threads(int(entry)).items():
                spent[part] += seconds
        elif int(entry) == generator:
            spent["generator"] += used
        elif int(entry) in spinners:
            spent["spinners"] += used
        elif name == "postgres":
            # PostgreSQL's postmaster reaps the backends that end (a closed
            # connection): their time is counted in its children's.
            spent["postgres"] += used + (int(fields[13]) + int(fields[14])) / ticks
    with open("/proc/stat") as stat:
        times = [int(value) for value in stat.readline().split()[1:]]
    # All but idle and iowait (the 4th and 5th columns).
    spent["machine"] = (sum(times) - times[3] - times[4]) / ticks
    return spent


# The server's threads by their kernel names (battles.thread_names): the
# request workers, the live look (the pushes' renders); the main thread of a
# process that has them is its event loop (HTTP, the streams' messages).
THREAD_PARTS = (("django_", "workers"), ("live-look", "look"))


def server_threads(pid: int) -> dict[str, float]:
    """CPU time so far of one server process's threads, by part (none for
    uvicorn's supervisor, which has no worker thread): what is left of the
    process's time (threads ended, other pools) is the rest."""
    ticks = os.sysconf("SC_CLK_TCK")
    found: dict[str, float] = {}
    main = 0.0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return {}
    for tid in tasks:
        if (read := read_stat(f"/proc/{pid}/task/{tid}/stat")) is None:
            continue
        name, fields = read
        used = (int(fields[11]) + int(fields[12])) / ticks
        part = next((p for prefix, p in THREAD_PARTS if name.startswith(prefix)), None)
        if part is not None:
            found[part] = found.get(part, 0.0) + used
        elif int(tid) == pid:
            main = used
    if found:
        found["loop"] = main
    return found


def measured_level(games, base, seconds, pace, settings, spinners=()) -> dict:
    """One level: the generator in its own process, the CPU times counted
    from when every phone is connected to the level's end."""
    context = multiprocessing.get_context("spawn")
    connected = context.Event()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=_generate,
        args=(games, base, seconds, pace, settings, connected, sender),
    )
    process.start()
    sender.close()  # the generator's end only: if it dies, recv() says so
    pid = SERVER_PIDS[base]
    connected.wait(timeout=300)
    before = cpu_seconds(pid, process.pid, spinners)
    started = time.perf_counter()
    results = receiver.recv()
    after = cpu_seconds(pid, process.pid, spinners)
    results["cpu"] = {key: after[key] - before[key] for key in after}
    results["wall"] = time.perf_counter() - started
    process.join(timeout=60)
    return results


def action_alone(count: int = 60) -> tuple[float, float]:
    """ms of CPU per action and median ms of wall time, in this process
    (Django's test client: the view, the service, the answer rendered; no
    stream, no HTTP; the database connection kept between requests, as the
    server keeps it), on a game of its own."""
    import contextlib
    import gc
    import io
    import json

    from django.db import connection
    from django.test import Client

    from battles.models.games import Game
    from tests.support.game_bot import next_command
    from tests.support.live_setup import setup_games

    # The connection kept between requests, as the server's worker threads
    # keep theirs (``battles.kept_connections``): the action, not the opening.
    connection.settings_dict["CONN_MAX_AGE"] = 60
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        setup_games(1)
    gc.freeze()  # as the server does once started (confrontation_site.asgi)
    game = json.loads(printed.getvalue().strip().splitlines()[-1])[0]
    clients = {}
    for side in "ab":
        client = Client(HTTP_ACCEPT_ENCODING="br, gzip")
        client.cookies["sessionid"] = game["sessions"][side]
        # Untimed: a client builds its middleware chain at its first request
        # (whitenoise reads the static files' list: 50-100 ms of CPU), which
        # a server does once, at start.
        client.get(f"/games/{game['public_id']}/")
        clients[side] = client
    rng = random.Random(7)
    cpu, wall = [], []
    url = f"/games/{game['public_id']}/act"
    for _ in range(count):
        state, version = Game.objects.values_list("state", "version").get(pk=game["id"])
        if state["phase"] == "finished":
            break
        side, command = next_command(state, rng)
        started, started_cpu = time.perf_counter(), time.process_time()
        response = clients[side].post(
            url, _form(command, side, version), HTTP_HX_REQUEST="true"
        )
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        assert response.status_code == 200, response.status_code
    Game.objects.filter(pk=game["id"]).delete()
    return sum(cpu) / len(cpu) * 1000, sorted(wall)[len(wall) // 2] * 1000


def _error_causes(log: Path) -> list[str]:
    """The distinct exceptions the server logged (what a 500 came from)."""
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    found = (line for line in lines if EXCEPTION_LINE.match(line))
    return list(dict.fromkeys(found))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--pace", type=float, default=PACE_SECONDS)
    parser.add_argument("--workers", type=int, default=0)
    add_slower_option(parser)
    parser.add_argument(
        "--levels",
        default=",".join(str(level) for level in LEVELS),
        help="tables per level, comma-separated",
    )
    args = parser.parse_args()
    levels = [int(level) for level in args.levels.split(",") if level.strip()]

    scratch = Path(tempfile.mkdtemp(prefix="confrontation-bench-live-"))
    workers = args.workers or (2 if args.database == "postgres" else 1)
    if args.database == "postgres":
        if not reachable("127.0.0.1", 5432):
            sys.exit("PostgreSQL is not reachable on 127.0.0.1:5432")
        import psycopg

        name = f"confrontation_bench_{os.getpid()}"
        admin = "postgres://postgres@127.0.0.1:5432/postgres"
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        settings = {
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{name}",
            "LIVE_BUS": "postgres",
            "LIVE_CHANNEL": f"bench_{os.getpid()}",
        }
    else:
        settings = {
            "DATABASE_URL": f"sqlite:///{scratch / 'bench.sqlite3'}",
            "LIVE_BUS": "memory",
        }
    env = server_env(**settings)
    # As in production: DEBUG off (templates cached, no SQL kept in memory).
    env.update(
        DEBUG="false",
        SECRET_KEY="bench-only-secret-key-0123456789abcdefghijklmnopqrstuv",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        # Every phone here shares one address (loopback); at a club each has
        # its own, so the per-address cap would count one phone's connections.
        CONNECTIONS_PER_ADDRESS="100000",
    )
    # The bench process reads states from the same database (read only), and
    # times the action alone in process, as in production (DEBUG off).
    os.environ.update(settings)
    for setting in ("DEBUG", "SECRET_KEY", "SECURE_SSL_REDIRECT"):
        os.environ[setting] = env[setting]
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confrontation_site.settings")
    import logging

    import django

    django.setup()
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        manage("collectstatic", "--noinput", env=env)  # DEBUG=false: the manifest
        manage("migrate", "--noinput", env=env)
        manage("load_demo", env=env)
        rows = []
        server_log = scratch / "server.log"
        # The action alone before the levels and after them (the machine's
        # speed can move meanwhile: the ratio takes their mean, both shown).
        # Out of the emulation (a CPU time is the same here, times
        # ``--slower`` on the slower machine), and warm first, as the server
        # is once it has answered a few taps (its templates compiled, its
        # modules' first calls made): the first actions of a process cost a
        # third more, which would flatter the ratio below.
        action_alone(WARM_ACTIONS)
        alone_before = action_alone()
        with (
            slower(args.slower) as spinners,
            uvicorn(env, workers=workers, log=server_log) as base,
        ):
            for count in levels:
                games = shell_json(
                    f"from tests.support.live_setup import setup_games; "
                    f"setup_games({count})",
                    env,
                )
                results = measured_level(
                    games, base, args.seconds, args.pace, settings, spinners
                )
                rows.append((count, results))
        alone_after = action_alone()
        cpus = [alone_before[0] * args.slower, alone_after[0] * args.slower]
        alone_cpu = statistics.mean(cpus)
        alone_wall = statistics.mean([alone_before[1], alone_after[1]]) * args.slower
        emulated = (
            f", as on a machine {args.slower:g}x slower (every core given to "
            f"the rest 1/{args.slower:g} of the time; CPU times below are "
            "scaled to that machine)"
            if args.slower > 1
            else ""
        )
        print(
            f"\nShared live games over HTTP on loopback ({args.database}, "
            f"bus {settings['LIVE_BUS']}, {workers} uvicorn process(es), "
            f"{os.cpu_count()} CPUs, {args.seconds:.0f} s per level, each table "
            f"acting every {args.pace:g} s, DEBUG=false{emulated})\n"
        )
        print(
            "games  streams  actions  act/s  latency ms (median  p95)  "
            "other phone's board from the tap ms (median  p95)  "
            "spectator (median  p95)  pushed/fetched  server CPU ms/action  "
            "lost  errors  |  CPU ms/action: generator  postgres  machine busy %  "
            "generator lag ms (p95)"
        )
        for count, r in rows:
            actions = max(1, len(r["latency"]))
            # The slower machine's CPU times. Under the spinners the kernel's
            # tick-sampled busy time (/proc/stat) misses or over-counts their
            # short turns: the machine's share is then the work's own (the
            # server, the generator, PostgreSQL), each counted exactly.
            del r["cpu"]["spinners"]
            if args.slower > 1:
                r["cpu"]["machine"] = sum(
                    r["cpu"][part] for part in ("server", "generator", "postgres")
                )
            r["cpu"] = {key: spent * args.slower for key, spent in r["cpu"].items()}
            r["cpu_ms"] = r["cpu"]["server"] / actions * 1000
            # The share of the (emulated) machine's cores busy over the level.
            busy = r["cpu"]["machine"] / (r["wall"] * (os.cpu_count() or 1)) * 100
            print(
                f"{count:5d}  {count * 3:7d}  {len(r['latency']):7d}  "
                f"{len(r['latency']) / args.seconds:5.1f}  "
                f"{_ms(r['latency'], 0.5)}  {_ms(r['latency'], 0.95)}"
                f"              {_ms(r['other'], 0.5)}  {_ms(r['other'], 0.95)}"
                f"                    {_ms(r['watch'], 0.5)}  {_ms(r['watch'], 0.95)}"
                f"  {r['pushed']:6d}/{r['fetched']:<6d}  {r['cpu_ms']:8.1f}"
                f"  {r['lost']:4d}  {len(r['errors']):6d}"
                f"  |  {r['cpu']['generator'] / actions * 1000:9.1f}"
                f"  {r['cpu']['postgres'] / actions * 1000:8.1f}  {busy:6.0f}"
                f"  {_ms(r['lag'], 0.95)}"
            )
            threads = {
                p: r["cpu"][p] / actions * 1000 for p in ("workers", "look", "loop")
            }
            threads["rest"] = r["cpu_ms"] - sum(threads.values())
            print(
                f"   server CPU ms/action by thread: request workers "
                f"{threads['workers']:.1f} · live look (pushes' renders) "
                f"{threads['look']:.1f} · event loop {threads['loop']:.1f} · "
                f"rest {threads['rest']:.1f}"
            )
            r["threads"] = threads
            if r["errors"]:
                print("   errors:", sorted(set(r["errors"]))[:5])
        causes = _error_causes(server_log)
        if causes:
            print("   server errors (last line of each traceback):", causes[:5])
        held = [
            count
            for count, r in rows
            if r["other"] and _p95(r["other"]) <= TARGET_P95 and not r["errors"]
        ]
        print(
            f"The action alone in process: {alone_cpu:.1f} ms of CPU "
            f"({cpus[0]:.1f} before the levels, {cpus[1]:.1f} after; "
            f"median {alone_wall:.1f} ms of wall time)"
        )
        at = dict(rows)[max(held)] if held else rows[0][1]
        tables = max(held) if held else 0
        # Tables held times the action alone's cost: what the machine's speed
        # does not change (a machine twice as slow holds half the tables).
        print(
            f"Tables held x the action alone: {tables} x {alone_cpu:.1f} ms = "
            f"{tables * alone_cpu:.0f} (machine-independent); server CPU per "
            f"action with its fan-out {at['cpu_ms'] / alone_cpu:.2f}x the action alone"
        )
        split = at["threads"]
        print(
            f"Beside the action alone, at that level: the workers' own "
            f"{split['workers'] - alone_cpu:+.1f} ms (the taps as served, the "
            f"fetches), the look {split['look']:.1f}, the event loop "
            f"{split['loop']:.1f}, the rest {split['rest']:.1f}"
        )
        print(
            f"RESULT tables_held_at_p95_150ms={tables} "
            f"cpu_ms_per_action={at['cpu_ms']:.1f} action_alone_ms={alone_cpu:.1f} "
            f"tables_x_action_ms={tables * alone_cpu:.0f} "
            f"cpu_ratio={at['cpu_ms'] / alone_cpu:.2f} "
            f"workers_ms={split['workers']:.1f} "
            f"look_ms={split['look']:.1f} loop_ms={split['loop']:.1f} "
            f"slower={args.slower:g}"
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        if args.database == "postgres":
            from django.db import connections

            connections.close_all()
            with psycopg.connect(admin, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
