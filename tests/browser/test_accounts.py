"""An account on a phone: sign up, the name in the header, sign out."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import serious_accessibility_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "dragon-de-braise-42"
SMALL_TAP_TARGETS = """() => [...document.querySelectorAll(
    'a.button, button, select, input:not([type=hidden])')]
    .filter(el => el.offsetParent !== null)
    .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect().height])
    .filter(([, height]) => height < 48)"""


def fits_the_phone(phone) -> None:
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    header = phone.locator(".site-header").bounding_box()
    assert header["height"] <= 72  # one compact row, even signed in


def test_a_player_signs_up_sees_their_name_and_signs_out(phone, live_server, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    phone.goto(live_server.url + "/")
    fits_the_phone(phone)
    phone.locator(".site-header").get_by_role("link", name="Connexion").click()
    expect(phone.locator("h1")).to_have_text("Connexion")
    phone.get_by_role("link", name="Créer un compte").click()
    expect(phone.locator("h1")).to_have_text("Créer un compte")
    assert phone.evaluate(SMALL_TAP_TARGETS) == []

    # A mistake comes back next to its field.
    phone.get_by_label("Nom d’utilisateur").fill("Morgane-la-griffonne")
    phone.locator("#id_password1").fill(PASSWORD)
    phone.locator("#id_password2").fill(PASSWORD + "!")
    phone.get_by_role("button", name="Créer mon compte").click()
    expect(phone.locator(".field-invalid .errorlist")).to_be_visible()
    assert serious_accessibility_violations(phone) == []

    phone.locator("#id_password1").fill(PASSWORD)
    phone.locator("#id_password2").fill(PASSWORD)
    phone.get_by_role("button", name="Créer mon compte").click()
    # The recovery codes, shown once (issue #29), then home.
    expect(phone).to_have_url(live_server.url + "/accounts/recovery-codes/")
    expect(phone.locator(".recovery-codes li")).to_have_count(10)
    expect(phone.locator(".messages")).to_contain_text(
        "Bienvenue, Morgane-la-griffonne"
    )
    assert phone.evaluate(SMALL_TAP_TARGETS) == []
    phone.get_by_role("button", name="Je les ai notés").click()
    expect(phone).to_have_url(live_server.url + "/")
    header = phone.locator(".site-header")
    expect(header.locator(".account-name")).to_contain_text("Morgane-la-griffonne")
    expect(header.get_by_role("button", name="Déconnexion")).to_be_visible()
    fits_the_phone(phone)
    assert phone.evaluate(SMALL_TAP_TARGETS) == []
    assert serious_accessibility_violations(phone) == []

    header.get_by_role("button", name="Déconnexion").click()
    expect(phone.locator(".messages")).to_contain_text("Déconnexion effectuée.")
    expect(header.get_by_role("link", name="Connexion")).to_be_visible()
    expect(header.locator(".account-name")).to_have_count(0)
