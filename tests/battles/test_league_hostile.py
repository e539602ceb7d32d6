"""Hostile input on the league, seen over HTTP: a clear 4xx with a message,
never a 500, and nothing written. Run on PostgreSQL too (DATABASE_URL):
a NUL byte in a query is an error there, not on SQLite."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.league.models.league import LeagueResult, Membership
from tests.support.club import club_in_season

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

HUGE = str(2**63)


@pytest.fixture
def cast():
    return club_in_season("alice", ("bob", "carol"), ("olga",))


def signed_in(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    "path",
    [
        "/league/public/%00/",
        "/league/public/%00.svg",
        "/league/public/%00/stream",
        "/league/public/a%00b/",
        "/league/public/" + "x" * 200 + "/",
    ],
)
def test_a_nul_byte_in_a_public_standings_key_is_a_404(path):
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 404
    assert b"not found" in response.content.lower()  # a page that says so


@pytest.mark.parametrize("action", ["remove", "promote", "reset", "restore"])
def test_a_member_id_of_2_to_the_63_in_an_admin_action_is_a_404(cast, action):
    client = signed_in(cast["alice"])
    before = list(Membership.objects.values_list("user_id", "role"))
    url = f"/clubs/{cast['club'].pk}/members/{HUGE}/{action}"
    response = client.post(url, {"confirmed": "yes"})
    assert response.status_code == 404
    assert list(Membership.objects.values_list("user_id", "role")) == before


@pytest.mark.parametrize(
    "path",
    [
        f"/clubs/{HUGE}/",
        f"/league/{HUGE}/",
        f"/league/results/{HUGE}/",
        "/league/1/players/99999999999999999999/",
    ],
)
def test_ids_too_large_for_the_database_are_404s(cast, path):
    assert signed_in(cast["alice"]).get(path).status_code == 404


def test_a_report_sent_twice_with_its_tap_key_makes_one_pending_result(cast):
    client = signed_in(cast["bob"])
    url = reverse("result_report", args=[cast["season"].pk])
    page = client.get(url).content.decode()
    key = page.split('name="tap_key" value="')[1].split('"')[0]
    assert len(key) >= 16
    data = {
        "opponent": cast["carol"].pk,
        "played_on": timezone.localdate().isoformat(),
        "result": "won",
        "score_for": 200,
        "score_against": 100,
        "tap_key": key,
    }
    first = client.post(url, data)
    second = client.post(url, data)
    assert first.status_code == second.status_code == 302
    assert first.url == second.url
    assert LeagueResult.objects.count() == 1
    # The same key from someone else's form: refused, nothing written.
    other = signed_in(cast["carol"]).post(url, {**data, "opponent": cast["bob"].pk})
    assert "This form was already used." in other.content.decode()
    assert LeagueResult.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_report_sent_twice_at_once_makes_one_pending_result():
    """Two threads, each its own connection, send the same form (one tap key)
    at the same moment: one result, and both answers name it. Run on
    PostgreSQL too (a unique index decides there, IMMEDIATE on SQLite)."""
    import threading

    from django.db import connection

    from battles.league import services

    cast = club_in_season("alice", ("bob", "carol"), club="Race", season="R")
    barrier = threading.Barrier(4)
    got, errors = [], []

    def send():
        try:
            barrier.wait(timeout=10)
            row = services.report_result(
                cast["season"],
                cast["bob"],
                opponent_id=cast["carol"].pk,
                played_on=timezone.localdate(),
                result="won",
                score_for=200,
                score_against=100,
                tap_key="same-form",
            )
            got.append(row.pk)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    assert LeagueResult.objects.count() == 1
    assert set(got) == {LeagueResult.objects.get().pk}
