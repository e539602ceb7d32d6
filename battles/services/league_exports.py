"""A season's files: standings, results, and the T³ results for the European
ranking. They open cleanly in a spreadsheet: UTF-8 with a BOM (accents
right), ``;`` and decimal commas for French (what a French spreadsheet
reads), numbers written as numbers, words not codes, the season named in
every row; text that a spreadsheet would run as a formula starts with a '.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import Decimal

from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from battles.models.league import Season
from battles.services import league as services

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Sheet:
    filename: str
    header: list[str]
    rows: list[list]


def french() -> bool:
    return (get_language() or "").startswith("fr")


def cell(value, *, comma: bool):
    """A cell: numbers as numbers (no formula guard), text guarded."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float | Decimal):
        text = f"{value:.3f}"
        return text.replace(".", ",") if comma else text
    text = "" if value is None else str(value)
    if text[:1] in FORMULA_STARTS:
        return "'" + text
    return text


def csv_text(sheet: Sheet) -> str:
    """The file's text: BOM, header, rows (``;`` and decimal commas in French)."""
    comma = french()
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer, delimiter=";" if comma else ",", lineterminator="\r\n")
    writer.writerow(sheet.header)
    for row in sheet.rows:
        writer.writerow([cell(value, comma=comma) for value in row])
    return buffer.getvalue()


def _name(season: Season, what: str) -> str:
    return f"{slugify(season.club.name)}-{slugify(season.name)}-{what}.csv"


def outcome_words(result) -> str:
    if result.outcome == "draw":
        return _("Draw")
    winner = result.player_a if result.outcome == "a" else result.player_b
    return _("%(name)s won") % {"name": winner.get_username()}


def standings_sheet(season: Season) -> Sheet:
    table = services.season_table(season)
    header = [
        _("Season"),
        _("Rank"),
        _("Player"),
        _("Played"),
        _("Won"),
        _("Drawn"),
        _("Lost"),
        _("Points"),
        _("Head to head"),
        _("Score for"),
        _("Score against"),
        _("Goal average"),
        _("Strength of schedule"),
        _("Rating (mu)"),
        _("Rating (sigma)"),
        _("Rating (ordinal)"),
        _("Provisional"),
        _("Peoples"),
    ]
    rows = []
    for row in table.rows:
        line, rating = row.line, row.rating
        rows.append(
            [
                season.name,
                line.rank,
                line.player,
                line.played,
                line.won,
                line.drawn,
                line.lost,
                line.points,
                line.head_to_head,
                line.score_for,
                line.score_against,
                line.goal_average,
                line.strength_of_schedule,
                float(rating.mu) if rating else "",
                float(rating.sigma) if rating else "",
                float(rating.ordinal) if rating else "",
                row.provisional,
                ", ".join(row.peoples),
            ]
        )
    return Sheet(_name(season, "standings"), header, rows)


def results_sheet(season: Season) -> Sheet:
    header = [
        _("Season"),
        _("Number"),
        _("Date"),
        _("Player A"),
        _("Player B"),
        _("Result"),
        _("Score A"),
        _("Score B"),
        _("People A"),
        _("People B"),
        _("Army A"),
        _("Army B"),
        _("Status"),
        _("Game"),
    ]
    results = season.results.select_related("player_a", "player_b", "game").order_by(
        "played_on", "id"
    )
    rows = [
        [
            season.name,
            r.pk,
            r.played_on.isoformat(),
            r.player_a.get_username(),
            r.player_b.get_username(),
            outcome_words(r),
            r.score_a,
            r.score_b,
            r.people_a,
            r.people_b,
            r.army_a,
            r.army_b,
            str(r.get_status_display()),
            r.game.public_id if r.game_id else "",
        ]
        for r in results
    ]
    return Sheet(_name(season, "results"), header, rows)


def t3_sheet(season: Season) -> Sheet:
    """What T³ (tabletoptournaments.net) asks per player for the European
    ranking: placement, name, and optionally nickname, origin and army (the
    people played most)."""
    table = services.season_table(season)
    header = ["Placement", "Name", "Nick", "Origin", "Army"]
    rows = [
        [
            row.line.rank,
            row.user.get_full_name() or row.user.get_username(),
            row.user.get_username(),
            season.club.name,
            row.peoples[0] if row.peoples else "",
        ]
        for row in table.rows
        if row.line.played
    ]
    return Sheet(_name(season, "t3"), header, rows)
