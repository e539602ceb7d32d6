"""A melee on two phones at 360x740 (VII-C): one against two, played to its
end by tapping: the Initiative named on both phones with its odds, the dice
placed on both phones (the loser first, the winner seeing it), the parries
decided on the defender's phone, the wound rolls. Real dice are entered, so
every result is known."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.browser.conftest import serious_accessibility_violations
from tests.support.layout_shifts import layout_shift, watch_layout_shifts
from tests.support.live import OPPONENT, OWNER, new_game, seat
from tests.support.melee_setup import one_against_two
from tests.support.phone_page import settled
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = ("a", "b")


def _open(page, base, owner, game):
    from tests.browser.test_game_screen import open_game

    open_game(page, base, owner, game)


def _kind(page) -> str:
    classes = page.locator("#game-panel").get_attribute("class") or ""
    return next(
        (c.removeprefix("panel-") for c in classes.split() if c.startswith("panel-")),
        "wait",
    )


def _panel_text(page) -> str:
    return page.locator("#game-panel").inner_text()


def _tap(page, locator, taps, side) -> None:
    settled(page, locator.click)
    taps[side] += 1


def _enter(page, faces, taps, side) -> None:
    page.locator("#game-panel input[name=faces]").first.fill(faces)
    _tap(page, page.get_by_role("button", name="Record these dice").first, taps, side)


def _act(page, side, seen, taps) -> bool:
    """Do what this phone's panel asks; False when it waits."""
    kind = _kind(page)
    panel = page.locator("#game-panel")
    text = _panel_text(page)
    if kind == "combat":
        initiative = panel.locator("form:has(input[value=initiative]) button")
        if initiative.count():
            assert "%" in text  # the odds of the opposed test first (II-A-3)
            seen["initiative"].add(side)
            shot(page, "melee", f"initiative-{side}")
            _tap(page, initiative.first, taps, side)
            return True
        confirm = panel.get_by_role("button", name="Confirm this placement")
        if confirm.count():
            seen["placement"].add(side)
            if "defence left" in text:
                seen["saw_loser"].add(side)  # the winner sees the loser's dice
            # One attack die for each fighter, the rest in defence.
            for group in panel.locator(".segmented").all():
                # Each choice is drawn as wide as the tap it takes, not a sliver.
                widths = [
                    b["width"]
                    for b in group.locator("span").evaluate_all(
                        "spans => spans.map(s => s.getBoundingClientRect().toJSON())"
                    )
                ]
                assert min(widths) >= 44, widths
                group.locator("label").nth(1).click()
                taps[side] += 1
            shot(page, "melee", f"placement-{side}")
            assert serious_accessibility_violations(page) == []
            _tap(page, confirm, taps, side)
            return True
        attack = panel.locator(".combat-actions form button.button-block")
        if attack.count():
            seen["attack"].add(side)
            shot(page, "melee", f"attack-{side}")
            _tap(page, attack.first, taps, side)
            return True
        return False
    if kind == "parry":
        seen["parry"].add(side)
        assert "%" in text
        shot(page, "melee", f"parry-{side}")
        assert serious_accessibility_violations(page) == []
        one = panel.locator("button[name=dice][value='1']")
        button = one if one.count() else panel.locator("button[name=dice]").first
        _tap(page, button, taps, side)
        return True
    if kind == "table_roll":  # the defence test: several dice, one kept
        seen["defence"].add(side)
        # The title names the test once; the panel cites VII-C-4 once.
        assert "DEF test (parry)" in text and "%" in text
        assert "(parry, VII-C-4)" not in text
        shot(page, "melee", f"defence-{side}")
        needed = int(page.locator("#game-panel input[name=faces]").count() and 1)
        faces = "5" if len(seen["defence_rolls"]) == 0 else "1"
        seen["defence_rolls"].append(faces)
        _enter(page, " ".join([faces] * max(needed, 1)), taps, side)
        return True
    if kind == "roll":
        if "Initiative" in text:
            shot(page, "melee", f"initiative-roll-{side}")
            _enter(page, "5 1", taps, side)
        elif "Wound roll" in text:
            seen["wound"].add(side)
            shot(page, "melee", f"wound-{side}")
            _enter(page, "1 1", taps, side)
        else:  # the attack test: 1d6 + ATT
            assert "no difficulty" in text and "%" in text
            if "attack-roll" not in seen["waited"]:
                seen["waited"].add("attack-roll")
                shot(page, "melee", f"attack-roll-{side}")
            _enter(page, "4", taps, side)
        return True
    if kind == "six":
        _tap(page, panel.get_by_role("button", name="Keep").first, taps, side)
        return True
    return False


def test_a_one_against_two_combat_on_two_phones(phones, live_server):
    import hashlib

    game = new_game(OWNER)
    game.dice_seed = "melee-browser-1"  # the same dice at every run
    game.dice_seed_hash = hashlib.sha256(game.dice_seed.encode()).hexdigest()
    game.save(update_fields=["dice_seed", "dice_seed_hash"])
    seat(game, OPPONENT, "b")
    game = one_against_two(game)
    # From the combat on, the players enter real dice: every result known.
    game.dice_mode = "entered"
    game.save(update_fields=["dice_mode"])
    pages = {"a": phones["a"], "b": phones["b"]}
    _open(pages["a"], live_server.url, OWNER, game)
    _open(pages["b"], live_server.url, OPPONENT, game)
    for page in pages.values():
        watch_layout_shifts(page)
    seen = {
        name: set()
        for name in ("initiative", "placement", "saw_loser", "attack", "parry")
    }
    seen.update(defence=set(), wound=set(), defence_rolls=[], waited=set())
    taps: Counter = Counter()
    for _ in range(120):
        game.refresh_from_db()
        combat = game.state["combat"]
        if combat is None or combat["current"] is None:
            break
        acted = False
        for side, page in pages.items():
            did = _act(page, side, seen, taps)
            if not did and _kind(page) not in seen["waited"]:
                seen["waited"].add(_kind(page))
                shot(page, "melee", f"waiting-{_kind(page)}-{side}")
            acted = did or acted
        if not acted:
            pages["a"].wait_for_timeout(150)  # the other phone's news
    game.refresh_from_db()
    assert game.state["combat"] is None or game.state["combat"]["current"] is None
    # A's lone fighter is named for the Initiative without a tap (VII-C-2).
    assert seen["initiative"] == {"b"}
    assert seen["placement"] == {"a", "b"}
    assert len(seen["saw_loser"]) == 1  # the winner, who places last
    assert seen["parry"] and seen["wound"]
    print(f"taps for one 1-against-2 combat: {sum(taps.values())} {dict(taps)}")
    for page in pages.values():
        log = page.locator(".log").inner_text()
        assert "wins the Initiative" in log or "Combat 1 is over" in log
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # No jump on either phone while the other side plays (issue 25).
    for side, page in pages.items():
        total, shifts = layout_shift(page)
        print(f"phone {side}: CLS {total:.4f} over the combat")
        assert total <= 0.02, (side, total, shifts[:5])
    shot(pages["a"], "melee", "after-a")
    shot(pages["b"], "melee", "after-b")


def test_a_charge_against_a_peur_fighter_prompts_the_charged_fighter_s_courage(
    phones, live_server
):
    """IX: a fighter charged by an adversary whose PEUR its courage may not
    withstand tests its Courage (1d6 + COU against the PEUR), prompted on
    its own phone with its odds."""
    from battles.models import Army
    from rules.game import waiting_for
    from tests.support.game_steps import to_activation
    from tests.support.live import demo_armies

    griffons, _wolfen = demo_armies()
    magistrat = griffons.cards.order_by("position").first().card
    magistrat.cou = 2  # COU 2 against PEUR 6: 4 or more on the die
    magistrat.save(update_fields=["cou"])
    assert Army.objects.filter(pk=griffons.pk).exists()
    game = new_game(OWNER)
    seat(game, OPPONENT, "b")
    game = to_activation(game)
    # Side A plays its first card without acting; side B's Repentis come.
    for side, command in (
        ("a", {"type": "draw", "action": "draw"}),
        ("a", {"type": "end_activation"}),
    ):
        from battles.services import games as services

        services.perform_action(game, side, command)
        game.refresh_from_db()
    pages = {"a": phones["a"], "b": phones["b"]}
    _open(pages["a"], live_server.url, OWNER, game)
    _open(pages["b"], live_server.url, OPPONENT, game)
    b = pages["b"]
    settled(
        b,
        b.locator("#game-panel").get_by_role("button", name="Draw the top card").click,
    )
    game.refresh_from_db()
    assert game.state["active"]["fighters"][0] == "b1.1"
    b.locator("#move-b1\\.1").select_option("charge")
    b.locator("#targets-b1\\.1").select_option("a1.1")
    form = b.locator("#game-panel form:has(#move-b1\\.1)")
    settled(b, form.get_by_role("button", name="Record the action").click)
    game.refresh_from_db()
    pending = game.state["pending"]
    assert pending and pending["context"]["use"] == "courage"
    assert waiting_for(game.state) == {"a"}
    a = pages["a"]
    a.wait_for_selector("#game-panel.panel-table_roll", timeout=5000)
    text = _panel_text(a)
    assert "Courage" in text and "COU 2 against 6" in text and "%" in text
    shot(a, "melee", "fear-courage-a")
    assert "Courage" in _panel_text(b)  # B sees whose test it is, and waits
    assert not b.locator("#game-panel input[name=faces]").count()
    shot(b, "melee", "fear-courage-b")
    settled(a, a.locator("#game-panel").get_by_role("button", name="Roll").first.click)
    game.refresh_from_db()
    assert "Courage" in a.locator(".log").inner_text()


def test_the_house_rulings_chosen_at_creation_are_shown_in_the_game(
    phones, live_server
):
    """Where the sources are silent, the new-game form offers each house
    ruling with its default and reason; the game page lists those in force."""
    from tests.browser.test_game_screen import sign_in
    from tests.support.live import demo_armies

    demo_armies()
    a = phones["a"]
    sign_in(a, live_server.url, OWNER)
    a.goto(live_server.url + "/games/new/")
    select = a.locator("#id_ruling_parry_tie")
    assert "default" in select.locator("option").first.inner_text()
    assert "Not found in the sources" in a.locator("form").first.inner_text()
    select.select_option("not_parried")
    select.scroll_into_view_if_needed()
    shot(a, "melee", "new-game-rulings")
    a.get_by_role("button", name="Start the game").click()
    a.wait_for_url("**/games/*/")
    rulings = a.locator("#house-rulings")
    rulings.locator("summary").click()
    assert "not parried" in rulings.inner_text()
    rulings.scroll_into_view_if_needed()
    shot(a, "melee", "game-rulings-in-force")
    assert a.evaluate("document.documentElement.scrollWidth") <= 360
