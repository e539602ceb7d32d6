"""Spells and miracles typed on a phone at 360x740 (issue #32): a spell made
by hand with a mistake shown by its field, edited, then known by a magician
whose spell of unknown cost asks its gems at the cast."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import serious_accessibility_violations
from tests.support.live import OPPONENT, OWNER, new_game, seat
from tests.support.magic_setup import GRIFFON_MAGE, reserves, until_active, with_magic
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = ("a",)


def test_a_spell_typed_by_hand_with_a_mistake_then_edited(phones, live_server):
    from tests.browser.test_game_screen import sign_in

    a = phones["a"]
    sign_in(a, live_server.url, OWNER)
    a.goto(f"{live_server.url}/armies/")
    a.get_by_role("link", name="Spells and miracles").click()
    expect(a.locator("h1")).to_have_text("Spells and miracles")
    a.get_by_role("link", name="New spell").click()
    a.fill("#id_name", "Flamme d'essai")
    a.fill("#id_gems_fire", "2")
    a.get_by_role("button", name="Create").click()  # no difficulty given
    invalid = a.locator("#id_difficulty")
    expect(invalid).to_have_attribute("aria-invalid", "true")
    expect(a.locator(".field-invalid")).to_contain_text("Give the difficulty")
    expect(a.locator("#id_gems_fire")).to_have_value("2")  # nothing lost
    shot(a, "mystic", "spell-form-error", full_page=True)
    a.fill("#id_difficulty", "7")
    a.get_by_role("button", name="Create").click()
    expect(a).to_have_url(re.compile(r"/armies/mystic/\?saved=spell-\d+"))
    item = a.locator("li.mystic-item", has_text="Flamme d'essai")
    expect(item).to_contain_text("2 fire")
    item.get_by_role("link", name="Edit").click()
    a.fill("#id_difficulty", "8")
    a.get_by_role("button", name="Save").click()
    expect(a.locator("li.mystic-item", has_text="Flamme d'essai")).to_contain_text(
        "difficulty 8"
    )
    a.evaluate("window.scrollTo(0, 0)")
    shot(a, "mystic", "spell-list")
    assert serious_accessibility_violations(a) == []
    assert phones["problems"].items == []


def test_a_spell_of_unknown_cost_asks_its_gems_on_the_phone(phones, live_server):
    from battles.models import Spell
    from tests.browser.test_game_screen import open_game

    with_magic()
    Spell.objects.filter(name="Boule de feu").update(cost={}, cost_text="X Fuoco")
    game = new_game(OWNER, turns=2)
    seat(game, OPPONENT, "b")
    reserves(game)
    game = until_active(game, GRIFFON_MAGE)
    a = phones["a"]
    open_game(a, live_server.url, OWNER, game)
    form = a.locator("form.spell-form", has_text="Boule de feu")
    expect(form).to_contain_text("Cost not understood (printed: X Fuoco)")
    form.scroll_into_view_if_needed()
    shot(a, "mystic", "unknown-cost-form")
    assert serious_accessibility_violations(a) == []
    form.get_by_role("button", name=re.compile("Cast")).click()
    expect(a.locator("body")).to_contain_text(
        "The cost of Boule de feu is unknown (printed: X Fuoco)"
    )
    form = a.locator("form.spell-form", has_text="Boule de feu")
    form.get_by_label("fire").fill("2")
    form.get_by_role("button", name=re.compile("Cast")).click()
    expect(a.locator("#game-log, body").first).to_contain_text("casts Boule de feu")
    game.refresh_from_db()
    assert game.state["fighters"][GRIFFON_MAGE]["gems"]["fire"] == 1


def test_a_magician_who_knows_no_spell_casts_by_entering_gems(phones, live_server):
    from tests.browser.test_game_screen import open_game
    from tests.support.live import demo_armies

    with_magic()
    griffons, _wolfen = demo_armies()
    griffons.cards.get(card__name="Guerrier-mage").spells.clear()
    game = new_game(OWNER, turns=2)
    seat(game, OPPONENT, "b")
    reserves(game)
    game = until_active(game, GRIFFON_MAGE)
    a = phones["a"]
    open_game(a, live_server.url, OWNER, game)
    form = a.locator("form.unlisted-form")
    expect(form).to_contain_text("No spell known: name the spell")
    form.get_by_label("Spell").fill("Éclair")
    form.get_by_label("fire").fill("1")
    form.get_by_label("Difficulty").fill("6")
    form.scroll_into_view_if_needed()
    shot(a, "mystic", "unlisted-form")
    assert serious_accessibility_violations(a) == []
    form.get_by_role("button", name="Cast").click()
    expect(a.locator("body")).to_contain_text("casts Éclair")
    game.refresh_from_db()
    assert game.state["fighters"][GRIFFON_MAGE]["gems"]["fire"] == 2
