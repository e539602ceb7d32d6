"""Every double submission is one (issue 30): a form that creates something,
sent twice at once (two threads, each with its own database connection),
makes one thing, on SQLite and on PostgreSQL.

Run on both: ``DATABASE_URL=postgres://... pytest tests/battles/test_double_...``.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.league.forms.league import SeasonForm
from battles.league.services import tournament as tournament_services
from battles.models import (
    Army,
    Club,
    Game,
    Invitation,
    LeagueResult,
    ReferenceCard,
    Season,
    Tournament,
    TournamentPairing,
    TournamentRound,
)
from tests.support.cast import phone_of
from tests.support.club import club_in_season
from tests.support.live import new_game_form

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("english", "quick_passwords"),
]

TODAY = timezone.localdate()
PLAYERS = ("bob", "carol", "dave", "erin")


def twice_at_once(send, times: int = 2) -> list:
    """``send()`` from ``times`` threads released at the same moment: what
    each returned (or the exception it raised)."""
    barrier = threading.Barrier(times)
    answers: list = [None] * times

    def one(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            answers[index] = send()
        except Exception as error:  # noqa: BLE001 - reported by the test
            answers[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


@pytest.fixture
def cast():
    return club_in_season("alice", PLAYERS, ("olga",), password="a long passphrase 1")


def _first_round(cast):
    tournament = tournament_services.create_tournament(
        cast["season"],
        cast["alice"],
        name="Tournoi",
        played_on=TODAY,
        players={cast[n].pk: "" for n in PLAYERS},
    )
    return tournament, tournament_services.create_round(tournament, cast["alice"])


def test_a_table_s_report_sent_twice_at_once_makes_one_result(cast):
    _tournament, round_ = _first_round(cast)
    for pairing in round_.pairings.exclude(player_b=None):
        answers = twice_at_once(
            lambda p=pairing: tournament_services.report_pairing_result(
                p, p.player_a, result="won", score_for=300, score_against=100
            )
        )
        made = LeagueResult.objects.filter(
            player_a=pairing.player_a, player_b=pairing.player_b
        )
        assert made.count() == 1, answers
        pairing.refresh_from_db()
        assert pairing.result_id == made.get().pk


# --- every creating form, over HTTP: the same form (one key) sent twice at once


def _phones(make, times: int = 2) -> list:
    return [make() for _ in range(times)]


def _signed_in(user):
    def make():
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(user)
        return client

    return make


def _guest(key: str):
    return lambda: phone_of(key, Client(HTTP_ACCEPT_LANGUAGE="en"))


def _post_twice(phones, url: str, data: dict) -> list:
    """The same form (one key) posted from each phone at the same moment."""
    sent = {**data, "tap_key": f"the-one-key-of {url}"[-40:]}
    clients = iter(phones)
    lock = threading.Lock()

    def send():
        with lock:
            client = next(clients)
        return client.post(url, sent).status_code

    return twice_at_once(send, len(phones))


def test_each_creating_form_of_a_guest_sent_twice_at_once_makes_one_thing(
    demo_armies,
):
    army_a, army_b = demo_armies
    wolfen = army_b.people
    cases = [
        ("/games/new/", new_game_form(army_a, army_b), Game),
        (
            "/armies/new/",
            {"name": "Meute", "people": wolfen.pk, "points_limit": 300},
            Army,
        ),
        (
            "/armies/cards/new/",
            {
                "name": "Chasseur",
                "people": wolfen.pk,
                "size": "normal",
                "base_shape": "square",
                "fighters_per_card": 2,
                "mou": "12.5",
                "att": 4,
                "force": 6,
                "cou": 4,
                "cost": 21,
            },
            ReferenceCard,
        ),
    ]
    for url, data, model in cases:
        before = model.objects.count()
        answers = _post_twice(_phones(_guest("racing-guest")), url, data)
        assert answers == [302, 302], (url, answers)
        assert model.objects.count() == before + 1, url


def _season_form_data(club) -> dict:
    """What the new-season form posts as shown (its defaults), named anew."""
    form = SeasonForm(members=club.members.none())
    data = {
        field.html_name: field.value() for field in form if field.value() is not None
    }
    ends = (TODAY + timedelta(days=60)).isoformat()
    return {**data, "name": "Saison 2027", "starts": TODAY.isoformat(), "ends": ends}


def test_each_creating_form_of_the_league_sent_twice_at_once_makes_one_thing(cast):
    admin = _signed_in(cast["alice"])
    season = cast["season"]
    cases = [
        (reverse("clubs"), {"name": "Les Loups", "description": ""}, Club),
        (
            reverse("season_new", args=[cast["club"].pk]),
            _season_form_data(cast["club"]),
            Season,
        ),
        (reverse("club_invite", args=[cast["club"].pk]), {}, Invitation),
        (
            reverse("tournament_new", args=[season.pk]),
            {
                "name": "Tournoi",
                "played_on": TODAY.isoformat(),
                "players": [cast[n].pk for n in PLAYERS],
            },
            Tournament,
        ),
    ]
    for url, data, model in cases:
        before = model.objects.count()
        answers = _post_twice(_phones(admin), url, data)
        assert answers == [302, 302], (url, answers)
        assert model.objects.count() == before + 1, url
    tournament = Tournament.objects.get()
    answers = _post_twice(
        _phones(admin), reverse("tournament_round", args=[tournament.pk]), {}
    )
    assert answers == [302, 302]
    assert TournamentRound.objects.count() == 1
    pairing = TournamentPairing.objects.filter(player_b__isnull=False).first()
    answers = _post_twice(
        _phones(_signed_in(pairing.player_a)),
        reverse("pairing_report", args=[tournament.pk, pairing.pk]),
        {"result": "won", "score_for": "300", "score_against": "100"},
    )
    assert answers == [302, 302]
    assert LeagueResult.objects.count() == 1
    answers = _post_twice(
        _phones(_signed_in(cast["bob"])),
        reverse("result_report", args=[season.pk]),
        {
            "opponent": cast["dave"].pk,
            "played_on": TODAY.isoformat(),
            "result": "won",
            "score_for": "300",
            "score_against": "100",
            "second_game": "on",
        },
    )
    assert answers == [302, 302]
    assert LeagueResult.objects.count() == 2


def test_a_form_key_is_not_reused_for_another_kind_of_thing(cast):
    admin = _signed_in(cast["alice"])()
    key = {"tap_key": "one-key"}
    admin.post(reverse("clubs"), {"name": "Les Loups", "description": "", **key})
    answer = admin.post(
        reverse("tournament_new", args=[cast["season"].pk]),
        {
            "name": "Tournoi",
            "played_on": TODAY.isoformat(),
            "players": [cast[n].pk for n in PLAYERS],
            **key,
        },
    )
    assert answer.status_code == 200
    assert b"This form was already used" in answer.content
    assert Tournament.objects.count() == 0


def test_a_form_key_is_claimed_for_its_sender_alone(cast):
    """Another player sending the same key makes their own thing: a key
    never fetches what somebody else's form made."""
    key = {"tap_key": "shared-key"}
    alice, bob = _signed_in(cast["alice"])(), _signed_in(cast["bob"])()
    alice.post(reverse("clubs"), {"name": "Les Loups", "description": "", **key})
    answer = bob.post(reverse("clubs"), {"name": "Les Ours", "description": "", **key})
    assert answer.status_code == 302
    assert Club.objects.get(name="Les Ours").founder == cast["bob"]
