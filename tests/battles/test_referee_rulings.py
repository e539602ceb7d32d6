"""The referee's leftovers in words: the exchange opener named on the line it
decides and on the game page (issue #31, "every ruling named where it acts")."""

from __future__ import annotations

import pytest

from battles.presenters.log import log_lines
from battles.presenters.rulings import rulings_in_force

pytestmark = pytest.mark.usefixtures("english")


def _lines(payload, rulings=None):
    state = {"fighters": {}, "sides": {"a": {"name": "A"}, "b": {"name": "B"}}}
    state |= {"turns": 6, "house_rulings": rulings or {}}
    events = [
        {"seq": 1, "action": 1, "kind": "game_started", "side": None},
        {"seq": 2, "action": 2, "kind": "combat_updated", "side": "a"},
    ]
    events[0]["payload"] = {"state": state}
    events[1]["payload"] = payload
    return log_lines(events, ["a"])


def test_the_exchange_line_names_its_opener_and_the_ruling_that_chose_it():
    payload = {"exchange": 2, "opener": "b", "house_ruling": "exchange_opener"}
    line = _lines(payload)[-1]
    assert "Exchange 2 begins: side B attacks first." in line.text
    assert (
        "house ruling: Which side opens each exchange after the first? the "
        "Initiative winner's side again" in line.text
    )
    chosen = {"exchange_opener": "alternation_goes_on"}
    payload["opener"] = "a"
    line = _lines(payload, chosen)[-1]
    assert "side A attacks first" in line.text
    assert "the alternation goes on" in line.text


def test_the_game_page_lists_the_exchange_opener_saying_the_sources_are_silent():
    rows = {r["name"]: r for r in rulings_in_force({"house_rulings": {}})}
    opener = rows["exchange_opener"]
    assert opener["default"] and opener["section"] == "VII-C-3"
    assert opener["default_word"] == "default chosen here: not found in the sources"
    assert opener["reason"].startswith("Not found in the sources")


def test_an_activation_a_failed_charge_ended_says_why():
    events = [
        {"seq": 1, "action": 1, "kind": "game_started", "side": None},
        {"seq": 2, "action": 2, "kind": "activation_ended", "side": "a"},
    ]
    state = {"fighters": {}, "sides": {"a": {"name": "A"}, "b": {"name": "B"}}}
    events[0]["payload"] = {"state": state | {"turns": 6, "house_rulings": {}}}
    events[1]["payload"] = {
        "active": None,
        "reason": "failed_charge",
        "side": "a",
        "fighter": "a1.1",
        "label": "Garde",
    }
    line = log_lines(events, ["a"])[-1]
    assert line.text.startswith(
        "Nothing left to do for side A: Garde's charge failed and its activation "
        "ends, so the activation ends by itself."
    )


def test_the_rounds_of_a_tied_opposed_roll_are_joined_with_a_french_semicolon():
    """II-A-3: a tie is rolled again; the log names each round, and in French
    the rounds are joined with " ; " (a space before the semicolon)."""
    from django.utils import translation

    events = [
        {"seq": 1, "action": 1, "kind": "game_started", "side": None},
        {"seq": 2, "action": 2, "kind": "roll_updated", "side": "a"},
    ]
    state = {"fighters": {}, "sides": {"a": {"name": "A"}, "b": {"name": "B"}}}
    events[0]["payload"] = {"state": state | {"turns": 6, "house_rulings": {}}}
    pending = {
        "kind": "opposed",
        "purpose": "initiative",
        "values": {"a": 3, "b": 3},
        "section": "VII-C-2",
    }
    events[1]["payload"] = {"pending": pending, "faces": [3, 3, 5, 2]}
    english = log_lines(events, ["a"])[-1].text
    assert "(a tie: rolled again); [5] for side A" in english.replace("⚅", "")
    with translation.override("fr"):
        french = log_lines(events, ["a"])[-1].text
    assert "(égalité : on relance) ; " in french
    assert "relance); " not in french


def test_a_six_kept_without_a_tap_says_why():
    events = [
        {"seq": 1, "action": 1, "kind": "game_started", "side": None},
        {"seq": 2, "action": 2, "kind": "roll_updated", "side": "a"},
    ]
    state = {"fighters": {}, "sides": {"a": {"name": "A"}, "b": {"name": "B"}}}
    events[0]["payload"] = {"state": state | {"turns": 6, "house_rulings": {}}}
    pending = {"kind": "test", "purpose": "attack", "section": "VII-C-4"}
    events[1]["payload"] = {
        "pending": pending,
        "faces": [],
        "reroll": False,
        "automatic": "attack_succeeds",
    }
    line = log_lines(events, ["a"])[-1]
    assert line.text.startswith("The six is kept without asking")
    assert "a reroll could only risk a failure" in line.text


def test_the_rallying_cry_stays_offered_while_the_side_waits_for_the_tactics_roll():
    """magic-faith-sources §5: "at the start of a strategic phase": a side
    that set its sequence and Tactics fighter first still sees its cry until
    the Tactics roll (not a bare waiting panel)."""
    from battles.presenters.game import build_panel
    from tests.support.melee import fighter_card
    from tests.support.table import Table

    herald = fighter_card("Héraut", 1, skills=["Cri de ralliement"], COU=4)
    wolfen = fighter_card("Wolfen", 1, PEUR=6, COU=None)
    game = {
        "turns": 2,
        "sides": {
            "a": {"name": "Anne", "cards": [herald]},
            "b": {"name": "Bruno", "cards": [wolfen]},
        },
    }
    table = Table(game, seed="cry")
    table.play("a", {"type": "set_sequence", "order": ["a1"]})
    table.play("a", {"type": "choose_tactics_fighter", "fighter": "a1.1"})
    panel = build_panel(table.state, "a")
    assert panel.kind == "strategic"
    assert [c["id"] for c in panel.data["cries"]] == ["a1.1"]
    assert panel.data["sequence_done"] and panel.data["fighter_done"]
    assert build_panel(table.state, "b").data["cries"] == []
