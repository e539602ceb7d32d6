"""Live updates of a game: its event stream and the version for polling.

Both answer only someone who holds a seat in it (a side or a spectator's);
an outsider gets the same 404 as on every game URL. The stream pushes what
changed as this seat may see it, or says "version N" and the page fetches
its board (DESIGN: "Live updates"); the version endpoint says only that.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.utils import translation
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from battles.identity import Viewer
from battles.live.stream import hang_up, seen_version, version_events
from battles.presenters.push import render_changes
from battles.views.access import get_game_for_viewer


def _watcher(request: HttpRequest, public_id: str) -> tuple[int, Viewer | None]:
    """The game, and what this seat may see (in the phone's language)."""
    try:
        game, viewer = get_game_for_viewer(request, public_id)
        viewpoint = viewer.watching(translation.get_language())
        return game.pk, viewpoint
    finally:
        hang_up()  # the stream must not hold a connection for minutes


@require_GET
async def game_stream(request: HttpRequest, public_id: str) -> StreamingHttpResponse:
    """Server-Sent Events: for every action past the phone's, what changed
    (``event: board``) or its version (``event: version``).

    Resumes from ``Last-Event-ID`` (or ``?since=``); with neither, it sends
    the current version at once.
    """
    game_id, viewpoint = await sync_to_async(_watcher)(request, public_id)
    seen = seen_version(request.headers.get("Last-Event-ID"), request.GET.get("since"))
    events = version_events(game_id, seen, viewpoint=viewpoint, render=render_changes)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response


@require_GET
@never_cache
def game_version(request: HttpRequest, public_id: str) -> JsonResponse:
    """``{"version": N}``: what a phone without a stream polls."""
    game, _viewer = get_game_for_viewer(request, public_id)
    return JsonResponse({"version": game.version})
