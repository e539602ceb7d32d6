"""The hex combat sheet on a real phone-sized Chromium: a shock combat."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import serious_accessibility_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_shock_combat_on_a_phone(phone, live_server):
    phone.goto(live_server.url + "/")
    phone.locator("a.tile[href='/hex/']").click()
    phone.wait_for_url(re.compile(r"/hex/$"))
    total = phone.locator("#hex-total")
    expect(total).to_have_text("0")

    # A charging heavy cavalry (+4) on the flank (+2) with two offensive
    # supports (+2, tapped with the + button) against a shaken defender (+1)
    # with one defensive support (-1): the live total follows each change.
    phone.locator("#id_attacker_charging").check()
    phone.locator("#id_attacker_cavalry").check()
    expect(total).to_have_text("+4")
    phone.select_option("#id_direction", "flank")
    expect(total).to_have_text("+6")
    plus = phone.locator("[data-step-for='id_attacker_supports'][data-step='1']")
    plus.click()
    expect(total).to_have_text("+7")
    plus.click()
    expect(total).to_have_text("+8")
    phone.select_option("#id_defender_morale", "shaken")
    expect(total).to_have_text("+9")
    phone.locator("[data-step-for='id_defender_supports'][data-step='1']").click()
    expect(total).to_have_text("+8")
    expect(phone.locator("#hex-column")).to_have_text("+8")
    expect(phone.locator("#hex-result tr[data-key='attacker_charge']")).to_be_visible()

    # Faces rolled with real dice: 1 + 2 = 3 at +8 reads three losses.
    phone.locator("#id_faces").fill("1 2")
    losses = phone.locator("#hex-losses")
    expect(losses).to_contain_text("3")
    checklist = phone.locator("#hex-checklist")
    expect(checklist).to_be_visible()
    expect(checklist.locator("li[data-key='morale_test_choice']")).to_be_visible()

    # No sideways scrolling at 360 px, and no serious accessibility problem.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious_accessibility_violations(phone) == []


def test_the_server_rolls_and_a_tampered_value_is_explained(phone, live_server):
    phone.goto(live_server.url + "/hex/")
    phone.get_by_role("button", name=re.compile("2D6")).click()
    expect(phone.locator("#hex-outcome .hex-die")).to_have_count(2)
    expect(phone.locator("#hex-checklist")).to_be_visible()

    phone.locator("#id_faces").fill("9 9")
    expect(phone.locator("#id_faces_error")).not_to_be_empty()
    expect(phone.locator("#hex-total")).to_have_count(0)
    phone.locator("#id_faces").fill("6 6")
    expect(phone.locator("#id_faces_error")).to_be_empty()
    expect(phone.locator("#hex-losses")).to_contain_text("0")
    assert serious_accessibility_violations(phone) == []
