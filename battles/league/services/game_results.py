"""A finished in-app game counted for a season (and its tournament table):
the result proposed from the game's log, agreed by both sides."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.league.models.league import (
    EntryAction,
    GameOutcome,
    LeagueResult,
    Membership,
    ResultStatus,
    Season,
)
from battles.league.models.tournament import TournamentPairing
from battles.league.services.errors import LeagueError
from battles.league.services.peoples import canonical as canonical_people
from battles.league.services.results import _announce, _entry, check_score
from battles.league.services.tournament import attach_game_result
from battles.live.bus import announce_outcome
from battles.models.games import Game, GameSeat, SeatRole
from battles.services.fighter_rows import army_points_destroyed

User = get_user_model()


# --- a finished game's result -------------------------------------------------------


def default_outcome(game: Game) -> dict[str, Any]:
    """What the end-of-game form proposes: scores destroyed and the winner."""
    scores = army_points_destroyed(game)
    finished = (game.state or {}).get("finished") or {}
    if finished.get("winner") in ("a", "b"):
        winner = finished["winner"]
    elif scores["a"] != scores["b"]:
        winner = "a" if scores["a"] > scores["b"] else "b"
    else:
        winner = "draw"
    proposal = {"outcome": winner, "score_a": scores["a"], "score_b": scores["b"]}
    seasons = seasons_for_game(game)
    table_season = (
        TournamentPairing.objects.filter(game=game)
        .values_list("round__tournament__season_id", flat=True)
        .first()
    )
    if table_season in {s.pk for s in seasons}:
        proposal["season"] = table_season  # started from a tournament table
    elif len(seasons) == 1:  # members of one open season: it counts there
        proposal["season"] = seasons[0].pk
    return proposal


def differs_from_log(outcome: GameOutcome | None, destroyed: dict | None) -> bool:
    """A proposed score that is not the army points the log says were destroyed."""
    if outcome is None or not destroyed:
        return False
    return (outcome.score_a, outcome.score_b) != (destroyed["a"], destroyed["b"])


def side_names(game: Game) -> dict[str, str]:
    """Each side's player name (the seat's, else its account's, else "side A"),
    for the forms to say."""
    names = {"a": _("side A"), "b": _("side B")}
    users = {
        u.pk: u.get_username()
        for u in User.objects.filter(
            pk__in=[seat.user_id for seat in game.seat_list if seat.user_id]
        )
    }
    for seat in game.seat_list:
        if seat.role in names:
            name = seat.player_name or users.get(seat.user_id)
            if name:
                names[seat.role] = name
    return names


def _seat_users(game: Game) -> dict[str, int | None]:
    users = {"a": None, "b": None}
    for seat in GameSeat.objects.filter(
        game=game, role__in=[SeatRole.SIDE_A, SeatRole.SIDE_B]
    ):
        users[seat.role] = seat.user_id
    return users


def seasons_for_game(game: Game) -> list[Season]:
    """Open seasons in which both seats' accounts play (members of the club)."""
    users = _seat_users(game)
    if None in users.values() or users["a"] == users["b"]:
        return []
    today = timezone.localdate()
    clubs_a = set(
        Membership.objects.filter(user_id=users["a"]).values_list("club_id", flat=True)
    )
    clubs_b = set(
        Membership.objects.filter(user_id=users["b"]).values_list("club_id", flat=True)
    )
    return list(
        Season.objects.filter(
            club_id__in=clubs_a & clubs_b,
            starts__lte=today,
            ends__gte=today,
            closed=False,
            archived=False,
        )
        .filter(participants=users["a"])
        .filter(participants=users["b"])
        .select_related("club")
    )


def propose_game_outcome(
    game: Game,
    side: str,
    *,
    outcome: str,
    score_a: int,
    score_b: int,
    season_id: int | None = None,
) -> GameOutcome:
    """``side`` proposes the game's result; the other side's agreement is cleared."""
    if side not in ("a", "b"):
        raise LeagueError(_("Only a player of this game may record its result."))
    if outcome not in ("a", "b", "draw"):
        raise LeagueError(_("Choose who won, or a draw."), field="outcome")
    with transaction.atomic():
        locked = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
        if not locked.finished:
            raise LeagueError(_("The game is not finished yet."))
        season = None
        if season_id is not None:
            season = next(
                (s for s in seasons_for_game(locked) if s.pk == season_id), None
            )
            if season is None:
                raise LeagueError(
                    _("Both players must be members of this open season."),
                    field="season",
                )
            if LeagueResult.objects.filter(game=locked).exists():
                raise LeagueError(_("This game already counts in a season."))
        current = GameOutcome.objects.filter(game=locked).first()
        if current is not None and current.settled:
            # Agreed without a season: both may still count it afterwards.
            if current.result_id is not None or season is None:
                raise LeagueError(_("Both players already agreed on this result."))
        check_score(outcome, score_a, score_b, field="score_a")
        values = {
            "outcome": outcome,
            "score_a": score_a,
            "score_b": score_b,
            "season": season,
            "proposed_by": side,
            "agreed_a": side == "a",
            "agreed_b": side == "b",
        }
        if current is None:
            current = GameOutcome.objects.create(game=locked, **values)
        else:
            for name, value in values.items():
                setattr(current, name, value)
            current.save()
        transaction.on_commit(lambda: announce_outcome(locked.pk))
    return current


def confirm_game_outcome(game: Game, side: str, *, sides_held=()) -> GameOutcome:
    """``side`` agrees with the other side's proposal.

    When both agree and the proposal names a season, the game becomes a
    confirmed result of that season in the same transaction (one step).
    """
    with transaction.atomic():
        locked = Game.objects.select_for_update(no_key=True).get(pk=game.pk)
        current = GameOutcome.objects.select_for_update().filter(game=locked).first()
        if current is None:
            raise LeagueError(_("No result has been proposed for this game yet."))
        if current.settled:
            raise LeagueError(_("Both players already agreed on this result."))
        if side not in ("a", "b") or current.agreed(side):
            raise LeagueError(
                _("You proposed this result: the other player confirms it.")
            )
        setattr(current, f"agreed_{side}", True)
        if current.season_id is not None:
            current.result = _result_from_game(locked, current)
            # A tournament table of these two players waiting for its result
            # takes it at once (issue #29: one step from the game to the table).
            attach_game_result(current.result)
        current.save()
        transaction.on_commit(lambda: announce_outcome(locked.pk))
    return current


def _result_from_game(game: Game, agreed: GameOutcome) -> LeagueResult:
    season = agreed.season
    users = _seat_users(game)
    if season.pk not in {s.pk for s in seasons_for_game(game)}:
        raise LeagueError(_("Both players must be members of this open season."))
    state = game.state or {}
    sides = state.get("sides") or {}
    played_on = (
        timezone.localdate(game.finished_at)
        if game.finished_at
        else timezone.localdate()
    )
    if not season.covers(played_on):
        raise LeagueError(
            _("The game was played outside the season (%(starts)s to %(ends)s).")
            % {"starts": season.starts, "ends": season.ends}
        )
    destroyed = army_points_destroyed(game)
    try:
        with transaction.atomic():
            result = LeagueResult.objects.create(
                season=season,
                player_a_id=users["a"],
                player_b_id=users["b"],
                played_on=played_on,
                outcome=agreed.outcome,
                score_a=agreed.score_a,
                score_b=agreed.score_b,
                people_a=canonical_people(
                    str((sides.get("a") or {}).get("people", ""))
                )[:80],
                people_b=canonical_people(
                    str((sides.get("b") or {}).get("people", ""))
                )[:80],
                army_a=str((sides.get("a") or {}).get("army", ""))[:120],
                army_b=str((sides.get("b") or {}).get("army", ""))[:120],
                status=ResultStatus.CONFIRMED,
                reported_by_id=users[agreed.proposed_by],
                game=game,
            )
    except IntegrityError:
        raise LeagueError(_("This game already counts in a season.")) from None
    extra = {"game": game.public_id, "log": {"a": destroyed["a"], "b": destroyed["b"]}}
    if differs_from_log(agreed, destroyed):
        extra["differs_from_log"] = True
    _entry(result, None, EntryAction.FROM_GAME, extra=extra)
    _announce(result)
    return result


def game_outcome(game: Game) -> GameOutcome | None:
    return GameOutcome.objects.filter(game=game).select_related("season").first()
