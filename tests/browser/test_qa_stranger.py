"""A stranger's two-phone turn with magicians, on French phones at 360x740
(QA): the Guerrier-mage casts on one phone, the other is asked and counters
with its Magicien, the upkeep recovers gems. Every panel reads French, the
question and its answer are in view where they appear, and every button
tapped moves the game."""

from __future__ import annotations

import hashlib
import re

import pytest

from tests.browser.conftest import open_phone
from tests.support.live import OPPONENT, OWNER, new_game, seat
from tests.support.magic_setup import (
    GRIFFON_MAGE,
    WOLFEN_MAGICIAN,
    reserves,
    to_upkeep,
    until_active,
    with_magic,
)
from tests.support.phone_page import settled, wait_for_version
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Words an English panel would show; none may reach a French phone.
ENGLISH = re.compile(
    r"\b(counter it|Counter with|Let the spell|Roll|Keep|Done|pays|Cast|casts|"
    r"difficulty|Target|Reserve|Gems of mana|Upkeep|recovery|Your turn)\b"
)


@pytest.fixture
def french_phones(browser, page_problems):
    opened = [open_phone(browser, page_problems, locale="fr-FR") for _ in range(2)]
    yield [page for _context, page in opened]
    for _context, page in opened:
        page.goto("about:blank")
    for context, _page in opened:
        context.close()


def _panel(page):
    return page.locator("#game-panel")


def _french(page) -> str:
    text = _panel(page).inner_text()
    found = ENGLISH.findall(text)
    assert not found, (found, text)
    return text


def _in_view(page, locator) -> None:
    box = locator.bounding_box()
    assert box is not None
    assert box["y"] < 740 and box["y"] + min(box["height"], 60) > 0, box


def _tap(page, game, locator) -> None:
    """A tap that must move the game (no button that does nothing)."""
    game.refresh_from_db()
    before = game.version
    locator.scroll_into_view_if_needed()
    settled(page, locator.click)
    game.refresh_from_db()
    assert game.version > before, "the tap changed nothing"


def _follow(page, game) -> None:
    game.refresh_from_db()
    wait_for_version(page, game.version, 10_000)


def test_a_french_two_phone_turn_with_a_cast_a_counter_and_the_upkeep(
    french_phones, live_server
):
    from tests.browser.test_game_screen import open_game

    with_magic()
    game = new_game(OWNER, turns=2)
    game.dice_seed = "qa-stranger-1"
    game.dice_seed_hash = hashlib.sha256(game.dice_seed.encode()).hexdigest()
    game.save(update_fields=["dice_seed", "dice_seed_hash"])
    seat(game, OPPONENT, "b")
    reserves(game)
    game = until_active(game, GRIFFON_MAGE)
    a, b = french_phones
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)

    # Phone A: Boule de feu on a Repenti.
    spell = _panel(a).locator("form.spell-form", has_text="Boule de feu")
    assert "2 feu · difficulté 7" in spell.inner_text()
    _french(a)
    spell.locator("select[name=target]").select_option("b1.1")
    _tap(a, game, spell.get_by_role("button").first)
    shot(a, "qa", "1-cast-a")
    _french(a)

    # Phone B is asked, in French, in view; it counters with its Magicien.
    _follow(b, game)
    text = _french(b)
    assert "le contrer ?" in text
    counter = _panel(b).get_by_role("button", name=re.compile("Contrer avec Magicien"))
    _in_view(b, _panel(b).get_by_text("le contrer ?"))
    shot(b, "qa", "2-counter-asked-b")
    _tap(b, game, counter)
    game.refresh_from_db()
    assert game.state["pending"] is None
    assert sum(game.state["fighters"][WOLFEN_MAGICIAN]["gems"].values()) == 1
    shot(b, "qa", "3-countered-b")
    _french(b)
    _follow(a, game)
    _french(a)
    shot(a, "qa", "3-countered-a")
    assert "contre Boule de feu" in a.locator(".log").inner_text()

    # The upkeep, on phone A: the faithful's lines, then the gems recovered.
    game = to_upkeep(game)
    a.reload()
    a.wait_for_selector("#live-status[data-state=live]")
    for _ in range(4):
        if _panel(a).locator("input[name='gems:fire']").count():
            break
        _french(a)
        _tap(a, game, _panel(a).get_by_role("button", name="Fait").first)
    line = _panel(a)
    _french(a)
    line.locator("input[name='gems:fire']").fill("1")
    shot(a, "qa", "4-upkeep-a")
    before = game.state["fighters"][GRIFFON_MAGE]["gems"]["fire"]
    _tap(a, game, line.get_by_role("button", name="Fait").first)
    assert game.state["fighters"][GRIFFON_MAGE]["gems"]["fire"] == before + 1
    for page in (a, b):
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
