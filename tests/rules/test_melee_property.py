"""Random combats, 1 against 1 up to 1 against 4, played to their end with
random legal commands (VII-C): every attack die is spent, nobody attacks the
same opponent twice in an exchange, the sides alternate, the dice add up."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from rules.game import legal_actions, waiting_for
from tests.support.melee import ANYTIME, fighter_card, melee_table, play_random

ABILITIES = [
    "Coup de maître/2",
    "Enchaînement/1",
    "Contre-attaque",
    "Ambidextre",
    "Furie guerrière",
    "Acharné",
]


def random_card(rng: random.Random, name: str, fighters: int = 1) -> dict:
    skills = rng.sample(ABILITIES, rng.randint(0, 2))
    return fighter_card(
        name,
        fighters,
        skills=skills,
        INI=rng.randint(1, 5),
        ATT=rng.randint(1, 6),
        DEF=rng.randint(1, 6),
        FOR=rng.randint(3, 8),
        RES=rng.randint(3, 8),
    )


def other(side: str) -> str:
    return "a" if side == "b" else "b"


def assert_alternation_was_forced(sides: list[str], winner: str) -> None:
    """The order is the alternation itself: each attack is the other side's
    turn unless that side has made its last attack of the exchange."""
    for i, side in enumerate(sides):
        expected = winner if i == 0 else ("a" if sides[i - 1] == "b" else "b")
        if side != expected:
            # The expected side attacks no more in this exchange.
            assert expected not in sides[i:], sides


@settings(max_examples=40, deadline=None)
@given(hs.integers(1, 4), hs.integers(0, 10**6), hs.booleans(), hs.booleans())
def test_random_combats_spend_every_die_in_alternating_exchanges(
    n, seed, lone_a, alternation
):
    rng = random.Random(seed)
    lone, crowd = ("a", "b") if lone_a else ("b", "a")
    cards = {lone: [random_card(rng, "Seul")], crowd: [random_card(rng, "Foule", n)]}
    one = f"{lone}1.1"
    many = [f"{crowd}1.{i}" for i in range(1, n + 1)]
    # Which side opens the later exchanges: the house ruling exchange_opener.
    rulings = {"exchange_opener": "alternation_goes_on"} if alternation else None
    table = melee_table(
        cards["a"], cards["b"], [[one, *many]], seed=f"p{seed}", rulings=rulings
    )
    start = len(table.events)
    combat = table.state["combat"]["combats"][0]
    assert combat["dice"][one]["total"] == 1 + n  # VII-C-1
    assert all(combat["dice"][f]["total"] == 2 for f in many)
    play_random(table, rng)
    events = table.events[start:]
    payloads = [e["payload"] for e in events]

    # The dice add up: attack + defence = total at placement.
    placed = {p["placed"]["fighter"]: p["placed"] for p in payloads if "placed" in p}
    assert set(placed) == {one, *many}
    for fighter, p in placed.items():
        base = 1 + (n if fighter == one else 1)
        assert p["attack"] + p["defence"] == p["total"]
        assert p["total"] == base + p["sequence"] + int(p["war_fury"])

    winner = next(
        p["initiative_won"]["side"] for p in payloads if "initiative_won" in p
    )
    attacks = [p["attack_declared"] for p in payloads if "attack_declared" in p]
    used = {f: 0 for f in placed}
    seen = set()
    for attack in attacks:
        # Nobody attacks the same opponent twice in one exchange (VII-C-3).
        key = (attack["exchange"], attack["attacker"], attack["target"])
        assert key not in seen, key
        seen.add(key)
        used[attack["attacker"]] += 2 if attack["master_strike"] else 1

    # The sides alternate, one attack each, the Initiative winner's side
    # first in each exchange (melee-sources §2.5 [read] S8: "The initiative
    # winner's side attacks first. Attacks then alternate between the
    # sides"); once a side has no attack left in the exchange, the other goes
    # on alone: B, A, B, A, A...
    by_exchange: dict[int, list[str]] = {}
    for attack in attacks:
        side = table.state["fighters"][attack["attacker"]]["side"]
        by_exchange.setdefault(attack["exchange"], []).append(side)
    last = None
    for _exchange, sides in sorted(by_exchange.items()):
        repeats = [i for i in range(1, len(sides)) if sides[i] == sides[i - 1]]
        if repeats:
            alone = sides[repeats[0]]
            assert all(s == alone for s in sides[repeats[0] :]), sides
        # The opener: the winner's side again (default), or, under
        # "alternation_goes_on", the side that did not attack last.
        opener = winner if last is None or not alternation else other(last)
        assert_alternation_was_forced(sides, opener)
        last = sides[-1]
    assert sorted(by_exchange) == list(range(1, len(by_exchange) + 1))

    # Every attack die is spent, unless its holder or all its opponents fell.
    fighters = table.state["fighters"]
    for fighter, p in placed.items():
        assert used[fighter] <= p["attack"]
        opponents = many if fighter == one else [one]
        if not fighters[fighter]["eliminated"] and any(
            not fighters[o]["eliminated"] for o in opponents
        ):
            assert used[fighter] == p["attack"], (fighter, used, placed)
    ended = [p["ended"] for p in payloads if "ended" in p]
    assert ended == [0] or table.state["phase"] == "finished"  # a side wiped out


@pytest.mark.parametrize("seed", [5, 11, 23, 42])
def test_legal_actions_are_accepted_all_through_a_random_combat(seed):
    """Each entry of legal_actions, with any of its choices, is accepted; a
    made-up command outside them is refused and changes nothing."""
    import copy

    from rules.dice import SeededDice
    from rules.errors import IllegalAction
    from rules.game import decide
    from rules.game.legal import is_listed
    from tests.support.legal_probe import made_up_command
    from tests.support.melee import random_command

    rng = random.Random(seed)
    n = 1 + seed % 3
    cards = [random_card(rng, "Seul")], [random_card(rng, "Foule", n)]
    many = [f"b1.{i}" for i in range(1, n + 1)]
    table = melee_table(*cards, [["a1.1", *many]])
    for _step in range(300):
        if table.state["phase"] != "combat" or table.state["combat"]["current"] is None:
            break
        for side in waiting_for(table.state):
            for entry in legal_actions(table.state, side):
                if entry["type"] in ANYTIME:
                    continue  # typed fields (the whole game's probe fills them)
                command = {k: v for k, v in entry.items() if k != "choices"}
                for field, allowed in entry.get("choices", {}).items():
                    command[field] = rng.choice(allowed)
                before = copy.deepcopy(table.state)
                decide(table.state, side, command, SeededDice(rng.randrange(10**9)))
                assert table.state == before
        for _made_up in range(4):
            side = rng.choice("ab")
            command = made_up_command(table.state, rng)
            if is_listed(table.state, side, command):
                continue
            before = copy.deepcopy(table.state)
            with pytest.raises(IllegalAction):
                decide(table.state, side, command, SeededDice(rng.randrange(10**9)))
            assert table.state == before, command
        side, command = random_command(table, rng)
        table.play(side, command)
