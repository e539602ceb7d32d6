"""The live status line and the result proposal on two phones (issue 23).

The status line stays in view while the phone is offline or cannot reach
the server (it said "Live" for 32 s with the server stopped, and sat above
the viewport after a tap); "server unreachable" is said when polls fail. A
result proposed on one phone reaches the other within a second (it took
1-3 s, at the next 4 s poll). The other phone's board is pushed: it makes
no request of its own.
"""

from __future__ import annotations

import subprocess
import sys
import time

import httpx
import pytest

from battles.services.games import perform_action
from tests.browser.test_game_screen import (  # noqa: F401 (the fixture)
    in_viewport,
    open_game,
    phones,
    two_phone_game,
)
from tests.support.layout_shifts import layout_shift, watch_layout_shifts
from tests.support.live import OPPONENT, OWNER
from tests.support.phone_page import hold_session, settled
from tests.support.servers import ROOT, free_port, manage, server_env, shell_json
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def scroll_to_the_end(page) -> None:
    page.mouse.wheel(0, 20_000)
    page.wait_for_timeout(200)


def test_the_status_line_stays_in_view_while_offline(phones, live_server):  # noqa: F811
    game = two_phone_game()
    a, b = phones["a"], phones["b"]
    open_game(b, live_server.url, OPPONENT, game)
    scroll_to_the_end(b)
    assert not in_viewport(b, "#live-status")  # live: it scrolls away
    b.context.set_offline(True)
    b.wait_for_selector("#live-status[data-state=offline]")
    assert in_viewport(b, "#live-status")
    assert "Offline" in b.locator("#live-status").inner_text()
    shot(b, "25", "offline-status-in-view")
    b.context.set_offline(False)
    b.wait_for_selector("#live-status[data-state=live]", timeout=8000)
    del a


def test_the_other_phone_takes_the_push_without_a_request(phones, live_server):  # noqa: F811
    from tests.battles.test_live_push import _to_first_draw

    game = _to_first_draw(two_phone_game())
    speaker = game.state["draw"]["speaker"]
    owners = {"a": OWNER, "b": OPPONENT}
    drawer, other = phones[speaker], phones["b" if speaker == "a" else "a"]
    open_game(drawer, live_server.url, owners[speaker], game)
    open_game(other, live_server.url, owners["b" if speaker == "a" else "a"], game)
    requests, own = [], []
    other.on("request", lambda request: requests.append(request.url))
    drawer.on("request", lambda request: own.append(request.url))
    settled(drawer, drawer.locator("form button[name='action']").first.click)
    game.refresh_from_db()
    other.wait_for_selector(
        f"#game-status[data-version='{game.version}']", timeout=3000
    )
    newest = drawer.locator(".log-lines li").first.inner_text()
    assert other.locator(".log-lines li").first.inner_text() == newest
    other.wait_for_timeout(300)
    assert requests == []  # no board fetched, nothing at all asked
    assert [url for url in own if "/board" in url] == []  # the tap's answer only
    assert other.locator("#live-status").get_attribute("data-state") == "live"


def test_a_result_proposal_reaches_the_other_phone_within_a_second(
    phones,  # noqa: F811
    live_server,
):
    game = two_phone_game()
    perform_action(game, "b", {"type": "concede"})
    a, b = phones["a"], phones["b"]
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)
    b.locator("#game-outcome-status").wait_for()
    propose = a.get_by_role("button", name="Propose to the other phone")
    propose.wait_for()
    settled(a, propose.click)
    proposed = time.monotonic()
    b.get_by_role("button", name="Confirm this result").wait_for(timeout=3000)
    assert time.monotonic() - proposed < 1.0
    settled(b, b.get_by_role("button", name="Confirm this result").click)
    a.locator("#outcome-settled").wait_for(timeout=1000)


def test_server_unreachable_is_said_in_view_when_the_server_stops(browser, tmp_path):
    from tests.browser.conftest import PageProblems, open_phone

    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path / 'gone.sqlite3'}")
    manage("migrate", "--noinput", env=env)
    manage("load_demo", env=env)
    game = shell_json(
        "from tests.support.live_setup import setup_game; setup_game()", env
    )
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "confrontation_site.serve"]
        + ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    context, page = open_phone(browser, PageProblems(), locale="en-GB")
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        hold_session(page, base, game["sessions"]["b"])
        page.goto(f"{base}/games/{game['public_id']}/")
        page.wait_for_selector("#live-status[data-state=live]")
        scroll_to_the_end(page)
        process.terminate()
        process.wait(timeout=10)
        page.wait_for_selector("#live-status[data-state=reconnecting]", timeout=5000)
        assert in_viewport(page, "#live-status")
        page.wait_for_selector("#live-status[data-state=unreachable]", timeout=20_000)
        assert "Server unreachable" in page.locator("#live-status").inner_text()
        assert in_viewport(page, "#live-status")
        shot(page, "25", "server-unreachable-in-view")
    finally:
        page.goto("about:blank")
        context.close()
        if process.poll() is None:
            process.kill()
            process.wait(timeout=5)


def test_no_layout_shift_on_either_phone_over_a_whole_turn(phones, live_server):  # noqa: F811
    from tests.browser.test_game_screen import _act_once

    game = two_phone_game()
    a, b = phones["a"], phones["b"]
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)
    for page in (a, b):
        watch_layout_shifts(page)
    for _ in range(300):
        if "Turn 2 of" in a.locator("#game-status").inner_text():
            break
        acted = False
        for page in (a, b):
            acted = _act_once(page) or acted
        if not acted:
            a.wait_for_timeout(150)
    b.wait_for_selector("#game-status:has-text('Turn 2 of')", timeout=5000)
    for name, page in (("a", a), ("b", b)):
        total, shifts = layout_shift(page)
        print(f"phone {name}: CLS {total:.4f} over a turn; {shifts[:5]}")
        assert total <= 0.02, (name, total, shifts)


def test_a_refresh_dropped_for_a_tap_logs_no_console_error(phones, live_server):  # noqa: F811
    """B's board fetch is under way when B taps: the fetch is dropped (the
    tap's answer comes first), quietly, and the board catches up after."""
    game = two_phone_game()
    a, b = phones["a"], phones["b"]
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)
    console = []
    b.on("console", lambda message: console.append((message.type, message.text)))
    held = []

    def hold_first(route):
        if held:
            route.continue_()
        else:
            held.append(route)  # answered after B's tap

    # A card moved on B's phone: its draft, which no push knows, so that A's
    # sequence makes B fetch its board (held here).
    settled(b, b.locator(".sequence-card").first.get_by_role("button").last.click)
    assert b.locator("#game-panel [data-own-draft]").count() == 1
    b.route("**/board?since=*", hold_first)
    settled(a, a.get_by_role("button", name="Confirm this sequence").click)
    for _ in range(100):
        if held:
            break
        b.wait_for_timeout(20)
    assert held, "B did not fetch its board"
    settled(b, b.get_by_role("button", name="Confirm this sequence").click)
    try:
        held[0].continue_()
    except Exception:  # noqa: BLE001 - dropped by the page meanwhile
        pass
    game.refresh_from_db()
    b.wait_for_selector(f"#game-status[data-version='{game.version}']", timeout=5000)
    assert [text for kind, text in console if kind == "error"] == []
