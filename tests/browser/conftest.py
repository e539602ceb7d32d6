"""Real Chromium (Debian's package) driven by Playwright at a phone viewport.

Every page a test opens is watched: a console error, an uncaught exception, a
failed request, an HTTP error or a CSP violation fails the test.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

# Playwright's sync API runs an event loop in this thread; the test database
# is still used synchronously from here, which Django otherwise refuses.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")
    if not path:
        pytest.fail(
            "Chromium not found: run `make test` (it installs Debian's chromium) "
            "or set CHROMIUM_PATH."
        )
    return path


@pytest.fixture(scope="session")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@dataclass
class PageProblems:
    """What went wrong on a page while a test drove it."""

    items: list[str] = field(default_factory=list)

    def watch(self, page) -> None:
        def on_console(message) -> None:
            if message.type == "error":
                self.items.append(f"console error: {message.text}")
            elif "Content Security Policy" in message.text:
                self.items.append(f"CSP: {message.text}")

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.items.append(f"page error: {error}"))
        page.on("requestfailed", self._on_request_failed)
        page.on(
            "response",
            lambda response: (
                response.status >= 400
                and self.items.append(f"HTTP {response.status}: {response.url}")
            ),
        )

    def _on_request_failed(self, request) -> None:
        # A read cut short because the page moved on (a tap, a redirect,
        # leaving the page, live.js dropping a refresh for a tap) is the
        # browser's own doing, not a fault: a server's failure still shows
        # as an HTTP error or another network error. A cut POST (a tap) counts.
        if request.method == "GET" and "ERR_ABORTED" in (request.failure or ""):
            return
        self.items.append(f"request failed: {request.url} {request.failure}")


def open_phone(browser, problems: PageProblems, locale: str = "fr-FR"):
    context = browser.new_context(locale=locale, **PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    problems.watch(page)
    return context, page


@pytest.fixture
def page_problems() -> PageProblems:
    return PageProblems()


class AsgiServer:
    """uvicorn serving the project's ASGI app in a thread of the test process.

    Django's ``live_server`` is a threaded WSGI server, which cannot hold the
    game's event streams; this one can, and it shares the test database (the
    connection settings pytest-django switched) and the in-process bus.
    """

    def __init__(self) -> None:
        import threading

        import uvicorn
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
        from django.core.asgi import get_asgi_application
        from django.test.utils import modify_settings

        from tests.support.servers import free_port

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # pytest-django enables this around each test using ``live_server``,
        # as its own WSGI live server does.
        self._live_server_modified_settings = modify_settings(
            ALLOWED_HOSTS={"append": "127.0.0.1"}
        )
        config = uvicorn.Config(
            ASGIStaticFilesHandler(get_asgi_application()),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="off",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            import time

            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.server.force_exit = True
        self.thread.join(timeout=5)


@pytest.fixture(scope="session")
def asgi_server(django_db_setup, django_db_blocker) -> Iterator[AsgiServer]:
    with django_db_blocker.unblock():
        server = AsgiServer()
        yield server
        server.stop()


@pytest.fixture
def live_server(asgi_server, transactional_db) -> AsgiServer:
    """The ASGI server, with tables emptied after each test like Django's own."""
    return asgi_server


@pytest.fixture
def phone(browser, page_problems, live_server) -> Iterator:
    """One phone: a fresh browser context at 360 px, French by default."""
    context, page = open_phone(browser, page_problems)
    yield page
    context.close()
    assert page_problems.items == [], "\n".join(page_problems.items)


@pytest.fixture
def second_phone(browser, page_problems, live_server) -> Iterator:
    """The opponent's phone: another context, so another session."""
    context, page = open_phone(browser, page_problems)
    yield page
    context.close()


@pytest.fixture(scope="module")
def site(request, tmp_path_factory) -> Iterator[dict]:
    """A real uvicorn process on its own SQLite file with the demo loaded, for
    the tests of one module: ``{"base": its URL, "env": its environment}``."""
    from tests.support.servers import manage, server_env, uvicorn

    name = request.module.__name__.rsplit(".", 1)[-1]
    database = tmp_path_factory.mktemp(name) / "site.sqlite3"
    env = server_env(DATABASE_URL=f"sqlite:///{database}", LIVE_BUS="memory")
    manage("migrate", "--noinput", env=env)
    manage("load_demo", env=env)
    with uvicorn(env) as base:
        yield {"base": base, "env": env}


@pytest.fixture
def phones(request, browser) -> Iterator[dict]:
    """English phones, one browser context each, named by the module's
    ``PHONES`` (sides "a" and "b" if it has none), plus their shared
    ``"problems"``."""
    problems = PageProblems()
    names = getattr(request.module, "PHONES", ("a", "b"))
    opened = {who: open_phone(browser, problems, locale="en-GB") for who in names}
    yield {who: page for who, (_context, page) in opened.items()} | {
        "problems": problems
    }
    for _context, page in opened.values():
        page.goto("about:blank")  # hang up the streams before closing
    for context, _page in opened.values():
        context.close()


def serious_accessibility_violations(page) -> list[str]:
    """axe-core on the page as it is now; serious and critical violations only."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} "
        f"{[node['target'] for node in violation['nodes']][:3]}"
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
