"""The home page on a real phone-sized Chromium."""

import pytest

from tests.browser.conftest import serious_accessibility_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_home_page_loads_cleanly_on_a_phone(phone, live_server):
    phone.goto(live_server.url + "/")
    assert phone.locator("h1").is_visible()
    # Nothing wider than the phone: no sideways scrolling.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious_accessibility_violations(phone) == []


def test_tap_targets_are_at_least_48_px(phone, live_server):
    phone.goto(live_server.url + "/")
    small = phone.evaluate(
        """() => [...document.querySelectorAll(
            'a.button, button, select, input, .tile')]
            .filter(el => el.offsetParent !== null)
            .map(el => [el.outerHTML.slice(0, 60), el.getBoundingClientRect().height])
            .filter(([, height]) => height < 48)"""
    )
    assert small == []


def test_the_language_can_be_switched_on_the_phone(phone, live_server):
    phone.goto(live_server.url + "/")
    assert phone.locator("html").get_attribute("lang") == "fr"
    phone.select_option("#language-select", "en")
    phone.get_by_role("button", name="Changer").click()
    phone.wait_for_load_state()
    assert phone.locator("html").get_attribute("lang") == "en"
