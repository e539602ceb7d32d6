"""A melee on two phones at 360x740 (VII-C), counted in taps: one against
two with a Coup de maître and a counter-attack (issue #31), and the combat
screens the issue names: the ability buttons inside the choice they make,
the forced placement said before any tap, the routed fighters marked, a
refused placement that keeps its choices, the Initiative's tie, the pursuit.

Real dice are entered, so every result is known; the fighters and their
cards are built here (the demo armies may lack the abilities)."""

from __future__ import annotations

import hashlib
from collections import Counter
from decimal import Decimal

import pytest

from tests.browser.conftest import serious_accessibility_violations
from tests.support.layout_shifts import layout_shift, watch_layout_shifts
from tests.support.live import OPPONENT, OWNER, seat
from tests.support.melee_setup import one_against_two
from tests.support.phone_page import settled
from tests.support.shots import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLDER = "melee-taps"


def _card(people, name, abilities=(), **fields):
    from battles.models.armies import CardSource, ReferenceCard
    from battles.services.armies import _set_abilities

    values = {
        "mou": Decimal("10"),
        "ini": 4,
        "att": 5,
        "force": 5,
        "defense": 5,
        "res": 9,
        "cou": 5,
        "dis": 4,
        "cost": 20,
        "source": CardSource.ARCHETYPE,
        "is_demo": True,
        **fields,
    }
    card = ReferenceCard.objects.create(people=people, name=name, **values)
    _set_abilities(card, [tuple((text + "/").split("/")[:2]) for text in abilities])
    return card


def duel_game(*, a_fighters=1, b_fighters=2, a_abilities=("Coup de maître/1",)):
    """A's Bretteur (Coup de maître/1) against two of B's Duellistes
    (Contre-attaque), cards built here; the game at the combat's Initiative,
    real dice entered from then on."""
    from battles.models import Army, ArmyCard
    from battles.models.armies import People, Voie
    from battles.services.games import create_game

    griffons = People.objects.create(name="Griffons (test)", voie=Voie.LUMIERE)
    wolfen = People.objects.create(name="Wolfen (test)", voie=Voie.DESTIN)
    bretteur = _card(griffons, "Bretteur", a_abilities, defense=3)
    duelliste = _card(wolfen, "Duelliste", ("Contre-attaque",), att=4)
    armies = []
    for people, card, fighters in (
        (griffons, bretteur, a_fighters),
        (wolfen, duelliste, b_fighters),
    ):
        army = Army.objects.create(name=card.name, people=people, points_limit=400)
        ArmyCard.objects.create(army=army, card=card, fighters=fighters, position=0)
        armies.append(army)
    game = create_game(owner=OWNER, army_a=armies[0], army_b=armies[1])
    game.dice_seed = "melee-taps-1"
    game.dice_seed_hash = hashlib.sha256(game.dice_seed.encode()).hexdigest()
    game.save(update_fields=["dice_seed", "dice_seed_hash"])
    seat(game, OPPONENT, "b")
    game = one_against_two(game)
    game.dice_mode = "entered"
    game.save(update_fields=["dice_mode"])
    return game


def _open(page, base, owner, game):
    from tests.browser.test_game_screen import open_game

    open_game(page, base, owner, game)


def _kind(page) -> str:
    classes = page.locator("#game-panel").get_attribute("class") or ""
    return next(
        (c.removeprefix("panel-") for c in classes.split() if c.startswith("panel-")),
        "wait",
    )


def _tap(page, locator, taps, side) -> None:
    settled(page, locator.click)
    taps[side] += 1


def _enter(page, faces, taps, side) -> None:
    page.locator("#game-panel input[name=faces]").first.fill(faces)
    _tap(page, page.get_by_role("button", name="Record these dice").first, taps, side)


def _height(locator) -> float:
    return locator.evaluate("e => e.getBoundingClientRect().height")


def _gaps(buttons) -> list[float]:
    """The vertical space between each button and the next (issue 31: a
    stack of choices that touch takes two thumbs' worth of taps)."""
    boxes = [buttons.nth(i).bounding_box() for i in range(buttons.count())]
    return [
        below["y"] - (above["y"] + above["height"])
        for above, below in zip(boxes, boxes[1:], strict=False)
    ]


def _act(page, side, seen, taps) -> bool:
    """Do what this phone's panel asks; False when it waits."""
    kind = _kind(page)
    panel = page.locator("#game-panel")
    text = panel.inner_text()
    if kind == "combat":
        initiative = panel.locator("form:has(input[value=initiative]) button")
        if initiative.count():
            _tap(page, initiative.first, taps, side)
            return True
        confirm = panel.get_by_role("button", name="Confirm this placement")
        if confirm.count():
            if side == "a":  # the Bretteur: its 3 dice in attack
                label = panel.locator(".segmented label:has(input[value='3'])")
                label.click()
                taps[side] += 1
            shot(page, FOLDER, f"placement-{side}")
            _tap(page, confirm, taps, side)
            return True
        strike = panel.locator("button.master-strike")
        if strike.count() and "strike" not in seen:
            seen.add("strike")
            # The Coup de maître is a choice of its own, a finger's size.
            assert _height(strike.first) >= 44
            # Apart from the plain attack above it, as the undo's yes and no.
            pair = panel.locator("form.attack-choice").first.locator("button")
            assert min(_gaps(pair)) >= 10, _gaps(pair)
            assert "Coup de maître" in strike.first.inner_text()
            shot(page, FOLDER, f"attack-master-strike-{side}")
            assert serious_accessibility_violations(page) == []
            _tap(page, strike.first, taps, side)
            return True
        attack = panel.locator(".combat-actions form button.button-block")
        if attack.count():
            _tap(page, attack.first, taps, side)
            return True
        return False
    if kind == "parry":
        plain = panel.locator("form.choices button[name=dice]")
        if plain.count() >= 2 and "parry-gap" not in seen:
            seen.add("parry-gap")
            # "Take the blow" and "Parry with N dice" no longer touch.
            assert min(_gaps(plain)) >= 10, _gaps(plain)
            shot(page, FOLDER, f"parry-choices-{side}")
        counter = panel.locator(".counter-choices button[name=dice]")
        if counter.count() and "counter" not in seen:
            seen.add("counter")
            assert _height(counter.first) >= 44
            assert "a six of the attacker counted as kept" in text
            shot(page, FOLDER, f"parry-counter-{side}")
            assert serious_accessibility_violations(page) == []
            _tap(page, counter.first, taps, side)
            return True
        _tap(page, panel.locator("button[name=dice]").first, taps, side)
        return True
    if kind == "table_roll":  # the defence test
        faces = "4" if "counter" in seen and "countered" not in seen else "1"
        seen.add("countered")
        _enter(page, faces, taps, side)
        return True
    if kind == "roll":
        if "Initiative" in text:
            _enter(page, "1 5", taps, side)  # A 1 + 4, B 5 + 4: B wins
        elif "Wound roll" in text:
            seen.add("wound")
            _enter(page, "1 1", taps, side)
        else:
            _enter(page, "2", taps, side)  # the attack test: 2 + ATT
        return True
    if kind == "six":
        _tap(page, panel.get_by_role("button", name="Keep").first, taps, side)
        return True
    return False


def test_one_against_two_with_a_coup_de_maitre_and_a_counter_attack_in_taps(
    phones, live_server
):
    game = duel_game()
    pages = {"a": phones["a"], "b": phones["b"]}
    _open(pages["a"], live_server.url, OWNER, game)
    _open(pages["b"], live_server.url, OPPONENT, game)
    for page in pages.values():
        watch_layout_shifts(page)
    seen: set[str] = set()
    taps: Counter = Counter()
    for _ in range(120):
        game.refresh_from_db()
        combat = game.state["combat"]
        if combat is None or combat["current"] is None:
            break
        acted = False
        for side, page in pages.items():
            acted = _act(page, side, seen, taps) or acted
        if not acted:
            pages["a"].wait_for_timeout(150)  # the other phone's news
    game.refresh_from_db()
    assert game.state["combat"] is None or game.state["combat"]["current"] is None
    assert {"strike", "counter", "wound", "parry-gap"} <= seen
    from battles.models import GameEvent

    payloads = [e.payload for e in GameEvent.objects.filter(game=game)]
    attacks = [p["attack_declared"] for p in payloads if "attack_declared" in p]
    # §2.5: B (Initiative) and A alternate, one attack each.
    sides = [a["attacker"][0] for a in attacks]
    assert sides[:4] == ["b", "a", "b", "a"], sides
    assert any(a["master_strike"] for a in attacks)
    assert any(p.get("gained", {}).get("ability") == "counter" for p in payloads)
    total = sum(taps.values())
    print(f"taps for one 1-against-2 combat (Coup de maître, counter): {total}")
    print(f"taps by phone: {dict(taps)}")
    for side, page in pages.items():
        shot(page, FOLDER, f"after-{side}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        # No jump on the phone that did not tap (issue 25, #31).
        cls, shifts = layout_shift(page)
        print(f"phone {side}: CLS {cls:.4f}")
        assert cls <= 0.02, (side, cls, shifts[:5])
    assert total <= 18  # 24 before issue #31 (median of a 1 against 2)


def test_a_forced_placement_says_why_before_any_tap_and_routed_is_marked(
    phones, live_server
):
    """A routed fighter that cannot flee places every die in defence (the
    house ruling cannot_flee): with Enchaînement it still chooses its extra
    dice, and the panel says why it has no attack before the tap; its row
    is marked routed."""
    from battles.services import games as services

    game = duel_game(a_abilities=("Enchaînement/1",))
    services.perform_action(
        game, "a", {"type": "set_routed", "fighter": "a1.1", "routed": True}
    )
    game.refresh_from_db()
    services.perform_action(game, "b", {"type": "initiative", "fighter": "b1.1"})
    game.refresh_from_db()
    services.perform_action(game, "b", {"type": "roll"}, faces=[1, 5])  # B wins
    game.refresh_from_db()
    a = phones["a"]
    _open(a, live_server.url, OWNER, game)
    panel = a.locator("#game-panel")
    text = panel.inner_text()
    assert "All in defence: it is routed and cannot flee." in text
    assert not panel.locator(".segmented").count()  # nothing to choose there
    row = panel.locator(".combat-fighters li.routed")
    assert row.count() == 1 and "routed" in row.inner_text()
    shot(a, FOLDER, "forced-placement-a")
    assert serious_accessibility_violations(a) == []


def test_a_refused_placement_keeps_both_fighters_choices(phones, live_server):
    """A placement of two fighters in one tap, refused: each fighter's
    choice stays as the player set it, the message by it."""
    from battles.services import games as services

    game = duel_game()
    services.perform_action(game, "b", {"type": "initiative", "fighter": "b1.1"})
    game.refresh_from_db()
    services.perform_action(game, "b", {"type": "roll"}, faces=[5, 1])  # A wins
    game.refresh_from_db()
    b = phones["b"]
    _open(b, live_server.url, OPPONENT, game)
    panel = b.locator("#game-panel")
    for fighter, attack in (("b1.1", "2"), ("b1.2", "0")):
        panel.locator(
            f".segmented label:has(input[name='{fighter}:attack'][value='{attack}'])"
        ).click()
    # A stale choice the rules refuse: b1.2 sends 3 dice in attack of 2.
    panel.locator("input[name='b1.2:attack'][value='0']").evaluate(
        "input => { input.value = '3'; }"
    )
    settled(b, panel.get_by_role("button", name="Confirm this placement").click)
    assert "places 0 to 2 dice in attack" in b.locator("body").inner_text()
    checked = panel.locator("input[name='b1.1:attack']:checked")
    assert checked.get_attribute("value") == "2"
    shot(b, FOLDER, "refused-placement-b")


def test_the_initiative_s_tie_says_so_and_whose_die_is_whose(phones, live_server):
    from battles.services import games as services

    game = duel_game()
    services.perform_action(game, "b", {"type": "initiative", "fighter": "b1.1"})
    game.refresh_from_db()
    services.perform_action(game, "b", {"type": "roll"}, faces=[3, 3, 5, 4])
    a = phones["a"]
    _open(a, live_server.url, OWNER, game)
    log = a.locator(".log").inner_text()
    assert "[3] for side A, [3] for side B (a tie: rolled again)" in log
    assert "A tie: side A 7, side B 7; rolled again (II-A-3)." in log
    shot(a, FOLDER, "initiative-tie-a")


def test_the_pursuit_screen(phones, live_server):
    """The pick of the next combat names the freed fighter and offers its
    pursuit, on the phone of its side, whoever picks."""
    from battles.models import Army, ArmyCard, GameEvent
    from battles.models.armies import People, Voie
    from battles.services import games as services
    from battles.services.games import create_game
    from tests.support.game_steps import to_activation

    griffons = People.objects.create(name="Griffons (test)", voie=Voie.LUMIERE)
    wolfen = People.objects.create(name="Wolfen (test)", voie=Voie.DESTIN)
    armies = []
    for people, card, n in (
        (griffons, _card(griffons, "Bretteur", force=12), 2),
        (wolfen, _card(wolfen, "Duelliste", res=3), 2),
    ):
        army = Army.objects.create(name=card.name, people=people, points_limit=400)
        ArmyCard.objects.create(army=army, card=card, fighters=n, position=0)
        armies.append(army)
    game = create_game(owner=OWNER, army_a=armies[0], army_b=armies[1])
    seat(game, OPPONENT, "b")
    game = to_activation(game)
    game.dice_mode = "entered"
    game.save(update_fields=["dice_mode"])

    def play(side, command, faces=None):
        game.refresh_from_db()
        services.perform_action(game, side, command, faces=faces)
        game.refresh_from_db()

    for one, two in (("a1.1", "b1.1"), ("a1.2", "b1.2")):
        play("a", {"type": "set_contact", "one": one, "two": two, "contact": True})
    from rules.game import waiting_for

    while game.state["phase"] == "activation":
        side = sorted(waiting_for(game.state))[0]
        if game.state["active"]:
            play(side, {"type": "end_activation"})
        else:
            play(side, {"type": "draw", "action": "draw"})
    winner = game.state["tactics"]["winner"]
    play(winner, {"type": "form_combats", "combats": "suggested"})
    index = next(
        i
        for i, c in enumerate(game.state["combat"]["combats"])
        if c["one"] == "a1.1" or "a1.1" in c["many"]
    )
    play(winner, {"type": "choose_combat", "combat": index})
    play("a", {"type": "roll"}, faces=[5, 1])  # A wins the Initiative
    while game.state["pending"] and game.state["pending"].get("roll"):
        play(sorted(waiting_for(game.state))[0], {"type": "keep"})
    play("b", {"type": "place_dice", "fighter": "b1.1", "attack": 0})
    play("a", {"type": "place_dice", "fighter": "a1.1", "attack": 2})
    play("a", {"type": "attack", "attacker": "a1.1", "target": "b1.1"})
    play("b", {"type": "parry", "dice": 0})
    play("a", {"type": "roll"}, faces=[6, 6])  # killed outright
    assert game.state["fighters"]["b1.1"]["eliminated"]
    assert game.state["combat"]["current"] is None  # the pick waits
    a = phones["a"]
    _open(a, live_server.url, OWNER, game)
    panel = a.locator("#game-panel")
    log = a.locator(".log").inner_text()
    assert "Freed: Bretteur 1." in log
    button = panel.get_by_role("button", name="Bretteur 1 pursues into Duelliste 2")
    assert button.count() == 1 and _height(button) >= 44
    shot(a, FOLDER, "pursuit-a")
    assert serious_accessibility_violations(a) == []
    settled(a, button.click)
    game.refresh_from_db()
    joined = [c for c in game.state["combat"]["combats"] if not c["done"]]
    assert len(joined) == 1 and "a1.1" in [joined[0]["one"], *joined[0]["many"]]
    assert "pursuit move brings it into contact" in a.locator(".log").inner_text()
    shot(a, FOLDER, "pursuit-recorded-a")
    assert GameEvent.objects.filter(game=game).exists()
