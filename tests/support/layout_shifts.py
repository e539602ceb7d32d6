"""Layout shifts on a phone's page (CLS, issue 25), noted by the page itself.

A shift within 0.5 s of the phone's own input is the tap's result, not a
jump (the browser marks it ``hadRecentInput``); the others are counted: the
idle phone's page moving while the other side plays.
"""

from __future__ import annotations

_WATCH = """() => {
  window.layoutShifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.layoutShifts.push({
        value: entry.value,
        nodes: entry.sources.map((s) => [
          s.node ? s.node.id || s.node.className || s.node.nodeName : "?",
          s.previousRect.y, s.previousRect.height,
          s.currentRect.y, s.currentRect.height,
        ].join(" ")),
        panel: (document.querySelector("#game-panel") || {}).className,
        draws: (document.querySelector("#game-draws") || {}).hidden,
      });
    }
  }).observe({type: "layout-shift", buffered: false});
}"""


def watch_layout_shifts(page) -> None:
    """Start noting the page's layout shifts (until it is left)."""
    page.evaluate(_WATCH)


def layout_shift(page) -> tuple[float, list[dict]]:
    """The layout shift score since ``watch_layout_shifts``, and each shift."""
    shifts = page.evaluate("() => window.layoutShifts")
    return sum(shift["value"] for shift in shifts), shifts
