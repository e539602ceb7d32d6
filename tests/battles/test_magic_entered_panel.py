"""What the card does not give, on the phone (issue #32): a spell whose cost
was not understood asks its gems for the cast (never free); a magician who
knows no spell names it and enters gems and difficulty; the mystic action
offered again says it is cumulative (IV-B-2); a warrior-mage is offered his
spells on the combat panel."""

from __future__ import annotations

import html
from types import SimpleNamespace

import pytest

from battles.models import Spell
from tests.support.game_steps import act
from tests.support.magic_setup import (
    GRIFFON_MAGE,
    perform,
    reserves,
    until_active,
    with_magic,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def page(client, game) -> str:
    return html.unescape(client.get(f"/games/{game.public_id}/").content.decode())


def new_game():
    from tests.support.live import guests_game

    game = guests_game("owner-key", "opponent-key", turns=2)
    reserves(game)
    return game


def gems(game):
    game.refresh_from_db()
    found = game.state["fighters"][GRIFFON_MAGE]["gems"]
    return {k: v for k, v in found.items() if v}


def test_a_spell_of_unknown_cost_asks_its_gems_for_the_cast(
    demo_armies, owner_client, opponent_client
):
    with_magic()
    Spell.objects.filter(name="Boule de feu").update(cost={}, cost_text="X Fuoco")
    game = until_active(new_game(), GRIFFON_MAGE)
    body = page(owner_client, game)
    assert "Cost not understood (printed: X Fuoco)" in body
    assert 'name="cost:fire"' in body
    before = gems(game)
    response = act(
        owner_client, game, type="cast", side="a", fighter=GRIFFON_MAGE,
        spell="Boule de feu",
    )  # fmt: skip
    text = html.unescape(response.content.decode())
    assert "The cost of Boule de feu is unknown (printed: X Fuoco)" in text
    assert gems(game) == before
    act(
        owner_client, game, type="cast", side="a", fighter=GRIFFON_MAGE,
        spell="Boule de feu", **{"cost:fire": "2"},
    )  # fmt: skip
    assert gems(game) == {"fire": 1, "light": 1, "air": 1}


def test_a_magician_with_no_known_spell_enters_gems_and_difficulty(
    demo_armies, owner_client, opponent_client
):
    with_magic()
    griffons = demo_armies[0]
    griffons.cards.get(card__name="Guerrier-mage").spells.clear()
    game = until_active(new_game(), GRIFFON_MAGE)
    response = act(
        owner_client, game, type="declare", side="a", fighter=GRIFFON_MAGE,
        action="mystic",
    )  # fmt: skip
    answer = html.unescape(response.content.decode())
    # The spell form, not the test tool's single mana number, casts.
    assert "No spell known: name the spell, enter its gems" in answer
    assert 'name="cost"' not in answer
    body = page(owner_client, game)
    assert "No spell known: name the spell, enter its gems" in body
    assert "Boule de feu" not in body.split("No spell known")[1][:2000]
    act(
        owner_client, game, type="cast", side="a", fighter=GRIFFON_MAGE,
        spell="Éclair", difficulty="6", **{"cost:fire": "1", "cost:air": "1"},
    )  # fmt: skip
    game.refresh_from_db()
    assert gems(game) == {"fire": 2, "light": 1}
    assert game.state["pending"] is not None  # counter asked or power test


def test_the_mystic_action_offered_again_says_it_is_cumulative(
    demo_armies, owner_client, opponent_client
):
    with_magic()
    game = until_active(new_game(), GRIFFON_MAGE)
    perform(game, "a", {"type": "declare", "fighter": GRIFFON_MAGE, "action": "mystic"})
    body = page(owner_client, game)
    assert "Another mystic action (cumulative, IV-B-2)" in body
    assert "Another mystic action may follow (IV-B-2" in body


def _combat_state_with_the_floor_to_a():
    """Side A's Magicien, a Guerrier-mage, in a combat with the floor to A."""
    from battles.presenters.game.combat import panel
    from battles.presenters.game.floor import Offers
    from rules.game import waiting_for
    from tests.rules.test_magic_game import magic_setup
    from tests.support.magic_table import magic_table_from_setup

    game = magic_setup()
    game["sides"]["a"]["cards"][0]["skills"] = ["Guerrier-mage"]
    game["sides"]["b"]["cards"][0]["gems"] = {}
    table = magic_table_from_setup(game)
    table.play(
        "a", {"type": "set_contact", "one": "a1.1", "two": "b2.1", "contact": True}
    )
    from rules.game import legal_actions

    for _step in range(20):
        if table.state["phase"] != "activation":
            break
        side = sorted(waiting_for(table.state))[0]
        kinds = {e["type"] for e in legal_actions(table.state, side)}
        if "end_activation" in kinds:
            table.play(side, {"type": "end_activation"})
        else:
            table.play(side, {"type": "draw", "action": "draw"})
    table.play("a", {"type": "form_combats", "combats": "suggested"})
    state = table.state
    # The Initiative waits on both sides: nobody casts now.
    assert panel(state, "a", Offers(state, "a")).data.get("casters", []) == []
    for _step in range(10):  # to a moment side A has the floor, nothing pending
        state = table.state
        if waiting_for(state) == {"a"} and not state["pending"]:
            break
        side = sorted(waiting_for(state))[0]
        entry = next(
            e
            for e in legal_actions(state, side)
            if e["type"] in ("initiative", "roll", "place_dice", "keep")
        )
        command = {k: v for k, v in entry.items() if k != "choices"}
        command.update({f: v[0] for f, v in entry.get("choices", {}).items()})
        if command["type"] == "place_dice":
            command["attack"] = 1
        table.play(side, command)
    state = table.state
    assert waiting_for(state) == {"a"} and not state["pending"]
    return state


def test_a_warrior_mage_is_offered_his_spells_on_the_combat_panel():
    from battles.presenters.game.combat import panel
    from battles.presenters.game.floor import Offers

    state = _combat_state_with_the_floor_to_a()
    seen = panel(state, "a", Offers(state, "a"))
    casters = seen.data["casters"]
    assert [c["id"] for c in casters] == ["a1.1"]
    names = [s["name"] for s in casters[0]["mystic"]["spells"]]
    assert names == ["Boule de feu", "Aura de lumière"]
    # The other side, not waited on, is offered nothing.
    other = panel(state, "b", Offers(state, "b"))
    assert other.data.get("casters", []) == []


def test_the_combat_panel_shows_the_warrior_mage_s_spell_forms():
    from django.template.loader import render_to_string

    from battles.presenters.game.combat import panel
    from battles.presenters.game.floor import Offers

    state = _combat_state_with_the_floor_to_a()
    seen = panel(state, "a", Offers(state, "a"))
    body = html.unescape(
        render_to_string(
            "battles/games/panels/combat_casters.html",
            {
                "panel": seen,
                "act_url": "/act",
                "tap": "k",
                "side": "a",
                "game": SimpleNamespace(version=7),
            },
        )
    )
    assert "A warrior-mage casts, a warrior-monk calls" in body
    assert 'name="spell" value="Boule de feu"' in body
    assert 'name="type" value="cast"' in body
