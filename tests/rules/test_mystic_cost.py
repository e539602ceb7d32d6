"""Issue 23: a spell's mana or a miracle's temporary faith is spent when it is
cast, with its test (X and XI are not among the seeds: the table's convention)."""

from __future__ import annotations

from tests.support.table import Table


def miracle(**fields):
    return {
        "type": "characteristic_test",
        "fighter": "a1.1",
        "characteristic": "FOI",
        "use": "miracle",
        "difficulty": 7,
        **fields,
    }


def test_a_miracle_spends_its_faith_when_called_and_nothing_when_refused():
    table = Table()
    assert table.state["fighters"]["a1.1"]["faith"] == 3
    table.refuses("a", miracle(cost=4), "not 4")
    assert table.state["fighters"]["a1.1"]["faith"] == 3
    table.refuses("a", miracle(cost=2, use="spell"), "not 2")  # no mana at all
    table.refuses("a", miracle(cost=1, use="other"), "Only a spell")
    table.refuses("a", miracle(cost=1, difficulty=99), "difficulty")
    assert table.state["fighters"]["a1.1"]["faith"] == 3
    table.play("a", miracle(cost=2))
    assert table.state["fighters"]["a1.1"]["faith"] == 1
    assert table.state["pending"]["context"]["use"] == "miracle"


def test_a_test_without_a_cost_spends_nothing():
    table = Table()
    table.play("a", miracle())
    assert table.state["fighters"]["a1.1"]["faith"] == 3
