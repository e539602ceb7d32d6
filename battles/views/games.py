"""Game pages: list, set-up, the board, actions, the log and dice verification.

Views are thin: load the game for the requester (``views.access``), call one
service, render the board partial again from the database ("view restart").
Every htmx view renders the named partial for htmx and the full page otherwise.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from battles.forms.games import NewGameForm
from battles.identity import requester
from battles.models.games import Game
from battles.presenters.board import build_board, whole_log_page
from battles.presenters.game import floor_side
from battles.presenters.game_list import game_lines
from battles.presenters.push import ANSWER_TEMPLATE
from battles.presenters.story import story_verdict
from battles.presenters.words import rules_text
from battles.services import games as services
from battles.services.boards import board_read, log_read
from battles.services.fighter_rows import readable_sequences
from battles.taps import parse_since, parse_tap
from battles.validation import FieldError
from battles.views.access import Viewer, get_game_for_viewer
from rules.dice import DERIVATION
from rules.errors import IllegalAction
from rules.game import state as st

VIEW_AS_KEY = "view_as:{pk}"
# The fields a refused form gets back as they were typed (issue 23: a shot
# into a melee refused keeps its measured distance).
REFILLED_FIELDS = ("fighter", "target", "distance_cm", "nearest_friend")
# A side's draft sequence, moved on one phone (its session), for one turn:
# a draft left from an earlier turn is not this one's.
DRAFT_KEY = "sequence_draft:{pk}:{side}:{turn}"
TEMPLATE = "battles/games/game.html"


def _acting_side(request: HttpRequest, game: Game, viewer: Viewer) -> str | None:
    """The side this phone acts for now; on one phone, the side holding it."""
    if not viewer.is_player:
        return None
    if not viewer.holds_both_sides:
        return viewer.sides[0]
    return floor_side(game.state) or request.session.get(
        VIEW_AS_KEY.format(pk=game.pk), "a"
    )


def _draft_key(game: Game, side: str) -> str:
    return DRAFT_KEY.format(pk=game.pk, side=side, turn=game.state["turn"])


def _draft(
    request: HttpRequest, game: Game, side: str | None
) -> tuple[list[str] | None, bool]:
    """The side's draft sequence, and whether it is this phone's own (cards
    moved on it this turn); else the one every phone of the side starts from
    (``services.opening_draft``), which a push shows too."""
    if side is None:
        return None, False
    own = request.session.get(_draft_key(game, side))
    if own is not None:
        return own, True
    return services.opening_draft(game, side), False


def board_context(request: HttpRequest, game: Game, viewer: Viewer, **extra) -> dict:
    """``build_board`` with what this phone's session holds (side, draft)."""
    side = _acting_side(request, game, viewer)
    draft, own_draft = _draft(request, game, side)
    holding = request.session.get(VIEW_AS_KEY.format(pk=game.pk))
    read = board_read(
        game, viewer, side, since=extra.get("since"), added=extra.get("added", ())
    )
    return build_board(
        game,
        viewer,
        read,
        side=side,
        holding=holding,
        draft=draft,
        own_draft=own_draft,
        **extra,
    )


def _render_board(request, game, viewer, *, status=200, **extra) -> HttpResponse:
    context = board_context(request, game, viewer, **extra)
    template = TEMPLATE + "#board" if request.htmx else TEMPLATE
    response = render(request, template, context, status=status)
    response["X-Game-Version"] = str(game.version)
    if request.htmx:
        # Taps aim at the panel; a whole board takes the board's place.
        response["HX-Retarget"] = "#board"
        response["HX-Reswap"] = "innerHTML"
    patch_vary_headers(response, ("HX-Request",))
    return response


def _render_answer(request, game, viewer, *, status=200, **extra) -> HttpResponse:
    """An htmx tap's answer: the panel, plus what changed as out-of-band swaps
    (the status line, the draws, the fighters that changed, the new log lines)."""
    context = board_context(request, game, viewer, **extra)
    response = render(request, ANSWER_TEMPLATE, context, status=status)
    response["X-Game-Version"] = str(game.version)
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def games_list(request: HttpRequest) -> HttpResponse:
    owner = requester(request)
    lines = game_lines(services.games_of(owner), owner)
    return render(request, "battles/games/list.html", {"lines": lines})


@require_http_methods(["GET", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    owner = requester(request, create=request.method == "POST")
    form = NewGameForm(request.POST or None, owner=owner)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                owner=owner,
                tap_key=request.POST.get("tap_key", ""),
                **form.game_arguments(),
            )
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
    try:
        game, viewer = get_game_for_viewer(request, public_id)
    except Http404:
        # No seat on this phone (or no such game: the same page, so nothing is
        # learnt): say how to join or watch rather than a bare "not found".
        return render(request, "battles/games/seatless.html")
    return _render_board(request, game, viewer)


@require_GET
def game_board(request: HttpRequest, public_id: str) -> HttpResponse:
    """The board partial alone (live refresh and polling fetch it).

    ``?since=N``: the phone shows version N; when the log keeps the state
    at N, it gets what changed only, as a tap's answer is (the panel, then
    out-of-band swaps); else the whole board.
    """
    game, viewer = get_game_for_viewer(request, public_id)
    since = parse_since(request.GET)
    before = services.state_at(game, since) if since is not None else None
    if before is not None and request.htmx and not game.finished:
        response = _render_answer(request, game, viewer, since=since, before=before)
        response["HX-Retarget"] = "#game-panel"
        response["HX-Reswap"] = "outerHTML"
        patch_vary_headers(response, ("HX-Request",))
        return response
    context = board_context(request, game, viewer)
    response = render(request, TEMPLATE + "#board", context)
    response["X-Game-Version"] = str(game.version)
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def game_tool(request: HttpRequest, public_id: str, tool: str) -> HttpResponse:
    """The form of a tool at the table (a test, a scatter, a lasting effect),
    fetched when the player opens it: built for the game as it is now."""
    game, viewer = get_game_for_viewer(request, public_id)
    context = board_context(request, game, viewer, open_tool=tool)
    template = context["tool_body"] or "battles/games/panels/tool_gone.html"
    response = render(request, template, context)
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def game_act(request: HttpRequest, public_id: str, tap_type: str = "") -> HttpResponse:
    """A tap: a command of the rules, or of the table (an undo, a switch of
    dice, the other phone's answer). ``tap_type``: the command a URL names
    (``/undo``, ``/dice-mode``...), for a form that posts none."""
    game, viewer = get_game_for_viewer(request, public_id)
    if not viewer.is_player:
        raise PermissionDenied("A spectator never acts.")
    try:
        tap = parse_tap(
            request.POST, _acting_side(request, game, viewer), default_type=tap_type
        )
    except FieldError as error:
        return _refuse(request, game, viewer, error)
    if not viewer.may_act_for(tap.side):
        raise PermissionDenied("A phone acts only for the side it holds.")
    holding_key = VIEW_AS_KEY.format(pk=game.pk)
    if viewer.holds_both_sides and request.session.get(holding_key) != tap.side:
        # One phone: whoever taps for a side holds the phone. Saved before the
        # action, whose news reaches the live refresh before this answer does.
        request.session[holding_key] = tap.side
        request.session.save()
        request.session.modified = False
    # What the phone showed: the service acts on this very object when the
    # game has not moved, so it is read before.
    shown_version, shown_state = game.version, game.state
    draft_key = _draft_key(game, tap.side)
    try:
        result = services.perform_actions(
            game,
            tap.side,
            tap.commands,
            expected_version=tap.version,
            idempotency_key=tap.key,
            faces=tap.faces,
        )
    except IllegalAction as error:
        return _answer(request, game, viewer, _rules_message(error))
    except services.ConfirmUndo as error:
        # One phone: undoing a roll asks "are you sure?" first.
        game = services.reloaded(game)
        if request.htmx:
            return _render_board(request, game, viewer, undo_confirm=error.message)
        messages.warning(request, error.message)
        return redirect(game_url(game))
    except FieldError as error:  # services.GameError and its kin
        return _refuse(request, services.reloaded(game), viewer, error)
    if tap.command["type"] in services.TABLE_COMMANDS:
        # The log itself moved (an undo) or a request stands: the whole board.
        return _answer(request, result.game, viewer)
    if tap.command["type"] == "set_sequence":
        request.session.pop(draft_key, None)
    if request.htmx and tap.version == shown_version and not result.repeated:
        # The phone showed the game as it was before this tap: answer with
        # what changed only.
        return _render_answer(
            request,
            result.game,
            viewer,
            since=tap.version,
            before=shown_state,
            added=result.events,
        )
    return _answer(request, result.game, viewer)


def _rules_message(error: IllegalAction) -> str:
    """The rules' message in the player's language (rules mark them with _())."""
    return rules_text(error)


def _refuse(request, game, viewer, error: FieldError) -> HttpResponse:
    """A refused tap: the message next to its field.

    ``docs/input-checks.md``: a refusal a player can cause answers 200; the
    same tap key sent back with another command answers 422 (DESIGN "Double
    taps"), which htmx is configured to swap too (``base.html``).
    """
    status = 422 if isinstance(error, services.KeyReused) else 200
    return _answer(request, game, viewer, error.message, error.field, status=status)


def _answer(
    request, game, viewer, error: str = "", field: str = "", *, status: int = 200
) -> HttpResponse:
    fresh = request.POST.get("version", "") == str(game.version)
    # The refused tap's type: a tool at the table opens with its message.
    refused = request.POST.get("type", "") if error else ""
    said = {"error": error, "error_field": field, "refused": refused, "status": status}
    if refused:
        # The refused form shows what was typed again, its message by it.
        said["posted"] = {
            name: request.POST.get(name, "")[:40] for name in REFILLED_FIELDS
        }
        # A placement of several fighters ("each"): each one's choices.
        for key in request.POST.getlist("each")[:20]:
            for name in ("attack", "sequence", "war_fury"):
                field = f"{key[:40]}:{name}"
                said["posted"][field] = request.POST.get(field, "")[:40]
    if request.htmx and error and fresh:
        # A refusal changes nothing: the panel and status line, the message
        # next to the control that was tapped.
        return _render_answer(
            request, game, viewer, since=game.version, before=game.state, **said
        )
    if request.htmx:
        return _render_board(request, game, viewer, **said)
    if error:
        messages.error(request, error)
    return redirect(game_url(game))


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
    key = _draft_key(game, side)
    order = [c for c in _draft(request, game, side)[0] or [] if c in cards]
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
    """The whole log: newest first or by turn (``?order=turn``), one
    fighter's lines only (``?fighter=<id>``)."""
    game, viewer = get_game_for_viewer(request, public_id)
    context = {
        "game": game,
        **whole_log_page(
            log_read(game),
            viewer,
            order=request.GET.get("order", ""),
            fighter=request.GET.get("fighter", ""),
        ),
        "sequences": readable_sequences(game, viewer.roles),
    }
    return render(request, "battles/games/log.html", context)


@require_GET
def game_verify(
    request: HttpRequest, public_id: str, status: int = 200
) -> HttpResponse:
    """Every roll with its roll number and faces; after the game, the seed
    revealed and every app-rolled face recomputed, with the bytes hashed."""
    game, viewer = get_game_for_viewer(request, public_id)
    checks = services.verify_dice(game, as_shown=True)
    seeded = [c for c in checks if not c.typed]
    return render(
        request,
        "battles/games/verify.html",
        {
            "game": game,
            "checks": checks,
            "seeded_count": len(seeded),
            "typed_count": len(checks) - len(seeded),
            "all_ok": all(c.ok for c in checks),
            "story": story_verdict(services.verify_story(game)),
            "derivation": _(DERIVATION),
        },
        status=status,
    )


@require_GET
def game_log_json(request: HttpRequest, public_id: str) -> HttpResponse:
    """The whole log as JSON, once the game is over (it holds both sides'
    private sequences, and the seed then): ``manage.py verify_game FILE``
    recomputes every face from it without the server."""
    game, viewer = get_game_for_viewer(request, public_id)
    if not game.finished:
        # The verify page says why: the seed stays secret until the end.
        return game_verify(request, public_id, status=409)
    response = JsonResponse(
        services.exported_log(game), json_dumps_params={"ensure_ascii": False}
    )
    response["Content-Disposition"] = (
        f'attachment; filename="game-{game.public_id}.json"'
    )
    return response


__all__ = [
    "game_act",
    "game_board",
    "game_log",
    "game_log_json",
    "game_new",
    "game_page",
    "game_sequence_move",
    "game_verify",
    "game_view_as",
    "games_list",
]
