"""The combat panel on each phone (VII-C): the Initiative with its odds, the
placement of the combat dice in one tap, the attacks, the parries decided on
the defender's phone; and the refusals (the other side's tap, a stale tap,
too many dice, a second attack on the same target in one exchange)."""

from __future__ import annotations

import re

import pytest

from battles.models import GameEvent
from battles.presenters.game import build_panel
from battles.services import games as services
from rules.game import legal_actions, waiting_for
from tests.support.game_steps import act
from tests.support.melee_setup import one_against_two

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

CLIENTS = {"a": "owner_client", "b": "opponent_client"}
SEED = "melee-panel-1"


@pytest.fixture
def melee(game):
    """Anne's a1.1 against Bruno's b1.1 and b1.2, at the Initiative; the
    dice seeded the same at every run."""
    import hashlib

    game.dice_seed = SEED
    game.dice_seed_hash = hashlib.sha256(SEED.encode()).hexdigest()
    game.save(update_fields=["dice_seed", "dice_seed_hash"])
    return one_against_two(game)


def _phones(request):
    return {side: request.getfixturevalue(name) for side, name in CLIENTS.items()}


def _combat(game):
    game.refresh_from_db()
    combat = game.state["combat"]
    return combat["combats"][combat["current"]]


def _unchanged(game, tap):
    """``tap()`` answers 200 and changes nothing."""
    game.refresh_from_db()
    version, state = game.version, game.state
    events = GameEvent.objects.filter(game=game).count()
    response = tap()
    assert response.status_code == 200
    game.refresh_from_db()
    assert (game.version, game.state) == (version, state)
    assert GameEvent.objects.filter(game=game).count() == events
    return response.content.decode()


def _name_and_roll(game, phones):
    """B names its first fighter (A's lone one is named without a tap), then
    the Initiative roll."""
    assert _combat(game)["initiative_fighters"]["a"] == "a1.1"
    act(phones["b"], game, side="b", type="initiative", fighter="b1.1", tap="i-b")
    game.refresh_from_db()
    pending = game.state["pending"]
    assert pending["purpose"] == "initiative"
    while game.state["pending"] and game.state["pending"]["purpose"] == "initiative":
        pending = game.state["pending"]
        command = {"type": "keep"} if pending.get("roll") else {"type": "roll"}
        side = sorted(waiting_for(game.state))[0]
        services.perform_action(game, side, command)
        game.refresh_from_db()
    return _combat(game)["initiative"]


def _place(phone, game, side, attack_by_fighter, tap):
    data = {"side": side, "type": "place_dice", "tap": tap, "each": []}
    for fighter, attack in attack_by_fighter.items():
        data["each"].append(fighter)
        data[f"{fighter}:fighter"] = fighter
        data[f"{fighter}:attack"] = str(attack)
    return act(phone, game, **data)


def test_VII_C_2_each_phone_names_its_fighter_with_the_exact_odds(melee, request):
    phones = _phones(request)
    page_b = phones["b"].get(f"/games/{melee.public_id}/").content.decode()
    # Bruno has two fighters in the combat: each is offered, with its odds
    # against Anne's one fighter (INI against INI, II-A-3).
    assert page_b.count('name="type" value="initiative"') == 2
    assert re.search(r"\d+[.,]\d\s%", page_b)
    assert "Combat dice" in page_b or "combat dice" in page_b
    # Each fighter's combat dice (VII-C-1): 3 for the one, 2 for each of two.
    assert "3 combat dice" in page_b and "2 combat dice" in page_b
    winner = _name_and_roll(melee, phones)
    assert winner in ("a", "b")
    log = phones["a"].get(f"/games/{melee.public_id}/log").content.decode()
    assert "wins the Initiative" in log and ": by " in log


def test_a_phone_never_names_the_other_side_s_fighter(melee, request):
    phones = _phones(request)
    response = act(
        phones["a"], melee, side="b", type="initiative", fighter="b1.1", tap="x"
    )
    assert response.status_code == 403
    text = _unchanged(
        melee,
        lambda: act(
            phones["a"], melee, side="a", type="initiative", fighter="b1.1", tap="y"
        ),
    )
    assert "message-error" in text


def test_VII_C_1_the_loser_places_first_in_one_tap_then_the_winner_sees_it(
    melee, request
):
    phones = _phones(request)
    winner = _name_and_roll(melee, phones)
    loser = "b" if winner == "a" else "a"
    melee.refresh_from_db()
    if _combat(melee)["stage"] != "placing":
        pytest.skip("placement_order ruling changed")
    assert waiting_for(melee.state) == {loser}
    # The winner's phone waits, and offers no placement yet.
    page = phones[winner].get(f"/games/{melee.public_id}/").content.decode()
    assert 'value="place_dice"' not in page
    assert "Waiting for" in page
    mine = {"a": ["a1.1"], "b": ["b1.1", "b1.2"]}
    # One control per fighter, one confirming tap.
    page = phones[loser].get(f"/games/{melee.public_id}/").content.decode()
    for fighter in mine[loser]:
        assert f'name="{fighter}:attack"' in page
    assert page.count("Confirm this placement") == 1
    # More dice than it has: refused in words, nothing placed (not even the
    # other fighter's, placed in the same tap).
    too_many = dict.fromkeys(mine[loser], 1) | {mine[loser][-1]: 9}
    text = _unchanged(
        melee, lambda: _place(phones[loser], melee, loser, too_many, "p-bad")
    )
    assert "dice in attack" in text
    before = melee.version
    response = _place(phones[loser], melee, loser, dict.fromkeys(mine[loser], 1), "p1")
    assert response.status_code == 200
    melee.refresh_from_db()
    assert melee.version > before
    placed = _combat(melee)["dice"]
    assert all(placed[f]["attack"] == 1 for f in mine[loser])
    # One action: one undo reverts the whole placement.
    assert len({e.action for e in GameEvent.objects.filter(seq__gt=before)}) == 1
    phones[loser].post(
        f"/games/{melee.public_id}/undo",
        {"side": loser, "version": melee.version, "tap": "u1"},
        HTTP_HX_REQUEST="true",
    )
    assert all(_combat(melee)["dice"][f]["attack"] is None for f in mine[loser])
    _place(phones[loser], melee, loser, dict.fromkeys(mine[loser], 1), "p2")
    assert all(_combat(melee)["dice"][f]["attack"] == 1 for f in mine[loser])
    # The winner now places, seeing the loser's placement.
    page = phones[winner].get(f"/games/{melee.public_id}/").content.decode()
    assert re.search(r"1 attack · \d defence left", page)
    assert page.count("Confirm this placement") == 1


def _to_the_exchanges(melee, phones, *, all_in_attack=False):
    winner = _name_and_roll(melee, phones)
    loser = "b" if winner == "a" else "a"
    mine = {"a": {"a1.1": 3}, "b": {"b1.1": 2, "b1.2": 2}}
    for n, side in enumerate((loser, winner)):
        placing = mine[side] if all_in_attack else dict.fromkeys(mine[side], 1)
        _place(phones[side], melee, side, placing, f"p{n}")
    melee.refresh_from_db()
    assert _combat(melee)["stage"] == "fighting"
    return winner


def test_VII_C_4_the_defender_s_phone_decides_its_parry_with_the_odds(melee, request):
    phones = _phones(request)
    winner = _to_the_exchanges(melee, phones)
    defender = "b" if winner == "a" else "a"
    entry = next(e for e in legal_actions(melee.state, winner) if e["type"] == "attack")
    target = entry["choices"]["target"][0]
    page = phones[winner].get(f"/games/{melee.public_id}/").content.decode()
    assert 'value="attack"' in page and "(ATT " in page
    # The other phone sees whose attack it is, and no attack button.
    other = phones[defender].get(f"/games/{melee.public_id}/").content.decode()
    assert 'value="attack"' not in other
    act(
        phones[winner],
        melee,
        side=winner,
        type="attack",
        attacker=entry["attacker"],
        target=target,
        tap="att1",
    )
    melee.refresh_from_db()
    pending = melee.state["pending"]
    assert pending["purpose"] == "parry" and pending["side"] == defender
    page = phones[defender].get(f"/games/{melee.public_id}/").content.decode()
    assert "Take the blow (no die)" in page
    assert "Parry with 1 die" in page and re.search(r"\d+[.,]\d\s%", page)
    # The attacker cannot decide the defender's parry.
    assert (
        act(phones[winner], melee, side=defender, type="parry", dice="1").status_code
        == 403
    )
    text = _unchanged(
        melee,
        lambda: act(phones[winner], melee, side=winner, type="parry", dice="1"),
    )
    assert "message-error" in text
    act(phones[defender], melee, side=defender, type="parry", dice="1", tap="par1")
    melee.refresh_from_db()
    assert melee.state["pending"]["purpose"] == "attack"
    log = phones[defender].get(f"/games/{melee.public_id}/log").content.decode()
    assert "commits 1 defence die to the parry" in log
    assert "Odds that the blow does not land" in log


def test_a_stale_tap_changes_nothing(melee, request):
    phones = _phones(request)
    melee.refresh_from_db()
    old = melee.version
    act(phones["b"], melee, side="b", type="initiative", fighter="b1.1", tap="s1")
    text = _unchanged(
        melee,
        lambda: act(
            phones["b"],
            melee,
            side="b",
            type="initiative",
            fighter="b1.2",
            tap="s2",
            version=old,
        ),
    )
    assert "out of date" in text or "message-error" in text


def test_VII_C_3_a_fighter_attacks_each_opponent_once_an_exchange(melee, request):
    phones = _phones(request)
    winner = _to_the_exchanges(melee, phones, all_in_attack=True)
    attacker = {"a": "a1.1", "b": "b1.1"}[winner]
    target = {"a": "b1.1", "b": "a1.1"}[winner]
    act(
        phones[winner],
        melee,
        side=winner,
        type="attack",
        attacker=attacker,
        target=target,
        tap="first",
    )
    melee.refresh_from_db()
    # Nobody holds a defence die: the attack test, then maybe the wound roll.
    while melee.state["pending"]:
        pending = melee.state["pending"]
        command = {"type": "keep"} if pending.get("roll") else {"type": "roll"}
        services.perform_action(melee, sorted(waiting_for(melee.state))[0], command)
        melee.refresh_from_db()
    if melee.state["fighters"][target]["eliminated"]:
        pytest.skip("the target fell to the first blow")
    text = _unchanged(
        melee,
        lambda: act(
            phones[winner],
            melee,
            side=winner,
            type="attack",
            attacker=attacker,
            target=target,
            tap="second",
        ),
    )
    assert "message-error" in text
    assert "once an exchange" in text or "side" in text


def test_the_board_panel_of_a_spectator_shows_no_control(melee):
    panel = build_panel(melee.state, None)
    assert panel.kind == "watch"


def test_a_melee_s_dice_are_verified_and_counted_in_the_luck(melee, request):
    phones = _phones(request)
    _to_the_exchanges(melee, phones)
    for _ in range(60):
        melee.refresh_from_db()
        if melee.state["phase"] != "combat" or not waiting_for(melee.state):
            break
        side = sorted(waiting_for(melee.state))[0]
        entries = [
            e
            for e in legal_actions(melee.state, side)
            if e["type"] in ("attack", "parry", "roll", "keep", "choose_combat")
        ]
        if not entries:
            break
        entry = entries[0]
        command = {"type": entry["type"]}
        for field in ("attacker",):
            if field in entry:
                command[field] = entry[field]
        for field, values in entry.get("choices", {}).items():
            command[field] = values[-1] if field == "dice" else values[0]
        services.perform_action(melee, side, command)
    melee.refresh_from_db()
    checks = services.verify_dice(melee)
    assert len(checks) >= 3 and all(check.ok for check in checks)
    luck = services.game_summary(melee)["sides"]
    assert luck["a"]["tests"] + luck["b"]["tests"] >= 3


def test_several_commands_in_one_tap_only_for_a_placement(melee, request):
    phones = _phones(request)
    text = _unchanged(
        melee,
        lambda: act(
            phones["a"],
            melee,
            side="a",
            type="initiative",
            each=["x", "y"],
            **{"x:fighter": "a1.1", "y:fighter": "a1.1"},
        ),
    )
    assert "one at a time" in text


def test_placed_before_the_initiative_the_other_side_s_dice_stay_hidden(request):
    """House ruling "placement_order": "before_initiative": both sides place
    at once, neither sees the other's dice until both have placed."""
    from tests.support.live import guests_game

    game = guests_game(
        "owner-key",
        "opponent-key",
        turns=6,
        house_rulings={"placement_order": "before_initiative"},
    )
    game = one_against_two(game)
    phones = _phones(request)
    assert _combat(game)["stage"] == "placing"
    assert waiting_for(game.state) == {"a", "b"}
    _place(phones["a"], game, "a", {"a1.1": 2}, "pa")
    assert _combat(game)["dice"]["a1.1"]["attack"] == 2
    page_b = phones["b"].get(f"/games/{game.public_id}/").content.decode()
    assert "2 attack · 1 defence left" not in page_b
    assert "dice are placed (shown once both sides have placed)" in page_b
    log_b = phones["b"].get(f"/games/{game.public_id}/log").content.decode()
    assert "its dice: 2 in attack" not in log_b
    page_a = phones["a"].get(f"/games/{game.public_id}/").content.decode()
    assert "2 attack · 1 defence left" in page_a
    _place(phones["b"], game, "b", {"b1.1": 1, "b1.2": 1}, "pb")
    log_b = phones["b"].get(f"/games/{game.public_id}/log").content.decode()
    assert "its dice: 2 in attack" in log_b
    assert (
        "house ruling" in phones["a"].get(f"/games/{game.public_id}/").content.decode()
    )


def test_ambidextre_s_choice_is_offered_on_the_defender_s_phone(melee, request):
    """VII-C-4, Ambidextre (melee-sources §4, S11): the attack failed, the
    defender keeps its committed dice or swaps them for an attack."""
    phones = _phones(request)
    state = melee.state
    state["pending"] = {
        "kind": "choice",
        "purpose": "ambidextrous",
        "side": "b",
        "section": "VII-C-4",
        "options": ["keep", "swap"],
        "context": {"attacker": "a1.1", "target": "b1.1", "parry_dice": 1},
    }
    melee.state = state
    melee.save(update_fields=["state"])  # test set-up: the choice is pending
    page = phones["b"].get(f"/games/{melee.public_id}/").content.decode()
    assert "Swap for an attack" in page and "Keep the defence dice" in page
    other = phones["a"].get(f"/games/{melee.public_id}/").content.decode()
    assert "Swap for an attack" not in other


@pytest.fixture
def duellists(griffons, wolfen, make_card, request):
    """A's Bretteur (Enchaînement/1, Coup de maître/1) against two of B's
    Duellistes (Contre-attaque), cards of the library; at the Initiative."""
    from battles.models import Army, ArmyCard
    from battles.models.identity import Owner
    from battles.services.games import create_game
    from tests.support.live import seat

    bretteur = make_card(
        griffons, "Bretteur", abilities=("Enchaînement/1", "Coup de maître/1")
    )
    duelliste = make_card(wolfen, "Duelliste", abilities=("Contre-attaque",))
    armies = []
    for people, card, fighters in ((griffons, bretteur, 1), (wolfen, duelliste, 2)):
        army = Army.objects.create(name=card.name, people=people, points_limit=400)
        ArmyCard.objects.create(army=army, card=card, fighters=fighters, position=0)
        armies.append(army)
    owner = Owner(guest_key="owner-key")
    game = create_game(owner=owner, army_a=armies[0], army_b=armies[1])
    seat(game, Owner(guest_key="opponent-key"), "b")
    return one_against_two(game)


def test_the_card_s_melee_abilities_are_offered_where_the_rules_allow(
    duellists, request
):
    """Enchaînement/X at placement, Coup de maître/X with 2 attack dice,
    Contre-attaque with the parry (melee-sources.md §4)."""
    phones = _phones(request)
    game = duellists
    for side, fighter in (("a", "a1.1"), ("b", "b1.1")):
        act(phones[side], game, side=side, type="initiative", fighter=fighter)
    game.refresh_from_db()
    while game.state["pending"]:
        pending = game.state["pending"]
        command = {"type": "keep"} if pending.get("roll") else {"type": "roll"}
        services.perform_action(game, sorted(waiting_for(game.state))[0], command)
        game.refresh_from_db()
    winner = _combat(game)["initiative"]
    loser = "b" if winner == "a" else "a"
    placing = {"a": {"a1.1": 3}, "b": {"b1.1": 0, "b1.2": 0}}
    for side in (loser, winner):
        page = phones[side].get(f"/games/{game.public_id}/").content.decode()
        if side == "a":
            assert 'name="a1.1:sequence"' in page  # Enchaînement/1
        else:
            assert ":sequence" not in page
        _place(phones[side], game, side, placing[side], f"p-{side}")
    game.refresh_from_db()
    assert _combat(game)["stage"] == "fighting"
    assert waiting_for(game.state) == {"a"}  # B holds no attack die
    page = phones["a"].get(f"/games/{game.public_id}/").content.decode()
    assert 'name="master_strike"' in page  # 3 attack dice: Coup de maître
    act(phones["a"], game, side="a", type="attack", attacker="a1.1", target="b1.1")
    page = phones["b"].get(f"/games/{game.public_id}/").content.decode()
    assert 'name="counter"' in page and "Counter-attack with 1 die" in page
    # The counter-attack's odds follow counter_short: the ruling is named.
    assert (
        "House ruling: a defence that reaches the attack but not 2 more: the "
        "blow lands." in page
    )


def test_on_one_phone_a_secret_placement_waits_behind_a_hand_over(owner_client):
    """Placed before the Initiative (house ruling) on one phone passed
    between the players: side B's placement comes after a hand-over, and A's
    dice are not on B's screen."""
    from battles.models.identity import Owner
    from battles.services.games import create_game
    from tests.support.live import demo_armies

    army_a, army_b = demo_armies()
    game = create_game(
        owner=Owner(guest_key="owner-key"),
        army_a=army_a,
        army_b=army_b,
        mode="one_phone",
        house_rulings={"placement_order": "before_initiative"},
    )
    game = one_against_two(game)
    _place(owner_client, game, "a", {"a1.1": 2}, "pa")
    assert _combat(game)["dice"]["a1.1"]["attack"] == 2
    page = owner_client.get(f"/games/{game.public_id}/").content.decode()
    assert "Pass the phone to side B" in page
    assert "2 attack · 1 defence left" not in page
    assert "its dice: 2 in attack" not in page


def test_IX_a_certain_courage_test_is_logged_without_a_tap(game, request):
    """IX: COU 5 against PEUR 6 cannot fail (1d6 + 5 reaches 6): recorded
    without a roll, and the log says so."""
    from tests.support.game_steps import to_activation

    phones = _phones(request)
    game = to_activation(game)
    for side, command in (
        ("a", {"type": "draw", "action": "draw"}),
        ("a", {"type": "end_activation"}),
        ("b", {"type": "draw", "action": "draw"}),
    ):
        services.perform_action(game, side, command)
        game.refresh_from_db()
    act(
        phones["b"],
        game,
        side="b",
        type="declare",
        fighter="b1.1",
        action="charge",
        targets="a1.1",
    )
    game.refresh_from_db()
    assert not game.state["pending"]  # nothing to roll
    log = phones["a"].get(f"/games/{game.public_id}/log").content.decode()
    assert "the test cannot fail, no roll needed" in log


def test_VII_C_2_the_initiative_fighter_named_first_stays_secret(melee, request):
    """Like the Tactics fighter (IV-A-2): Bruno names B's second fighter
    first; Anne, who names second and would gain by knowing it, sees neither
    its name nor odds narrowed to it (panel, log, board), nor does a
    spectator, until both have named theirs."""
    from battles.presenters.log import log_lines

    phones = _phones(request)
    # A combat is one against many: the lone side's fighter is named by the
    # engine at once (no choice, nothing to hide). Side A is set back to "not
    # named yet", as a side with a choice would be, to see what B's first
    # naming shows the side naming second.
    melee.refresh_from_db()
    assert _combat(melee)["initiative_fighters"]["a"] == "a1.1"
    melee.state["combat"]["combats"][0]["initiative_fighters"]["a"] = None
    melee.save(update_fields=["state"])
    act(phones["b"], melee, side="b", type="initiative", fighter="b1.2", tap="i-b")
    melee.refresh_from_db()
    named = melee.state["fighters"]["b1.2"]["label"]
    page_a = phones["a"].get(f"/games/{melee.public_id}/").content.decode()
    # Odds against each of B's fighters, not only the one named.
    assert page_a.count("to win against") == 2
    assert f"names {named}" not in page_a
    log_a = phones["a"].get(f"/games/{melee.public_id}/log").content.decode()
    assert "has named its fighter for the Initiative" in log_a
    events = list(GameEvent.objects.filter(game=melee).order_by("seq").values())
    for viewer in (["a"], []):
        lines = [
            line.text
            for line in log_lines(events, viewer, now=melee.state)
            if "Initiative" in line.text
        ]
        assert lines and all(named not in text for text in lines)
    act(phones["a"], melee, side="a", type="initiative", fighter="a1.1", tap="i-a")
    log_a = phones["a"].get(f"/games/{melee.public_id}/log").content.decode()
    assert f"against {named} (side B)" in log_a
