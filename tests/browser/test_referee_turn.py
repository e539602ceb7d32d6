"""A whole turn of the demo armies on two phones at 360x740, played as a
stranger would (issue #31, referee point 4): each phone taps what its panel
offers, the app's own dice; side A's first fighter charges the wolfen
character (a fear test on its phone), the charge's melee is fought, the
upkeep is ticked, and turn 2 begins. Taps are counted per combat."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from tests.browser.test_melee_taps import _kind
from tests.support.live import OPPONENT, OWNER, new_game, seat
from tests.support.phone_page import settled
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLDER = "referee-turn"
PHONES = ("a", "b")


class Stranger:
    """Taps what the panel offers, the first (primary) choice; records what
    it met and counts its taps, per combat and in all."""

    def __init__(self, game, pages):
        self.game = game
        self.pages = pages
        self.taps: Counter = Counter()
        self.combat_taps: Counter = Counter()
        self.seen: list[str] = []
        self.charged = False

    def tap(self, side, page, locator, what):
        combat = self.game.state.get("combat") or {}
        index = combat.get("current")
        settled(page, locator.click)
        self.taps[side] += 1
        if index is not None:
            self.combat_taps[index] += 1
        self.seen.append(f"{side}:{what}")
        self.game.refresh_from_db()

    def act(self, side, page) -> bool:
        kind = _kind(page)
        panel = page.locator("#game-panel")
        buttons = panel.locator("form button[type=submit]:visible")
        if kind == "strategic":
            for name in ("Confirm this sequence", "Choose this fighter"):
                button = panel.get_by_role("button", name=name)
                if button.count():
                    self.tap(side, page, button, name)
                    return True
            return False
        if kind == "activation" and side == "a" and not self.charged:
            return self.charge(side, page)
        if kind == "activation":
            done = panel.get_by_role("button", name="Done: pass the floor")
            if done.count():
                self.tap(side, page, done, "done")
                return True
            return False
        if kind == "six" or (
            kind == "table_roll" and panel.locator("button[name=type]").count()
        ):
            best = panel.locator("button[name=type]:not(.button-secondary)")
            self.tap(side, page, best.first, f"{kind}:best")
            return True
        if kind == "combat":
            placement = panel.get_by_role("button", name="Confirm this placement")
            if placement.count():
                shot(page, FOLDER, f"placement-{side}")
                self.tap(side, page, placement, "placement")
                return True
        if kind in ("wait", "watch") or not buttons.count():
            return False
        shot(page, FOLDER, f"{kind}-{side}-{len(self.seen)}")
        self.tap(side, page, buttons.first, kind)
        return True

    def charge(self, side, page) -> bool:
        """Side A's first activated fighter charges the wolfen character."""
        state = self.game.state
        fighter = state["active"]["fighters"][0] if state["active"] else None
        if fighter is None:
            return False
        character = next(
            f
            for f, d in state["fighters"].items()
            if d["side"] == "b" and "Personnage" in d["label"]
        )
        escaped = fighter.replace(".", "\\.")
        page.locator(f"#move-{escaped}").select_option("charge")
        page.locator(f"#targets-{escaped}").select_option(character)
        shot(page, FOLDER, "charge-a")
        form = page.locator(f"#game-panel form:has(#move-{escaped})")
        self.charged = True
        self.tap(
            side, page, form.get_by_role("button", name="Record the action"), "charge"
        )
        return True


def test_a_whole_turn_with_a_charge_a_fear_test_and_a_combat(phones, live_server):
    from tests.browser.test_game_screen import open_game

    game = new_game(OWNER)
    game.dice_seed = "referee-turn-1"
    game.dice_seed_hash = hashlib.sha256(game.dice_seed.encode()).hexdigest()
    game.save(update_fields=["dice_seed", "dice_seed_hash"])
    seat(game, OPPONENT, "b")
    pages = {"a": phones["a"], "b": phones["b"]}
    open_game(pages["a"], live_server.url, OWNER, game)
    open_game(pages["b"], live_server.url, OPPONENT, game)
    stranger = Stranger(game, pages)
    for _ in range(300):
        game.refresh_from_db()
        stranger.game = game
        if game.state["turn"] == 2 or game.state["phase"] == "finished":
            break
        acted = False
        for side, page in pages.items():
            acted = stranger.act(side, page) or acted
        if not acted:
            pages["a"].wait_for_timeout(150)  # the other phone's news
    game.refresh_from_db()
    print("seen:", " ".join(stranger.seen))
    print("taps by phone:", dict(stranger.taps))
    print("taps per combat:", dict(stranger.combat_taps))
    for side, page in pages.items():
        shot(page, FOLDER, f"turn-2-{side}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert game.state["turn"] == 2, stranger.seen[-10:]
    from battles.models import GameEvent

    kinds = [e.kind for e in GameEvent.objects.filter(game=game)]
    payloads = [e.payload for e in GameEvent.objects.filter(game=game)]
    fear = [
        p
        for p in payloads
        if (p.get("context") or {}).get("fear") or p.get("fighter") and "courage" in p
    ]
    assert fear or "courage_certain" in kinds
    assert stranger.combat_taps, "no combat was fought"
    assert not phones["problems"].items, phones["problems"].items
