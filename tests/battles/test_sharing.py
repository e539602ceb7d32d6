"""Sharing a game: join links and QR codes, claiming side B once, spectators,
and who may do what (forged requests included)."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.models.games import GameMode, GameSeat, JoinLink, SeatRole
from battles.services import sharing
from tests.support.cast import OPPONENT, OUTSIDER, OWNER, SPECTATOR, phone_of
from tests.support.live import new_game, seat

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def owner_client():
    return phone_of(OWNER)


@pytest.fixture
def game():
    return new_game(title="Friday night")


def share_page(client, game) -> str:
    response = client.get(reverse("game_share", args=[game.public_id]))
    assert response.status_code == 200
    return response.content.decode()


def join_urls(body: str) -> dict[str, str]:
    urls = re.findall(r'id="share-url-([a-z]+)"[^>]*value="([^"]+)"', body)
    return {role: url.removeprefix("http://testserver") for role, url in urls}


# --- the share page ----------------------------------------------------------------


def test_the_creator_gets_a_link_and_a_qr_code_for_side_b_and_for_spectators(
    owner_client, game
):
    body = share_page(owner_client, game)
    urls = join_urls(body)
    assert set(urls) == {"b", "spectator"}
    assert reverse("game_share_qr", args=[game.public_id, "b"]) in body
    token = urls["b"].removeprefix("/join/")
    assert len(token) >= 43  # secrets.token_urlsafe(32)
    link = JoinLink.objects.get(game=game, role="b")
    assert link.token_hash == JoinLink.hash_token(token)
    assert token not in str(JoinLink.objects.values_list())  # stored hashed only


def test_the_share_page_shows_the_same_links_when_reloaded(owner_client, game):
    assert join_urls(share_page(owner_client, game)) == join_urls(
        share_page(owner_client, game)
    )
    assert JoinLink.objects.filter(game=game).count() == 2


def test_the_qr_code_is_an_svg_image_that_is_never_cached(owner_client, game):
    share_page(owner_client, game)
    response = owner_client.get(reverse("game_share_qr", args=[game.public_id, "b"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert "no-store" in response["Cache-Control"]
    assert b"<svg" in response.content
    assert b"<script" not in response.content


def test_only_the_side_a_holder_shares(game):
    seat(game, OPPONENT, SeatRole.SIDE_B)
    seat(game, SPECTATOR, SeatRole.SPECTATOR)
    for who in (OPPONENT, SPECTATOR):
        client = phone_of(who)
        share = reverse("game_share", args=[game.public_id])
        assert client.get(share).status_code == 403
        renew = reverse("game_share_renew", args=[game.public_id])
        assert client.post(renew, {"role": "b"}).status_code == 403
    outsider = phone_of(OUTSIDER)
    assert outsider.get(reverse("game_share", args=[game.public_id])).status_code == 404


def test_one_phone_games_share_only_a_spectator_link(owner_client):
    game = new_game(mode=GameMode.ONE_PHONE)
    body = share_page(owner_client, game)
    assert set(join_urls(body)) == {"spectator"}
    assert "played on this phone too" in body


# --- joining -------------------------------------------------------------------------


def test_the_join_page_asks_first_and_says_no_referrer(owner_client, game):
    url = join_urls(share_page(owner_client, game))["b"]
    response = phone_of(OPPONENT).get(url)
    assert response.status_code == 200
    assert response["Referrer-Policy"] == "no-referrer"
    body = response.content.decode()
    assert "Join as side B of “Friday night”?" in body
    assert 'name="player_name"' in body
    assert not GameSeat.objects.filter(game=game, role="b").exists()


def test_claiming_side_b_seats_the_opponent_and_forgets_the_token(owner_client, game):
    url = join_urls(share_page(owner_client, game))["b"]
    phone = Client()  # a fresh phone: no session yet
    response = phone.post(url, {"player_name": "Bruno"})
    assert response.status_code == 302
    assert response.url == reverse("game", args=[game.public_id])
    assert response["Referrer-Policy"] == "no-referrer"
    seat_b = GameSeat.objects.get(game=game, role="b")
    assert seat_b.player_name == "Bruno"
    assert seat_b.guest_key == phone.session["guest_key"]
    assert JoinLink.objects.get(game=game, role="b").used is not None
    page = phone.get(response.url)
    assert page.status_code == 200
    assert "You play side B." in page.content.decode()


def test_a_second_claim_of_side_b_is_refused_clearly(owner_client, game):
    url = join_urls(share_page(owner_client, game))["b"]
    Client().post(url, {"player_name": "Bruno"})
    late = Client()
    for response in (late.get(url), late.post(url, {"player_name": "Carla"})):
        assert response.status_code == 409
        assert "already been claimed" in response.content.decode()
    assert GameSeat.objects.filter(game=game, role="b").count() == 1


def test_a_spectator_link_seats_many_spectators_who_cannot_act(owner_client, game):
    url = join_urls(share_page(owner_client, game))["spectator"]
    watchers = [Client() for _ in range(3)]
    for watcher in watchers:
        assert watcher.post(url).status_code == 302
    assert GameSeat.objects.filter(game=game, role="spectator").count() == 3
    act = reverse("game_act", args=[game.public_id])
    tap = {"type": "set_sequence", "side": "a", "version": game.version, "tap": "k1"}
    assert watchers[0].post(act, tap).status_code == 403
    assert watchers[0].get(reverse("game", args=[game.public_id])).status_code == 200


def test_the_creator_following_their_own_link_is_sent_to_the_game(owner_client, game):
    url = join_urls(share_page(owner_client, game))["b"]
    response = owner_client.get(url)
    assert response.status_code == 200  # asks; posting would be refused
    response = owner_client.post(url)
    assert response.status_code == 409
    assert "already play side A" in response.content.decode()
    spectator_url = join_urls(share_page(owner_client, game))["spectator"]
    response = owner_client.get(spectator_url)
    assert response.status_code == 302


@pytest.mark.parametrize(
    ("spoil", "status", "words"),
    [
        (lambda link: setattr(link, "revoked", True), 410, "withdrawn"),
        (
            lambda link: setattr(link, "expires", timezone.now() - timedelta(1)),
            410,
            "expired",
        ),
        (lambda link: setattr(link, "used", timezone.now()), 409, "already been"),
    ],
    ids=["revoked", "expired", "used"],
)
def test_a_spoiled_link_is_refused_with_a_reason(
    owner_client, game, spoil, status, words
):
    url = join_urls(share_page(owner_client, game))["b"]
    link = JoinLink.objects.get(game=game, role="b")
    spoil(link)
    link.save()
    phone = Client()
    for response in (phone.get(url), phone.post(url)):
        assert response.status_code == status
        assert words in response.content.decode()
    assert not GameSeat.objects.filter(game=game, role="b").exists()


def test_an_unknown_token_is_a_404_that_says_so():
    response = Client().get(reverse("join", args=["x" * 43]))
    assert response.status_code == 404
    assert "does not lead to any game" in response.content.decode()


def test_renewing_a_link_withdraws_the_old_one(owner_client, game):
    old = join_urls(share_page(owner_client, game))["b"]
    renew = reverse("game_share_renew", args=[game.public_id])
    assert owner_client.post(renew, {"role": "b"}).status_code == 302
    new = join_urls(share_page(owner_client, game))["b"]
    assert new != old
    assert Client().get(old).status_code == 410
    assert Client().get(new).status_code == 200


def test_a_withdrawn_link_stays_withdrawn_until_renewed(owner_client, game):
    url = join_urls(share_page(owner_client, game))["spectator"]
    revoke = reverse("game_share_revoke", args=[game.public_id])
    owner_client.post(revoke, {"role": "spectator"})
    body = share_page(owner_client, game)
    assert "spectator" not in join_urls(body)
    assert "Make a new link" in body
    assert Client().get(url).status_code == 410


def test_a_link_lasts_the_configured_number_of_days(settings, game):
    settings.JOIN_LINK_DAYS = 2
    share = sharing.make_join_link(game, "b")
    left = share.link.expires - timezone.now()
    assert timedelta(days=2) - timedelta(minutes=1) < left <= timedelta(days=2)


def test_the_join_form_accepts_the_browsers_null_origin_from_this_site_only(
    owner_client, game
):
    url = join_urls(share_page(owner_client, game))["b"]
    phone = Client(enforce_csrf_checks=True)
    body = phone.get(url).content.decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)

    def from_a_null_origin(fetch_site: str, token: bool = True) -> int:
        data = {"csrfmiddlewaretoken": csrf} if token else {}
        response = phone.post(
            url, data, HTTP_ORIGIN="null", HTTP_SEC_FETCH_SITE=fetch_site
        )
        return response.status_code

    assert from_a_null_origin("cross-site") == 403
    assert from_a_null_origin("same-origin", token=False) == 403
    assert from_a_null_origin("same-origin") == 302
    assert GameSeat.objects.filter(game=game, role="b").count() == 1


# --- two phones claiming at the same moment ------------------------------------------


def _claim_at_once(tokens: list[str]) -> tuple[list, list]:
    barrier = threading.Barrier(len(tokens))
    seats, refusals = [], []

    def claim(index: int, token: str) -> None:
        try:
            barrier.wait()
            who = OPPONENT.__class__(guest_key=f"racing-phone-{index}")
            seats.append(sharing.claim_seat(token, who, player_name=str(index)))
        except sharing.JoinRefused as refusal:
            refusals.append(refusal)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=claim, args=(i, t)) for i, t in enumerate(tokens)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return seats, refusals


@pytest.mark.django_db(transaction=True)
def test_of_two_phones_claiming_side_b_at_once_exactly_one_wins():
    game = new_game()
    token = sharing.make_join_link(game, "b").token
    seats, refusals = _claim_at_once([token] * 6)
    assert len(seats) == 1
    assert len(refusals) == 5
    assert all(isinstance(r, sharing.SideTaken) for r in refusals)
    assert GameSeat.objects.filter(game=game, role="b").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_side_b_links_claimed_at_once_still_seat_one_opponent():
    game = new_game()
    tokens = [sharing.make_join_link(game, "b").token for _ in range(4)]
    seats, refusals = _claim_at_once(tokens)
    assert len(seats) == 1
    assert len(refusals) == 3
    assert GameSeat.objects.filter(game=game, role="b").count() == 1


# --- forged requests -------------------------------------------------------------


def test_a_phone_cannot_act_for_the_other_side(game):
    seat(game, OPPONENT, SeatRole.SIDE_B)
    act = reverse("game_act", args=[game.public_id])
    forged = {"type": "set_sequence", "side": "a", "version": game.version, "tap": "x"}
    assert phone_of(OPPONENT).post(act, forged).status_code == 403
    forged_b = {**forged, "side": "b", "tap": "y"}
    assert phone_of(OWNER).post(act, forged_b).status_code == 403
    game.refresh_from_db()
    assert game.version == 1


def test_an_outsider_gets_404_on_every_game_url(game):
    seat(game, OPPONENT, SeatRole.SIDE_B)
    outsider = phone_of(OUTSIDER)
    public_id = game.public_id
    page = outsider.get(reverse("game", args=[public_id])).content.decode()
    assert 'id="game-panel"' not in page  # the join-or-watch page, nothing of it
    gets = [
        "game_board",
        "game_log",
        "game_verify",
        "game_share",
        "game_stream",
        "game_version",
    ]
    for name in gets:
        response = outsider.get(reverse(name, args=[public_id]))
        assert response.status_code == 404, name
    qr = reverse("game_share_qr", args=[public_id, "b"])
    assert outsider.get(qr).status_code == 404
    posts = ["game_act", "game_undo", "game_share_renew", "game_share_revoke"]
    for name in posts:
        response = outsider.post(reverse(name, args=[public_id]), {"role": "b"})
        assert response.status_code == 404, name
    for name in ("game_confirm", "game_dispute"):
        response = outsider.post(reverse(name, args=[public_id, 2]), {"side": "a"})
        assert response.status_code == 404, name
    anonymous = Client()
    assert anonymous.get(reverse("game_stream", args=[public_id])).status_code == 404
    seatless = anonymous.get(reverse("game", args=[public_id])).content.decode()
    assert 'id="game-panel"' not in seatless
