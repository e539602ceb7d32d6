"""A season's files: standings (with the club rating as the pages show it,
"1764 ± 354"), results, and the T³ results for the European ranking (per
season, and per tournament with its tournament block). They open cleanly in
a spreadsheet: UTF-8 with a BOM (accents right), ``;`` and decimal commas
for French (what a French spreadsheet reads), numbers written as numbers,
every text quoted (a decimal comma never splits a cell), words not codes,
the season named in every row; text that a spreadsheet would run as a
formula starts with a '.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from battles.league.models.league import Season
from battles.league.services.standings import season_table
from battles.league.services.tournament import tournament_view
from battles.services.account_security import display_name
from rules.league import shown_rating

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Sheet:
    """A CSV file: ``preamble`` lines (a block before the table), the header,
    then ``rows``; ``body`` rows are written as the table too."""

    filename: str
    header: list[str]
    rows: list[list]
    preamble: list[list] = field(default_factory=list)
    body: list[list] = field(default_factory=list)


def french() -> bool:
    return (get_language() or "").startswith("fr")


def cell(value, *, comma: bool):
    """A cell: numbers as numbers (no formula guard), text guarded."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return value  # written bare; every text (decimals too) is quoted
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
    writer = csv.writer(
        buffer,
        delimiter=";" if comma else ",",
        lineterminator="\r\n",
        quoting=csv.QUOTE_NONNUMERIC,  # "1,500": a decimal comma stays one cell
    )
    for row in sheet.preamble:
        writer.writerow([cell(value, comma=comma) for value in row])
    writer.writerow(sheet.header)
    for row in [*sheet.rows, *sheet.body]:
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
    table = season_table(season)
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
        _("Rating"),
        _("Rating ±"),
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
                shown_rating(rating).value if rating else "",
                shown_rating(rating).spread if rating else "",
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


GAME_SYSTEM = "Confrontation"
T3_PLAYER_HEADER = ["Placement", "First name", "Last name", "Nick", "Origin", "Army"]


def t3_player(user, placement, origin: str, army: str) -> list:
    """One T³ player line: the first and last names the member gave on her
    account page (the login when she gave none), her display name as Nick."""
    first, last = user.first_name.strip(), user.last_name.strip()
    if not first and not last:
        first = user.get_username()
    return [placement, first, last, display_name(user), origin, army]


def tournament_t3_sheet(tournament) -> Sheet:
    """The T³ file of one tournament (what tabletoptournaments.net asks for
    its rankings): the tournament block (name, game system, place, date),
    then each player's placement, first name, last name, nickname (display
    name), origin (the club) and army (the people they registered)."""
    view = tournament_view(tournament)
    club = tournament.season.club
    place = tournament.place.strip() or club.name
    peoples = {entrant.user_id: entrant.people for entrant in view.players}
    lines = view.rounds[-1].standings if view.rounds else []
    block = [
        ["Tournament", tournament.name],
        ["Game system", GAME_SYSTEM],
        ["Place", place],
        ["Date", tournament.played_on.isoformat()],
        [],
    ]
    players = [
        t3_player(
            row["user"], row["line"].rank, club.name, peoples.get(row["user"].pk, "")
        )
        for row in lines
        if row["user"] is not None
    ]
    filename = f"{slugify(club.name)}-{slugify(tournament.name)}-t3.csv"
    return Sheet(filename, T3_PLAYER_HEADER, [], preamble=block, body=players)


def t3_sheet(season: Season) -> Sheet:
    """What T³ (tabletoptournaments.net) asks per player for the European
    ranking: placement, name, and optionally nickname, origin and army (the
    people played most)."""
    table = season_table(season)
    rows = [
        t3_player(
            row.user,
            row.line.rank,
            season.club.name,
            row.peoples[0] if row.peoples else "",
        )
        for row in table.rows
        if row.line.played
    ]
    return Sheet(_name(season, "t3"), T3_PLAYER_HEADER, rows)
