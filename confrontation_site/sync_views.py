"""Django's sync views served from ASGI with one thread hop a request.

Django's own ASGI handler runs a sync middleware hook, signal or view by
hopping from the event loop to a thread and back, once for each: about 12 ms
a request on a two-core machine, against under 1 ms for the whole of
``/healthz`` in one thread. Here the request's body is read on the loop, then
Django's WSGI handler (middleware, view, response) runs whole in a worker
thread, then the answer is sent from the loop. The live streams, async
views, do not come here (``confrontation_site.asgi``).
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus

# Django-free at import (its Django imports are made when called): this
# module is imported before Django is set up.
from battles.kept_connections import KEPT_VENDORS, forget_replaced_files, in_memory
from battles.thread_names import name_os_thread

# A request body past ``settings.MAX_REQUEST_BYTES`` (8 MB: the largest real
# upload, a catalogue, is 5 MB) is refused here, before it is read when its
# Content-Length says so; a body past ``FILE_UPLOAD_MAX_MEMORY_SIZE`` waits in
# a temporary file, not in memory. The app's own limits, each with its
# message next to its field, are smaller (battlescribe.MAX_FILE_BYTES).
TOO_LARGE = (
    "This request is too large ({mb} MB at most); nothing was saved.\n"
    "Cette requête est trop volumineuse ({mb} Mo au plus) ; rien n'a été "
    "enregistré.\n"
)
WORKERS = 4  # requests under way at once in one process (SQLite serialises writes)
# How long a worker thread keeps its database connection (keep_connections).
KEEP_CONNECTION_SECONDS = 60


def max_body_bytes() -> int:
    from django.conf import settings

    return settings.MAX_REQUEST_BYTES


def too_large_text() -> bytes:
    return TOO_LARGE.format(mb=max_body_bytes() // (1024 * 1024)).encode()


def build_environ(scope: dict, body) -> dict:
    """The WSGI environ (PEP 3333) of an ASGI HTTP request (``body``: bytes
    or a file at its start)."""
    if isinstance(body, bytes):
        body = io.BytesIO(body)
    root = scope.get("root_path", "")
    path = scope["path"]
    if root and path.startswith(root):
        path = path[len(root) :]
    server_name, server_port = scope.get("server") or ("localhost", 80)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode("utf-8").decode("latin-1"),
        "PATH_INFO": path.encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server_name),
        "SERVER_PORT": str(server_port or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "CONTENT_LENGTH": str(body_size(body)),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if scope.get("client"):
        environ["REMOTE_ADDR"], port = scope["client"]
        environ["REMOTE_PORT"] = str(port)
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        if name == "CONTENT_LENGTH":
            continue  # the body read says it
        key = name if name == "CONTENT_TYPE" else f"HTTP_{name}"
        if key in environ:
            value = environ[key] + ("; " if key == "HTTP_COOKIE" else ",") + value
        environ[key] = value
    return environ


class Disconnected(Exception):
    """The client went away before its request's body was all in."""


def body_size(body) -> int:
    position = body.tell()
    size = body.seek(0, 2)
    body.seek(position)
    return size


def declared_length(scope: dict) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def read_body(receive, limit: int | None = None, memory: int | None = None):
    """The whole request body, as a file at its start (in memory up to
    ``memory`` bytes, then on disk), or None when it is larger than
    ``limit``.

    Raises ``Disconnected``: a cut body is never handed to a view (a tap
    with half its fields must not be acted on)."""
    from django.conf import settings

    limit = max_body_bytes() if limit is None else limit
    memory = settings.FILE_UPLOAD_MAX_MEMORY_SIZE if memory is None else memory
    body = tempfile.SpooledTemporaryFile(max_size=memory)
    size = 0
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise Disconnected
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                body.close()
                return None
            if chunk:
                body.write(chunk)
            if not message.get("more_body", False):
                body.seek(0)
                return body
    except BaseException:
        body.close()
        raise


def keep_connections() -> None:
    """Run once in each worker thread: its database connections are kept
    between requests for ``KEEP_CONNECTION_SECONDS`` instead of one opened and
    closed per request. A PostgreSQL connection costs about 5 ms to open (a
    backend process starts), and is checked before reuse
    (``CONN_HEALTH_CHECKS``); a SQLite one 1.2–3 ms (Django registers its
    functions and runs the pragmas: measured), a fifth of an action.

    Only here: a worker thread lives as long as the server, and there are
    ``WORKERS`` of them, so a process holds that many. Elsewhere (commands,
    tests) a connection still closes after use. A kept SQLite connection is
    dropped before a request when its file was replaced or removed
    (``forget_replaced_files``): it would go on serving the old file.
    """
    from django.db import connections
    from django.db.utils import load_backend

    for alias in connections:
        settings = connections.settings[alias]
        if in_memory(settings):
            continue
        kept = {**settings, "CONN_MAX_AGE": KEEP_CONNECTION_SECONDS}
        wrapper = load_backend(settings["ENGINE"]).DatabaseWrapper(kept, alias)
        if wrapper.vendor in KEPT_VENDORS:
            connections[alias] = wrapper  # this thread's alone


def _start_worker() -> None:
    name_os_thread()  # "django_N" in top -H and /proc: its CPU told apart
    keep_connections()


def _call_all(calls: list) -> None:
    for call in calls:
        call()


class SyncViews:
    """An ASGI app running a WSGI app (Django's) one request per thread hop."""

    def __init__(self, wsgi_app, workers: int = WORKERS):
        self.wsgi_app = wsgi_app
        self.workers = workers
        self.executor = ThreadPoolExecutor(
            workers,
            thread_name_prefix="django",
            initializer=_start_worker,
        )

    def close(self) -> None:
        """Close every worker thread's kept connections, then the threads
        (a test's server, before its database is dropped)."""
        from django.db import connections

        # One task per thread: each waits for the others, so no thread
        # takes two, and the executor starts all of them.
        barrier = threading.Barrier(self.workers)

        def close_here() -> None:
            barrier.wait(timeout=30)
            connections.close_all()

        tasks = [self.executor.submit(close_here) for _ in range(self.workers)]
        for task in tasks:
            task.result()
        self.executor.shutdown()

    async def __call__(self, scope, receive, send) -> None:
        declared = declared_length(scope)
        if declared is not None and declared > max_body_bytes():
            await self._too_large(send)  # not read: the connection then closes
            return
        try:
            body = await read_body(receive)
        except Disconnected:
            return  # no one to answer
        if body is None:
            await self._too_large(send)
            return
        from battles.live.bus import AFTER_ANSWER

        after_answer: list = []
        loop = asyncio.get_running_loop()
        try:
            try:
                environ = build_environ(scope, body)
                environ[AFTER_ANSWER] = after_answer
                run = contextvars.copy_context().run
                status, headers, content = await loop.run_in_executor(
                    self.executor, run, self._respond, environ
                )
            finally:
                body.close()
            await self._send(send, status, headers, content)
        finally:
            # What the view left for after its answer (the live
            # announcements: the other phones' renders), sent or not.
            if after_answer:
                run = contextvars.copy_context().run
                await loop.run_in_executor(self.executor, run, _call_all, after_answer)

    async def _too_large(self, send) -> None:
        plain = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"connection", b"close"),
        ]
        await self._send(
            send, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, plain, too_large_text()
        )

    def _respond(self, environ: dict) -> tuple[int, list, bytes]:
        """Django's answer, whole, in this worker thread (Django closes or
        keeps its database connection here too, when the response is)."""
        started: dict = {}
        written: list[bytes] = []

        def start_response(status, headers, exc_info=None):
            started["status"], started["headers"] = status, headers
            return written.append

        forget_replaced_files()
        result = self.wsgi_app(environ, start_response)
        try:
            content = b"".join([*written, *result])
        finally:
            if hasattr(result, "close"):
                result.close()
        headers = [
            # Django writes a cookie as " name=value..." (WSGI servers strip it).
            (name.strip().lower().encode("latin-1"), value.strip().encode("latin-1"))
            for name, value in started["headers"]
        ]
        return int(started["status"].split(" ", 1)[0]), headers, content

    @staticmethod
    async def _send(send, status: int, headers: list, content: bytes) -> None:
        await send(
            {"type": "http.response.start", "status": status, "headers": headers}
        )
        await send({"type": "http.response.body", "body": content})
