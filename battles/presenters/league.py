"""What the league pages draw: a small line chart as SVG coordinates."""

from __future__ import annotations

CHART_WIDTH = 320
CHART_HEIGHT = 120
CHART_PAD = 8


def rating_curve_points(values: list[float]) -> dict | None:
    """The polyline of ``values`` (one per game) in a 320×120 box, or None.

    Also the zero line's height when zero lies inside the range, and the
    lowest and highest value for the chart's labels.
    """
    if not values:
        return None
    low, high = min(values), max(values)
    if high == low:
        low, high = low - 1, high + 1
    inner_w = CHART_WIDTH - 2 * CHART_PAD
    inner_h = CHART_HEIGHT - 2 * CHART_PAD
    step = inner_w / max(1, len(values) - 1)

    def y(value: float) -> float:
        return CHART_PAD + inner_h * (high - value) / (high - low)

    points = " ".join(
        f"{CHART_PAD + i * step:.1f},{y(value):.1f}" for i, value in enumerate(values)
    )
    return {
        "points": points,
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "low": min(values),
        "high": max(values),
        "last": values[-1],
        # Coordinates as text: a template would localise a float ("112,0").
        "zero": f"{y(0):.1f}" if low <= 0 <= high else None,
        "count": len(values),
    }
