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

Rounds alternate, unthrottled then with both pages' CPU throttled 4x
(CDP ``Emulation.setCPUThrottlingRate``), ``--rounds`` of each (3 by
default), each on a fresh game (so every round plays the same opening):
each round's p50 and p95, then the spread (min-max) of the rounds' p50s.
The last line is ``RESULT tap_p50_ms=X tap_p50_ms_throttled=Y
other_phone_p95_ms=Z ...`` (medians of the rounds' figures; Z unthrottled,
one table), then the spreads.

Each round also splits its taps' time (medians) in three, from the tap's
request in the page's Resource Timing: the phone before the request (the
tap's handling until it is sent), the server and the network (until the
page holds the answer's last byte), the phone after the answer (its swap,
style, layout and paint): which of the three a change must cut. A page
throttled 4x notes the answer's arrival late (its main thread reads it):
the unthrottled rounds' middle figure is the server's own.

``--trace``: one more round, throttled 4x, under a Chromium performance
trace (``devtools.timeline``): for each tap, from the tap to its paint on
the tapping phone's main thread, its CPU time (thread time: a figure the
machine's load barely moves), the milliseconds of script, style
(UpdateLayoutTree), layout and paint (PrePaint, Paint, Layerize), the
number of style and layout passes, and the elements and bytes of the
answer the tap swapped; then the medians. The tracing slows the page: its
taps are not timed with the rounds.

``--slower F``: as on a machine F times slower (``tests/bench/slower.py``:
every core given to the server and Chromium 1/F of the time).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

from tests.bench.slower import add_slower_option, slower  # noqa: E402
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
  performance.setResourceTimingBufferSize(10000);
  window.tapAt = null;
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("#board button")) {
      window.tapAt = performance.timeOrigin + event.timeStamp;
      performance.mark("bench-tap");
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
      if (tap !== null) performance.mark("bench-paint-" + version);
      // The tap's own request, once answered (its entry is made then).
      const post = tap === null ? null : performance.getEntriesByType("resource")
        .filter((entry) => entry.initiatorType === "xmlhttprequest"
          && entry.name.endsWith("/act")
          && performance.timeOrigin + entry.startTime >= tap).pop();
      window.paints.push({
        version: Number(version),
        tap: tap,
        sent: post ? performance.timeOrigin + post.startTime : null,
        received: post ? performance.timeOrigin + post.responseEnd : null,
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


def play_round(phones: dict, taps: int, answers: list | None = None) -> dict:
    """``taps`` taps on whichever phone has something to do; the paints.
    ``answers``: if given, gets each timed tap's answer (its HTML)."""
    kinds: Counter = Counter()
    tapped: list[tuple[str, int, str]] = []  # (side, version after, kind)
    bodies: dict[int, str] = {}
    idle = 0
    while len(tapped) < taps and idle < 200:
        acted = False
        for side, page in phones.items():
            button, kind = tap_button(page)
            if button is None:
                continue
            before = version_of(page)
            if answers is None:
                button.click()
                answer = None
            else:
                with page.expect_response(
                    lambda r: r.request.method == "POST"
                ) as answer:
                    button.click()
            if not wait_version(page, before + 1):
                continue  # refused (shown by the button): try the next one
            after = version_of(page)
            if answer is not None:
                bodies[after] = answer.value.text()
            other = phones["b" if side == "a" else "a"]
            wait_version(other, after)
            page.wait_for_timeout(60)  # the paint is noted
            kinds[kind] += 1
            tapped.append((side, after, kind))
            acted = True
            break
        idle = 0 if acted else idle + 1
        if not acted:
            phones["a"].wait_for_timeout(50)
    paints = {
        side: page.evaluate("() => window.paints") for side, page in phones.items()
    }
    tap_ms, other_ms = [], []
    split: list[tuple[float, float, float]] = []  # before, server, after (ms)
    for side, version, kind in tapped:
        mine = next((p for p in paints[side] if p["version"] == version), None)
        other = next(
            (p for p in paints["b" if side == "a" else "a"] if p["version"] >= version),
            None,
        )
        if mine is None or mine["tap"] is None:
            continue
        tap_ms.append(mine["painted"] - mine["tap"])
        if mine["sent"] is not None:
            split.append(
                (
                    mine["sent"] - mine["tap"],
                    mine["received"] - mine["sent"],
                    mine["painted"] - mine["received"],
                )
            )
        if other is not None:
            other_ms.append(other["painted"] - mine["tap"])
        if answers is not None:
            answers.append((side, version, kind, bodies.get(version, "")))
    for page in phones.values():
        page.evaluate("() => { window.paints = []; }")
    return {"tap": tap_ms, "other": other_ms, "kinds": kinds, "split": split}


class _Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.count = 0

    def handle_starttag(self, tag, attrs):
        self.count += 1


def elements(html: str) -> int:
    """The elements in an answer (what htmx parses and swaps in)."""
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser.count


# The renderer main thread's work, by kind (devtools.timeline events).
STYLE = {"UpdateLayoutTree", "RecalculateStyles"}
LAYOUT = {"Layout"}
PAINT = {"PrePaint", "Paint", "Layerize", "UpdateLayer", "PaintImage"}
SCRIPT = {
    "EvaluateScript",
    "FunctionCall",
    "TimerFire",
    "EventDispatch",
    "FireAnimationFrame",
    "XHRReadyStateChange",
    "XHRLoad",
    "RunMicrotasks",
    "v8.evaluateModule",
}
TRACE_CATEGORIES = [
    "devtools.timeline",
    "blink.user_timing",
    "v8.execute",
    "disabled-by-default-devtools.timeline",
]


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    merged: list[list[float]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def _length(spans, start, end) -> float:
    return sum(max(0.0, min(b, end) - max(a, start)) for a, b in spans)


def _overlap(spans, others, start, end) -> float:
    total = 0.0
    for a, b in spans:
        for c, d in others:
            total += max(0.0, min(b, d, end) - max(a, c, start))
    return total


def trace_taps(trace: dict) -> list[dict]:
    """Per tap (a ``bench-tap`` mark, then its ``bench-paint-N``), on the
    main thread that marked it: script, style, layout, paint ms (script
    without the style and layout it forced) and the style/layout passes."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    marks = [
        e
        for e in events
        if str(e.get("name", "")).startswith(("bench-tap", "bench-paint-"))
    ]
    taps = []
    opened = {}
    for mark in sorted(marks, key=lambda e: e["ts"]):
        thread = (mark["pid"], mark["tid"])
        if mark["name"] == "bench-tap":
            opened[thread] = mark["ts"]
        elif thread in opened:
            version = int(mark["name"].removeprefix("bench-paint-"))
            taps.append((thread, opened.pop(thread), mark["ts"], version))
    by_thread: dict = {}
    for e in events:
        if e.get("ph") == "X" and "dur" in e:
            by_thread.setdefault((e["pid"], e["tid"]), []).append(e)
    figures = []
    for thread, start, end, version in taps:
        spans = {"script": [], "style": [], "layout": [], "paint": []}
        passes = {"style": 0, "layout": 0}
        for e in by_thread.get(thread, ()):
            a, b = e["ts"], e["ts"] + e["dur"]
            if b < start or a > end:
                continue
            name = e["name"]
            kind = (
                "style"
                if name in STYLE
                else "layout"
                if name in LAYOUT
                else "paint"
                if name in PAINT
                else "script"
                if name in SCRIPT
                else None
            )
            if kind is None:
                continue
            spans[kind].append((a, b))
            if kind in passes:
                passes[kind] += 1
        # The main thread's CPU time (thread time of its outermost tasks begun
        # in the window): what the phone worked, whatever else the machine
        # ran meanwhile (a figure the load barely moves, unlike the others).
        cpu = 0.0
        reach = -1.0
        for e in sorted(by_thread.get(thread, ()), key=lambda e: (e["ts"], -e["dur"])):
            if e["ts"] < reach:
                continue  # inside a task already counted
            reach = e["ts"] + e["dur"]
            if start <= e["ts"] <= end:
                cpu += e.get("tdur", 0)
        union = {k: _union(v) for k, v in spans.items()}
        forced = union["style"] + union["layout"]
        ms = {k: _length(v, start, end) / 1000 for k, v in union.items()}
        ms["script"] -= _overlap(union["script"], forced, start, end) / 1000
        figures.append(
            {
                "version": version,
                "tap_ms": (end - start) / 1000,
                "cpu": cpu / 1000,
                **ms,
                "style_passes": passes["style"],
                "layout_passes": passes["layout"],
            }
        )
    return figures


def run_trace(browser, phones: dict, taps: int, keep: Path | None = None) -> None:
    """A throttled round under a performance trace; per tap, what the
    tapping phone's main thread did, and what its answer swapped. ``keep``:
    the trace is written there too (DevTools' Performance panel opens it)."""
    answers: list = []
    browser.start_tracing(categories=TRACE_CATEGORIES)
    try:
        play_round(phones, taps, answers)
    finally:
        raw = browser.stop_tracing()
    if keep is not None:
        keep.write_bytes(raw)
    trace = json.loads(raw)
    figures = {f["version"]: f for f in trace_taps(trace)}
    rows = []
    for _side, version, kind, body in answers:
        figure = figures.get(version)
        if figure is None:
            continue
        rows.append(
            {**figure, "kind": kind, "elements": elements(body), "kb": len(body) / 1024}
        )
    print(
        "\nTrace, throttled 4x: the tapping phone's main thread from the tap to "
        "its paint\n"
    )
    keys = ["tap_ms", "cpu", "script", "style", "layout", "paint"]
    print(
        "kind           tap ms  cpu ms  script  style  layout  paint  "
        "passes(st/lay)  answer elements  kB"
    )
    for r in rows:
        print(
            f"{r['kind']:13s} {r['tap_ms']:7.1f} "
            + " ".join(f"{r[k]:6.1f}" for k in keys[1:])
            + f"   {r['style_passes']:4d} {r['layout_passes']:4d}"
            f"   {r['elements']:15d} {r['kb']:5.1f}"
        )
    if rows:
        med = {
            k: statistics.median(r[k] for r in rows)
            for k in keys + ["style_passes", "layout_passes", "elements", "kb"]
        }
        nodes = {
            side: page.evaluate("() => document.getElementsByTagName('*').length")
            for side, page in phones.items()
        }
        print(
            f"median        {med['tap_ms']:7.1f} "
            + " ".join(f"{med[k]:6.1f}" for k in keys[1:])
            + f"   {med['style_passes']:4.0f} {med['layout_passes']:4.0f}"
            f"   {med['elements']:15.0f} {med['kb']:5.1f}"
        )
        print("page elements now:", nodes)
        print(
            "TRACE "
            + " ".join(
                f"{k}_ms={med[k]:.1f}"
                for k in ["cpu", "script", "style", "layout", "paint"]
            )
            + f" answer_elements={med['elements']:.0f} answer_kb={med['kb']:.1f}"
            f" page_elements={max(nodes.values())}"
        )


def pct(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def open_phones(browser, base: str, game: dict, throttle: int) -> tuple:
    """Two phones (sides A and B) on ``game``'s page, live, CPU throttled
    ``throttle`` times (1: not)."""
    phones, contexts = {}, []
    for side in "ab":
        context = browser.new_context(locale="en-GB", **PHONE)
        context.add_cookies(
            [{"name": "sessionid", "value": game["sessions"][side], "url": base}]
        )
        page = context.new_page()
        page.goto(f"{base}/games/{game['public_id']}/")
        page.wait_for_selector("#live-status[data-state=live]")
        page.evaluate(WATCH)
        if throttle > 1:
            session = context.new_cdp_session(page)
            session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        phones[side] = page
        contexts.append(context)
    return phones, contexts


def spread(values: list[float]) -> str:
    return f"{min(values):.0f}-{max(values):.0f}" if values else "nan"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=40, help="taps per round")
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds of each (unthrottled, 4x)"
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="then a throttled round under a Chromium trace (per tap figures)",
    )
    parser.add_argument(
        "--trace-file", type=Path, help="with --trace: keep the raw trace there"
    )
    add_slower_option(parser)
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
    plan = [("unthrottled", 1), ("throttled 4x", 4)] * args.rounds
    try:
        manage("collectstatic", "--noinput", env=env)
        manage("migrate", "--noinput", env=env)
        manage("load_demo", env=env)
        setup = "from tests.support.live_setup import setup_game; setup_game()"
        games = [shell_json(setup, env) for _ in range(len(plan) + args.trace)]
        rounds: list[tuple[str, dict]] = []
        with (
            slower(args.slower),
            uvicorn(env) as base,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(
                executable_path=chromium, headless=True, args=CHROMIUM_ARGS
            )
            for (name, throttle), game in zip(plan, games, strict=False):
                phones, contexts = open_phones(browser, base, game, throttle)
                rounds.append((name, play_round(phones, args.taps)))
                for context in contexts:
                    context.close()
            if args.trace:
                phones, contexts = open_phones(browser, base, games[-1], 4)
                run_trace(browser, phones, args.taps, args.trace_file)
                for context in contexts:
                    context.close()
            browser.close()
        emulated = (
            f"; as on a machine {args.slower:g}x slower: every core given to "
            f"the server and Chromium 1/{args.slower:g} of the time"
            if args.slower > 1
            else ""
        )
        print(
            "\nTap to paint in Chromium, 360x740, two phones of one game "
            f"(one uvicorn process, SQLite, DEBUG=false, {os.cpu_count()} CPUs; "
            f"each round a fresh game{emulated})\n"
        )
        print(
            "round          taps  tap->paint ms (p50  p95)  other phone ms (p50  p95)"
        )
        for name, r in rounds:
            print(
                f"{name:13s}  {len(r['tap']):4d}  {pct(r['tap'], 0.5):10.1f} "
                f"{pct(r['tap'], 0.95):6.1f}  {pct(r['other'], 0.5):14.1f} "
                f"{pct(r['other'], 0.95):6.1f}"
            )
            print("   kinds:", dict(r["kinds"]))
            if r["split"]:
                before, server, after = (
                    statistics.median(part) for part in zip(*r["split"], strict=True)
                )
                print(
                    f"   split (medians): phone before the request {before:.1f} ms, "
                    f"server and network {server:.1f}, phone after the answer "
                    f"{after:.1f}"
                )
        figures = {}
        for label, name, key, fraction in [
            ("tap_p50_ms", "unthrottled", "tap", 0.5),
            ("tap_p50_ms_throttled", "throttled 4x", "tap", 0.5),
            ("other_phone_p95_ms", "unthrottled", "other", 0.95),
            ("tap_p95_ms_throttled", "throttled 4x", "tap", 0.95),
            ("other_phone_p95_ms_throttled", "throttled 4x", "other", 0.95),
        ]:
            values = [pct(r[key], fraction) for n, r in rounds if n == name]
            figures[label] = values
        print("\nspread over the rounds (min-max):")
        for label, values in figures.items():
            print(
                f"  {label:30s} median {statistics.median(values):6.1f}  "
                f"spread {spread(values)}  rounds {[round(v) for v in values]}"
            )
        print(
            "RESULT "
            + " ".join(
                f"{label}={statistics.median(values):.0f}"
                for label, values in figures.items()
            )
            + f" rounds={args.rounds} slower={args.slower:g}"
            + " tap_p50_spread_ms="
            + spread(figures["tap_p50_ms"])
            + " tap_p50_throttled_spread_ms="
            + spread(figures["tap_p50_ms_throttled"])
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
