"""The army builder on a phone: "Add" answers where the finger is."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import serious_accessibility_violations
from tests.browser.test_armies import SMALL_TAP_TARGETS, in_english
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_add_confirms_next_to_the_button_and_a_second_tap_raises_the_count(
    phone, live_server
):
    from battles.demo import load_demo

    load_demo()
    in_english(phone, live_server.url + "/armies/")
    phone.get_by_role("link", name="Griffons d'Akkylannie (démo)").click()
    # The demo army: every card costs something, estimates say so.
    cards = phone.locator("#army-cards")
    expect(cards).to_contain_text("346 / 400 points")
    expect(cards).to_contain_text("costs are estimates")
    phone.get_by_role("button", name="Copy into my armies").click()
    expect(phone.locator("h1")).to_have_text("Griffons d'Akkylannie (démo) (copy)")

    # A card not yet in the army: the answer appears under its own button.
    add_magicien = phone.get_by_role("button", name=re.compile(r"^Add\W+Magicien$"))
    add_magicien.scroll_into_view_if_needed()
    add_magicien.click()
    note = phone.locator(".library-card", has=add_magicien).locator(".added-note")
    expect(note).to_have_text(re.compile(r"Added: 1 fighter · 25 pts · army 371 / 400"))
    expect(note).to_be_in_viewport()
    expect(add_magicien).to_be_in_viewport()
    shot(phone, "12", "army-builder-added")

    # A second tap on a card already in the army raises its count: no new row.
    add_tireur = phone.get_by_role("button", name=re.compile(r"^Add\W+Tireur$"))
    add_tireur.scroll_into_view_if_needed()
    add_tireur.click()
    note = phone.locator(".library-card", has=add_tireur).locator(".added-note")
    expect(note).to_have_text(
        re.compile(r"Count raised: 4 fighters · 72 pts · army 389 / 400")
    )
    expect(note).to_be_in_viewport()
    shot(phone, "12", "army-builder-count-raised")
    expect(cards.locator(".army-card", has_text="Tireur").first).to_contain_text(
        "4 fighters"
    )
    assert (
        cards.locator(".army-card strong", has_text=re.compile(r"^Tireur$")).count()
        == 1
    )

    # A shooter's archetype weapon is on its card.
    expect(cards).to_contain_text("Arbalète (arme d'archétype): FOR 6 · 15/30/45 cm")

    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert phone.evaluate(SMALL_TAP_TARGETS) == []
    assert serious_accessibility_violations(phone) == []
