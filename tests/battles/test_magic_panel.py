"""Spells and miracles on the phones (issue #32): the mystic action lists the
spells the magician can pay for with their cost and exact odds; a cast with
an extra gem; the adversary asked whether to counter; a miracle called; the
log words them."""

from __future__ import annotations

import html

import pytest

from battles.models import GameEvent
from battles.services import games as services
from tests.support.game_steps import act
from tests.support.magic_setup import (
    GRIFFON_FAITHFUL,
    GRIFFON_MAGE,
    WOLFEN_MAGICIAN,
    perform,
    reserves,
    until_active,
    with_magic,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def magic_game(demo_armies, owner_client, opponent_client):
    from tests.support.live import guests_game

    with_magic()
    game = guests_game("owner-key", "opponent-key", turns=2)
    reserves(game)
    return game


def cast(client, game, side, fighter, spell, **fields):
    """The phone of ``side`` taps its magician's spell (the mystic action)."""
    return act(
        client, game, type="cast", side=side, fighter=fighter, spell=spell, **fields
    )


def call(client, game, fervour: str):
    """Side A's phone taps its Fidèle's Bénédiction at ``fervour``."""
    return act(
        client,
        game,
        type="call",
        side="a",
        fighter=GRIFFON_FAITHFUL,
        miracle="Bénédiction",
        fervour=fervour,
    )


def page(client, game) -> str:
    return html.unescape(client.get(f"/games/{game.public_id}/").content.decode())


def test_the_game_knows_the_armies_spells_and_miracles(magic_game):
    state = magic_game.state
    assert set(state["spells"]) == {"Boule de feu", "Aura de lumière", "Brume"}
    assert state["cards"]["a7"]["spells"] == ["Aura de lumière", "Boule de feu"]
    assert state["cards"]["a4"]["cults"] == ["Merin"]
    assert state["fighters"][GRIFFON_MAGE]["gems"]["fire"] == 3


def test_the_mystic_action_lists_the_spells_with_their_cost_and_odds(
    magic_game, owner_client
):
    game = until_active(magic_game, GRIFFON_MAGE)
    body = page(owner_client, game)
    assert "Boule de feu" in body and "2 fire · difficulty 7" in body
    # POU 3 against 7: a 4 or more on one die, 50 %; two dice, 75 %.
    assert "Cast: 50.0\u00a0%" in body
    assert "+1 gem (air): 75.0\u00a0%" in body  # any element: the most left


def test_a_cast_with_one_extra_gem_the_counter_asked_then_declined(
    magic_game, owner_client, opponent_client
):
    game = until_active(magic_game, GRIFFON_MAGE)
    response = cast(
        owner_client,
        game,
        "a",
        GRIFFON_MAGE,
        "Boule de feu",
        target="b1.1",
        **{"extra:fire": "1"},
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.state["fighters"][GRIFFON_MAGE]["gems"]["fire"] == 0
    assert game.state["pending"]["kind"] == "counter"
    theirs = page(opponent_client, game)
    assert "casts Boule de feu: counter it?" in theirs
    assert "Counter with Magicien: pay 2 water" in theirs
    act(
        opponent_client,
        game,
        type="counter",
        side="b",
        fighter=WOLFEN_MAGICIAN,
        pay="0",
    )
    game.refresh_from_db()
    assert game.state["pending"]["kind"] == "check"
    assert game.state["pending"]["dice"] == 2
    log = page(owner_client, game)
    assert "pays 2 fire and 1 fire for mastery (2 dice, the best kept)" in log


def test_a_countered_spell_spends_the_gems_and_does_nothing(
    magic_game, owner_client, opponent_client
):
    game = until_active(magic_game, GRIFFON_MAGE)
    cast(owner_client, game, "a", GRIFFON_MAGE, "Boule de feu")
    act(
        opponent_client,
        game,
        type="counter",
        side="b",
        fighter=WOLFEN_MAGICIAN,
        pay="1",
    )
    game.refresh_from_db()
    assert game.state["pending"] is None
    assert game.state["fighters"][WOLFEN_MAGICIAN]["gems"]["water"] == 0
    assert game.state["fighters"][GRIFFON_MAGE]["gems"]["fire"] == 1
    assert "counters Boule de feu of Guerrier-mage: pays 2 water; no effect." in page(
        opponent_client, game
    )


def test_a_faithful_calls_a_miracle_with_the_fervour_he_taps(magic_game, owner_client):
    game = until_active(magic_game, GRIFFON_FAITHFUL)
    body = page(owner_client, game)
    assert "Bénédiction" in body and "Fervour 1 (diff. 5)" in body
    call(owner_client, game, "2")
    game.refresh_from_db()
    assert game.state["fighters"][GRIFFON_FAITHFUL]["faith"] == 2
    assert game.state["pending"]["difficulty"] == 6
    assert "calls Bénédiction with fervour 2" in page(owner_client, game)


def test_the_reserve_of_gems_is_entered_on_the_phone(magic_game, owner_client):
    game = until_active(magic_game, GRIFFON_MAGE)
    act(
        owner_client,
        game,
        type="set_mystic",
        side="a",
        fighter=GRIFFON_MAGE,
        **{"gems:fire": "4", "gems:earth": "1", "gems:air": ""},
    )
    game.refresh_from_db()
    gems = {k: v for k, v in game.state["fighters"][GRIFFON_MAGE]["gems"].items() if v}
    assert gems == {"fire": 4, "earth": 1}
    perform(game, "a", {"type": "end_activation"})


def test_the_upkeep_recovers_gems_of_the_elements_he_was_given(
    magic_game, owner_client
):
    """IV-D-2: new temporary faith, then the mana recovered, in gems."""
    from tests.support.magic_setup import to_upkeep

    game = until_active(magic_game, GRIFFON_MAGE)
    cast(owner_client, game, "a", GRIFFON_MAGE, "Aura de lumière")
    opponent = {"type": "counter", "fighter": WOLFEN_MAGICIAN, "pay": False}
    perform(game, "b", opponent)
    perform(game, "a", {"type": "roll"})
    while game.state["pending"]:  # a six showing: kept
        perform(game, "a", {"type": "keep"})
    game = to_upkeep(game)
    for item in game.state["upkeep"]["items"]:
        if item["step"] == "faith" and item["side"] == "a":
            perform(game, "a", {"type": "tick_upkeep", "key": item["key"]})
    body = page(owner_client, game)
    assert "+ fire" in body and "At most 5 gems (house ruling HR-M1)." in body
    key = next(
        i["key"] for i in game.state["upkeep"]["items"] if i["fighter"] == GRIFFON_MAGE
    )
    act(
        owner_client, game, type="tick_upkeep", side="a", key=key, **{"gems:light": "1"}
    )
    game.refresh_from_db()
    assert game.state["fighters"][GRIFFON_MAGE]["gems"]["light"] == 1
    body = page(owner_client, game)
    assert "Gems 1 air, 2 fire → 1 light, 1 air, 2 fire." in body, [
        line for line in body.splitlines() if "Gems" in line or "gems" in line
    ]


def test_the_fighters_list_shows_a_magician_s_gems(magic_game, opponent_client):
    body = page(opponent_client, magic_game)
    assert "Gems: 1 light, 1 air, 3 fire" in body
    assert "Gems: 1 darkness, 2 water" in body


def test_the_game_page_lists_the_rulings_and_conventions_of_magic(
    magic_game, owner_client
):
    body = page(owner_client, magic_game)
    assert "Are a spell's gems lost when its power test fails?" in body
    assert "Also left open by the sources, and played one way only:" in body
    assert "What is rolled to call a miracle?" in body


def test_a_spell_the_dice_cannot_miss_passes_without_a_roll_on_both_phones(
    magic_game, owner_client, opponent_client
):
    """POU 4 against Brume's 5: a '1' gives 5 (II-A-1, the ``natural_one``
    ruling's default). Its effect follows a pass (§3.7): once the counter is
    declined, it is passed, with no Roll asked, and its line names the
    ruling that made it certain."""
    game = until_active(magic_game, WOLFEN_MAGICIAN)
    response = cast(opponent_client, game, "b", WOLFEN_MAGICIAN, "Brume")
    assert response.status_code == 200
    game.refresh_from_db()
    # The Griffons' mage holds fire, water's opposed element: he is asked
    # first, and lets it be.
    assert game.state["pending"]["kind"] == "counter"
    answer = act(
        owner_client, game, type="counter", side="a", fighter=GRIFFON_MAGE, pay="0"
    )
    assert answer.status_code == 200
    game.refresh_from_db()
    assert game.state["pending"] is None
    certain = GameEvent.objects.get(game=game, kind="test_certain")
    assert certain.payload["context"]["cast"]["spell"] == "Brume"
    assert not GameEvent.objects.filter(
        game=game, kind="dice_drawn", action__gte=certain.action
    ).exists()
    line = "4 against 5 cannot fail (its lowest final result is 5): passed, no roll"
    ruling = "house ruling: Does a natural 1 fail a power or faith test?"
    for client in (owner_client, opponent_client):
        body = page(client, game)
        assert line in body and ruling in body
    caster = page(opponent_client, game)
    assert 'name="type" value="roll"' not in caster
    assert game.state["casts"][WOLFEN_MAGICIAN]["Brume"] == 1
    # A Roll sent all the same (a stale tap, a forged form): refused with its
    # message, nothing saved.
    version = game.version
    stale = act(opponent_client, game, type="roll", side="b")
    assert stale.status_code == 200  # the panel again, the message in it
    assert "There is no roll to make now." in html.unescape(stale.content.decode())
    game.refresh_from_db()
    assert game.version == version
    assert services.replayed_state(game) == game.state


def test_a_miracle_the_dice_cannot_miss_passes_without_a_roll(magic_game, owner_client):
    """FOI 4 against "x + 4" with a fervour of 1 (HR-F2's default test)."""
    game = until_active(magic_game, GRIFFON_FAITHFUL)
    response = call(owner_client, game, "1")
    body = html.unescape(response.content.decode())
    assert "4 against 5 cannot fail" in body
    assert 'name="type" value="roll"' not in body
    game.refresh_from_db()
    assert game.state["pending"] is None
    assert game.state["fighters"][GRIFFON_FAITHFUL]["faith"] == 3
