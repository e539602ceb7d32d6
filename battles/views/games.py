"""Game pages: list, set-up, the board, actions, the log and dice verification.

Views are thin: load the game for the requester (``views.access``), call one
service, render the board partial again from the database ("view restart").
Every htmx view renders the named partial for htmx and the full page otherwise.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from battles.commands import parse_tap, parse_tap_key, parse_version
from battles.forms.games import NewGameForm
from battles.identity import requester
from battles.models.games import Game, GameMode
from battles.presenters.board import (
    build_panel,
    expected_side,
    fighters_by_side,
    new_tap_key,
    pile_counts,
    status_line,
)
from battles.presenters.game import tests as table_rolls
from battles.presenters.log import log_lines
from battles.presenters.words import rules_text
from battles.services import games as services
from battles.services.agreement import pending_confirmation
from battles.services.fighter_rows import readable_sequences
from battles.validation import FieldError
from battles.views.access import Viewer, get_game_for_viewer
from rules.errors import IllegalAction
from rules.game import state as st

LOG_ON_BOARD = 12
RECENT_EVENTS = 40  # enough for the board's last lines, whatever the log's length
VIEW_AS_KEY = "view_as:{pk}"
DRAFT_KEY = "sequence_draft:{pk}:{side}"


def _acting_side(request: HttpRequest, game: Game, viewer: Viewer) -> str | None:
    """The side this phone acts for now; on one phone, the side holding it."""
    if not viewer.is_player:
        return None
    if not viewer.holds_both_sides:
        return viewer.sides[0]
    expected = expected_side(game.state)
    return expected or request.session.get(VIEW_AS_KEY.format(pk=game.pk), "a")


def board_context(
    request: HttpRequest,
    game: Game,
    viewer: Viewer,
    *,
    error: str = "",
    error_field: str = "",
    undo_confirm: str = "",
) -> dict:
    state = game.state
    side = _acting_side(request, game, viewer)
    draft = None
    if side:
        draft = request.session.get(DRAFT_KEY.format(pk=game.pk, side=side))
    panel = build_panel(state, side, draft=draft)
    handover = None
    if viewer.holds_both_sides and panel.kind == "strategic":
        holding = request.session.get(VIEW_AS_KEY.format(pk=game.pk))
        if holding != side:
            handover = side
    events = services.latest_events(game, RECENT_EVENTS)
    disputed = game.events.filter(disputed=True).values_list("seq", flat=True)
    lines = log_lines(events, viewer.sides, disputed=disputed, state=state)
    # What the last tap did (a roll's natural and final results, a wound...),
    # shown above the panel so nobody has to look for it in the log.
    last_action = events[-1]["action"] if len(events) > 1 else None
    latest = [line for line in lines if last_action and line.seq >= last_action]
    return {
        "game": game,
        "state": state,
        "viewer": viewer,
        "side": side,
        "panel": panel,
        "handover": handover,
        "status": status_line(state),
        "sides": _side_names(game),
        "piles": pile_counts(state, viewer.sides),
        "fighters": fighters_by_side(state),
        "log": list(reversed(lines[-LOG_ON_BOARD:])),
        "latest": latest,
        "tap": new_tap_key,
        "error": error,
        "error_field": error_field,
        "can_undo": bool(viewer.is_player and game.version > 1 and not game.finished),
        "summary": services.game_summary(game) if game.finished else None,
        "to_confirm": _results_to_confirm(game, viewer),
        "can_share": "a" in viewer.roles and game.mode != GameMode.ONE_PHONE,
        "test_form": table_rolls.test_form(state, side),
        "effects": table_rolls.effects_view(state, side),
        "undo_request": services.pending_undo_request(game, latest=events),
        "undo_confirm": undo_confirm,
    }


def _side_names(game: Game) -> dict[str, dict[str, str]]:
    """Each side's name: the player's own, once they gave it, else the army's."""
    names = {side: {"name": data["name"]} for side, data in game.state["sides"].items()}
    for seat in game.seats.all():
        if seat.role in names and seat.player_name:
            names[seat.role]["name"] = seat.player_name
    return names


def _results_to_confirm(game: Game, viewer: Viewer) -> list[dict]:
    """Results on my fighters the other phone made, awaiting my word (optional)."""
    if not game.require_confirmation or not viewer.is_player:
        return []
    found = []
    for side in viewer.sides:
        for event in pending_confirmation(game, side):
            found.append({"side": side, "event": event, "payload": event.payload})
    return found


def _render_board(request, game, viewer, *, status=200, **extra) -> HttpResponse:
    context = board_context(request, game, viewer, **extra)
    template = "battles/games/game.html"
    if request.htmx:
        template += "#board"
    response = render(request, template, context, status=status)
    response["X-Game-Version"] = str(game.version)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_GET
def games_list(request: HttpRequest) -> HttpResponse:
    owner = requester(request)
    games = Game.objects.for_user_or_guest(owner.user_id, owner.guest_key)[:50]
    return render(request, "battles/games/list.html", {"games": games})


@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    owner = requester(request, create=request.method == "POST")
    form = NewGameForm(request.POST or None, owner=owner)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(owner=owner, **form.game_arguments())
        except services.GameError as error:
            form.add_error(None, error.message)
        else:
            url = game_url(game)
            if request.htmx:
                return HttpResponseClientRedirect(url)
            return redirect(url)
    return render(request, "battles/games/new.html", {"form": form})


def game_url(game: Game) -> str:
    from django.urls import reverse

    return reverse("game", args=[game.public_id])


@require_GET
def game_page(request: HttpRequest, public_id: str) -> HttpResponse:
    game, viewer = get_game_for_viewer(request, public_id)
    return _render_board(request, game, viewer)


@require_GET
def game_board(request: HttpRequest, public_id: str) -> HttpResponse:
    """The board partial alone (live refresh and polling fetch it)."""
    game, viewer = get_game_for_viewer(request, public_id)
    context = board_context(request, game, viewer)
    response = render(request, "battles/games/game.html#board", context)
    response["X-Game-Version"] = str(game.version)
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def game_act(request: HttpRequest, public_id: str) -> HttpResponse:
    game, viewer = get_game_for_viewer(request, public_id)
    if not viewer.is_player:
        raise PermissionDenied("A spectator never acts.")
    try:
        tap = parse_tap(request.POST, _acting_side(request, game, viewer))
    except FieldError as error:
        return _answer(request, game, viewer, error.message, error.field)
    if not viewer.may_act_for(tap.side):
        raise PermissionDenied("A phone acts only for the side it holds.")
    try:
        result = services.perform_action(
            game,
            tap.side,
            tap.command,
            expected_version=tap.version,
            idempotency_key=tap.key,
            faces=tap.faces,
        )
    except IllegalAction as error:
        return _answer(request, game, viewer, _rules_message(error))
    except FieldError as error:  # services.GameError and its kin
        game.refresh_from_db()
        return _refuse(request, game, viewer, error)
    if tap.command["type"] == "set_sequence":
        request.session.pop(DRAFT_KEY.format(pk=game.pk, side=tap.side), None)
    return _answer(request, result.game, viewer)


def _rules_message(error: IllegalAction) -> str:
    """The rules' message in the player's language (rules mark them with _())."""
    return rules_text(error)


def _refuse(request, game, viewer, error: FieldError) -> HttpResponse:
    """A refused tap: the board again, the message next to its field.

    ``docs/input-checks.md``: a refusal a player can cause answers 200; the
    same tap key sent back with another command answers 422 (DESIGN "Double
    taps"), which htmx is configured to swap too (``base.html``).
    """
    status = 422 if isinstance(error, services.KeyReused) else 200
    return _answer(request, game, viewer, error.message, error.field, status=status)


def _answer(
    request, game, viewer, error: str = "", field: str = "", *, status: int = 200
) -> HttpResponse:
    if request.htmx:
        return _render_board(
            request, game, viewer, error=error, error_field=field, status=status
        )
    if error:
        messages.error(request, error)
    return redirect(game_url(game))


@require_POST
def game_undo(request: HttpRequest, public_id: str) -> HttpResponse:
    """Undo my last action; a roll needs the other phone's word (or, on one
    phone, a confirmation)."""
    game, viewer = get_game_for_viewer(request, public_id)
    side = request.POST.get("side") or _acting_side(request, game, viewer)
    if not viewer.is_player or side not in viewer.sides:
        raise PermissionDenied("A phone undoes only its own side's actions.")
    try:
        result = services.undo_last_action(
            game,
            side,
            expected_version=parse_version(request.POST),
            idempotency_key=parse_tap_key(request.POST),
            confirmed=request.POST.get("confirmed") == "1",
        )
    except IllegalAction as error:
        return _answer(request, game, viewer, _rules_message(error))
    except services.ConfirmUndo as error:
        game.refresh_from_db()
        if request.htmx:
            return _render_board(request, game, viewer, undo_confirm=error.message)
        messages.warning(request, error.message)
        return redirect(game_url(game))
    except FieldError as error:  # a malformed field, services.GameError
        game.refresh_from_db()
        return _refuse(request, game, viewer, error)
    return _answer(request, result.game, viewer)


@require_POST
def game_undo_answer(request: HttpRequest, public_id: str) -> HttpResponse:
    """The other phone agrees to, or refuses, the undo of a roll."""
    game, viewer = get_game_for_viewer(request, public_id)
    side = request.POST.get("side") or _acting_side(request, game, viewer)
    if not viewer.is_player or side not in viewer.sides:
        raise PermissionDenied("Only a player answers an undo.")
    try:
        result = services.answer_undo(
            game,
            side,
            agree=request.POST.get("agree") == "1",
            expected_version=parse_version(request.POST),
            idempotency_key=parse_tap_key(request.POST),
        )
    except FieldError as error:  # a malformed field, services.GameError
        game.refresh_from_db()
        return _refuse(request, game, viewer, error)
    return _answer(request, result.game, viewer)


@require_POST
def game_sequence_move(request: HttpRequest, public_id: str) -> HttpResponse:
    """Move a card up or down in this side's draft sequence (kept in the session).

    The order is private (IV-A-1) and nothing is logged until the player
    confirms it.
    """
    game, viewer = get_game_for_viewer(request, public_id)
    side = _acting_side(request, game, viewer)
    if side is None:
        raise PermissionDenied("A spectator never acts.")
    state = game.state
    if state["phase"] != "strategic" or state["sequences"][side] is not None:
        return _answer(request, game, viewer, _("The sequence is already set."))
    cards = st.cards_in_play(state, side)
    key = DRAFT_KEY.format(pk=game.pk, side=side)
    order = [c for c in request.session.get(key, []) if c in cards]
    order += [c for c in cards if c not in order]
    card = request.POST.get("card", "")
    step = -1 if request.POST.get("direction") == "up" else 1
    if card in order:
        index = order.index(card)
        other = index + step
        if 0 <= other < len(order):
            order[index], order[other] = order[other], order[index]
    request.session[key] = order
    return _answer(request, game, viewer)


@require_POST
def game_view_as(request: HttpRequest, public_id: str) -> HttpResponse:
    """One phone passed between the players: who holds it now."""
    game, viewer = get_game_for_viewer(request, public_id)
    side = request.POST.get("side", "")
    if side not in viewer.sides:
        raise PermissionDenied("You do not hold that side.")
    request.session[VIEW_AS_KEY.format(pk=game.pk)] = side
    return _answer(request, game, viewer)


@require_GET
def game_log(request: HttpRequest, public_id: str) -> HttpResponse:
    game, viewer = get_game_for_viewer(request, public_id)
    disputed = game.events.filter(disputed=True).values_list("seq", flat=True)
    lines = log_lines(services.rules_events(game), viewer.sides, disputed=disputed)
    sequences = readable_sequences(game, viewer.roles)
    context = {"game": game, "log": lines, "sequences": sequences}
    return render(request, "battles/games/log.html", context)


@require_GET
def game_verify(request: HttpRequest, public_id: str) -> HttpResponse:
    """After the game: the seed revealed, every app-rolled face recomputed."""
    game, viewer = get_game_for_viewer(request, public_id)
    checks = services.verify_dice(game) if game.finished else []
    return render(
        request,
        "battles/games/verify.html",
        {"game": game, "checks": checks, "all_ok": all(c.ok for c in checks)},
    )


__all__ = [
    "game_act",
    "game_board",
    "game_log",
    "game_new",
    "game_page",
    "game_sequence_move",
    "game_undo",
    "game_undo_answer",
    "game_verify",
    "game_view_as",
    "games_list",
]
