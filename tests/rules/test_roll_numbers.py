"""A face shown is spent (issue 30, DESIGN "Dice"), in the rules alone.

A log played with the game's own seeding (``roll_seed`` of the roll number
``rules.game.roll_numbers`` gives) and undone the way the app undoes (the
state before the action, with ``taken_back``): whatever the sequence of rolls
and undos, no roll number serves two different rolls, the very roll an undo
took back gets its faces again, and ``replay`` gives the state step by step.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as hs

from rules.dice import SeededDice, roll_seed
from rules.game import decide_and_fold, new_game_event, replay, undo_target
from rules.game.roll_numbers import roll_key, roll_number, taken_back
from rules.verify import check_rolls
from tests.support.table import setup

SECRET = "spent-faces-secret"
LABELS = ("Boule de feu", "Rocher", "Flèche")


class SeededTable:
    """A game kept as the app keeps it: events, the state, a snapshot before
    each action, the app's dice."""

    def __init__(self):
        self.events = [dict(new_game_event(setup()), seq=1, action=1)]
        self.state = replay(self.events)
        self.before: dict[int, dict] = {}

    def scatter(self, side: str, label: str) -> dict:
        command = {"type": "scatter", "label": label}
        number = roll_number(self.state, side, command)
        dice = SeededDice(roll_seed(SECRET, number))
        events, new_state = decide_and_fold(self.state, side, command, dice)
        action = len(self.events) + 1
        self.before[action] = self.state
        for offset, event in enumerate(events):
            event.update(seq=action + offset, action=action)
            self.events.append(event)
        self.state = new_state
        return next(e for e in events if e["kind"] == "dice_drawn")["payload"]

    def undo(self, side: str) -> None:
        target = undo_target(self.events, side)
        seq = len(self.events) + 1
        self.events.append(
            {
                "seq": seq,
                "action": seq,
                "kind": "undone",
                "side": side,
                "payload": {"action": target},
            }
        )
        draws = [
            e["payload"]
            for e in self.events
            if e["action"] == target and e["kind"] == "dice_drawn"
        ]
        self.state = taken_back(self.state, self.before[target], draws)


def test_the_issue_s_case_an_undone_scatter_s_faces_go_to_no_other_roll():
    table = SeededTable()
    shown = table.scatter("a", "Boule de feu")
    table.undo("a")
    other = table.scatter("a", "Rocher")  # another roll: a fresh number
    assert other["roll"] == shown["roll"] + 1
    assert other["key"] != shown["key"]
    table.undo("a")
    again = table.scatter("a", "Boule de feu")  # the same roll: its faces
    assert again == shown


step = hs.one_of(
    hs.tuples(hs.just("roll"), hs.sampled_from("ab"), hs.sampled_from(LABELS)),
    hs.tuples(hs.just("undo"), hs.just(""), hs.just("")),
)


@settings(max_examples=200, deadline=None)
@given(hs.lists(step, min_size=1, max_size=20))
def test_no_face_shown_before_an_undo_reaches_a_different_roll_after_it(steps):
    table = SeededTable()
    sides: list[str] = []  # whose actions are left, in order
    for kind, side, label in steps:
        if kind == "roll":
            drawn = table.scatter(side, label)
            assert drawn["key"] == roll_key(
                table.before[max(table.before)],
                side,
                {
                    "type": "scatter",
                    "label": label,
                },
            )
            sides.append(side)
        elif sides:
            table.undo(sides.pop())
        assert replay(table.events) == table.state
    numbers: dict[int, str] = {}
    for event in table.events:
        if event["kind"] == "dice_drawn":
            key = event["payload"]["key"]
            assert numbers.setdefault(event["payload"]["roll"], key) == key
    # Every face recomputes from the seed (what /verify and verify_game do).
    logged = [
        {**e, "dice": e["payload"]["faces"], "dice_source": "seeded"}
        for e in table.events
        if e["kind"] == "dice_drawn"
    ]
    assert all(check.ok for check in check_rolls(logged, SECRET))
