"""The referee's leftovers at 360x740 (issue #31): on one phone passed
between the players, the pursuit of a fighter whose side does not pick the
next combat is offered too (VII-C-6)."""

from __future__ import annotations

import pytest

from tests.browser.test_melee_taps import _card, _height, _open
from tests.support.live import OWNER
from tests.support.phone_page import settled
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLDER = "referee"
PHONES = ("one",)


def _one_phone_after_a_kill():
    """Two fighters a side on one phone, in two combats; the Tactics winner
    picks its fighter's combat, wins the Initiative and kills its opponent:
    its fighter is freed, and the other side picks the next combat."""
    from battles.models import Army, ArmyCard
    from battles.models.armies import People, Voie
    from battles.services import games as services
    from battles.services.games import create_game
    from rules.game import waiting_for
    from tests.support.game_steps import to_activation

    griffons = People.objects.create(name="Griffons (test)", voie=Voie.LUMIERE)
    wolfen = People.objects.create(name="Wolfen (test)", voie=Voie.DESTIN)
    armies = []
    for people, card in (
        (griffons, _card(griffons, "Bretteur", force=12, res=3)),
        (wolfen, _card(wolfen, "Duelliste", force=12, res=3)),
    ):
        army = Army.objects.create(name=card.name, people=people, points_limit=400)
        ArmyCard.objects.create(army=army, card=card, fighters=2, position=0)
        armies.append(army)
    game = create_game(
        owner=OWNER, army_a=armies[0], army_b=armies[1], mode="one_phone"
    )
    game = to_activation(game)
    game.dice_mode = "entered"
    game.save(update_fields=["dice_mode"])

    def play(side, command, faces=None):
        game.refresh_from_db()
        services.perform_action(game, side, command, faces=faces)
        game.refresh_from_db()

    for one, two in (("a1.1", "b1.1"), ("a1.2", "b1.2")):
        play("a", {"type": "set_contact", "one": one, "two": two, "contact": True})
    while game.state["phase"] == "activation":
        side = sorted(waiting_for(game.state))[0]
        if game.state["active"]:
            play(side, {"type": "end_activation"})
        else:
            play(side, {"type": "draw", "action": "draw"})
    winner = game.state["tactics"]["winner"]
    loser = "b" if winner == "a" else "a"
    killer, victim = f"{winner}1.1", f"{loser}1.1"
    play(winner, {"type": "form_combats", "combats": "suggested"})
    index = next(
        i
        for i, c in enumerate(game.state["combat"]["combats"])
        if killer in [c["one"], *c["many"]]
    )
    play(winner, {"type": "choose_combat", "combat": index})
    play("a", {"type": "roll"}, faces=[5, 1] if winner == "a" else [1, 5])
    while game.state["pending"] and game.state["pending"].get("roll"):
        play(sorted(waiting_for(game.state))[0], {"type": "keep"})
    play(loser, {"type": "place_dice", "fighter": victim, "attack": 0})
    play(winner, {"type": "place_dice", "fighter": killer, "attack": 2})
    play(winner, {"type": "attack", "attacker": killer, "target": victim})
    play(loser, {"type": "parry", "dice": 0})
    play(winner, {"type": "roll"}, faces=[6, 6])  # killed outright
    assert game.state["fighters"][victim]["eliminated"]
    assert game.state["combat"]["current"] is None
    assert game.state["combat"]["picker"] == loser  # not the pursuer's side
    return game, winner, killer


def test_on_one_phone_the_pursuer_of_the_side_not_picking_is_offered_its_pursuit(
    phones, live_server
):
    """VII-C-6 (melee-sources §0.6 [read]): "Fighters freed from contact can
    make pursuit moves in the same combat phase"; on one phone the phone acts
    for the side picking the next combat, and the freed fighter of the other
    side is offered its pursuit on the same screen."""
    game, winner, killer = _one_phone_after_a_kill()
    page = phones["one"]
    _open(page, live_server.url, OWNER, game)
    panel = page.locator("#game-panel")
    pursuer = game.state["fighters"][killer]["label"]
    target_id = f"{'b' if winner == 'a' else 'a'}1.2"
    target = game.state["fighters"][target_id]["label"]
    button = panel.get_by_role("button", name=f"{pursuer} pursues into {target}")
    assert button.count() == 1 and _height(button) >= 44
    # The pick of the next combat is on the same screen.
    assert (
        panel.get_by_role("button", name="2.").count()
        + panel.get_by_role("button", name="1.").count()
        >= 1
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    button.scroll_into_view_if_needed()
    shot(page, FOLDER, "one-phone-pursuit")
    settled(page, button.click)
    game.refresh_from_db()
    joined = [c for c in game.state["combat"]["combats"] if not c["done"]]
    assert len(joined) == 1 and killer in [joined[0]["one"], *joined[0]["many"]]
    assert "pursuit move brings it into contact" in page.locator(".log").inner_text()
    shot(page, FOLDER, "one-phone-pursuit-recorded")
    assert not phones["problems"].items, phones["problems"].items


def test_the_rallying_cry_is_offered_at_the_start_of_the_strategic_phase(
    phones, live_server
):
    """magic-faith-sources §5 [read] M10: "Rallying Cry: once per game, at the
    start of a strategic phase. All friendly routed fighters rally, and
    friends get +1 to Courage until the end of the round"."""
    from battles.models import Army, ArmyCard
    from battles.models.armies import People, Voie
    from battles.services import games as services
    from battles.services.games import create_game
    from tests.support.live import OPPONENT, seat

    griffons = People.objects.create(name="Griffons (test)", voie=Voie.LUMIERE)
    wolfen = People.objects.create(name="Wolfen (test)", voie=Voie.DESTIN)
    armies = []
    for people, cards in (
        (
            griffons,
            [
                (_card(griffons, "Héraut", ("Cri de ralliement",)), 1),
                (_card(griffons, "Garde", cou=2), 2),
            ],
        ),
        (wolfen, [(_card(wolfen, "Duelliste"), 1)]),
    ):
        army = Army.objects.create(name=people.name, people=people, points_limit=400)
        for position, (card, n) in enumerate(cards):
            ArmyCard.objects.create(army=army, card=card, fighters=n, position=position)
        armies.append(army)
    game = create_game(owner=OWNER, army_a=armies[0], army_b=armies[1])
    seat(game, OPPONENT, "b")
    gardes = [
        f for f, d in game.state["fighters"].items() if d["label"].startswith("Garde")
    ]
    for fighter in gardes:
        services.perform_action(
            game, "a", {"type": "set_routed", "fighter": fighter, "routed": True}
        )
        game.refresh_from_db()
    page = phones["one"]
    _open(page, live_server.url, OWNER, game)
    button = page.locator("#game-panel").get_by_role(
        "button", name="Héraut sounds it (2 routed fighters rally)"
    )
    assert button.count() == 1 and _height(button) >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, FOLDER, "rallying-cry")
    settled(page, button.click)
    game.refresh_from_db()
    assert not any(game.state["fighters"][f]["routed"] for f in gardes)
    log = page.locator(".log").inner_text()
    assert "Héraut sounds its Rallying Cry: Garde 1, Garde 2 rally" in log
    assert (
        page.locator("#game-panel").get_by_role("button", name="sounds it").count() == 0
    )
    shot(page, FOLDER, "rallying-cry-sounded")
    assert not phones["problems"].items, phones["problems"].items


def test_the_exchange_opener_is_chosen_at_creation_and_listed_on_the_game_page(
    phones, live_server
):
    """melee-sources §2.5 [read] (S8) reads the first exchange only; which
    side opens the later ones is the house ruling ``exchange_opener``, its
    reason saying the sources are silent, on the form and the game page."""
    from tests.browser.test_game_screen import sign_in
    from tests.support.live import demo_armies

    demo_armies()
    page = phones["one"]
    sign_in(page, live_server.url, OWNER)
    page.goto(live_server.url + "/games/new/")
    select = page.locator("#id_ruling_exchange_opener")
    assert "(default)" in select.locator("option").first.inner_text()
    select.select_option("alternation_goes_on")
    select.scroll_into_view_if_needed()
    shot(page, FOLDER, "new-game-exchange-opener")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/games/*/")
    rulings = page.locator("#house-rulings")
    rulings.locator("summary").click()
    row = rulings.locator("dd", has_text="the alternation goes on")
    assert row.count() == 1
    assert "Not found in the sources" in row.inner_text()
    row.scroll_into_view_if_needed()
    shot(page, FOLDER, "game-exchange-opener")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
