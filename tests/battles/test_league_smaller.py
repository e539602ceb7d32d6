"""The smaller points of issue #29, each as the person sees it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.league import services
from battles.league.models.league import Membership
from battles.league.services import seasons
from battles.league.services import tournament as tournaments
from tests.support.club import club_in_season

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

User = get_user_model()
TODAY = timezone.localdate()


@pytest.fixture
def cast():
    cast = club_in_season("alice", ("mallory", "bob", "carol"), ("olga",))
    services.promote_admin(cast["club"], cast["alice"], cast["mallory"].pk)
    return cast


def signed_in(user, language="en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def report(cast, reporter="bob", opponent="carol", **extra):
    values = {
        "opponent_id": cast[opponent].pk,
        "played_on": TODAY,
        "result": "won",
        "score_for": 200,
        "score_against": 120,
        **extra,
    }
    return services.report_result(cast["season"], cast[reporter], **values)


def ids(body: str) -> list[str]:
    return re.findall(r'\sid="([^"]+)"', body)


def test_the_admins_result_page_has_each_id_once(cast):
    """An admin who is also the opponent of a playing admin's proposal sees
    the refusal form, the admin forms and the correction: one id_reason each."""
    result = report(cast, reporter="mallory", opponent="alice")
    services.admin_confirm(result, cast["mallory"], "mine")
    body = signed_in(cast["alice"]).get(reverse("result", args=[result.pk]))
    found = ids(body.content.decode())
    assert len(found) == len(set(found)), sorted(i for i in found if found.count(i) > 1)
    assert {"settle_reason", "refuse_reason", "correct_reason"} <= set(found)


def test_the_correction_form_is_prefilled_with_the_disputed_counter_score(cast):
    result = report(cast)
    services.dispute_result(
        result, cast["carol"], "I won", outcome="b", score_a=90, score_b=250
    )
    body = signed_in(cast["alice"]).get(reverse("result", args=[result.pk]))
    text = body.content.decode()
    assert 'name="score_a" value="90"' in text and 'name="score_b" value="250"' in text
    form = text.split('id="correct_outcome"')[1].split("</select>")[0]
    assert '<option value="b" selected>' in form


def test_the_opponents_agreement_reads_confirmed_by_the_opponent(cast):
    result = report(cast, reporter="mallory", opponent="bob")
    services.admin_confirm(result, cast["mallory"], "mine")
    signed_in(cast["bob"]).post(reverse("result_answer", args=[result.pk, "approve"]))
    page = signed_in(cast["bob"]).get(reverse("result", args=[result.pk]))
    text = page.content.decode()
    assert "confirmed by the opponent" in text
    assert "confirmed by an admin" not in text


def test_the_void_status_is_annule_and_the_button_annuler_in_french(cast):
    result = report(cast)
    services.admin_void(result, cast["alice"], "Never played")
    page = signed_in(cast["alice"], "fr").get(reverse("result", args=[result.pk]))
    text = page.content.decode()
    assert '<span class="badge status-void" id="result-status">Annulé</span>' in text
    assert ">Annuler</button>" in text


def test_agreed_is_said_in_french(cast):
    result = report(cast, reporter="mallory", opponent="bob")
    services.admin_confirm(result, cast["mallory"], "mine")
    answer = signed_in(cast["bob"], "fr").post(
        reverse("result_answer", args=[result.pk, "approve"]), follow=True
    )
    assert "D’accord : la modification de l’admin est faite." in (
        answer.content.decode()
    )


def test_the_round_robin_lists_the_seasons_players_not_every_member(cast):
    season = cast["season"]
    season.participants.set([cast["bob"], cast["carol"], cast["alice"]])
    Membership.objects.create(club=cast["club"], user=cast["olga"])
    page = signed_in(cast["bob"]).get(reverse("season_schedule", args=[season.pk]))
    text = page.content.decode()
    assert "bob" in text and "carol" in text and "alice" in text
    assert "mallory" not in text and "olga" not in text


def test_a_refused_report_for_someone_elses_table_says_why(cast):
    day = tournaments.create_tournament(
        cast["season"],
        cast["alice"],
        name="Friday",
        played_on=TODAY,
        players={cast["bob"].pk: "", cast["carol"].pk: ""},
    )
    pairing = tournaments.create_round(day, cast["alice"]).pairings.get()
    answer = signed_in(cast["mallory"]).post(
        reverse("pairing_report", args=[day.pk, pairing.pk]),
        {"result": "won", "score_for": 400, "score_against": 0},
        follow=True,
    )
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "message-error" in text
    assert pairing.result_id is None


def test_a_closed_season_does_not_offer_report_a_result(cast):
    season = cast["season"]
    seasons.close_season(season, cast["alice"])
    client = signed_in(cast["bob"])
    for name in ("season", "season_results"):
        text = client.get(reverse(name, args=[season.pk])).content.decode()
        assert reverse("result_report", args=[season.pk]) not in text
    answer = client.get(reverse("result_report", args=[season.pk]), follow=True)
    assert "is closed" in answer.content.decode()
    assert answer.redirect_chain[-1][0] == reverse("season", args=[season.pk])


def test_the_directory_lists_only_her_clubs_and_joins_by_link(cast):
    services.create_club(cast["olga"], "Le Club d’Olga")
    page = signed_in(cast["bob"]).get(reverse("clubs")).content.decode()
    assert "Les Griffons de Lyon" in page
    assert "Le Club d’Olga" not in page
    issued = services.make_invitation(cast["club"], cast["alice"])
    link = "http://testserver" + reverse("club_join", args=[issued.token])
    answer = signed_in(cast["olga"]).get(reverse("clubs"), {"invitation": link})
    assert answer.status_code == 302
    assert answer.url == reverse("club_join", args=[issued.token])
