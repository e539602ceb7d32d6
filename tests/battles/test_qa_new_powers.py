"""The wave's new powers, tried by the one who would gain and by a hostile
phone (QA): spells cast or countered with the other side's magician, a
spectator's commands, someone else's spell, 2^63 ids, NUL bytes and latin-1
bodies on the new pages, the organiser's actions by a plain member or on his
own entry, recovery codes and the "forgot it" path from a stolen session.
Every refusal changes nothing."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from battles.league.services import tournament as tournaments
from battles.models import Miracle, Spell, TournamentAdjustment, TournamentPlayer
from battles.models.accounts import RecoveryCode
from battles.models.games import JoinLinkRole
from battles.services import account_security as accounts
from battles.services import sharing
from tests.support.cast import PASSWORD
from tests.support.club import club_in_season
from tests.support.game_steps import act
from tests.support.magic_setup import (
    GRIFFON_MAGE,
    WOLFEN_MAGICIAN,
    reserves,
    until_active,
    with_magic,
)

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

HUGE = 2**63
User = get_user_model()


def gems(game, fighter):
    game.refresh_from_db()
    return {k: v for k, v in game.state["fighters"][fighter]["gems"].items() if v}


def magic_game():
    from tests.support.live import guests_game

    with_magic()
    game = guests_game("owner-key", "opponent-key", turns=2)
    reserves(game)
    return until_active(game, GRIFFON_MAGE)


# --- spells at the table ------------------------------------------------------


def test_the_opponent_cannot_cast_with_my_magician(
    demo_armies, owner_client, opponent_client
):
    game = magic_game()
    before, version = gems(game, GRIFFON_MAGE), game.version
    for side in ("b", "a"):
        response = act(
            opponent_client, game, type="cast", side=side, fighter=GRIFFON_MAGE,
            spell="Boule de feu",
        )  # fmt: skip
        assert response.status_code in (200, 403)
    game.refresh_from_db()
    assert game.version == version and gems(game, GRIFFON_MAGE) == before


def test_a_phone_cannot_cast_or_counter_with_the_other_side_s_magician(
    demo_armies, owner_client, opponent_client
):
    game = magic_game()
    theirs, version = gems(game, WOLFEN_MAGICIAN), game.version
    act(
        owner_client, game, type="cast", side="a", fighter=WOLFEN_MAGICIAN,
        spell="Brume",
    )  # fmt: skip
    act(owner_client, game, type="counter", side="a", fighter=WOLFEN_MAGICIAN, pay="1")
    game.refresh_from_db()
    assert game.version == version and gems(game, WOLFEN_MAGICIAN) == theirs


def test_a_spectator_posts_no_command(demo_armies, owner_client, opponent_client):
    game = magic_game()
    token = sharing.open_share_links(game, {})[JoinLinkRole.SPECTATOR].token
    watcher = Client()
    watcher.get(f"/join/{token}")
    version = game.version
    for side in ("a", "b"):
        response = act(
            watcher, game, type="cast", side=side, fighter=GRIFFON_MAGE,
            spell="Boule de feu",
        )  # fmt: skip
        assert response.status_code in (302, 403, 404)
    game.refresh_from_db()
    assert game.version == version


# --- spells and miracles pages ------------------------------------------------


@pytest.fixture
def someone_s_spell():
    owner = type("O", (), {"guest_key": "someone-else"})
    return Spell.objects.create(
        name="Secret", cost={"fire": 1}, difficulty=5, guest_key=owner.guest_key
    )


def spells_snapshot():
    return sorted(Spell.objects.values_list("pk", "name", "difficulty")) + sorted(
        Miracle.objects.values_list("pk", "name")
    )


@pytest.mark.parametrize("kind", ["spell", "miracle", "x", "\x00"])
@pytest.mark.parametrize("pk", [HUGE, HUGE * 2, 0, 999999])
def test_spell_pages_answer_huge_and_unknown_ids_with_a_404(client, kind, pk):
    before = spells_snapshot()
    for url in (f"/armies/mystic/{kind}/{pk}/", f"/armies/mystic/{kind}/{pk}/delete/"):
        assert client.get(url).status_code in (404, 405)
        assert client.post(url, {"name": "x"}).status_code == 404
    assert spells_snapshot() == before


def test_a_guest_cannot_edit_or_delete_someone_else_s_spell(client, someone_s_spell):
    session = client.session
    session["guest_key"] = "me"
    session.save()
    before = spells_snapshot()
    pk = someone_s_spell.pk
    assert client.get(f"/armies/mystic/spell/{pk}/").status_code == 404
    edit = client.post(
        f"/armies/mystic/spell/{pk}/", {"name": "Mine", "difficulty": "3"}
    )
    assert edit.status_code == 404
    assert client.post(f"/armies/mystic/spell/{pk}/delete/").status_code == 404
    assert spells_snapshot() == before


@pytest.mark.parametrize(
    "body",
    [
        {"name": "a\x00b", "difficulty": "5"},
        {"name": "Brume", "difficulty": str(HUGE)},
        {"name": "Brume", "difficulty": "-5", "frequency": "-1"},
        {"name": "x" * 5000, "difficulty": "1e308"},
        {"name": "Brume", "points": str(-(HUGE))},
    ],
)
@pytest.mark.parametrize("kind", ["spell", "miracle"])
def test_a_new_spell_with_garbage_is_refused_without_a_write(client, body, kind):
    before = spells_snapshot()
    response = client.post(f"/armies/mystic/{kind}/new/", body)
    assert response.status_code == 200
    assert "errorlist" in response.content.decode() or 'aria-invalid="true"' in (
        response.content.decode()
    )
    assert spells_snapshot() == before


def test_latin1_bodies_on_the_new_pages_never_give_a_500(client):
    raw = "name=Br\xfbl\xe9e&difficulty=5".encode("latin-1")
    for url in (
        "/armies/mystic/spell/new/",
        "/armies/mystic/miracle/new/",
        "/armies/mystic/import/",
        "/accounts/recover/",
        "/accounts/",
    ):
        response = client.post(
            url, raw, content_type="application/x-www-form-urlencoded"
        )
        assert response.status_code < 500, url


def test_a_garbage_catalogue_upload_is_refused(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    before = spells_snapshot()
    for data in (b"\x00\xff\xfe", b"<catalogue>" * 1000, "é".encode("latin-1")):
        upload = SimpleUploadedFile("AA-Spells.cat", data, "application/xml")
        response = client.post("/armies/mystic/import/", {"file": upload})
        assert response.status_code == 200
    assert spells_snapshot() == before


def test_known_spells_of_another_player_s_army_card_are_refused(demo_armies):
    from battles.models import Army

    army = Army.objects.filter(is_demo=False).first() or demo_armies[0]
    card = army.cards.first()
    stranger = Client()
    for url in (
        f"/armies/{army.pk}/cards/{card.pk}/known/",
        f"/armies/{army.pk}/cards/{HUGE}/known/",
        f"/armies/{HUGE}/cards/{card.pk}/known/",
    ):
        response = stranger.post(url, {"spells": ["Brume", "a\x00b"]})
        assert response.status_code in (403, 404), url
    assert not card.spells.exists()


# --- the organiser's actions --------------------------------------------------

PLAYERS = ("bob", "carol", "dave", "erin")


@pytest.fixture
def day():
    cast = club_in_season("alice", PLAYERS, ("olga",), password=PASSWORD)
    tournament = tournaments.create_tournament(
        cast["season"],
        cast["alice"],
        name="Nuit",
        played_on=timezone.localdate(),
        players={cast[n].pk: "" for n in ("alice", *PLAYERS)},
    )
    tournaments.create_round(tournament, cast["alice"])
    return cast, tournament


def tournament_snapshot(tournament):
    tournament.refresh_from_db()
    return (
        list(TournamentPlayer.objects.order_by("pk").values()),
        list(TournamentAdjustment.objects.order_by("pk").values()),
        [
            list(r.pairings.order_by("pk").values())
            for r in tournament.rounds.order_by("number")
        ],
        tournament.finished if hasattr(tournament, "finished") else None,
    )


ORGANISER_ACTIONS = ("repair", "finish", "clock", "drop", "late", "guest", "adjust")


def test_a_player_or_an_outsider_uses_no_organiser_action(day):
    cast, tournament = day
    pairing = tournament.rounds.get().pairings.exclude(player_b=None).first()
    bob = TournamentPlayer.objects.get(tournament=tournament, user=cast["bob"])
    data = {
        "player": bob.pk, "points": "100", "reason": "me", "name": "Ghost",
        "user": cast["olga"].pk, "outcome": "a", "score_a": "1", "score_b": "0",
        "forfeiter": pairing.player_b_id,
    }  # fmt: skip
    before = tournament_snapshot(tournament)
    for name in ("bob", "olga"):
        client = Client()
        client.force_login(cast[name])
        base = f"/league/tournaments/{tournament.pk}/"
        for action in ORGANISER_ACTIONS:
            response = client.post(base + action, data)
            assert response.status_code in (403, 404), (name, action)
        for action in ("result", "forfeit", "confirm"):
            response = client.post(f"{base}tables/{pairing.pk}/{action}", data)
            assert response.status_code in (403, 404), (name, action)
    assert tournament_snapshot(tournament) == before


def test_the_organiser_s_actions_answer_huge_ids_and_garbage_with_no_500(day):
    cast, tournament = day
    client = Client()
    client.force_login(cast["olga"])  # not even a member
    admin = Client(raise_request_exception=False)
    admin.force_login(cast["alice"])
    before = tournament_snapshot(tournament)
    base = f"/league/tournaments/{tournament.pk}/"
    garbage = {
        "player": str(HUGE), "points": str(HUGE), "reason": "a\x00b",
        "name": "\x00", "user": str(-HUGE), "outcome": "z", "score_a": "-1",
        "score_b": "1e308", "forfeiter": str(HUGE),
    }  # fmt: skip
    for action in ORGANISER_ACTIONS[2:]:  # not repair/finish: those take no input
        response = admin.post(base + action, garbage)
        assert response.status_code == 302, action
    for action in ("result", "forfeit", "confirm"):
        response = admin.post(f"{base}tables/{HUGE}/{action}", garbage)
        assert response.status_code == 404, action
    assert admin.get(f"/league/tournaments/{HUGE}/mine").status_code == 404
    assert admin.get(base + "drop").status_code == 405
    assert tournament_snapshot(tournament) == before


def test_an_organiser_who_plays_gives_himself_no_points(day):
    cast, tournament = day
    alice = TournamentPlayer.objects.get(tournament=tournament, user=cast["alice"])
    client = Client()
    client.force_login(cast["alice"])
    response = client.post(
        f"/league/tournaments/{tournament.pk}/adjust",
        {"player": alice.pk, "points": "100", "reason": "painting"},
        follow=True,
    )
    assert response.status_code == 200
    assert not TournamentAdjustment.objects.exists()
    assert "You play in this tournament" in html.unescape(response.content.decode())


# --- the account: recovery codes and a stolen session -------------------------


@pytest.fixture
def anne():
    return User.objects.create_user("anne", password=PASSWORD)


def signed_in(user) -> Client:
    client = Client()
    assert (
        client.post(
            reverse("login"), {"username": user.username, "password": PASSWORD}
        ).status_code
        == 302
    )
    return client


def new_password(n: str) -> dict[str, str]:
    return {
        "new_password1": f"une phrase neuve {n}",
        "new_password2": f"une phrase neuve {n}",
    }


def test_a_recovery_code_works_once(anne):
    code = accounts.new_recovery_codes(anne)[0]
    data = {"username": "anne", "code": code}
    first = Client().post(
        reverse("recover"),
        {**data, **new_password("1")},
    )
    assert first.status_code == 302
    again = Client().post(
        reverse("recover"),
        {**data, **new_password("2")},
    )
    assert "do not match" in again.content.decode()
    anne.refresh_from_db()
    assert anne.check_password("une phrase neuve 1")


def test_a_stolen_session_cannot_set_a_password_while_codes_exist(anne):
    """The "forgot it" form sets a password without the old one: while the
    member holds recovery codes, a thief holding her session is sent to them."""
    accounts.new_recovery_codes(anne)
    thief = signed_in(anne)
    new = "le voleur 2026 !"
    response = thief.post(
        reverse("account"),
        {
            "form": "forgotten",
            "forgotten-new_password1": new,
            "forgotten-new_password2": new,
        },
    )
    assert response.status_code == 200
    assert "recovery code" in html.unescape(response.content.decode())
    anne.refresh_from_db()
    assert anne.check_password(PASSWORD)


def test_a_stolen_session_cannot_replace_the_recovery_codes(anne):
    """New codes undo the member's saved ones: they need her password."""
    old = accounts.new_recovery_codes(anne)
    thief = signed_in(anne)
    hashes = set(RecoveryCode.objects.values_list("code_hash", flat=True))
    response = thief.post(reverse("account"), {"form": "codes"})
    assert response.status_code == 200
    response = thief.post(
        reverse("account"), {"form": "codes", "codes-password": "a guess"}
    )
    assert response.status_code == 200
    assert set(RecoveryCode.objects.values_list("code_hash", flat=True)) == hashes
    owner = signed_in(anne)
    done = owner.post(reverse("account"), {"form": "codes", "codes-password": PASSWORD})
    assert done.url == reverse("recovery_codes")
    assert set(RecoveryCode.objects.values_list("code_hash", flat=True)) != hashes
    assert len(old) == 10


def test_a_stolen_session_cannot_change_the_address_that_resets_the_password(anne):
    thief = signed_in(anne)
    for password in ("", "a guess"):
        response = thief.post(
            reverse("account"),
            {
                "form": "email",
                "email-email": "thief@example.org",
                "email-password": password,
            },
        )
        assert response.status_code == 200
    anne.refresh_from_db()
    assert anne.email == ""


@pytest.mark.parametrize(
    "form", ["names", "email", "password", "forgotten", "codes", "others", "\x00", ""]
)
def test_the_account_page_refuses_garbage_without_a_500(anne, form):
    client = signed_in(anne)
    data = {
        "form": form,
        f"{form}-display_name": "a\x00b",
        f"{form}-first_name": "x" * 5000,
        f"{form}-email": "\x00@x",
        f"{form}-old_password": "\x00",
        f"{form}-new_password1": "\x00",
        f"{form}-new_password2": "\x01",
        f"{form}-password": "\x00",
    }
    response = client.post(reverse("account"), data)
    assert response.status_code in (200, 302)
    anne.refresh_from_db()
    assert anne.check_password(PASSWORD)
    assert "\x00" not in (anne.first_name + anne.email)


# --- hostile input, signed in, on the wave's new routes ------------------------

NEW_ROUTES = (
    "accounts/",
    "accounts/recover/",
    "accounts/recovery-codes/",
    "armies/mystic/",
    "armies/mystic/import/",
    "armies/mystic/<str:kind>/new/",
    "armies/mystic/<str:kind>/<int:pk>/",
    "armies/mystic/<str:kind>/<int:pk>/delete/",
    "armies/<int:army_id>/cards/<int:army_card_id>/known/",
)


def test_the_new_routes_signed_in_answer_hostile_input_with_no_5xx_or_change(
    day, monkeypatch
):
    """The fuzz of test_fuzz_endpoints, but signed in as the organiser who
    owns a spell and runs a day: the ids in the URLs are real ones."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from battles.models import Army
    from battles.services import armies as army_services
    from tests.battles import test_fuzz_endpoints as fuzz
    from tests.battles.test_fuzz_endpoints import (
        HOSTILE_VALUE,
        endpoints,
        field_names,
        fingerprint,
        refused,
        url_for,
    )

    # The signed-in phone's device row is noted on every page (bookkeeping).
    monkeypatch.setattr(
        fuzz, "BOOKKEEPING", fuzz.BOOKKEEPING | {"battles.signedindevice"}
    )
    cast, tournament = day
    alice = cast["alice"]
    spell = Spell.objects.create(name="Mien", cost={"fire": 1}, owner=alice)
    pairing = tournament.rounds.get().pairings.exclude(player_b=None).first()
    from django.core.management import call_command

    call_command("load_demo", verbosity=0)
    demo = Army.objects.filter(is_demo=True).first()
    owner = army_services.Owner(user_id=alice.pk)
    army = army_services.create_army(owner, name="Fuzz", people=demo.people)
    army_card = army_services.add_card(army, demo.cards.first().card)
    values = {
        "tournament_id": str(tournament.pk),
        "pairing_id": str(pairing.pk),
        "kind": "spell",
        "pk": str(spell.pk),
        "army_id": str(army.pk),
        "army_card_id": str(army_card.pk),
    }
    routes = [
        route
        for route, _pattern in endpoints()
        if route in NEW_ROUTES or route.startswith("league/tournaments/<dbid")
    ]
    assert len(routes) >= 20
    names = field_names() + ["player", "points", "reason", "forfeiter", "outcome"]
    phone = Client(HTTP_ACCEPT_LANGUAGE="fr", raise_request_exception=False)
    phone.force_login(alice)

    @settings(
        max_examples=4,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        data=st.dictionaries(st.sampled_from(names), HOSTILE_VALUE, max_size=6),
        htmx=st.booleans(),
    )
    def hostile_post(url: str, data, htmx: bool) -> None:
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        before = fingerprint()
        response = phone.post(url, data, **headers)
        assert response.status_code < 500, (url, data, response.status_code)
        if refused(response):
            assert fingerprint() == before, (url, data, response.status_code)

    for route in routes:
        if route.endswith(("stream", "finish", "repair", "clock")):
            continue  # no input to fuzz (and the stream never ends)
        hostile_post(url_for(route, values))
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


# --- once-keys ----------------------------------------------------------------


def guest(key: str) -> Client:
    client = Client(raise_request_exception=False)
    session = client.session
    session["guest_key"] = key
    session.save()
    return client


def test_a_stale_once_key_after_its_army_is_gone_gives_no_500(demo_armies):
    from battles.models import Army

    phone = guest("stale-key-guest")
    people = demo_armies[0].people.pk
    data = {"name": "Once", "people": people, "points_limit": "200", "tap_key": "K1"}
    assert phone.post("/armies/new/", data).status_code == 302
    army = Army.objects.get(name="Once")
    phone.post(f"/armies/{army.pk}/delete/")
    Army.objects.filter(pk=army.pk).delete()  # gone for good, restore window or not
    again = phone.post("/armies/new/", data)
    assert again.status_code == 200
    assert "This form was already used: reload the page." in again.content.decode()
    assert not Army.objects.filter(name="Once").exists()


def test_a_once_key_of_another_form_or_person_makes_nothing_of_theirs(demo_armies):
    from battles.models import Army, Game

    people = demo_armies[0].people.pk
    data = {"name": "Mine", "people": people, "points_limit": "200", "tap_key": "K2"}
    assert guest("first").post("/armies/new/", data).status_code == 302
    # The same key by someone else: their own army, never the first one's.
    other = guest("second")
    assert other.post("/armies/new/", {**data, "name": "Theirs"}).status_code == 302
    assert Army.objects.filter(name__in=["Mine", "Theirs"]).count() == 2
    # The same key on another kind of form: refused, nothing made.
    games = Game.objects.count()
    for key in ("K2", "x" * 5000, "\x00", "a\x00b"):
        response = guest("first").post(
            "/games/new/",
            {"army_a": demo_armies[0].pk, "army_b": demo_armies[1].pk, "tap_key": key},
        )
        assert response.status_code < 500, key
    assert Game.objects.count() <= games + 3


def test_while_a_counter_is_asked_only_the_adversary_answers_with_his_magician(
    demo_armies, owner_client, opponent_client
):
    game = magic_game()
    act(
        owner_client, game, type="cast", side="a", fighter=GRIFFON_MAGE,
        spell="Boule de feu", target="b1.1",
    )  # fmt: skip
    game.refresh_from_db()
    assert game.state["pending"]["kind"] == "counter"
    version = game.version
    theirs = gems(game, WOLFEN_MAGICIAN)
    # The caster's phone answers for the other side, or with its own magician.
    for side, fighter in (("a", WOLFEN_MAGICIAN), ("b", WOLFEN_MAGICIAN)):
        act(owner_client, game, type="counter", side=side, fighter=fighter, pay="1")
    act(opponent_client, game, type="counter", side="b", fighter=GRIFFON_MAGE, pay="1")
    game.refresh_from_db()
    assert game.version == version and gems(game, WOLFEN_MAGICIAN) == theirs
    act(
        opponent_client,
        game,
        type="counter",
        side="b",
        fighter=WOLFEN_MAGICIAN,
        pay="1",
    )
    game.refresh_from_db()
    assert game.state["pending"] is None
    assert sum(gems(game, WOLFEN_MAGICIAN).values()) == 1
