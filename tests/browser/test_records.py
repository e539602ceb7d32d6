"""Records and small screens at 360x740 (issue 31): "Share this game" is a
full tap target, a yes and a no stand apart, a new custom card lands on a page
that lists it. Screenshots in ``$SHOTS_DIR/31-records`` (look at them)."""

from __future__ import annotations

import pytest

from tests.support.servers import shell_json
from tests.support.shots import shot

pytestmark = pytest.mark.browser

LIVE_MS = 5000
SHOTS = "31-records"


def shell(code: str, site) -> dict:
    return shell_json(f"from tests.support.live_setup import *; {code}", site["env"])


def click_and_settle(page, locator) -> None:
    with page.expect_response(lambda response: response.request.method == "POST"):
        locator.click()


def _gap(one: dict, other: dict) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    dx = max(
        other["x"] - (one["x"] + one["width"]), one["x"] - (other["x"] + other["width"])
    )
    dy = max(
        other["y"] - (one["y"] + one["height"]),
        one["y"] - (other["y"] + other["height"]),
    )
    return max(dx, dy, 0)


def test_share_is_a_tap_target_and_a_yes_and_a_no_stand_apart(site, phones):
    game = shell("setup_game()", site)
    public_id = game["public_id"]
    shooter = shell(f"play_until_a_shot({public_id!r})", site)["side"]
    for side in ("a", "b"):
        page = phones[side]
        page.context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": game["sessions"][side],
                    "url": site["base"],
                }
            ]
        )
        page.goto(f"{site['base']}/games/{public_id}/")
        page.locator("#live-status[data-state='live']").wait_for(timeout=LIVE_MS)

    share = phones["a"].locator("#game-status a.share-game")
    box = share.bounding_box()
    assert box["height"] >= 44, box  # was 22 px
    shot(phones["a"].locator("#game-status"), SHOTS, "share-link")

    roller = phones[shooter]
    other = phones["b" if shooter == "a" else "a"]
    click_and_settle(
        roller, roller.locator(".panel").get_by_role("button", name="Roll")
    )
    click_and_settle(roller, roller.get_by_role("button", name="Undo my last action"))
    other.locator("#board", has_text="Agree to the undo").wait_for(timeout=LIVE_MS)
    answer = other.locator(".undo-request .actions")
    buttons = answer.get_by_role("button")
    assert buttons.count() == 2
    yes, no = (buttons.nth(i).bounding_box() for i in range(2))
    assert _gap(yes, no) >= 8, (yes, no)  # they touched
    for one in (yes, no):
        assert one["height"] >= 44 and one["x"] >= 0 and one["x"] + one["width"] <= 360
    shot(other.locator(".undo-request"), SHOTS, "yes-and-no")
    assert phones["problems"].items == [], "\n".join(phones["problems"].items)


PHONES = ("a", "b")


def test_a_new_custom_card_lands_where_it_is_listed(site, phones):
    page = phones["a"]
    page.goto(f"{site['base']}/armies/cards/new/")
    form = page.locator("#card-form")
    form.locator("input[name='name']").fill("Chasseur de brume")
    form.locator("select[name='people']").select_option(index=1)
    form.locator("input[name='cou']").fill("4")
    form.locator("button[type=submit]").click()
    try:
        page.wait_for_url("**/armies/?card=*", timeout=LIVE_MS)
    except Exception:
        errors = page.locator(".errorlist").all_inner_texts()
        raise AssertionError(f"the card was refused: {errors}") from None
    item = page.locator(".own-card", has_text="Chasseur de brume")
    item.wait_for(timeout=LIVE_MS)
    box = item.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 740  # in sight on landing
    assert "created" in item.inner_text()
    shot(page, SHOTS, "new-card-landing")
    assert phones["problems"].items == [], "\n".join(phones["problems"].items)


def test_the_verify_page_says_every_result_follows_from_the_commands(site, phones):
    game = shell("setup_game()", site)
    public_id = game["public_id"]
    shell(f"play_actions({public_id!r}, 40)", site)
    shell_json(
        "import json; from battles.models.games import Game; "
        "from battles.services.games import perform_action; "
        f"g = Game.objects.get(public_id={public_id!r}); "
        "perform_action(g, 'a', {'type': 'concede'}); print(json.dumps({}))",
        site["env"],
    )
    page = phones["a"]
    page.context.add_cookies(
        [{"name": "sessionid", "value": game["sessions"]["a"], "url": site["base"]}]
    )
    page.goto(f"{site['base']}/games/{public_id}/verify")
    verdict = page.locator("#story-verdict")
    verdict.scroll_into_view_if_needed()
    assert "Every result of the log follows from its commands and faces" in (
        verdict.inner_text()
    )
    assert "message-success" in verdict.get_attribute("class")
    box = verdict.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360  # no overflow
    shot(page, SHOTS, "verify-story")
    assert phones["problems"].items == [], "\n".join(phones["problems"].items)
