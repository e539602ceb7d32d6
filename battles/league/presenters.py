"""What the league pages draw: a small line chart as SVG coordinates."""

from __future__ import annotations

from collections import Counter

from rules.league import RATING_BASE, shown_rating

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


# The rating chart: room on the left for the values, at the bottom for the dates.
RATING_CHART = {
    "width": 320,
    "height": 170,
    "left": 44,
    "right": 12,
    "top": 10,
    "bottom": 34,
}


def _ticks(low: int, high: int, y) -> list[int]:
    """The lowest and highest values, and 1500 unless its label would touch theirs."""
    ticks = [low, high]
    if all(abs(y(RATING_BASE) - y(value)) >= 12 for value in ticks):
        ticks.append(RATING_BASE)
    return sorted(set(ticks))


def rating_chart(points: list[dict]) -> dict | None:
    """The club rating curve with its axes: ``points`` are ``{"date", "rating"}``
    (``rules.league.Rating``), oldest first; x is the date, y the rating on the
    club's scale (``rules.league.shown_rating``).

    Returns the polyline, the y ticks (lowest, highest and 1500, with their
    heights), the x ticks (first and last date) and the axes, as text
    coordinates (a template would localise a float), or None without a point.
    """
    if not points:
        return None
    box = RATING_CHART
    values = [shown_rating(point["rating"]).value for point in points]
    days = [point["date"] for point in points]
    low, high = min([*values, RATING_BASE]), max([*values, RATING_BASE])
    if high == low:
        low, high = low - 50, high + 50
    inner_w = box["width"] - box["left"] - box["right"]
    inner_h = box["height"] - box["top"] - box["bottom"]
    bottom = box["top"] + inner_h
    # x is the date; the games of one day are spread over most of that day.
    first = days[0]
    per_day = Counter(days)
    place = [
        (day - first).days + 0.8 * days[:i].count(day) / per_day[day]
        for i, day in enumerate(days)
    ]
    span = max(place) or 1.0

    def y(value: float) -> float:
        return box["top"] + inner_h * (high - value) / (high - low)

    coords = [
        (box["left"] + inner_w * at / span, y(value))
        for at, value in zip(place, values, strict=True)
    ]
    x_ticks = [{"date": first, "x": box["left"], "anchor": "start"}]
    if days[-1] != first:
        x_ticks.append(
            {"date": days[-1], "x": box["width"] - box["right"], "anchor": "end"}
        )
    return {
        "width": box["width"],
        "height": box["height"],
        "points": " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords),
        "left": box["left"],
        "right": box["width"] - box["right"],
        "top": box["top"],
        "bottom": f"{bottom:.1f}",
        "y_label_x": box["left"] - 4,
        "x_label_y": f"{bottom + 16:.1f}",
        "y_ticks": [
            {
                "value": value,
                "y": f"{y(value):.1f}",
                "text_y": f"{y(value) + 4:.1f}",
                "base": value == RATING_BASE,
            }
            for value in _ticks(low, high, y)
        ],
        "x_ticks": x_ticks,
        "low": min(values),
        "high": max(values),
        "count": len(values),
    }
