"""Live updates of a game: its event stream and the version for polling.

Both say only "the game is at version N" to someone who holds a seat in it
(a side or a spectator's); an outsider gets the same 404 as on every game
URL. Each page then fetches the board it may see (DESIGN: "Live updates").
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from battles.live.stream import hang_up, seen_version, version_events
from battles.views.access import get_game_for_viewer


def _watched_game_id(request: HttpRequest, public_id: str) -> int:
    try:
        game, _viewer = get_game_for_viewer(request, public_id)
        return game.pk
    finally:
        hang_up()  # the stream must not hold a connection for minutes


@require_GET
async def game_stream(request: HttpRequest, public_id: str) -> StreamingHttpResponse:
    """Server-Sent Events: ``event: version`` for every action past the phone's.

    Resumes from ``Last-Event-ID`` (or ``?since=``); with neither, it sends
    the current version at once.
    """
    game_id = await sync_to_async(_watched_game_id)(request, public_id)
    seen = seen_version(request.headers.get("Last-Event-ID"), request.GET.get("since"))
    response = StreamingHttpResponse(
        version_events(game_id, seen), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response


@require_GET
@never_cache
def game_version(request: HttpRequest, public_id: str) -> JsonResponse:
    """``{"version": N}``: what a phone without a stream polls."""
    game, _viewer = get_game_for_viewer(request, public_id)
    return JsonResponse({"version": game.version})
