"""Spells and miracles on two phones at 360x740 (issue #32): a faithful calls
a miracle, a magician casts a known spell with one extra gem (the other phone
asked, lets it be), the other phone's magician counters a second spell, and
the upkeep recovers gems. The taps of a cast are counted (before: the generic
test tool, 4-5 typed fields)."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.browser.conftest import serious_accessibility_violations
from tests.support.live import OPPONENT, OWNER, new_game, seat
from tests.support.magic_setup import (
    GRIFFON_FAITHFUL,
    GRIFFON_MAGE,
    WOLFEN_MAGICIAN,
    reserves,
    to_upkeep,
    until_active,
    with_magic,
)
from tests.support.phone_page import board_version, settled, wait_for_version
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = ("a", "b")


def _open(page, base, owner, game):
    from tests.browser.test_game_screen import open_game

    open_game(page, base, owner, game)


def _panel(page):
    return page.locator("#game-panel")


def _tap(page, locator, taps, what) -> None:
    locator.scroll_into_view_if_needed()
    settled(page, locator.click)
    taps[what] += 1


def _follow(page, game) -> None:
    """The other phone shows the game as it is now (its live stream)."""
    game.refresh_from_db()
    wait_for_version(page, game.version, 10_000)


def _reload(page, game) -> None:
    """After moves made off the phones (the cards drawn and passed)."""
    game.refresh_from_db()
    page.reload()
    page.wait_for_selector("#live-status[data-state=live]")
    assert board_version(page) == game.version


def test_spells_and_miracles_on_two_phones(phones, live_server):
    import hashlib

    with_magic()
    game = new_game(OWNER, turns=2)
    game.dice_seed = "magic-browser-1"  # the same dice at every run
    game.dice_seed_hash = hashlib.sha256(game.dice_seed.encode()).hexdigest()
    game.save(update_fields=["dice_seed", "dice_seed_hash"])
    seat(game, OPPONENT, "b")
    reserves(game)
    game = until_active(game, GRIFFON_FAITHFUL)
    a, b = phones["a"], phones["b"]
    _open(a, live_server.url, OWNER, game)
    _open(b, live_server.url, OPPONENT, game)
    taps: Counter = Counter()

    # 1. The Fidèle calls Bénédiction: a button per fervour, with its odds.
    miracle = _panel(a).locator("form.miracle-form")
    assert "Bénédiction" in miracle.inner_text() and "%" in miracle.inner_text()
    shot(a, "magic", "1-miracle-a")
    miracle.locator("select[name=target]").select_option(GRIFFON_MAGE)
    taps["miracle"] += 2  # open the list, pick the target
    # Fervour 1: difficulty 1 + 4 against FOI 4, a certain success: it is
    # passed at once (II-A-1), no Roll asked, and the panel says so first.
    assert "100.0" in miracle.get_by_role("button").first.inner_text()
    _tap(a, miracle.get_by_role("button").first, taps, "miracle")
    game.refresh_from_db()
    assert game.state["fighters"][GRIFFON_FAITHFUL]["faith"] == 3
    assert game.state["pending"] is None
    latest = _panel(a).locator(".latest").inner_text()
    assert "4 against 5 cannot fail" in latest and "no roll needed" in latest
    assert _panel(a).get_by_role("button", name="Roll").count() == 0
    shot(a, "magic", "2-faith-test-a")
    assert taps["miracle"] == 3  # open the list, pick the target, call
    assert "calls Bénédiction with fervour 1" in a.locator(".log").inner_text()
    # Its lasting effect is shown on both phones, until the end of the round.
    assert [e["name"] for e in game.state["effects"]] == ["Bénédiction"]
    _follow(b, game)
    for page in (a, b):
        assert "Bénédiction" in page.locator(".table-effects").inner_text()
    assert "4 against 5 cannot fail" in b.locator(".log").inner_text()
    shot(b, "magic", "2-miracle-effect-b")

    # 2. The Guerrier-mage casts Boule de feu on a Repenti with one extra gem.
    game = until_active(game, GRIFFON_MAGE)
    _reload(a, game)
    _reload(b, game)
    spell = _panel(a).locator("form.spell-form", has_text="Boule de feu")
    assert "2 fire · difficulty 7" in spell.inner_text()
    shot(a, "magic", "3-spells-a")
    assert serious_accessibility_violations(a) == []
    spell.locator("select[name=target]").select_option("b1.1")
    taps["cast"] += 2  # open the list, pick the target
    extra = spell.locator("button[name^='extra:']").first
    assert extra.inner_text().startswith("+1 ")
    _tap(a, extra, taps, "cast")
    game.refresh_from_db()
    assert game.state["pending"]["kind"] == "counter"
    assert game.state["pending"]["context"]["cast"]["dice"] == 2
    # The other phone is asked whether to counter; it lets it be.
    _follow(b, game)
    assert "counter it?" in _panel(b).inner_text()
    shot(b, "magic", "4-counter-asked-b")
    assert serious_accessibility_violations(b) == []
    _tap(b, _panel(b).get_by_role("button", name="Let the spell be cast"), taps, "b")
    game.refresh_from_db()
    _follow(a, game)
    power = _panel(a).inner_text()
    assert "POU" in power and "%" in power
    shot(a, "magic", "5-power-test-a")
    _tap(a, _panel(a).get_by_role("button", name="Roll").first, taps, "cast")
    game.refresh_from_db()
    while game.state["pending"]:
        _tap(a, _panel(a).get_by_role("button", name="Keep").first, taps, "cast")
        game.refresh_from_db()
    assert game.state["casts"][GRIFFON_MAGE]["Boule de feu"] == 1

    # 3. A second spell: the Wolfen Magicien counters it on his phone.
    aura = _panel(a).locator("form.spell-form", has_text="Aura de lumière")
    _tap(a, aura.get_by_role("button").first, taps, "second")
    game.refresh_from_db()
    _follow(b, game)
    counter = _panel(b).get_by_role("button", name="Counter with Magicien")
    assert "pay" in counter.inner_text()
    _tap(b, counter, taps, "b")
    game.refresh_from_db()
    assert game.state["pending"] is None
    assert [e["name"] for e in game.state["effects"]] == ["Bénédiction"]  # no aura
    assert sum(game.state["fighters"][WOLFEN_MAGICIAN]["gems"].values()) == 1
    _follow(a, game)
    log = a.locator(".log").inner_text()
    assert "counters Aura de lumière" in log
    shot(a, "magic", "6-countered-a")
    shot(b, "magic", "6-countered-b")

    # 4. The upkeep: the Fidèle's new faith, then the gems recovered.
    game = to_upkeep(game)
    _reload(a, game)
    faith = game.state["upkeep"]["items"][0]
    assert faith["step"] == "faith" and faith["side"] == "a"
    # The faithful's lines first (the Fidèle, the Moines-guerriers), as typed.
    for _ in range(4):
        if _panel(a).locator("input[name='gems:fire']").count():
            break
        _tap(a, _panel(a).get_by_role("button", name="Done").first, taps, "upkeep")
    game.refresh_from_db()
    ticked = game.state["upkeep"]["ticked"]
    assert [i["step"] for i in game.state["upkeep"]["items"] if i["key"] in ticked] == [
        "faith"
    ] * len(ticked)
    before = dict(game.state["fighters"][GRIFFON_MAGE]["gems"])
    line = _panel(a)
    assert "+ fire" in line.inner_text()
    line.locator("input[name='gems:fire']").fill("1")
    shot(a, "magic", "7-recovery-a")
    _tap(a, line.get_by_role("button", name="Done").first, taps, "upkeep")
    game.refresh_from_db()
    after = game.state["fighters"][GRIFFON_MAGE]["gems"]
    assert after["fire"] == before["fire"] + 1
    shot(a, "magic", "8-after-recovery-a")
    for page in (a, b):
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    print(f"taps: {dict(taps)}")
    cast_taps = taps["cast"]
    print(f"taps of a cast with a target and one extra gem: {cast_taps}")
    assert cast_taps <= 4


def test_the_spells_read_in_french_on_a_phone(phone, live_server):
    """The default language: the costs, buttons and odds in French."""
    with_magic()
    game = new_game(OWNER, turns=2)
    seat(game, OPPONENT, "b")
    reserves(game)
    game = until_active(game, GRIFFON_MAGE)
    _open(phone, live_server.url, OWNER, game)
    spell = _panel(phone).locator("form.spell-form", has_text="Boule de feu")
    text = spell.inner_text()
    assert "2 feu · difficulté 7" in text and "Lancer : 50,0\u00a0%" in text
    assert "+1 gemme (air) : 75,0\u00a0%" in text
    shot(phone, "magic", "9-spells-fr")
    shot(spell, "magic", "9-spell-form-fr")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
