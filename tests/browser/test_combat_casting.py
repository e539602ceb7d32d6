"""A warrior-mage casts in the combat phase, on two phones at 360x740
(issue #32: "Warrior-mages and warrior-monks cast or call in the combat phase
where their card says so"; the combat panel's cast forms had no browser
test). The cards are built here: a Griffon Lame-mage with the Guerrier-mage
ability, knowing Boule de feu, in a combat against a Wolfen Duelliste."""

from __future__ import annotations

import hashlib

import pytest

from tests.browser.conftest import serious_accessibility_violations
from tests.browser.test_melee_taps import _card
from tests.support.live import OPPONENT, OWNER, seat
from tests.support.magic_setup import library, perform
from tests.support.melee_setup import one_against_two
from tests.support.phone_page import settled, wait_for_version
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAGE = "a1.1"
FOE = "b1.1"


def _combat_game():
    """The Lame-mage (POU 3, 3 fire gems) in contact with the Duelliste, the
    combat played by the rules' own offers until side A alone has the floor
    with nothing pending: a moment a warrior-mage may cast (ch. 4 M2, the
    combat_casting convention)."""
    from battles.models import Army, ArmyCard, Spell
    from battles.models.armies import MysticRank, People, Voie
    from battles.services.games import create_game
    from rules.game import legal_actions, waiting_for

    library()
    griffons = People.objects.create(name="Griffons (cast)", voie=Voie.LUMIERE)
    wolfen = People.objects.create(name="Wolfen (cast)", voie=Voie.DESTIN)
    mage = _card(
        griffons,
        "Lame-mage",
        ("Guerrier-mage",),
        pou=3,
        mystic_rank=MysticRank.INITIE,
    )
    duelliste = _card(wolfen, "Duelliste")
    armies = []
    for people, card in ((griffons, mage), (wolfen, duelliste)):
        army = Army.objects.create(name=card.name, people=people, points_limit=400)
        ArmyCard.objects.create(army=army, card=card, fighters=1, position=0)
        armies.append(army)
    armies[0].cards.get().spells.set(Spell.objects.filter(name="Boule de feu"))
    game = create_game(owner=OWNER, army_a=armies[0], army_b=armies[1])
    game.dice_seed = "combat-casting-1"  # the same dice at every run
    game.dice_seed_hash = hashlib.sha256(game.dice_seed.encode()).hexdigest()
    game.save(update_fields=["dice_seed", "dice_seed_hash"])
    seat(game, OPPONENT, "b")
    perform(game, "a", {"type": "set_mystic", "fighter": MAGE, "gems": {"fire": 3}})
    game = one_against_two(game, one=MAGE, many=(FOE,))
    for _step in range(30):
        game.refresh_from_db()
        state = game.state
        if waiting_for(state) == {"a"} and not state["pending"]:
            if any(e["type"] == "cast" for e in legal_actions(state, "a")):
                return game
        side = sorted(waiting_for(state))[0]
        entry = next(
            e
            for e in legal_actions(state, side)
            if e["type"] in ("initiative", "roll", "place_dice", "keep", "attack")
        )
        command = {k: v for k, v in entry.items() if k != "choices"}
        command.update({f: v[0] for f, v in entry.get("choices", {}).items()})
        if command["type"] == "place_dice":
            command["attack"] = 1
        perform(game, side, command)
    raise AssertionError("side A never had the floor in the combat")


def test_a_warrior_mage_casts_from_the_combat_panel(phones, live_server):
    from tests.browser.test_game_screen import open_game

    game = _combat_game()
    assert game.state["phase"] == "combat"
    a, b = phones["a"], phones["b"]
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)
    casters = a.locator("#game-panel .combat-casters")
    spell = casters.locator("form.spell-form", has_text="Boule de feu")
    assert "Lame-mage" in casters.inner_text()
    assert "2 fire · difficulty 7" in spell.inner_text()
    spell.scroll_into_view_if_needed()
    shot(a, "combat-casting", "1-combat-panel-spell-a")
    assert serious_accessibility_violations(a) == []
    # The other side, not waited on, is offered no cast.
    assert b.locator("#game-panel .combat-casters").count() == 0
    spell.locator("select[name=target]").select_option(FOE)
    settled(a, spell.locator(".button-row button").first.click)
    game.refresh_from_db()
    assert game.state["pending"]["context"]["cast"]["spell"] == "Boule de feu"
    power = a.locator("#game-panel").inner_text()
    assert "POU" in power and "%" in power
    shot(a, "combat-casting", "2-power-test-a")
    settled(a, a.locator("#game-panel").get_by_role("button", name="Roll").first.click)
    game.refresh_from_db()
    while game.state["pending"] and game.state["pending"].get("kind") == "six":
        keep = a.locator("#game-panel").get_by_role("button", name="Keep").first
        settled(a, keep.click)
        game.refresh_from_db()
    assert game.state["casts"][MAGE]["Boule de feu"] == 1
    assert game.state["fighters"][MAGE]["gems"]["fire"] == 1
    assert game.state["phase"] == "combat"
    # The other phone reads the cast in its log, pushed.
    wait_for_version(b, game.version, 10_000)
    for page in (a, b):
        assert "Boule de feu" in page.locator(".log").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(b, "combat-casting", "3-after-cast-b")
