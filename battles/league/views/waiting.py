"""What waits for a member (the home page's box) and the season's live
streams."""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import (
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from battles.league import services
from battles.league.live.league import (
    league_events,
    season_version,
)
from battles.league.views.access import season_for_member
from battles.league.views.season_pages import public_season
from battles.live.stream import hang_up, seen_version

User = get_user_model()


# --- waiting for me (the home page box), live -----------------------------------------


@require_GET
@never_cache
def waiting(request: HttpRequest) -> HttpResponse:
    """The results waiting for this person's confirmation (a partial)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    context = services.waiting_box(request.user)
    return render(request, "battles/league/waiting.html#box", context)


def _stream_response(kind: str, key_id: int, request) -> StreamingHttpResponse:
    seen = seen_version(request.headers.get("Last-Event-ID"), request.GET.get("since"))
    response = StreamingHttpResponse(
        league_events(kind, key_id, seen), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _waiting_user_id(request) -> int:
    try:
        if not request.user.is_authenticated:
            raise PermissionDenied("Sign in first.")
        return request.user.pk
    finally:
        hang_up()


@require_GET
async def waiting_stream(request: HttpRequest) -> StreamingHttpResponse:
    user_id = await sync_to_async(_waiting_user_id)(request)
    return _stream_response("player", user_id, request)


def _season_id_for_stream(request, season_id: int, key: str | None) -> int:
    try:
        if key is not None:
            return public_season(key).pk
        if not request.user.is_authenticated:
            raise PermissionDenied("Sign in first.")
        season, _member = season_for_member(request, season_id)
        return season.pk
    finally:
        hang_up()


@require_GET
async def season_stream(request: HttpRequest, season_id: int) -> StreamingHttpResponse:
    found = await sync_to_async(_season_id_for_stream)(request, season_id, None)
    return _stream_response("season", found, request)


@require_GET
async def season_public_stream(request: HttpRequest, key: str) -> StreamingHttpResponse:
    found = await sync_to_async(_season_id_for_stream)(request, 0, key)
    return _stream_response("season", found, request)


@require_GET
@never_cache
def season_version_view(request: HttpRequest, season_id: int) -> JsonResponse:
    if not request.user.is_authenticated:
        raise PermissionDenied("Sign in first.")
    season, _member = season_for_member(request, season_id)
    return JsonResponse({"version": season_version(season.pk)})
