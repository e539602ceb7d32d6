"""Issue 23's upkeep habits (IV-D): each side ticks its own fighters' lines,
markers included; both sides at once where IV-D's order allows; one tap
removes every marker of a side."""

from __future__ import annotations

import random

from rules.game import legal_actions, replay, waiting_for
from tests.support.game_bot import next_command
from tests.support.table import Table


def to_upkeep(table, stunned=()):
    """A quick turn (everybody draws and passes); ``stunned`` fighters carry
    a stunned marker into the upkeep."""
    table.to_activation()
    for fighter in stunned:
        table.state["fighters"][fighter]["stunned"] = True
    while table.state["phase"] == "activation":
        speaker = table.state["draw"]["speaker"]
        table.play(speaker, {"type": "draw", "action": "draw"})
        table.play(speaker, {"type": "end_activation"})
    rng = random.Random(1)
    while table.state["phase"] == "combat":
        table.play(*next_command(table.state, rng))
    assert table.state["phase"] == "upkeep"


def markers(table, side):
    return [
        i
        for i in table.state["upkeep"]["items"]
        if i["step"] == "markers" and i["side"] == side
    ]


def tick_until_markers(table):
    """Tick every line before the markers (each by its own side)."""
    for item in table.state["upkeep"]["items"]:
        if item["step"] == "markers":
            return
        if item["key"] not in table.state["upkeep"]["ticked"]:
            command = {"type": "tick_upkeep", "key": item["key"], "rallied": True}
            table.play(item["side"] or "a", command)


def test_IV_D_a_side_removes_its_own_markers_never_the_adversarys():
    table = Table()
    to_upkeep(table, stunned=["a1.1", "a2.1", "b1.1"])
    tick_until_markers(table)
    theirs = markers(table, "b")[0]
    table.refuses("a", {"type": "tick_upkeep", "key": theirs["key"]}, "Side B")
    keys = {
        e["choices"]["key"][0]
        for e in legal_actions(table.state, "a")
        if e["type"] == "tick_upkeep"
    }
    assert theirs["key"] not in keys


def test_IV_D_both_sides_tick_their_markers_at_once_and_in_one_tap_each():
    table = Table()
    to_upkeep(table, stunned=["a1.1", "a2.1", "a2.2", "b1.1", "b1.2"])
    tick_until_markers(table)
    assert waiting_for(table.state) == {"a", "b"}  # neither waits for the other
    mine, theirs = markers(table, "a"), markers(table, "b")
    assert len(mine) == 3 and len(theirs) == 2
    # B first, though A's markers come first in the list: one tap for both.
    table.play(
        "b", {"type": "tick_upkeep", "key": theirs[0]["key"], "all_markers": True}
    )
    assert table.state["fighters"]["b1.1"]["stunned"] is False
    assert table.state["fighters"]["b1.2"]["stunned"] is False
    assert table.state["fighters"]["a1.1"]["stunned"] is True
    assert waiting_for(table.state) == {"a"}
    turn = table.state["turn"]
    table.play("a", {"type": "tick_upkeep", "key": mine[0]["key"], "all_markers": True})
    assert table.state["turn"] == turn + 1  # the checklist done, the next turn
    assert table.state == replay(table.events)


def test_IV_D_an_earlier_step_still_holds_up_the_later_ones():
    table = Table()
    table.play("b", {"type": "set_routed", "fighter": "b1.1", "routed": True})
    to_upkeep(table, stunned=["a1.1"])
    items = table.state["upkeep"]["items"]
    assert items[0]["step"] == "rally" and items[0]["side"] == "b"
    marker = markers(table, "a")[0]
    table.refuses(
        "a", {"type": "tick_upkeep", "key": marker["key"], "all_markers": True}, "first"
    )
    assert waiting_for(table.state) == {"b"}
