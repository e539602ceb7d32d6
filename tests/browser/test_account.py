"""The account page and the recovery, on a 360x740 phone (issue #29): a new
member saves her recovery codes, forgets her password, sets a new one with a
code on another phone, and her first phone is signed out."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.conftest import serious_accessibility_violations
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = "griffon-de-braise-77"
SECOND = "une nouvelle phrase 88"


def fits_the_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_codes_at_sign_up_then_a_lost_password_set_again_with_one(
    phone, second_phone, page_problems, live_server, settings
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    phone.goto(f"{live_server.url}/accounts/signup/")
    phone.get_by_label("Nom d’utilisateur").fill("Estelle")
    phone.locator("#id_password1").fill(FIRST)
    phone.locator("#id_password2").fill(FIRST)
    phone.get_by_role("button", name="Créer mon compte").click()
    codes = phone.locator(".recovery-codes code")
    expect(codes).to_have_count(10)
    first_code = codes.first.inner_text()
    fits_the_phone(phone)
    assert serious_accessibility_violations(phone) == []
    shot(phone, "29", "1-recovery-codes", full_page=True)
    with phone.expect_download() as download:
        phone.get_by_role("link", name="Les télécharger en fichier texte").click()
    assert first_code in Path(download.value.path()).read_text(encoding="utf-8")
    phone.get_by_role("button", name="Je les ai notés").click()

    # The account page: her display name, her devices.
    phone.locator(".account-name").click()
    expect(phone.locator("h1")).to_have_text("Votre compte")
    phone.get_by_label("Pseudo (ce que voient les autres joueurs)").fill("La Lame")
    phone.get_by_role("button", name="Enregistrer mes noms").click()
    expect(phone.locator(".messages")).to_contain_text("Vos noms sont enregistrés.")
    expect(phone.locator(".account-devices li")).to_have_count(1)
    expect(phone.locator(".account-devices")).to_contain_text("Cet appareil")
    fits_the_phone(phone)
    assert serious_accessibility_violations(phone) == []
    shot(phone, "29", "2-account-page", full_page=True)

    # She forgets her password: a code, on another phone.
    lost = second_phone
    lost.goto(f"{live_server.url}/accounts/login/")
    lost.get_by_role("link", name="Mot de passe oublié ? Utilisez un code").click()
    lost.get_by_label("Nom d’utilisateur").fill("Estelle")
    lost.get_by_label("Code de secours").fill("AAAAA-BBBBB")
    lost.locator("#id_new_password1").fill(SECOND)
    lost.locator("#id_new_password2").fill(SECOND)
    lost.get_by_role("button", name="Enregistrer mon nouveau mot de passe").click()
    expect(lost.locator(".field-invalid")).to_contain_text(
        "ne correspondent à aucun code inutilisé"
    )
    fits_the_phone(lost)
    shot(lost, "29", "3-recover-refused", full_page=True)
    lost.get_by_label("Code de secours").fill(first_code)
    lost.locator("#id_new_password1").fill(SECOND)
    lost.locator("#id_new_password2").fill(SECOND)
    lost.get_by_role("button", name="Enregistrer mon nouveau mot de passe").click()
    expect(lost.locator(".messages")).to_contain_text("Codes de secours restants : 9")
    expect(lost.locator(".account-name")).to_contain_text("Estelle")
    shot(lost, "29", "4-recovered", full_page=True)
    assert get_user_model().objects.get(username="Estelle").check_password(SECOND)

    # The first phone is signed out.
    phone.reload()
    expect(phone.locator(".account-name")).to_have_count(0)
