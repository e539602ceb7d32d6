"""Building an army on a phone, from a database with no card at all."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import serious_accessibility_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A checkbox is tapped through its label (.check), which is the 48 px target.
SMALL_TAP_TARGETS = """() => [...document.querySelectorAll(
    'a.button, button, select, textarea, .tile, label.check,'
    + 'input:not([type=hidden]):not([type=checkbox])')]
    .filter(el => el.offsetParent !== null)
    .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect().height])
    .filter(([, height]) => height < 48)"""


def in_english(phone, url: str) -> None:
    """Open ``url`` and switch the (French by default) phone to English."""
    phone.goto(url)
    phone.select_option("#language-select", "en")
    phone.get_by_role("button", name="Changer").click()
    expect(phone.locator("html")).to_have_attribute("lang", "en")


def create_custom_card(phone, name: str, **values: str) -> None:
    phone.get_by_role("link", name="New custom card").click()
    phone.fill("#id_name", name)
    for field, value in values.items():
        phone.fill(f"#id_{field}", value)
    phone.get_by_role("button", name="Create the card").click()
    expect(phone.locator("#library-results")).to_contain_text(name)


def test_a_player_builds_a_small_army_on_a_phone(phone, live_server):
    from battles.models.armies import People

    # The only row: a people to build for (no card, no demo army).
    People.objects.create(name="Wolfen d'Yllia", voie="destin")

    in_english(phone, live_server.url + "/")
    phone.locator('a.tile[href="/armies/"]').click()
    expect(phone.locator("h1")).to_have_text("Armies")
    assert phone.evaluate(SMALL_TAP_TARGETS) == []

    phone.fill("#id_name", "Meute de test")
    phone.select_option("#id_people", label="Wolfen d'Yllia")
    phone.fill("#id_points_limit", "100")
    phone.get_by_role("button", name="Create the army").click()
    expect(phone).to_have_url(re.compile(r"/armies/\d+/$"))
    expect(phone.locator("h1")).to_have_text("Meute de test")

    # A mistake is shown next to its field, and nothing is lost.
    phone.get_by_role("link", name="New custom card").click()
    phone.fill("#id_name", "Chasseur")
    phone.fill("#id_ini", "99")
    phone.get_by_role("button", name="Create the card").click()
    expect(phone.locator("#id_ini_error")).to_be_visible()
    expect(phone.locator("#id_name")).to_have_value("Chasseur")
    assert serious_accessibility_violations(phone) == []
    phone.go_back()

    create_custom_card(
        phone,
        "Chasseur",
        mou="12.5",
        ini="3",
        att="4",
        force="6",
        cou="4",
        cost="20",
        fighters_per_card="2",
        abilities="Tueur né/1, Bond",
    )
    phone.get_by_role("button", name=re.compile(r"^Add\W+Chasseur$")).click()
    cards = phone.locator("#army-cards")
    expect(cards).to_contain_text("40 / 100 points")

    create_custom_card(phone, "Mystique", att="3", peur="5", cost="45")
    phone.get_by_role("button", name=re.compile(r"^Add\W+Mystique$")).click()
    expect(cards).to_contain_text("85 / 100 points")

    phone.get_by_role("button", name="One fighter more: Mystique").click()
    expect(cards).to_contain_text("130 / 100 points")
    expect(cards).to_contain_text("Over the points limit by 30.")
    phone.get_by_role("button", name="One fighter fewer: Mystique").click()
    expect(cards).to_contain_text("85 / 100 points")
    expect(cards).not_to_contain_text("Over the points limit")

    phone.get_by_role("button", name="One fighter fewer: Chasseur").click()
    expect(cards).to_contain_text("65 / 100 points")
    expect(
        phone.get_by_role("button", name="One fighter fewer: Chasseur")
    ).to_be_disabled()

    # Search the library as one types.
    # Wait for the search's own answer: the results may already read right
    # before it comes, and leaving the page then would abort it.
    with phone.expect_response(lambda response: "q=myst" in response.url):
        phone.fill("#library-q", "myst")
    expect(phone.locator("#library-results")).to_contain_text("Mystique")
    expect(phone.locator("#library-results")).not_to_contain_text("Chasseur")

    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert phone.evaluate(SMALL_TAP_TARGETS) == []
    assert serious_accessibility_violations(phone) == []

    # The army survives a reload: it is the guest's, kept by the session.
    phone.reload()
    expect(phone.locator("#army-cards")).to_contain_text("65 / 100 points")


def test_deleting_an_army_can_be_undone_on_the_phone(phone, live_server):
    from battles.models.armies import People

    People.objects.create(name="Griffons d'Akkylannie", voie="lumiere")
    in_english(phone, live_server.url + "/armies/")
    phone.fill("#id_name", "Croisade")
    phone.select_option("#id_people", label="Griffons d'Akkylannie")
    phone.get_by_role("button", name="Create the army").click()
    expect(phone.locator("h1")).to_have_text("Croisade")

    phone.get_by_role("button", name="Delete").click()
    expect(phone).to_have_url(re.compile(r"/armies/$"))
    expect(phone.get_by_role("status").first).to_contain_text("Croisade")
    assert serious_accessibility_violations(phone) == []
    phone.get_by_role("button", name="Undo delete").click()
    expect(phone.locator("h1")).to_have_text("Croisade")


def test_demo_army_sheet_and_catalogue_pages_are_clean_on_a_phone(phone, live_server):
    from battles.demo import load_demo

    load_demo()
    in_english(phone, live_server.url + "/armies/")
    assert serious_accessibility_violations(phone) == []
    phone.get_by_role("link", name="Wolfen d'Yllia (démo)").click()
    expect(phone.locator("#army-cards")).to_contain_text("Repenti wolfen")
    assert serious_accessibility_violations(phone) == []
    assert phone.evaluate(SMALL_TAP_TARGETS) == []
    phone.get_by_role("link", name="Printable sheet").click()
    expect(phone.locator("table")).to_contain_text("Tueur né/1")
    assert serious_accessibility_violations(phone) == []
    phone.go_back()
    phone.get_by_role("button", name="Copy into my armies").click()
    expect(phone.locator("h1")).to_have_text("Wolfen d'Yllia (démo) (copy)")
    expect(phone.locator("#library")).to_be_visible()
    assert serious_accessibility_violations(phone) == []
    phone.goto(live_server.url + "/armies/catalogues/")
    assert serious_accessibility_violations(phone) == []
    phone.goto(live_server.url + "/armies/cards/new/")
    assert serious_accessibility_violations(phone) == []
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
