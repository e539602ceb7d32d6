"""The game screen on two phones at 360x740: feedback where the finger is,
recovery after a Wi-Fi drop, the waiting Tactics loser, no layout shift,
bytes on the wire, and a whole turn played on two browser contexts."""

from __future__ import annotations

from pathlib import Path

import brotli
import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore

from battles.services import games as services
from rules.game import tactics_candidates, waiting_for
from tests.browser.conftest import PageProblems, open_phone
from tests.support.big_armies import big_game
from tests.support.live import OPPONENT, OWNER, new_game, seat
from tests.support.phone_page import hold_session, settled
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What a phone taken offline on purpose logs (a fetch under way failing).
NETWORK_NOISE = (
    "ERR_INTERNET_DISCONNECTED",
    "net::ERR_",
    "request failed",
    "htmx:sendError",
    "htmx:afterRequest",
)


def session_of(owner) -> str:
    session = SessionStore()
    session["guest_key"] = owner.guest_key
    session.create()
    return session.session_key


@pytest.fixture
def phones(browser, live_server):
    """Side A's and side B's phones (English), each its own browser context."""
    problems = PageProblems()
    opened = {who: open_phone(browser, problems, locale="en-GB") for who in "ab"}
    yield {who: page for who, (_context, page) in opened.items()} | {
        "problems": problems
    }
    for _context, page in opened.values():
        page.goto("about:blank")  # hang up the streams first
    for context, _page in opened.values():
        context.close()
    real = [p for p in problems.items if not any(n in p for n in NETWORK_NOISE)]
    assert real == [], "\n".join(real)


def two_phone_game(**options):
    game = new_game(OWNER, **options)
    seat(game, OPPONENT, "b")
    return game


def sign_in(page, base: str, owner) -> None:
    hold_session(page, base, session_of(owner))


def open_game(page, base, owner, game) -> None:
    sign_in(page, base, owner)
    page.goto(f"{base}/games/{game.public_id}/")
    page.wait_for_selector("#live-status[data-state=live]")


def in_viewport(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740


def refused_routed_mark(page, game) -> None:
    """Side A marks as routed a fighter of side B (put in the form's
    choices): the rules refuse it, by the form in the fighters' part."""
    flee = page.locator("#game-fighters > details:not(.fighter-side)").last
    flee.locator("summary").click()
    enemy = next(f for f, d in game.state["fighters"].items() if d["side"] == "b")
    page.locator("#routed-a").evaluate(
        "(select, id) => { select.options[0].value = id; }", enemy
    )
    button = flee.get_by_role("button", name="Mark as routed")
    button.scroll_into_view_if_needed()
    settled(page, button.click)


def test_a_refusal_shows_next_to_the_control_tapped_at_the_bottom(phones, live_server):
    game = two_phone_game()
    a = phones["a"]
    open_game(a, live_server.url, OWNER, game)
    refused_routed_mark(a, game)
    feedback = a.locator("#tap-feedback")
    assert feedback.inner_text().strip()
    assert in_viewport(a, "#tap-feedback")
    # Next to the control: right after its form, in the fighters section.
    assert a.locator("#game-fighters #tap-feedback").count() == 1
    assert feedback.get_attribute("role") == "alert"
    shot(a, "11", "refusal-in-viewport")


def test_a_phone_back_from_a_wifi_drop_catches_up_without_a_reload(phones, live_server):
    game = two_phone_game()
    a, b = phones["a"], phones["b"]
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)
    b.context.set_offline(True)
    b.wait_for_selector("#live-status[data-state=offline]")
    assert b.locator("#live-status").inner_text() != "Live"
    shot(b, "11", "offline")
    settled(a, a.get_by_role("button", name="Confirm this sequence").click)
    settled(a, a.get_by_role("button", name="Choose this fighter").click)
    game.refresh_from_db()
    b.context.set_offline(False)
    b.wait_for_selector(f"#game-status[data-version='{game.version}']", timeout=5000)
    assert "set its activation sequence" in b.locator("#game-log").inner_text()
    b.wait_for_selector("#live-status[data-state=live]", timeout=5000)
    shot(b, "11", "back-online")


def test_the_loser_of_the_tactics_roll_waits_for_the_winner(phones, live_server):
    game = two_phone_game()
    for side in "ab":
        game.refresh_from_db()
        cards = game.state["sides"][side]["cards"]
        services.perform_action(game, side, {"type": "set_sequence", "order": cards})
    for side in "ab":
        game.refresh_from_db()
        fighter = next(f for f, ok, _why in tactics_candidates(game.state, side) if ok)
        services.perform_action(
            game, side, {"type": "choose_tactics_fighter", "fighter": fighter}
        )
    game.refresh_from_db()
    while game.state["step"] == "tactics":
        pending = game.state["pending"]
        side = sorted(waiting_for(game.state))[0]
        command = {"type": "keep"} if pending.get("roll") else {"type": "roll"}
        services.perform_action(game, side, command)
        game.refresh_from_db()
    winner = game.state["tactics"]["winner"]
    loser_owner = OPPONENT if winner == "a" else OWNER
    loser = phones["b"]
    open_game(loser, live_server.url, loser_owner, game)
    panel = loser.locator("#game-panel").inner_text()
    assert f"Waiting for side {winner.upper()}" in panel
    assert loser.locator("#game-panel button[name=first]").count() == 0
    assert (
        f"Side {winner.upper()} has the floor"
        in loser.locator("#game-status").inner_text()
    )
    shot(loser, "11", "tactics-loser-waits")


CLS_SCRIPT = """() => new Promise((resolve) => {
  let total = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) total += entry.value;
    }
  }).observe({type: "layout-shift", buffered: true});
  setTimeout(() => resolve(total), 1500);
})"""


def test_no_layout_shift_and_few_bytes_with_thirty_card_armies(phones, live_server):
    game = big_game(OWNER)
    a = phones["a"]
    sign_in(a, live_server.url, OWNER)
    with a.expect_response(
        lambda r: r.url.endswith(f"/games/{game.public_id}/")
    ) as doc:
        a.goto(f"{live_server.url}/games/{game.public_id}/")
    a.wait_for_selector("#live-status[data-state=live]")
    cls = a.evaluate(CLS_SCRIPT)
    assert cls <= 0.02, cls
    # The first load: the page as sent (compressed), and each static file as
    # WhiteNoise serves it in production (brotli, made at collectstatic).
    assert doc.value.headers.get("content-encoding") == "br"
    page_bytes = int(doc.value.headers["content-length"])
    static_bytes = 0
    for url in a.evaluate(
        "() => performance.getEntriesByType('resource').map(e => e.name)"
    ):
        if "/static/" not in url:
            continue
        path = url.split("/static/", 1)[1].split("?", 1)[0]
        found = next(
            (d / path for d in settings.STATICFILES_DIRS if (d / path).exists()), None
        )
        if found is None:
            import django_htmx

            found = Path(django_htmx.__file__).parent / "static" / path
        static_bytes += len(brotli.compress(found.read_bytes(), quality=11))
    print(f"first load: page {page_bytes} B + static {static_bytes} B (brotli)")
    assert page_bytes + static_bytes <= 60_000
    # An action's answer: the panel and what changed, compressed.
    with a.expect_response(lambda r: r.request.method == "POST") as answer:
        a.get_by_role("button", name="Confirm this sequence").click()
    size = int(answer.value.headers["content-length"])
    print(f"action answer: {size} B ({answer.value.headers['content-encoding']})")
    assert answer.value.headers["content-encoding"] == "br"
    assert size <= 8_000
    a.wait_for_timeout(300)
    shot(a, "11", "thirty-cards-strategic")


def _act_once(page) -> bool:
    """Tap what this phone's panel offers (the first choice); False: it waits."""
    panel = page.locator("#game-panel")
    kind = next(
        (
            name.removeprefix("panel-")
            for name in (panel.get_attribute("class") or "").split()
            if name.startswith("panel-")
        ),
        "wait",
    )
    named = {
        "strategic": ["Confirm this sequence", "Choose this fighter"],
        "roll": ["Roll"],
        "first": ["Side A speaks first"],
        "activation": ["Done: pass the floor"],
        "form_combats": ["Confirm these combats"],
    }
    if kind in ("wait", "watch", "finished"):
        return False
    if kind in named:
        for name in named[kind]:
            button = panel.get_by_role("button", name=name, exact=True)
            if button.count():
                settled(page, button.first.click)
                return True
        return False
    selector = {
        "six": "#game-panel .button-row button",
        "draw": "#game-panel form.stack button",
        "choose_combat": "#game-panel form.stack button",
        "combat": "#game-panel .combat-actions form button.button-block",
        "parry": "#game-panel form button[name=dice][value='0']",
        "upkeep": "#game-panel .checklist li.next button",
    }[kind]
    button = page.locator(selector)
    if not button.count():
        return False
    settled(page, button.first.click)
    return True


def check_layout(page, kind: str) -> None:
    """At 360x740: a typical activation's controls, and the upkeep line to
    do now, on the first screen; the combat phase's page at most two
    screens long."""
    if kind == "panel-activation":
        page.evaluate("() => window.scrollTo(0, 0)")
        box = page.locator("#game-panel button", has_text="Record the action")
        assert box.first.bounding_box()["y"] + 40 <= 740
    if kind == "panel-upkeep":
        # The line to do now (its button, or whose line it is) comes first.
        page.evaluate("() => window.scrollTo(0, 0)")
        box = page.locator("#game-panel .checklist > li").first.bounding_box()
        assert box["y"] + box["height"] <= 740
    if kind in ("panel-combat", "panel-choose_combat", "panel-form_combats"):
        assert page.evaluate("() => document.documentElement.scrollHeight") <= 1480


def test_a_whole_turn_on_two_phones(phones, live_server):
    game = two_phone_game()
    a, b = phones["a"], phones["b"]
    open_game(a, live_server.url, OWNER, game)
    open_game(b, live_server.url, OPPONENT, game)
    seen = set()
    for _ in range(300):
        status = a.locator("#game-status").inner_text()
        if "Turn 2 of" in status:
            break
        acted = False
        for page in (a, b):
            kind = page.locator("#game-panel").get_attribute("class") or ""
            for name in kind.split():
                if name.startswith("panel-") and name not in seen:
                    seen.add(name)
                    check_layout(page, name)
                    # caret="initial": Playwright's caret-hiding style would
                    # be refused by the page's CSP.
                    shot(page, "11", f"turn-{name}")
            acted = _act_once(page) or acted
        if not acted:
            a.wait_for_timeout(150)  # the other phone's news is on its way
    assert "Turn 2 of" in a.locator("#game-status").inner_text()
    b.wait_for_selector("#game-status:has-text('Turn 2 of')", timeout=5000)
    for name in ("panel-strategic", "panel-draw", "panel-activation", "panel-upkeep"):
        assert name in seen, seen


def test_the_upkeep_mana_box_is_bounded_and_99_is_refused(phones, live_server):
    import random

    from tests.support.game_bot import next_command

    game = two_phone_game()
    rng = random.Random(5)
    for _ in range(3000):
        game.refresh_from_db()
        state = game.state
        if state["phase"] == "upkeep" and not state["pending"]:
            upkeep = state["upkeep"]
            waiting = [i for i in upkeep["items"] if i["key"] not in upkeep["ticked"]]
            if waiting and waiting[0]["step"] == "mana":
                item = waiting[0]
                break
        side, command = next_command(state, rng)
        services.perform_action(game, side, command)
    else:
        raise AssertionError("no mana line reached")
    owner = OWNER if item["side"] == "a" else OPPONENT
    phone = phones["a"]
    open_game(phone, live_server.url, owner, game)
    box = phone.locator("#reserve-value")
    high = box.get_attribute("max")
    assert "the card's POU" in phone.locator("#reserve-bounds").inner_text()
    shot(phone, "23", "upkeep-mana-bounds")
    version = game.version
    box.evaluate("el => el.removeAttribute('max')")  # past the browser's own check
    box.fill("99")
    settled(phone, box.locator("xpath=ancestor::form").get_by_role("button").click)
    assert f"to {high}" in phone.locator("#game-panel").inner_text()
    shot(phone, "23", "upkeep-mana-refused")
    game.refresh_from_db()
    assert game.version == version
