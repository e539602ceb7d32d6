"""A finished in-app game's result: proposed by one phone, confirmed by the
other, counted for a season (and its tournament table) in one step."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from battles.league import services
from battles.league.forms.league import (
    GameOutcomeForm,
)
from battles.league.services.errors import LeagueError
from battles.validation import add_field_error
from battles.views.access import get_game_for_viewer

User = get_user_model()


# --- a finished game's result ----------------------------------------------------


def _outcome_context(request, game, viewer, form=None) -> dict:
    outcome = services.game_outcome(game)
    seasons = services.seasons_for_game(game) if game.finished else []
    if form is None:
        initial = services.default_outcome(game) if game.finished else {}
        if outcome is not None:
            initial = {
                "outcome": outcome.outcome,
                "score_a": outcome.score_a,
                "score_b": outcome.score_b,
                "season": outcome.season_id,
            }
        form = GameOutcomeForm(
            initial=initial, seasons=seasons, names=services.side_names(game)
        )
    sides = viewer.sides
    destroyed = services.army_points_destroyed(game) if game.finished else None
    can_confirm = bool(
        outcome is not None
        and not outcome.settled
        and any(not outcome.agreed(side) for side in sides)
    )
    return {
        "game": game,
        "viewer": viewer,
        "outcome": outcome,
        "form": form,
        "seasons": seasons,
        "destroyed": destroyed,
        "names": services.side_names(game),
        "differs_from_log": services.differs_from_log(outcome, destroyed),
        "can_confirm": can_confirm,
        # Agreed without a season: both may still count it for one.
        "can_propose": bool(sides)
        and (
            outcome is None
            or not outcome.settled
            or (outcome.result_id is None and bool(seasons))
        ),
        "waiting": outcome is None or not outcome.settled,
    }


@require_http_methods(["GET", "POST"])
@never_cache
def game_outcome(request: HttpRequest, public_id: str) -> HttpResponse:
    """The end-of-game result: proposed by one phone, confirmed by the other."""
    game, viewer = get_game_for_viewer(request, public_id)
    if not game.finished:
        return HttpResponse(status=204)
    form = None
    error = ""
    if request.method == "POST":
        if not viewer.is_player:
            raise PermissionDenied("Players only.")
        form = GameOutcomeForm(
            request.POST,
            seasons=services.seasons_for_game(game),
            names=services.side_names(game),
        )
        if form.is_valid():
            data = form.cleaned_data
            side = viewer.sides[0]
            try:
                services.propose_game_outcome(
                    game,
                    side,
                    outcome=data["outcome"],
                    score_a=data["score_a"],
                    score_b=data["score_b"],
                    season_id=data["season"],
                )
                if viewer.holds_both_sides:  # one phone: both players are here
                    services.confirm_game_outcome(game, "b")
            except LeagueError as error_:
                add_field_error(form, error_)
            else:
                form = None
    context = _outcome_context(request, game, viewer, form)
    context["error"] = error
    template = "battles/league/game_outcome.html"
    if request.method == "GET" and request.GET.get("part") == "status":
        template += "#status"
    return render(request, template, context)


@require_POST
def game_outcome_confirm(request: HttpRequest, public_id: str) -> HttpResponse:
    game, viewer = get_game_for_viewer(request, public_id)
    if not viewer.is_player:
        raise PermissionDenied("Players only.")
    error = ""
    outcome = services.game_outcome(game)
    side = next(
        (s for s in viewer.sides if outcome is None or not outcome.agreed(s)),
        viewer.sides[0],
    )
    try:
        services.confirm_game_outcome(game, side)
    except LeagueError as error_:
        error = error_.message
    context = _outcome_context(request, game, viewer)
    context["error"] = error
    return render(request, "battles/league/game_outcome.html", context)
