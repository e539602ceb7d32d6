"""Rate limits on the database (the embedded default) and on Redis: sign-in,
sign-up and join links; a refused request is a 429 that changes nothing."""

from __future__ import annotations

import logging
import threading
import uuid
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client, RequestFactory
from django.urls import reverse

from battles import ratelimit
from battles.league.services.clubs import create_club
from battles.models import GameSeat, RateLimitHit
from battles.services import sharing
from tests.support.cast import PASSWORD
from tests.support.live import new_game
from tests.support.servers import reachable

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

User = get_user_model()
# One second into a five-minute (and a one-hour) window.
START = datetime(2026, 3, 14, 20, 0, 1, tzinfo=UTC)


class Clock:
    """The limiter's clock, moved by the test."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


@pytest.fixture(autouse=True)
def database_limiter(settings):
    """The embedded limiter unless a test asks for Redis."""
    settings.REDIS_URL = ""


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock(START)
    monkeypatch.setattr(ratelimit, "clock", clock)
    return clock


def sign_in(client: Client, username: str = "anne", password: str = "wrong"):
    return client.post(reverse("login"), {"username": username, "password": password})


def sign_up(client: Client, username: str):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("signup"), data)


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


# --- sign-in ----------------------------------------------------------------------


def test_the_eleventh_sign_in_attempt_is_refused_and_says_so(anne, clock):
    client = Client()
    for _ in range(10):
        assert sign_in(client).status_code == 200  # wrong password, still allowed
    response = sign_in(client, password=PASSWORD)  # even the right one, now
    body = response.content.decode()
    assert response.status_code == 429
    assert "Too many attempts" in body
    assert "Try again in 5 minutes." in body
    assert int(response["Retry-After"]) == 299
    assert 'role="alert"' in body and "<html" in body
    assert not signed_in(client)


def test_a_new_window_allows_signing_in_again(anne, clock):
    client = Client()
    for _ in range(11):
        sign_in(client)
    assert sign_in(client, password=PASSWORD).status_code == 429
    clock.advance(minutes=5)
    response = sign_in(client, password=PASSWORD)
    assert response.status_code == 302
    assert signed_in(client)


def test_sign_in_attempts_count_per_address_and_username(anne, clock):
    for _ in range(11):
        sign_in(Client())
    assert sign_in(Client()).status_code == 429
    # Another username from the same address, the same one from elsewhere: free.
    assert sign_in(Client(), username="bruno").status_code == 200
    elsewhere = Client(REMOTE_ADDR="192.0.2.7")
    assert sign_in(elsewhere, password=PASSWORD).status_code == 302
    # Case and spaces do not make a fresh allowance.
    assert sign_in(Client(), username=" ANNE ").status_code == 429


def test_one_address_trying_many_usernames_is_refused_after_twenty(anne, clock):
    """Issue #13: one address tried 12 usernames, each under its own limit."""
    for number in range(20):
        assert sign_in(Client(), username=f"user{number}").status_code == 200
    response = sign_in(Client(), password=PASSWORD)  # anne's first attempt
    assert response.status_code == 429
    assert not signed_in(Client())
    # Another address is not affected.
    elsewhere = Client(REMOTE_ADDR="192.0.2.7")
    assert sign_in(elsewhere, password=PASSWORD).status_code == 302


# --- sign-up ----------------------------------------------------------------------


def test_the_sixth_sign_up_in_an_hour_is_refused_and_creates_nothing(clock, settings):
    settings.SIGN_UP_LIMIT_PER_HOUR = 5
    for number in range(5):
        assert sign_up(Client(), f"player{number}").status_code == 302
    client = Client()
    response = sign_up(client, "player5")
    assert response.status_code == 429
    assert "Try again in 60 minutes." in response.content.decode()
    assert "This network has tried that too often" in response.content.decode()
    assert User.objects.count() == 5
    assert not signed_in(client)
    clock.advance(hours=1)
    assert sign_up(Client(), "player5").status_code == 302


def test_refused_sign_up_forms_do_not_count_only_accounts_made_do(clock, settings):
    settings.SIGN_UP_LIMIT_PER_HOUR = 2
    for _ in range(10):  # passwords that differ: nothing made, nothing counted
        response = Client().post(
            reverse("signup"),
            {"username": "half", "password1": PASSWORD, "password2": "other one 9"},
        )
        assert response.status_code == 200
    assert sign_up(Client(), "first").status_code == 302
    assert sign_up(Client(), "second").status_code == 302
    assert sign_up(Client(), "third").status_code == 429


def test_a_club_server_sets_its_own_sign_up_limit(clock, settings):
    settings.SIGN_UP_LIMIT_PER_HOUR = 30  # half a club behind one venue address
    for number in range(30):
        assert sign_up(Client(), f"member{number}").status_code == 302
    assert sign_up(Client(), "member30").status_code == 429


def test_a_refusal_is_one_log_line_not_a_traceback(caplog, clock, settings):
    settings.SIGN_UP_LIMIT_PER_HOUR = 0
    with caplog.at_level("WARNING", logger="django.request"):
        sign_up(Client(), "late")
        founder = get_user_model().objects.create_user("founder")
        club = create_club(founder, "Les Griffons")
        outsider = Client()
        outsider.force_login(get_user_model().objects.create_user("outsider"))
        assert outsider.get(reverse("club_admin", args=[club.pk])).status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert {r.status_code for r in records} == {403, 429}
    for record in records:
        handler_text = logging.Formatter().format(record)
        assert "Traceback" not in handler_text
        assert len(handler_text.splitlines()) == 1


# --- join links ---------------------------------------------------------------------


def test_join_lookups_and_claims_are_limited_per_address(clock):
    game = new_game()
    url = reverse("join", args=[sharing.make_join_link(game, "b").token])
    for _ in range(15):
        assert Client().get(url).status_code == 200
    for _ in range(15):
        assert Client().get(reverse("join", args=["guessed-token"])).status_code == 404
    phone = Client()
    response = phone.post(url, {"player_name": "Bruno"})
    assert response.status_code == 429
    assert response["Referrer-Policy"] == "no-referrer"
    assert "Too many attempts" in response.content.decode()
    assert not GameSeat.objects.filter(game=game, role="b").exists()
    # Another address is not held back; a new window lets this one in again.
    assert Client(REMOTE_ADDR="192.0.2.7").get(url).status_code == 200
    clock.advance(minutes=5)
    assert phone.post(url, {"player_name": "Bruno"}).status_code == 302
    assert GameSeat.objects.filter(game=game, role="b").exists()


# --- the counter --------------------------------------------------------------------

LIMIT = ratelimit.Limit("test", attempts=3, seconds=60)


def test_attempts_are_counted_in_fixed_windows():
    counts = [ratelimit.hit(LIMIT, "a", now=START).count for _ in range(4)]
    assert counts == [1, 2, 3, 4]
    assert [ratelimit.hit(LIMIT, "a", now=START).allowed] == [False]
    later = START + timedelta(seconds=59)  # the next window (windows start at :00)
    assert ratelimit.hit(LIMIT, "a", now=later).count == 1
    assert ratelimit.hit(LIMIT, "b", now=later).count == 1


def test_the_decision_says_how_long_to_wait():
    decision = ratelimit.hit(LIMIT, "a", now=START + timedelta(seconds=20))
    assert decision.retry_after == 39
    assert decision.retry_minutes == 1


def test_finished_windows_are_purged_when_a_new_one_starts():
    ratelimit.hit(LIMIT, "a", now=START)
    ratelimit.hit(LIMIT, "b", now=START)
    ratelimit.hit(LIMIT, "a", now=START + timedelta(minutes=1))
    assert RateLimitHit.objects.count() == 1  # the finished windows went


def test_keys_hold_no_address_or_name_in_clear():
    ratelimit.hit(ratelimit.SIGN_IN, "203.0.113.9", "anne", now=START)
    row = RateLimitHit.objects.get()
    assert "203.0.113.9" not in row.key and "anne" not in row.key
    assert len(row.key) == 64


@pytest.mark.django_db(transaction=True)
def test_attempts_made_at_the_same_moment_are_all_counted():
    phones = 8
    barrier = threading.Barrier(phones)
    counts, errors = [], []

    def attempt() -> None:
        try:
            barrier.wait()
            counts.append(ratelimit.hit(LIMIT, "racing", now=START).count)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert sorted(counts) == list(range(1, phones + 1))
    assert RateLimitHit.objects.get().count == phones


# --- the client's address ---------------------------------------------------------


def test_the_address_is_remote_addr_unless_behind_the_sites_proxy(settings):
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.5"
    )
    settings.BEHIND_TLS_PROXY = False
    assert ratelimit.client_ip(request) == "10.0.0.1"
    settings.BEHIND_TLS_PROXY = True
    settings.PROXY_ADDRESSES = ["10.0.0.1"]
    # The entry the proxy appended, never the one the client wrote.
    assert ratelimit.client_ip(request) == "198.51.100.5"
    # A header from any other connection is the client's own word: ignored.
    settings.PROXY_ADDRESSES = ["127.0.0.1"]
    assert ratelimit.client_ip(request) == "10.0.0.1"
    settings.PROXY_ADDRESSES = ["10.0.0.1"]
    bare = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1")
    assert ratelimit.client_ip(bare) == "10.0.0.1"


# --- on Redis ---------------------------------------------------------------------

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def redis_url(settings):
    parts = urlsplit(REDIS_URL)
    if not reachable(parts.hostname, parts.port):
        pytest.skip(f"Redis is not reachable at {parts.hostname}:{parts.port}")
    settings.REDIS_URL = REDIS_URL
    return REDIS_URL


def test_with_redis_the_counts_live_in_redis_and_expire(redis_url):
    import redis

    client = redis.Redis.from_url(redis_url)
    who = f"test-{uuid.uuid4().hex}"
    counts = [ratelimit.hit(LIMIT, who, now=START).count for _ in range(4)]
    assert counts == [1, 2, 3, 4]
    assert not ratelimit.hit(LIMIT, who, now=START).allowed
    assert not RateLimitHit.objects.exists()
    key = ratelimit.key_for(LIMIT, (who,))
    start = int(ratelimit.window_start(LIMIT, START).timestamp())
    name = f"confrontation:ratelimit:{key}:{start}"
    assert 0 < client.ttl(name) <= LIMIT.seconds + 1
    client.delete(name)


def test_when_redis_does_not_answer_the_database_counts(settings, caplog):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    assert ratelimit.hit(LIMIT, "a", now=START).count == 1
    assert ratelimit.hit(LIMIT, "a", now=START).count == 2
    assert RateLimitHit.objects.get().count == 2
    assert "Redis failed" in caplog.text
