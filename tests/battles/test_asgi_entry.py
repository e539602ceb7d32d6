"""The ASGI entry point: sync views in one thread hop, streams on the loop."""

from __future__ import annotations

import asyncio

import pytest

from confrontation_site import asgi
from confrontation_site.sync_views import (
    SyncViews,
    build_environ,
    read_body,
)


def scope(path="/healthz", **extra) -> dict:
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"club.local")],
        "server": ("127.0.0.1", 8000),
        "client": ("192.168.1.20", 51000),
        "scheme": "http",
        "http_version": "1.1",
        **extra,
    }


def test_the_environ_is_the_wsgi_one_django_expects():
    environ = build_environ(
        scope(
            "/games/é/act",
            method="POST",
            root_path="",
            query_string=b"since=4&x=%C3%A9",
            headers=[
                (b"host", b"club.local"),
                (b"content-type", b"application/x-www-form-urlencoded"),
                (b"content-length", b"999"),
                (b"cookie", b"sessionid=abc"),
                (b"cookie", b"csrftoken=def"),
                (b"x-forwarded-for", b"1.1.1.1"),
                (b"x-forwarded-for", b"2.2.2.2"),
                (b"hx-request", b"true"),
            ],
        ),
        b"side=a",
    )
    assert environ["REQUEST_METHOD"] == "POST"
    assert environ["PATH_INFO"] == "/games/é/act".encode().decode("latin-1")
    assert environ["QUERY_STRING"] == "since=4&x=%C3%A9"
    assert environ["CONTENT_TYPE"] == "application/x-www-form-urlencoded"
    assert environ["CONTENT_LENGTH"] == "6"  # the body read, not what was said
    assert environ["HTTP_COOKIE"] == "sessionid=abc; csrftoken=def"
    assert environ["HTTP_X_FORWARDED_FOR"] == "1.1.1.1,2.2.2.2"
    assert environ["HTTP_HX_REQUEST"] == "true"
    assert environ["REMOTE_ADDR"] == "192.168.1.20"
    assert environ["wsgi.input"].read() == b"side=a"


def test_a_body_larger_than_allowed_is_refused_in_words_before_django_sees_it():
    async def receive():  # a client that never stops sending
        return {"type": "http.request", "body": b"x" * 2**20, "more_body": True}

    assert asyncio.run(read_body(receive)) is None
    answers, called = [], []

    async def send(message):
        answers.append(message)

    views = SyncViews(lambda environ, start: called.append(environ))
    asyncio.run(views(scope(method="POST"), receive, send))
    assert answers[0]["status"] == 413 and called == []
    assert b"nothing was saved" in answers[1]["body"]


def test_a_body_cut_by_a_disconnect_is_never_handed_to_django():
    messages = iter(
        [
            {"type": "http.request", "body": b"type=roll&si", "more_body": True},
            {"type": "http.disconnect"},
        ]
    )

    async def receive():
        return next(messages)

    answers, called = [], []

    async def send(message):
        answers.append(message)

    views = SyncViews(lambda environ, start: called.append(environ))
    asyncio.run(views(scope(method="POST"), receive, send))
    assert called == [] and answers == []


def test_a_sync_view_answers_whole_with_its_headers_stripped():
    def wsgi_app(environ, start_response):
        start_response("201 Created", [("Set-Cookie", " a=1; Path=/")])
        return [b"one ", b"two"]

    answers = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        answers.append(message)

    asyncio.run(SyncViews(wsgi_app)(scope(), receive, send))
    assert answers[0]["status"] == 201
    assert answers[0]["headers"] == [(b"set-cookie", b"a=1; Path=/")]
    assert answers[1]["body"] == b"one two"


@pytest.mark.django_db
def test_streams_go_to_the_async_handler_and_pages_to_the_sync_one():
    assert asgi.is_async_view("/games/abcdefghijkl/stream")
    assert not asgi.is_async_view("/games/abcdefghijkl/board")
    assert not asgi.is_async_view("/healthz")
    assert not asgi.is_async_view("/no/such/page")


@pytest.mark.django_db(transaction=True)
def test_a_worker_thread_keeps_its_database_connection_between_requests():
    """One connection serves a worker thread's requests (a new one costs
    about 5 ms on PostgreSQL, 1.2–3 ms on SQLite); a SQLite one whose file
    was replaced is dropped before the next request, which opens anew."""
    from django.core.wsgi import get_wsgi_application
    from django.db import connection, connections

    views = SyncViews(get_wsgi_application(), workers=1)
    answers = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        answers.append(message)

    def kept_backend():  # run in the worker thread, between requests
        kept = connections["default"].connection
        if kept is None:
            return None
        return kept.info.backend_pid if connection.vendor == "postgresql" else kept

    def as_if_replaced():  # the file it opened is no longer at its name
        connections["default"].opened_file = (0, 0)

    healthz = scope(headers=[(b"host", b"testserver")], scheme="https")
    try:
        asyncio.run(views(healthz, receive, send))
        first = views.executor.submit(kept_backend).result()
        asyncio.run(views(healthz, receive, send))
        again = views.executor.submit(kept_backend).result()
        views.executor.submit(as_if_replaced).result()
        asyncio.run(views(healthz, receive, send))
        after_replacing = views.executor.submit(kept_backend).result()
    finally:
        views.close()
    assert [a["status"] for a in answers if "status" in a] == [200, 200, 200]
    assert first is not None and again == first
    if connection.vendor == "sqlite":
        assert after_replacing is not None and after_replacing is not first
    else:
        assert after_replacing == first


def test_a_body_said_too_large_is_refused_before_a_byte_of_it_is_read(settings):
    settings.MAX_REQUEST_BYTES = 8 * 1024 * 1024
    read, answers, called = [], [], []

    async def receive():
        read.append(1)
        return {"type": "http.request", "body": b"x", "more_body": True}

    async def send(message):
        answers.append(message)

    headers = [(b"host", b"club.local"), (b"content-length", b"60000000")]
    big = scope(method="POST", headers=headers)
    views = SyncViews(lambda environ, start: called.append(environ))
    asyncio.run(views(big, receive, send))
    assert answers[0]["status"] == 413 and read == [] and called == []
    assert b"8 MB at most" in answers[1]["body"]


def test_a_large_body_waits_on_disk_not_in_memory(settings):
    """A 5 MB catalogue upload is taken, but held in a temporary file past
    FILE_UPLOAD_MAX_MEMORY_SIZE: six bodies held open cost no 60 MB each."""
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
    chunks = iter([b"x" * 2**20] * 5 + [b""])

    async def receive():
        chunk = next(chunks)
        return {"type": "http.request", "body": chunk, "more_body": bool(chunk)}

    body = asyncio.run(read_body(receive))
    try:
        assert body._rolled  # on disk
        assert body.read() == b"x" * 5 * 2**20
    finally:
        body.close()
