"""Sharing a game (links, QR codes, joining) and agreeing on results.

Thin views: check who asks, call one service of ``battles.services.sharing``
or ``battles.services.agreement``, render. Only the side A holder shares;
the token of a link lives in the creator's session (the database keeps its
hash only) and in the link itself, never in a URL the app redirects to.
"""

from __future__ import annotations

import io

import segno
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from battles import ratelimit
from battles.identity import requester
from battles.models.games import Game, GameMode, JoinLinkRole, SeatRole
from battles.services import agreement, sharing
from battles.services.games import GameError
from battles.validation import FieldError, check_text
from battles.views.access import get_game_for_side
from battles.views.csrf import no_referrer_page
from battles.views.errors import too_many_requests

SESSION_TOKENS = "join_tokens"
PLAYER_NAME_MAX = 60


# --- the creator's tokens, kept in their session ------------------------------------


def _session_tokens(request: HttpRequest, game: Game) -> dict[str, str]:
    return dict(request.session.get(SESSION_TOKENS, {}).get(game.public_id, {}))


def _remember_tokens(request: HttpRequest, game: Game, tokens: dict[str, str]) -> None:
    every_game = dict(request.session.get(SESSION_TOKENS, {}))
    every_game[game.public_id] = tokens
    request.session[SESSION_TOKENS] = every_game


def _role_from(request: HttpRequest) -> str:
    role = request.POST.get("role", "")
    if role not in JoinLinkRole.values:
        raise Http404("No such link.")
    return role


def _join_url(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("join", args=[token]))


# --- the share page -----------------------------------------------------------------


@require_GET
@never_cache
def game_share(request: HttpRequest, public_id: str) -> HttpResponse:
    """Links and QR codes for the opponent (side B) and for spectators."""
    game, _viewer = get_game_for_side(request, public_id, "a")
    tokens = _session_tokens(request, game)
    shown = sharing.open_share_links(game, tokens)
    _remember_tokens(request, game, {role: s.token for role, s in shown.items()})
    seat_b = next((s for s in game.seats.all() if s.role == SeatRole.SIDE_B), None)
    sections = []
    for role, title, help_text in (
        (
            JoinLinkRole.SIDE_B.value,
            _("Your opponent (side B)"),
            _("Whoever opens this link first plays side B. It works once."),
        ),
        (
            JoinLinkRole.SPECTATOR.value,
            _("Spectators"),
            _("Anyone with this link can watch the game; they cannot act."),
        ),
    ):
        share = shown.get(role)
        sections.append(
            {
                "role": role,
                "title": title,
                "help": help_text,
                "share": share,
                "url": _join_url(request, share.token) if share else "",
                "open": role in sharing.shareable_roles(game),
            }
        )
    context = {
        "game": game,
        "sections": sections,
        "one_phone": game.mode == GameMode.ONE_PHONE,
        "seat_b": seat_b,
    }
    return render(request, "battles/games/share.html", context)


@require_GET
@never_cache
def game_share_qr(request: HttpRequest, public_id: str, role: str) -> HttpResponse:
    """The QR code of the link the creator's session holds, as an SVG image."""
    game, _viewer = get_game_for_side(request, public_id, "a")
    token = _session_tokens(request, game).get(role)
    if not token or role not in JoinLinkRole.values:
        raise Http404("No such link.")
    qr = segno.make(_join_url(request, token), error="m")
    buffer = io.BytesIO()
    qr.save(buffer, kind="svg", scale=6, border=3, dark="#000", light="#fff")
    # never_cache: the image holds a secret, no cache may keep it.
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")


@require_POST
def game_share_renew(request: HttpRequest, public_id: str) -> HttpResponse:
    """Withdraw the role's links and make a new one (a new QR code too)."""
    game, _viewer = get_game_for_side(request, public_id, "a")
    role = _role_from(request)
    if role not in sharing.shareable_roles(game):
        messages.error(request, _("Side B is already held: no new link for it."))
        return redirect("game_share", public_id=game.public_id)
    share = sharing.renew_join_link(game, role)
    _remember_tokens(
        request, game, {**_session_tokens(request, game), role: share.token}
    )
    messages.success(request, _("New link ready; the old one no longer works."))
    return redirect("game_share", public_id=game.public_id)


@require_POST
def game_share_revoke(request: HttpRequest, public_id: str) -> HttpResponse:
    """Withdraw the role's links; those already seated keep their seat."""
    game, _viewer = get_game_for_side(request, public_id, "a")
    role = _role_from(request)
    sharing.revoke_join_links(game, role)
    tokens = _session_tokens(request, game)
    tokens.pop(role, None)
    _remember_tokens(request, game, tokens)
    messages.success(request, _("Link withdrawn: nobody new can join with it."))
    return redirect("game_share", public_id=game.public_id)


# --- joining ------------------------------------------------------------------------


def _refused(request: HttpRequest, refusal: sharing.JoinRefused) -> HttpResponse:
    template = "battles/games/join.html"
    return render(request, template, {"refusal": refusal}, status=refusal.status)


def _game_url(game: Game) -> str:
    return reverse("game", args=[game.public_id])


@no_referrer_page  # the URL holds the token: sent nowhere (battles.views.csrf)
@require_http_methods(["GET", "POST"])
@never_cache
def join(request: HttpRequest, token: str) -> HttpResponse:
    """GET: "Join as side B of <game>?"; POST: claim the seat, go to the game.

    Both are rate-limited per client address (``ratelimit.JOIN``): tokens
    cannot be guessed, and nobody gets to try.
    """
    decision = ratelimit.hit(ratelimit.JOIN, ratelimit.client_ip(request))
    if not decision.allowed:
        return too_many_requests(request, decision)
    try:
        link = sharing.join_link_for(token)
    except sharing.JoinRefused as refusal:
        return _refused(request, refusal)
    game = link.game
    if request.method == "GET":
        held = {seat.role for seat in sharing.seats_of(game, requester(request))}
        if link.role in held or (link.role == JoinLinkRole.SPECTATOR and held):
            return redirect(_game_url(game))
        return _join_page(request, link)
    try:
        player_name = check_text(
            request.POST.get("player_name"), "player_name", max_length=PLAYER_NAME_MAX
        )
    except FieldError as error:
        return _join_page(request, link, error=error)
    try:
        seat = sharing.claim_seat(
            token, requester(request, create=True), player_name=player_name
        )
    except sharing.JoinRefused as refusal:
        return _refused(request, refusal)
    if seat.role == SeatRole.SPECTATOR:
        messages.success(request, _("You are watching this game."))
    else:
        messages.success(
            request, _("You play side %(side)s.") % {"side": seat.role.upper()}
        )
    return redirect(_game_url(game), permanent=False)


def _join_page(request: HttpRequest, link, *, error: FieldError | None = None):
    """ "Join as side B of <game>?", with the name refused next to its field."""
    game = link.game
    side_a = next((s for s in game.seats.all() if s.role == SeatRole.SIDE_A), None)
    context = {
        "game": game,
        "link": link,
        "host_name": side_a.player_name if side_a else "",
        "as_side_b": link.role == JoinLinkRole.SIDE_B,
        "name_max": PLAYER_NAME_MAX,
        "name_error": error.message if error else "",
    }
    return render(request, "battles/games/join.html", context)


# --- agreeing on results --------------------------------------------------------------


def _answer(request: HttpRequest, public_id: str, action: int, answer) -> HttpResponse:
    side = request.POST.get("side", "")
    game, _viewer = get_game_for_side(request, public_id, side)
    try:
        answer(game, side, action)
    except GameError as error:
        messages.error(request, error.message)
    url = _game_url(game)
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@require_POST
def game_confirm(request: HttpRequest, public_id: str, action: int) -> HttpResponse:
    """The other side agrees with a result (Game.require_confirmation)."""
    return _answer(request, public_id, action, agreement.confirm_result)


@require_POST
def game_dispute(request: HttpRequest, public_id: str, action: int) -> HttpResponse:
    """The other side disputes a result: the log marks it."""
    return _answer(request, public_id, action, agreement.dispute_result)
