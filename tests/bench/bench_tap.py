"""Tap-to-paint benchmark: a two-phone game in Chromium at 360x740.

Run: ``.venv/bin/python tests/bench/bench_tap.py`` (``--taps 40`` per round).
Not collected by pytest.

A uvicorn server as ``make run`` starts it (one process, SQLite, the
in-process bus, DEBUG off); two phones (browser contexts, 360x740, touch)
hold sides A and B of a fresh game. The phones play it by tapping what
their panel offers (the first choice: a sequence, a Tactics fighter, the
rolls, draws, activations, combats, upkeep lines...), one tap at a time.
In each page a small observer notes when the board's version changes and
the frame after it (``requestAnimationFrame`` then a task: the paint):

- the tap's paint: from the tap (the click event's time) to that frame on
  the tapping phone;
- the other phone's paint: from the tap to that frame on the other phone
  (the push through the stream; both pages share one clock).

A first round unthrottled, a second with both pages' CPU throttled 4x
(CDP ``Emulation.setCPUThrottlingRate``). The last line is ``RESULT
tap_p50_ms=X tap_p50_ms_throttled=Y other_phone_p95_ms=Z`` (Z unthrottled,
one table).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from tests.support.servers import manage, server_env, shell_json, uvicorn  # noqa: E402

PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic"]

WATCH = """() => {
  window.paints = [];
  window.tapAt = null;
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("#board button")) {
      window.tapAt = performance.timeOrigin + event.timeStamp;
    }
  }, true);
  let shown = (document.querySelector("#game-status") || {dataset: {}}).dataset.version;
  new MutationObserver(() => {
    const status = document.querySelector("#game-status");
    const version = status && status.dataset.version;
    if (!version || version === shown) return;
    shown = version;
    const tap = window.tapAt;
    window.tapAt = null;
    requestAnimationFrame(() => setTimeout(() => {
      window.paints.push({
        version: Number(version),
        tap: tap,
        painted: performance.timeOrigin + performance.now(),
      });
    }, 0));
  }).observe(document.body, {subtree: true, childList: true, attributes: true,
                             attributeFilter: ["data-version"]});
}"""

NAMED = {
    "strategic": ["Confirm this sequence", "Choose this fighter"],
    "roll": ["Roll"],
    "first": ["Side A speaks first"],
    "activation": ["Done: pass the floor"],
    "form_combats": ["Confirm these combats"],
    "parry": ["Take the blow"],
}
SELECTOR = {
    "six": "#game-panel .button-row button",
    "draw": "#game-panel form.stack button",
    "choose_combat": "#game-panel form.stack button",
    "combat": "#game-panel form button.button-block",
    "upkeep": "#game-panel .checklist li.next button",
}


def panel_kind(page) -> str:
    classes = page.locator("#game-panel").get_attribute("class") or ""
    return next(
        (c.removeprefix("panel-") for c in classes.split() if c.startswith("panel-")),
        "wait",
    )


def tap_button(page):
    """The button this phone's panel offers first, and the panel's kind."""
    kind = panel_kind(page)
    if kind in ("wait", "watch", "finished"):
        return None, kind
    if kind in NAMED:
        for name in NAMED[kind]:
            button = page.locator("#game-panel").get_by_role(
                "button", name=name, exact=True
            )
            if button.count():
                return button.first, kind
        return None, kind
    selector = SELECTOR.get(kind)
    button = page.locator(selector) if selector else None
    if button is None or not button.count():
        return None, kind
    return button.first, kind


def version_of(page) -> int:
    return int(page.locator("#game-status").get_attribute("data-version") or 0)


def wait_version(page, version: int, seconds: float = 10) -> bool:
    """Wait in the page (a check per frame, no round trip to it): polling
    it from here would load the very main thread being measured."""
    try:
        page.wait_for_function(
            """(version) => {
                const status = document.getElementById("game-status");
                return !!status && Number(status.dataset.version) >= version;
            }""",
            arg=version,
            polling="raf",
            timeout=seconds * 1000,
        )
    except PlaywrightTimeout:
        return False
    return True


def play_round(phones: dict, taps: int) -> dict:
    """``taps`` taps on whichever phone has something to do; the paints."""
    kinds: Counter = Counter()
    tapped: list[tuple[str, int]] = []  # (side, version after the tap)
    idle = 0
    while len(tapped) < taps and idle < 200:
        acted = False
        for side, page in phones.items():
            button, kind = tap_button(page)
            if button is None:
                continue
            before = version_of(page)
            button.click()
            if not wait_version(page, before + 1):
                continue  # refused (shown by the button): try the next one
            after = version_of(page)
            other = phones["b" if side == "a" else "a"]
            wait_version(other, after)
            page.wait_for_timeout(60)  # the paint is noted
            kinds[kind] += 1
            tapped.append((side, after))
            acted = True
            break
        idle = 0 if acted else idle + 1
        if not acted:
            phones["a"].wait_for_timeout(50)
    paints = {
        side: page.evaluate("() => window.paints") for side, page in phones.items()
    }
    tap_ms, other_ms = [], []
    for side, version in tapped:
        mine = next((p for p in paints[side] if p["version"] == version), None)
        other = next(
            (p for p in paints["b" if side == "a" else "a"] if p["version"] >= version),
            None,
        )
        if mine is None or mine["tap"] is None:
            continue
        tap_ms.append(mine["painted"] - mine["tap"])
        if other is not None:
            other_ms.append(other["painted"] - mine["tap"])
    for page in phones.values():
        page.evaluate("() => { window.paints = []; }")
    return {"tap": tap_ms, "other": other_ms, "kinds": kinds}


def pct(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=40)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    scratch = Path(tempfile.mkdtemp(prefix="confrontation-bench-tap-"))
    env = server_env(
        DATABASE_URL=f"sqlite:///{scratch / 'tap.sqlite3'}", LIVE_BUS="memory"
    )
    env.update(
        DEBUG="false",
        SECRET_KEY="bench-only-secret-key-0123456789abcdefghijklmnopqrstuv",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
    )
    chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    try:
        manage("collectstatic", "--noinput", env=env)
        manage("migrate", "--noinput", env=env)
        manage("load_demo", env=env)
        game = shell_json(
            "from tests.support.live_setup import setup_game; setup_game()", env
        )
        rounds = {}
        with uvicorn(env) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium, headless=True, args=CHROMIUM_ARGS
            )
            phones, sessions = {}, {}
            for side in "ab":
                context = browser.new_context(locale="en-GB", **PHONE)
                context.add_cookies(
                    [
                        {
                            "name": "sessionid",
                            "value": game["sessions"][side],
                            "url": base,
                        }
                    ]
                )
                page = context.new_page()
                page.goto(f"{base}/games/{game['public_id']}/")
                page.wait_for_selector("#live-status[data-state=live]")
                page.evaluate(WATCH)
                phones[side] = page
                sessions[side] = context.new_cdp_session(page)
            rounds["unthrottled"] = play_round(phones, args.taps)
            for session in sessions.values():
                session.send("Emulation.setCPUThrottlingRate", {"rate": 4})
            rounds["throttled 4x"] = play_round(phones, args.taps)
            browser.close()
        print(
            "\nTap to paint in Chromium, 360x740, two phones of one game "
            f"(one uvicorn process, SQLite, DEBUG=false, {os.cpu_count()} CPUs)\n"
        )
        print(
            "round          taps  tap->paint ms (p50  p95)  other phone ms (p50  p95)"
        )
        for name, r in rounds.items():
            print(
                f"{name:13s}  {len(r['tap']):4d}  {pct(r['tap'], 0.5):10.1f} "
                f"{pct(r['tap'], 0.95):6.1f}  {pct(r['other'], 0.5):14.1f} "
                f"{pct(r['other'], 0.95):6.1f}"
            )
            print("   kinds:", dict(r["kinds"]))
        print(
            f"RESULT tap_p50_ms={pct(rounds['unthrottled']['tap'], 0.5):.0f} "
            f"tap_p50_ms_throttled={pct(rounds['throttled 4x']['tap'], 0.5):.0f} "
            f"other_phone_p95_ms={pct(rounds['unthrottled']['other'], 0.95):.0f}"
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
