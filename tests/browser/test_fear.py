"""Fear on two phones at 360x740 (IX): a Griffon charges the wolfen
character (PEUR 7, the demo's estimate), fails its Courage test on a typed
natural 1, and both phones read what the house ruling ``failed_charge``
decided: the charge does not happen, the charger is routed where it stands."""

from __future__ import annotations

import pytest

from tests.support.live import OPPONENT, OWNER, new_game, seat
from tests.support.phone_page import settled
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = ("a", "b")


def _to_activation(game):
    """Sequences in card order, the Tactics roll won by side A (typed dice),
    side A speaking first."""
    from battles.services import games as services

    def act(side, command, faces=None):
        services.perform_action(game, side, command, faces=faces)
        game.refresh_from_db()

    for side in ("a", "b"):
        act(side, {"type": "set_sequence", "order": game.state["sides"][side]["cards"]})
    for side in ("a", "b"):
        fighter = next(
            f
            for f, data in game.state["fighters"].items()
            if data["side"] == side
            and game.state["cards"][data["card"]]["profile"]["DIS"]
        )
        act(side, {"type": "choose_tactics_fighter", "fighter": fighter})
    act("a", {"type": "roll"}, faces=[5, 1])
    act("a", {"type": "choose_first", "first": "a"})
    return game


def test_a_failed_courage_test_on_a_charge_names_the_failed_charge_ruling(
    phones, live_server
):
    """§5 [read] M10: "Courage test = 1d6 + COU against the highest FEAR [...]
    taken when charging a more frightening fighter"; §5 Additions: "Failure
    when charging: The charger is in rout, its activation ends, it stays in
    place" ([C4] M18 -> HR-P3), the default of ``failed_charge``."""
    from tests.browser.test_game_screen import open_game

    game = new_game(OWNER, dice_mode="entered")
    seat(game, OPPONENT, "b")
    game = _to_activation(game)
    fighters = game.state["fighters"]
    character = next(
        f
        for f, d in fighters.items()
        if d["side"] == "b" and "Personnage" in d["label"]
    )
    pages = {side: phones[side] for side in PHONES}
    open_game(pages["a"], live_server.url, OWNER, game)
    open_game(pages["b"], live_server.url, OPPONENT, game)
    a, b = pages["a"], pages["b"]
    settled(
        a,
        a.locator("#game-panel").get_by_role("button", name="Draw the top card").click,
    )
    game.refresh_from_db()
    charger = game.state["active"]["fighters"][0]
    assert "Magistrat" in fighters[charger]["label"]  # COU 5 against PEUR 7
    escaped = charger.replace(".", "\\.")
    a.locator(f"#move-{escaped}").select_option("charge")
    a.locator(f"#targets-{escaped}").select_option(character)
    form = a.locator(f"#game-panel form:has(#move-{escaped})")
    settled(a, form.get_by_role("button", name="Record the action").click)
    game.refresh_from_db()
    pending = game.state["pending"]
    assert (pending["value"], pending["difficulty"]) == (5, 7)
    a.wait_for_selector("#game-panel.panel-table_roll", timeout=5000)
    assert "COU 5 against 7" in a.locator("#game-panel").inner_text()
    shot(a, "fear", "courage-asked-a")

    a.locator("#game-panel input[name=faces]").first.fill("1")  # 1 + 5 = 6 < 7
    settled(a, a.get_by_role("button", name="Record these dice").first.click)
    game.refresh_from_db()
    shot(a, "fear", "after-roll-a")  # the answer where the finger was
    assert game.state["fighters"][charger]["routed"] is True
    assert [charger, character] not in game.state["contacts"]
    assert game.state["active"] is None  # its activation ended by itself
    ruling = "the charge does not happen, the fighter is routed where it stands"
    for page in (a, b):
        log = page.locator(".log")
        log.get_by_text(ruling).first.wait_for(timeout=5000)
        assert "house ruling" in log.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    a.locator(".log").get_by_text(ruling).first.scroll_into_view_if_needed()
    shot(a, "fear", "failed-charge-a")
    b.locator(".log").get_by_text(ruling).first.scroll_into_view_if_needed()
    shot(b, "fear", "failed-charge-b")
    assert not phones["problems"].items, phones["problems"].items
