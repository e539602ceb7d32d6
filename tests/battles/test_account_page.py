"""The account page and password recovery (issue #29): nobody but the member
sets her password. Recovery codes shown once at sign-up, kept hashed, used
once; a device where she is signed in sets a new one; the others are signed
out from the page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from battles import ratelimit
from battles.models.accounts import RecoveryCode, SignedInDevice
from battles.services import account_security as accounts
from tests.support.cast import PASSWORD

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "quick_passwords"),
]

User = get_user_model()
NEW = "une nouvelle phrase 88"


def sign_up(client: Client, username: str = "anne", **extra):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("signup"), {**data, **extra})


def sign_in(client: Client, username: str = "anne", password: str = PASSWORD):
    return client.post(reverse("login"), {"username": username, "password": password})


def codes_on_page(body: str) -> list[str]:
    return [part.split("</code>")[0] for part in body.split("<code>")[1:]]


@pytest.fixture
def anne():
    return User.objects.create_user("anne", password=PASSWORD)


# --- recovery codes ----------------------------------------------------------------


def test_sign_up_shows_ten_codes_once_and_keeps_only_their_hashes():
    client = Client()
    response = sign_up(client, next="/armies/")
    assert response.status_code == 302
    assert response.url == reverse("recovery_codes") + "?next=%2Farmies%2F"
    page = client.get(response.url).content.decode()
    codes = codes_on_page(page)
    assert len(codes) == 10 and len(set(codes)) == 10
    assert "shown only now" in page
    stored = list(RecoveryCode.objects.values_list("code_hash", flat=True))
    assert len(stored) == 10
    assert not any(code in str(stored) for code in codes)
    text = client.get(reverse("recovery_codes_text"))
    assert text["Content-Disposition"] == 'attachment; filename="recovery-codes.txt"'
    assert all(code in text.content.decode() for code in codes)
    done = client.post(reverse("recovery_codes"), {"next": "/armies/"})
    assert done.url == "/armies/"
    again = client.get(reverse("recovery_codes")).content.decode()
    assert codes_on_page(again) == []
    assert "10 unused recovery codes" in again
    assert client.get(reverse("recovery_codes_text")).status_code == 302


def test_a_code_sets_a_new_password_once_and_signs_every_device_out(anne):
    codes = accounts.new_recovery_codes(anne)
    phone, tablet = Client(), Client()
    sign_in(phone)
    sign_in(tablet)
    assert phone.get(reverse("account")).status_code == 200
    lost = Client()
    data = {
        "username": "anne",
        "code": codes[3].lower().replace("-", " "),
        "new_password1": NEW,
        "new_password2": NEW,
    }
    response = lost.post(reverse("recover"), data)
    assert response.status_code == 302 and response.url == reverse("account")
    anne.refresh_from_db()
    assert anne.check_password(NEW)
    assert accounts.codes_left(anne) == 9
    assert "Recovery codes left: 9" in lost.get(reverse("account")).content.decode()
    # The other devices are signed out.
    assert phone.get(reverse("account")).status_code == 302
    assert tablet.get(reverse("account")).status_code == 302
    # The same code again: refused, nothing changes.
    data["new_password1"] = data["new_password2"] = "encore une autre 99"
    again = Client().post(reverse("recover"), data)
    assert "do not match an unused code" in again.content.decode()
    anne.refresh_from_db()
    assert anne.check_password(NEW)


def test_a_wrong_code_or_name_changes_nothing_and_says_the_same(anne):
    accounts.new_recovery_codes(anne)
    for username, code in (("anne", "AAAAA-BBBBB"), ("nobody", "AAAAA-BBBBB")):
        page = Client().post(
            reverse("recover"),
            {
                "username": username,
                "code": code,
                "new_password1": NEW,
                "new_password2": NEW,
            },
        )
        assert page.status_code == 200
        assert "do not match an unused code" in page.content.decode()
    anne.refresh_from_db()
    assert anne.check_password(PASSWORD)


def test_recovery_attempts_are_rate_limited(anne, monkeypatch):
    # One instant for every attempt: the limit's windows are fixed (aligned on
    # the epoch), and eleven attempts on a slow machine could straddle two.
    now = ratelimit.clock()
    monkeypatch.setattr(ratelimit, "clock", lambda: now)
    data = {
        "username": "anne",
        "code": "AAAAA-BBBBB",
        "new_password1": NEW,
        "new_password2": NEW,
    }
    for _ in range(10):
        assert Client().post(reverse("recover"), data).status_code == 200
    assert Client().post(reverse("recover"), data).status_code == 429


def test_new_codes_replace_the_old_ones(anne):
    client = Client()
    client.force_login(anne)
    old = accounts.new_recovery_codes(anne)
    response = client.post(
        reverse("account"), {"form": "codes", "codes-password": PASSWORD}
    )
    assert response.url == reverse("recovery_codes")
    new = codes_on_page(client.get(response.url).content.decode())
    assert len(new) == 10 and not set(new) & set(old)
    refused = Client().post(
        reverse("recover"),
        {
            "username": "anne",
            "code": old[0],
            "new_password1": NEW,
            "new_password2": NEW,
        },
    )
    assert "do not match" in refused.content.decode()


def test_the_sign_in_page_leads_to_the_recovery():
    body = Client().get(reverse("login")).content.decode()
    assert f'href="{reverse("recover")}"' in body


# --- the account page ---------------------------------------------------------------


def test_the_account_page_needs_a_sign_in():
    response = Client().get(reverse("account"))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_the_header_links_to_the_account_page(anne):
    client = Client()
    client.force_login(anne)
    assert f'href="{reverse("account")}"' in client.get("/").content.decode()


def test_changing_the_password_needs_the_old_one_and_signs_the_others_out(anne):
    phone, other = Client(), Client()
    sign_in(phone)
    sign_in(other)
    wrong = phone.post(
        reverse("account"),
        {
            "form": "password",
            "password-old_password": "not it",
            "password-new_password1": NEW,
            "password-new_password2": NEW,
        },
    )
    assert wrong.status_code == 200
    assert "Your old password was entered incorrectly" in wrong.content.decode()
    anne.refresh_from_db()
    assert anne.check_password(PASSWORD)
    done = phone.post(
        reverse("account"),
        {
            "form": "password",
            "password-old_password": PASSWORD,
            "password-new_password1": NEW,
            "password-new_password2": NEW,
        },
        follow=True,
    )
    assert "Your new password is set" in done.content.decode()
    anne.refresh_from_db()
    assert anne.check_password(NEW)
    assert phone.get(reverse("account")).status_code == 200  # still signed in
    assert other.get(reverse("account")).status_code == 302
    assert SignedInDevice.objects.filter(user=anne).count() == 1


def test_a_signed_in_device_sets_a_forgotten_password(anne):
    phone = Client()
    sign_in(phone)
    phone.post(
        reverse("account"),
        {
            "form": "forgotten",
            "forgotten-new_password1": NEW,
            "forgotten-new_password2": NEW,
        },
    )
    anne.refresh_from_db()
    assert anne.check_password(NEW)
    assert phone.get(reverse("account")).status_code == 200


def test_devices_are_listed_and_the_others_signed_out(anne):
    phone = Client(HTTP_USER_AGENT="Mozilla/5.0 (Linux; Android 14) Phone")
    tablet = Client(HTTP_USER_AGENT="Mozilla/5.0 (iPad) Club tablet")
    sign_in(phone)
    sign_in(tablet)
    page = phone.get(reverse("account")).content.decode()
    assert "This device" in page and "Club tablet" in page
    phone.post(reverse("account"), {"form": "others"})
    assert tablet.get(reverse("account")).status_code == 302
    page = phone.get(reverse("account")).content.decode()
    assert "Club tablet" not in page
    # Signing out forgets the device.
    phone.post(reverse("logout"))
    assert not SignedInDevice.objects.filter(user=anne).exists()


def test_signing_in_again_on_a_device_keeps_it_listed_once(anne):
    phone, other = Client(), Client()
    sign_in(phone)
    sign_in(other)
    sign_in(phone)  # again, on the same phone: a new session key
    phone.get("/")
    assert len(accounts.devices_of(anne)) == 2
    phone.post(reverse("account"), {"form": "others"})
    assert phone.get(reverse("account")).status_code == 200
    assert other.get(reverse("account")).status_code == 302


def test_a_session_from_before_the_list_is_listed_once_seen(anne):
    phone = Client()
    phone.force_login(anne)  # no sign-in page seen: noted on its first page
    phone.get("/")
    assert SignedInDevice.objects.filter(user=anne).count() == 1


def test_names_and_e_mail_are_saved_and_a_taken_display_name_refused(anne):
    bruno = User.objects.create_user("bruno", password=PASSWORD)
    accounts.update_names(bruno, display="Le Griffon", first_name="", last_name="")
    client = Client()
    client.force_login(anne)
    client.post(
        reverse("account"),
        {
            "form": "names",
            "names-display_name": " Anne la Brave ",
            "names-first_name": "Anne",
            "names-last_name": "Martin",
        },
    )
    anne.refresh_from_db()
    assert accounts.display_name(anne) == "Anne la Brave"
    assert (anne.first_name, anne.last_name) == ("Anne", "Martin")
    taken = client.post(
        reverse("account"),
        {
            "form": "names",
            "names-display_name": "le griffon",
            "names-first_name": "",
            "names-last_name": "",
        },
    )
    assert "Another player already uses this display name" in taken.content.decode()
    client.post(
        reverse("account"),
        {
            "form": "email",
            "email-email": "anne@example.org",
            "email-password": PASSWORD,
        },
    )
    anne.refresh_from_db()
    assert anne.email == "anne@example.org"
    bad = client.post(reverse("account"), {"form": "email", "email-email": "nope"})
    assert "Enter a valid email address." in bad.content.decode()
    assert accounts.display_name(bruno) == "Le Griffon"
    assert accounts.display_name(User.objects.create_user("carl")) == "carl"
