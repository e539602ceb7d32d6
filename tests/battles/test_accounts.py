"""Accounts: sign up, sign in, sign out, and a guest's armies and games
following them into their account (issue #6)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from battles.models import Army, Game, GameSeat, ReferenceCard
from battles.models.armies import Owner
from battles.services.accounts import adopt_guest_data
from battles.services.armies import create_army, create_custom_card, delete_army
from tests.support.cast import PASSWORD, phone_of
from tests.support.live import new_game, new_game_form, seat

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

User = get_user_model()


def phone(guest_key: str = "") -> Client:
    """A phone's browser; a guest (with that key in the session) if ``guest_key``."""
    return phone_of(guest_key) if guest_key else Client()


def sign_up(client: Client, username: str = "anne", **data):
    return client.post(
        reverse("signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD, **data},
    )


def sign_in(client: Client, username: str = "anne", password: str = PASSWORD, **data):
    return client.post(
        reverse("login"), {"username": username, "password": password, **data}
    )


def signed_in_user_id(client: Client) -> int | None:
    value = client.session.get("_auth_user_id")
    return int(value) if value else None


# --- the pages -------------------------------------------------------------------


def test_the_sign_up_page_labels_every_field():
    response = phone().get(reverse("signup"))
    body = response.content.decode()
    assert response.status_code == 200
    for field in ("id_username", "id_password1", "id_password2"):
        assert f'<label for="{field}"' in body
    assert 'autocomplete="new-password"' in body


def test_the_sign_in_page_labels_every_field_and_offers_to_sign_up():
    response = phone().get(reverse("login"))
    body = response.content.decode()
    assert response.status_code == 200
    assert '<label for="id_username"' in body and '<label for="id_password"' in body
    assert 'autocomplete="current-password"' in body
    assert f'href="{reverse("signup")}"' in body


def test_an_anonymous_header_offers_to_sign_in():
    body = phone().get("/").content.decode()
    assert f'href="{reverse("login")}"' in body
    assert "Sign out" not in body


def test_accounts_live_at_the_settings_names(settings):
    assert reverse(settings.LOGIN_URL) == "/accounts/login/"
    assert reverse(settings.LOGIN_REDIRECT_URL) == reverse(settings.LOGOUT_REDIRECT_URL)
    assert reverse("signup") == "/accounts/signup/"
    assert reverse("logout") == "/accounts/logout/"


# --- signing up ------------------------------------------------------------------


def test_signing_up_makes_the_account_signs_in_shows_the_codes_and_goes_home():
    client = phone()
    response = sign_up(client, "anne")
    assert response.status_code == 302
    assert response["Location"] == reverse("recovery_codes")  # shown once, then home
    assert client.post(response["Location"])["Location"] == "/"
    user = User.objects.get(username="anne")
    assert user.check_password(PASSWORD)
    assert signed_in_user_id(client) == user.pk
    home = client.get("/").content.decode()
    assert "anne" in home and "Sign out" in home
    assert 'action="/accounts/logout/"' in home


def test_a_taken_username_is_refused_next_to_the_field(anne):
    response = sign_up(phone(), "anne")
    body = response.content.decode()
    assert response.status_code == 200
    assert "A user with that username already exists." in body
    assert "field-invalid" in body
    assert User.objects.count() == 1


def test_passwords_that_differ_create_nothing():
    response = sign_up(phone(), "bruno", password2=PASSWORD + "!")
    assert response.status_code == 200
    assert "The two password fields didn’t match." in response.content.decode()
    assert not User.objects.exists()


def test_a_common_password_is_refused_and_creates_nothing():
    client = phone()
    response = client.post(
        reverse("signup"),
        {"username": "bruno", "password1": "password", "password2": "password"},
    )
    assert response.status_code == 200
    assert "This password is too common." in response.content.decode()
    assert not User.objects.exists()
    assert signed_in_user_id(client) is None


# --- signing in and out ----------------------------------------------------------


def test_signing_in_goes_home(anne):
    client = phone()
    response = sign_in(client)
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_user_id(client) == anne.pk


def test_a_wrong_password_says_so_and_signs_nobody_in(anne):
    client = phone()
    response = sign_in(client, password="not-the-password")
    body = response.content.decode()
    assert response.status_code == 200
    assert "Please enter a correct username and password." in body
    assert 'role="alert"' in body
    assert signed_in_user_id(client) is None


def test_signing_in_follows_next_on_this_site_only(anne):
    assert sign_in(phone(), next="/games/")["Location"] == "/games/"
    assert sign_in(phone(), next="https://evil.example/")["Location"] == "/"
    assert sign_in(phone(), next="//evil.example/")["Location"] == "/"


def test_sign_out_is_post_only(anne):
    client = phone()
    client.force_login(anne)
    assert client.get(reverse("logout")).status_code == 405
    assert signed_in_user_id(client) == anne.pk
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert signed_in_user_id(client) is None
    assert "You are signed out." in client.get("/").content.decode()


def test_sign_out_needs_the_csrf_token(anne):
    client = Client(enforce_csrf_checks=True)
    client.force_login(anne)
    assert client.post(reverse("logout")).status_code == 403
    assert signed_in_user_id(client) == anne.pk


def test_sign_out_works_from_the_join_page_whose_posts_say_origin_null(anne):
    client = Client(enforce_csrf_checks=True)
    client.force_login(anne)
    client.get("/")  # the CSRF cookie
    token = client.cookies["csrftoken"].value
    data = {"csrfmiddlewaretoken": token}
    forged = client.post(reverse("logout"), data, HTTP_ORIGIN="null")
    assert forged.status_code == 403
    assert signed_in_user_id(client) == anne.pk
    response = client.post(
        reverse("logout"), data, HTTP_ORIGIN="null", HTTP_SEC_FETCH_SITE="same-origin"
    )
    assert response.status_code == 302
    assert signed_in_user_id(client) is None


@pytest.mark.parametrize("form", ["login", "signup"])
def test_a_nul_character_is_a_form_error_not_a_500(form):
    data = {"username": "an\x00ne", "password": PASSWORD}
    data |= {"password1": PASSWORD, "password2": PASSWORD}
    response = phone().post(reverse(form), data)
    assert response.status_code == 200
    assert "Null characters are not allowed." in response.content.decode()
    assert not User.objects.exists()


# --- a guest's armies and games follow them into the account ---------------------


@pytest.fixture
def demo():
    from tests.support.live import demo_armies

    return demo_armies()


def test_a_guest_who_signs_up_keeps_their_army_and_their_side_everywhere(demo):
    army_a, army_b = demo
    anne_phone = phone()
    # As a guest: an army of her own, then a game where she holds side A.
    anne_phone.post(
        "/armies/new/",
        {"name": "Meute", "people": army_a.people_id, "points_limit": 300},
    )
    anne_phone.post(
        "/games/new/",
        new_game_form(army_a, army_b),
    )
    game = Game.objects.get()
    guest_key = anne_phone.session["guest_key"]
    assert Army.objects.get(name="Meute").guest_key == guest_key

    response = sign_up(anne_phone, "anne")
    assert response.status_code == 302
    anne = User.objects.get(username="anne")
    army = Army.objects.get(name="Meute")
    assert (army.owner_id, army.guest_key) == (anne.pk, "")
    side_a = GameSeat.objects.get(game=game, role="a")
    assert (side_a.user_id, side_a.guest_key) == (anne.pk, "")
    assert "guest_key" not in anne_phone.session
    home = anne_phone.get("/").content.decode()
    assert "1 army" in home and "1 game" in home
    assert anne_phone.get(f"/games/{game.public_id}/").status_code == 200

    # Another phone, signed in to the same account, finds the game and plays A.
    tablet = phone("someone-elses-guest-key")
    assert sign_in(tablet, "anne").status_code == 302
    assert game.public_id in tablet.get("/games/").content.decode()
    assert tablet.get(f"/games/{game.public_id}/").status_code == 200
    assert "Meute" in tablet.get("/armies/").content.decode()
    cards = game.state["sides"]["a"]["cards"]
    response = tablet.post(
        f"/games/{game.public_id}/act",
        {"type": "set_sequence", "side": "a", "order": cards, "version": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version == 2 and game.state["sequences"]["a"] is not None

    # Signed out, the first phone is an anonymous guest: the game is not its own.
    anne_phone.post(reverse("logout"))
    assert game.public_id not in anne_phone.get("/games/").content.decode()
    seatless = anne_phone.get(f"/games/{game.public_id}/").content.decode()
    assert 'id="game-panel"' not in seatless  # the join-or-watch page instead
    assert anne_phone.get(f"/games/{game.public_id}/board").status_code == 404
    assert "Meute" not in anne_phone.get("/armies/").content.decode()


def test_a_guest_who_signs_in_brings_their_seat_b_along(demo, anne):
    game = new_game()
    phone_b = phone("guest-of-side-b")
    seat(game, Owner(guest_key="guest-of-side-b"), "b")
    assert sign_in(phone_b, "anne").status_code == 302
    assert GameSeat.objects.get(game=game, role="b").user_id == anne.pk
    assert phone_b.get(f"/games/{game.public_id}/").status_code == 200


def test_signing_in_with_nothing_built_moves_nothing(anne):
    client = phone()
    sign_in(client)
    assert "is now in your account" not in client.get("/").content.decode()


def test_an_adopted_army_whose_name_the_account_uses_gets_a_number(anne, griffons):
    guest = Owner(guest_key="guest-of-anne")
    create_army(Owner(user_id=anne.pk), name="Meute", people=griffons)
    create_army(Owner(user_id=anne.pk), name="Meute (2)", people=griffons)
    create_army(guest, name="Meute", people=griffons)
    create_army(guest, name="Ost", people=griffons)
    adopted = adopt_guest_data("guest-of-anne", anne)
    assert adopted.armies == 2
    assert adopted.renamed == [("Meute", "Meute (3)")]
    names = Army.objects.filter(owner=anne).values_list("name", flat=True)
    assert sorted(names) == ["Meute", "Meute (2)", "Meute (3)", "Ost"]
    assert not Army.objects.filter(guest_key="guest-of-anne").exists()


def test_a_long_clashing_army_name_still_fits(anne, griffons):
    long_name = "M" * 100
    create_army(Owner(user_id=anne.pk), name=long_name, people=griffons)
    create_army(Owner(guest_key="guest-of-anne"), name=long_name, people=griffons)
    adopt_guest_data("guest-of-anne", anne)
    renamed = Army.objects.exclude(name=long_name).get()
    assert renamed.name == "M" * 96 + " (2)"


def test_a_deleted_guest_army_moves_without_taking_a_name(anne, griffons):
    create_army(Owner(user_id=anne.pk), name="Meute", people=griffons)
    deleted = delete_army(
        create_army(Owner(guest_key="guest-of-anne"), name="Meute", people=griffons)
    )
    adopt_guest_data("guest-of-anne", anne)
    deleted.refresh_from_db()
    assert (deleted.owner_id, deleted.name) == (anne.pk, "Meute")


def test_an_adopted_card_whose_name_the_account_uses_gets_a_number(
    anne, griffons, wolfen
):
    profile = {"mou": 10, "ini": 3, "att": 4, "force": 5, "defense": 4, "res": 5}
    create_custom_card(Owner(user_id=anne.pk), name="Garde", people=griffons, **profile)
    guest = Owner(guest_key="guest-of-anne")
    mine = create_custom_card(guest, name="Garde", people=griffons, **profile)
    other_people = create_custom_card(guest, name="Garde", people=wolfen, **profile)
    army = create_army(guest, name="Ost", people=griffons)
    army.cards.create(card=mine, fighters=2)
    adopted = adopt_guest_data("guest-of-anne", anne)
    assert adopted.cards == 2
    mine.refresh_from_db()
    other_people.refresh_from_db()
    assert (mine.owner_id, mine.name, mine.guest_key) == (anne.pk, "Garde (2)", "")
    assert other_people.name == "Garde"  # another people: no clash
    assert Army.objects.get(name="Ost").cards.get().card == mine
    assert ReferenceCard.objects.filter(owner=anne).count() == 3


def test_a_seat_the_account_already_holds_is_kept_once(demo, anne):
    guest = Owner(guest_key="guest-of-anne")
    account = Owner(user_id=anne.pk)
    watched_twice = new_game(owner=Owner(guest_key="host-1"))
    seat(watched_twice, account, "spectator")
    seat(watched_twice, guest, "spectator")
    played_and_watched = new_game(owner=account)
    seat(played_and_watched, guest, "spectator")
    watched_then_played = new_game(owner=Owner(guest_key="host-2"))
    seat(watched_then_played, account, "spectator")
    seat(watched_then_played, guest, "b")

    adopted = adopt_guest_data("guest-of-anne", anne)

    def roles(game):
        return sorted(game.seats.filter(user=anne).values_list("role", flat=True))

    assert roles(watched_twice) == ["spectator"]
    assert roles(played_and_watched) == ["a"]
    assert roles(watched_then_played) == ["b"]
    assert adopted.seats == 1
    assert not GameSeat.objects.filter(guest_key="guest-of-anne").exists()


def test_two_sides_held_apart_stay_two_sides(demo, anne):
    game = new_game(owner=Owner(user_id=anne.pk))
    seat(game, Owner(guest_key="guest-of-anne"), "b")
    adopt_guest_data("guest-of-anne", anne)
    assert sorted(game.seats.values_list("role", "user_id")) == [
        ("a", anne.pk),
        ("b", anne.pk),
    ]


def test_another_guests_things_stay_theirs(demo, anne):
    people = demo[0].people
    create_army(Owner(guest_key="someone-else"), name="Ost", people=people)
    game = new_game(owner=Owner(guest_key="someone-else"))
    assert not adopt_guest_data("guest-of-anne", anne).anything
    assert not adopt_guest_data("", anne).anything
    assert Army.objects.get(name="Ost").guest_key == "someone-else"
    assert game.seats.get().guest_key == "someone-else"
