"""A game turn on one phone passed between the players, with real dice entered.

Tactics roll, a draw with a refusal and a reserve, a charge, a combat with a
wound, and the upkeep checklist, all at 360 px, with no console error.
"""

from pathlib import Path

import pytest
from django.core.management import call_command

from battles.demo import CHARACTER
from battles.models import Army, ArmyCard
from tests.browser.conftest import open_phone, serious_accessibility_violations
from tests.support.phone_page import settled
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(browser, page_problems, live_server):
    """An English phone: this test reads the English texts (Playwright's locale
    sets Accept-Language, extra headers do not override it)."""
    context, page = open_phone(browser, page_problems, locale="en-GB")
    yield page
    context.close()
    assert page_problems.items == [], "\n".join(page_problems.items)


@pytest.fixture
def armies():
    call_command("load_demo", verbosity=0)
    griffons = Army.objects.get(is_demo=True, people__name="Griffons d'Akkylannie")
    wolfen = Army.objects.get(is_demo=True, people__name="Wolfen d'Yllia")
    # This turn was written for the Griffons' 7 cards: their melee character
    # (added to show Enchaînement and Coup de maître) plays in other tests.
    griffons.cards.filter(card__name=CHARACTER).delete()
    # A smaller pack: 6 cards against 7, so the pack gets one refusal (IV-B-1).
    pack = Army.objects.create(
        name="Meute réduite", people=wolfen.people, is_demo=True, points_limit=400
    )
    for army_card in wolfen.cards.order_by("position")[:6]:
        ArmyCard.objects.create(
            army=pack,
            card=army_card.card,
            fighters=army_card.fighters,
            position=army_card.position,
        )
    return griffons, pack


def panel(page):
    return page.locator(".panel")


def tap(page, name):
    button = page.locator(".panel").get_by_role("button", name=name).first
    settled(page, button.click)


def hand_over(page, side=None):
    """One phone passed between the players: the hand-over screen comes first
    at every change of floor, and the private cards only after it."""
    text = panel(page).inner_text()
    if "Pass the phone to side" not in text:
        return None
    assert "Top of your pile" not in text and "In reserve" not in text
    holder = text.split("Pass the phone to side ", 1)[1][0]
    if side is not None:
        assert holder == side
    tap(page, f"I am side {holder}: show me")
    return holder


def enter_dice(page, faces):
    page.locator(".panel input[name=faces]").fill(faces)
    tap(page, "Record these dice")


def test_a_turn_on_one_phone(phone, live_server, armies):
    Path("/tmp/shots/11").mkdir(parents=True, exist_ok=True)
    griffons, pack = armies
    phone.goto(live_server.url + "/games/new/")
    phone.select_option("#id_army_a", str(griffons.pk))
    phone.select_option("#id_army_b", str(pack.pk))
    phone.select_option("#id_mode", "one_phone")
    phone.select_option("#id_dice_mode", "entered")
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_url("**/games/*/")

    # IV-A-1: each player sets a private sequence, the phone handed over.
    for side in ("A", "B"):
        tap(phone, f"I am side {side}: show me")
        tap(phone, "Confirm this sequence")
        tap(phone, "Choose this fighter")

    # IV-A-2: the Tactics roll, an opposed Discipline test with real dice.
    assert "Tactics roll" in panel(phone).inner_text()
    assert "%" in panel(phone).inner_text()  # the odds before the roll
    enter_dice(phone, "4 2")  # Magistrat DIS 6 + 4 = 10, Repenti DIS 1 + 2 = 3
    assert "Side A won the Tactics roll" in panel(phone).inner_text()
    tap(phone, "Side B speaks first")

    # IV-B-1: the pack has one refusal (6 cards against 7). The phone goes to
    # side B through the hand-over screen: A's cards stay hidden.
    assert hand_over(phone, "B") == "B"
    assert "Refusals left: 1" in panel(phone).inner_text()
    shot(phone, "11", "one-phone-draw")
    tap(phone, "Use a refusal")
    assert hand_over(phone, "A") == "A"  # the floor passes to A
    tap(phone, "Put the top card in reserve")
    assert "1 card" in phone.locator(".piles").inner_text() or "Magistrat" in (
        phone.locator(".piles").inner_text()
    )
    assert hand_over(phone, "B") == "B"
    tap(phone, "Draw the top card")
    # The pack's first card charges the nearest Griffon.
    phone.locator(".panel select[name=action]").first.select_option("charge")
    target = phone.locator(".panel select[name=targets]").first
    target.select_option(index=1)
    tap(phone, "Record the action")
    assert "Charge" in phone.locator(".log").inner_text()
    tap(phone, "Done: pass the floor")
    assert hand_over(phone, "A") == "A"
    shot(phone, "11", "one-phone-handover-after")
    tap(phone, "Play the reserve and the top card")
    assert "Activate" in panel(phone).inner_text()
    assert serious_accessibility_violations(phone) == []

    # Play every remaining card without acting, until the combat phase.
    for _ in range(80):
        text = panel(phone).inner_text()
        if "Split the melees" in text:
            break
        if "Pass the phone to side" in text:
            hand_over(phone)
        elif "Done: pass the floor" in text:
            tap(phone, "Done: pass the floor")
        else:
            tap(phone, "Draw the top card")

    # IV-C, VII-C: the Tactics winner splits the melees; the Initiative, the
    # placement of the combat dice, then the attacks until the combat is over.
    tap(phone, "Confirm these combats")
    wound_odds = False
    for _ in range(60):
        text = panel(phone).inner_text()
        if "Upkeep checklist" in text:
            break
        if "Pass the phone to side" in text:
            hand_over(phone)
        elif phone.locator(".panel input[name=faces]").count():
            if "Wound roll" in text:
                wound_odds = wound_odds or "Killed outright" in text
                enter_dice(phone, "6 6")  # a double six kills (II-B-1)
            elif "Initiative" in text:
                enter_dice(phone, "5 1")
            else:
                enter_dice(phone, "5")
        elif phone.locator(".panel button[name=dice]").count():
            settled(phone, phone.locator(".panel button[name=dice]").first.click)
        else:
            button = phone.locator(
                ".panel .combat-actions button.button-block, .panel form.stack button"
            )
            settled(phone, button.first.click)
    assert wound_odds  # the odds table before the wound roll
    log = phone.locator(".log").inner_text()
    assert "Killed outright" in log or "Combat 1 is over" in log
    # Each side's list is folded: read its text, shown or not.
    assert "eliminated" in phone.locator(".fighters").text_content()

    # IV-D: the upkeep checklist, ticked in order, ends the turn.
    assert "Upkeep checklist" in panel(phone).inner_text()
    assert serious_accessibility_violations(phone) == []
    for ticked in range(20):
        if "Upkeep checklist" not in panel(phone).inner_text():
            break
        if ticked == 2:
            # What to do now first: the next line's button on the first
            # screen, the lines done folded under their count.
            phone.evaluate("() => window.scrollTo(0, 0)")
            button = phone.locator(".checklist li.next button").first
            assert button.bounding_box()["y"] + 40 <= 740
            assert "2 lines done" in phone.locator(".checklist-done").inner_text()
            shot(phone, "11", "one-phone-upkeep-next-first")
        settled(phone, phone.locator(".checklist li.next button").first.click)
    assert "Turn 2 of 6" in phone.locator(".game-status").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
