"""ASGI entry point (uvicorn serves it, even for the embedded default).

Two ways through Django, chosen per request by the view its path resolves
to: the live streams are async views, served by Django's ASGI handler on the
event loop, holding no thread while they wait; every other view is sync and
runs through Django's WSGI handler in one worker thread a request
(``confrontation_site.sync_views``: Django's ASGI handler would hop between
the loop and a thread for each sync middleware hook instead).
"""

import gc
import os
from functools import lru_cache
from inspect import iscoroutinefunction

from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application
from django.urls import Resolver404, resolve

from confrontation_site import connections
from confrontation_site.sync_views import SyncViews

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confrontation_site.settings")

async_views = get_asgi_application()
sync_views = SyncViews(get_wsgi_application())


connections.install()  # bounded waits for a request head, rate-limited log lines


def _end_streams() -> None:
    from battles.live.stream import end_all

    end_all()


connections.on_shutdown.append(_end_streams)  # Ctrl-C: the streams end at once


@lru_cache(maxsize=1024)
def is_async_view(path: str) -> bool:
    """Does ``path`` lead to an async view (a live stream)? Asked of every
    request, each phone's few paths again and again: kept (the URLs are the
    process's for its life), not resolved anew on the event loop."""
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


async def application(scope, receive, send):
    if scope["type"] == "http" and not is_async_view(scope["path"]):
        await sync_views(scope, receive, send)
    else:
        await async_views(scope, receive, send)


# What start-up made (apps, models, the URLs) lives as long as the process:
# out of the collector's sight, each collection walks only what requests
# make (measured: 1.4 -> 0.6 ms of collection per action).
is_async_view("/")
gc.freeze()
