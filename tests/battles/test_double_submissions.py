"""Every double submission is one (issue 30): a form that creates something,
sent twice at once (two threads, each with its own database connection),
makes one thing, on SQLite and on PostgreSQL.

Run on both: ``DATABASE_URL=postgres://... pytest tests/battles/test_double_submissions.py``.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.utils import timezone

from battles.models.league import LeagueResult
from battles.services import tournament as tournament_services
from tests.support.club import club_in_season

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
