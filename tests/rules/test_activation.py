"""Activation draws: reserve, refusals, the side left alone (IV-B-1)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.activation import DrawAction, DrawPhase, Play
from rules.errors import IllegalAction


def phase(a=("a1", "a2", "a3"), b=("b1", "b2", "b3"), first="a"):
    return DrawPhase({"a": list(a), "b": list(b)}, first)


# -- IV-B-1, the rules as written ----------------------------------------------


def test_IV_B_1_the_side_chosen_by_the_tactics_winner_speaks_first():
    assert phase(first="b").speaker == "b"
    assert phase(first="a").speaker == "a"


def test_IV_B_1_the_side_with_fewer_cards_gets_the_difference_as_refusals():
    draws = phase(a=["a1", "a2"], b=["b1", "b2", "b3", "b4", "b5"])
    assert draws.refusals == {"a": 3, "b": 0}


def test_IV_B_1_equal_sequences_give_no_refusal():
    assert phase().refusals == {"a": 0, "b": 0}


def test_IV_B_1_drawing_plays_the_top_card_and_passes_the_floor():
    draws = phase()
    assert draws.draw() == ["a1"]
    assert draws.speaker == "b"
    assert draws.remaining == {"a": ["a2", "a3"], "b": ["b1", "b2", "b3"]}


def test_IV_B_1_a_reserve_plays_no_card_and_passes_the_floor():
    draws = phase()
    assert draws.reserve() == []
    assert draws.reserved == {"a": "a1", "b": None}
    assert draws.remaining["a"] == ["a2", "a3"]
    assert draws.speaker == "b"


def test_IV_B_1_the_reserve_can_be_played_instead_of_the_top_card():
    draws = phase()
    draws.reserve()
    draws.draw()
    assert draws.play_reserve() == ["a1"]
    assert draws.reserved["a"] is None
    assert draws.remaining["a"] == ["a2", "a3"]


def test_IV_B_1_the_reserve_can_be_played_with_the_top_card():
    draws = phase()
    draws.reserve()
    draws.draw()
    assert draws.play_reserve(with_top=True) == ["a1", "a2"]
    assert draws.remaining["a"] == ["a3"]
    assert draws.speaker == "b"


def test_IV_B_1_a_side_with_a_reserve_may_still_draw_its_top_card():
    draws = phase()
    draws.reserve()
    draws.draw()
    assert draws.draw() == ["a2"]
    assert draws.reserved["a"] == "a1"


def test_IV_B_1_a_refusal_plays_nothing_and_gives_the_floor_back():
    draws = phase(a=["a1"], b=["b1", "b2"], first="a")
    assert draws.refuse() == []
    assert draws.refusals["a"] == 0
    assert draws.speaker == "b"
    assert draws.remaining["a"] == ["a1"]


def test_IV_B_1_remarque_1_the_side_left_alone_plays_on():
    draws = phase(a=["a1"], b=["b1", "b2", "b3"])
    draws.draw()
    draws.draw()
    assert draws.speaker == "b"
    assert draws.draw() == ["b2"]
    assert draws.speaker == "b"
    assert draws.draw() == ["b3"]
    assert draws.finished


def test_IV_B_1_remarque_1_a_reserve_counts_as_a_card_left():
    draws = phase(a=["a1"], b=["b1", "b2"])
    draws.reserve()
    draws.draw()
    assert draws.speaker == "a"
    assert draws.play_reserve() == ["a1"]


def test_IV_B_1_remarque_2_a_card_whose_fighters_were_eliminated_is_played():
    # The engine does not know fighters: the card is played like any other,
    # and the app simply finds nobody to activate.
    draws = phase(a=["wiped-out"], b=["b1"])
    assert draws.draw() == ["wiped-out"]


def test_initiation_draw_players_alternate_until_every_card_is_played():
    draws = phase(first="b")
    played = [draws.draw() for _ in range(6)]
    assert played == [["b1"], ["a1"], ["b2"], ["a2"], ["b3"], ["a3"]]
    assert draws.finished
    assert draws.speaker is None


# -- illegal actions -------------------------------------------------------------


def test_it_refuses_a_second_reserve():
    draws = phase()
    draws.reserve()
    draws.draw()
    draws.play_reserve()
    draws.draw()
    with pytest.raises(IllegalAction, match="already put a card in reserve"):
        draws.reserve()


def test_it_refuses_a_reserve_while_a_card_is_already_in_reserve():
    draws = phase()
    draws.reserve()
    draws.draw()
    with pytest.raises(IllegalAction, match="already put a card in reserve"):
        draws.reserve()


def test_it_refuses_a_refusal_when_none_is_left():
    draws = phase()
    with pytest.raises(IllegalAction, match="No refusal left."):
        draws.refuse()


def test_it_says_whose_turn_it_is():
    draws = phase(first="b")
    with pytest.raises(IllegalAction, match="It is side B's turn."):
        draws.draw(side="a")
    assert draws.draw(side="b") == ["b1"]


def test_it_refuses_playing_a_reserve_it_does_not_have():
    with pytest.raises(IllegalAction, match="no card in reserve"):
        phase().play_reserve()


def test_it_refuses_any_action_once_the_phase_is_over():
    draws = phase(a=["a1"], b=[])
    draws.draw()
    with pytest.raises(IllegalAction, match="over"):
        draws.draw()


def test_an_illegal_action_changes_nothing():
    draws = phase()
    before = draws.to_dict()
    for action in (draws.refuse, draws.play_reserve):
        with pytest.raises(IllegalAction):
            action()
    with pytest.raises(IllegalAction):
        draws.draw(side="b")
    assert draws.to_dict() == before


def test_it_rejects_sequences_for_unknown_sides():
    with pytest.raises(ValueError):
        DrawPhase({"a": ["a1"], "c": ["c1"]}, "a")
    with pytest.raises(ValueError):
        DrawPhase({"a": ["a1"], "b": ["b1"]}, "c")


# -- edge cases the rules leave open ---------------------------------------------


def test_a_side_may_reserve_its_last_card_and_plays_it_at_its_next_turn():
    draws = phase(a=["a1"], b=["b1", "b2"])
    draws.reserve()
    assert draws.remaining["a"] == []
    draws.draw()
    assert draws.legal_actions() == [DrawAction.PLAY_RESERVE, DrawAction.REFUSE]
    with pytest.raises(IllegalAction, match="play your card in reserve"):
        draws.draw()
    with pytest.raises(IllegalAction, match="alone"):
        draws.play_reserve(with_top=True)
    assert draws.play_reserve() == ["a1"]


def test_a_side_without_cards_at_the_start_never_has_the_floor():
    draws = phase(a=[], b=["b1", "b2"], first="a")
    assert draws.speaker == "b"
    assert draws.refusals == {"a": 2, "b": 0}
    draws.draw()
    assert draws.speaker == "b"


def test_two_empty_sequences_finish_the_phase_at_once():
    draws = phase(a=[], b=[])
    assert draws.finished
    assert draws.legal_actions() == []


def test_a_refusal_is_illegal_when_the_opponent_has_no_card_left():
    draws = phase(a=["a1", "a2"], b=["b1", "b2", "b3", "b4"], first="b")
    draws.draw()
    draws.draw()
    draws.draw()
    draws.draw()
    # a has no card left; b plays alone and cannot hand the floor to nobody.
    assert draws.speaker == "b"
    assert draws.refusals == {"a": 2, "b": 0}
    draws.draw()
    assert draws.speaker == "b"


def test_the_refusing_side_cannot_refuse_once_its_opponent_is_out_of_cards():
    draws = phase(a=["a1"], b=["b1", "b2", "b3"], first="b")
    draws.draw()  # b1
    draws.draw()  # a1: a keeps two refusals but has no card left
    assert draws.refusals["a"] == 2
    assert not draws.has_cards("a")
    assert draws.speaker == "b"


def test_a_refusal_is_refused_when_it_would_give_the_floor_back_to_oneself():
    draws = phase(a=["a1"], b=["b1", "b2", "b3"], first="b")
    draws.reserve()  # b: b1 in reserve
    draws.refuse()  # a: one refusal left
    draws.play_reserve(with_top=True)  # b: b1 and b2
    draws.reserve()  # a: a1 in reserve
    draws.draw()  # b: b3, b has no card left
    assert draws.speaker == "a"
    assert draws.refusals["a"] == 1
    with pytest.raises(IllegalAction, match="no card left"):
        draws.refuse()
    assert draws.legal_actions() == [DrawAction.PLAY_RESERVE]


def test_legal_actions_lists_what_the_speaker_may_do():
    draws = phase(a=["a1", "a2"], b=["b1", "b2", "b3"])
    assert draws.legal_actions() == [
        DrawAction.DRAW,
        DrawAction.RESERVE,
        DrawAction.REFUSE,
    ]


# -- event log and snapshot ------------------------------------------------------


def test_the_log_records_each_turn_of_speech():
    draws = phase(a=["a1", "a2"], b=["b1", "b2", "b3"])
    draws.reserve()
    draws.draw()
    draws.play_reserve(with_top=True)
    assert draws.played == [
        Play("a", DrawAction.RESERVE, ()),
        Play("b", DrawAction.DRAW, ("b1",)),
        Play("a", DrawAction.PLAY_RESERVE_AND_TOP, ("a1", "a2")),
    ]


def test_a_phase_replays_from_its_log_to_the_same_state():
    draws = phase(a=["a1", "a2"], b=["b1", "b2", "b3"])
    draws.refuse()
    draws.reserve()
    draws.draw()
    draws.draw()
    replay = phase(a=["a1", "a2"], b=["b1", "b2", "b3"])
    for play in draws.played:
        replay.apply(play.action, side=play.side)
    assert replay == draws


def test_apply_rejects_an_unknown_action_name():
    with pytest.raises(IllegalAction, match="Unknown"):
        phase().apply("shuffle")


def test_the_snapshot_is_json_and_round_trips():
    draws = phase(a=["a1", "a2"], b=["b1", "b2", "b3"])
    draws.refuse()
    draws.reserve()
    text = json.dumps(draws.to_dict())
    back = DrawPhase.from_dict(json.loads(text))
    assert back == draws
    assert back.to_dict() == draws.to_dict()
    assert back.played == draws.played


def test_from_dict_rejects_a_snapshot_that_does_not_hold_together():
    data = phase().to_dict()
    with pytest.raises(ValueError):
        DrawPhase.from_dict({**data, "version": 99})
    with pytest.raises(ValueError):
        DrawPhase.from_dict({**data, "refusals": {"a": -1, "b": 0}})
    with pytest.raises(ValueError):
        DrawPhase.from_dict({**data, "speaker": None})
    with pytest.raises(ValueError):
        DrawPhase.from_dict({**data, "speaker": "c"})


def test_changing_returned_state_does_not_change_the_phase():
    draws = phase()
    draws.remaining["a"].clear()
    draws.refusals["a"] = 5
    assert draws.remaining["a"] == ["a1", "a2", "a3"]
    assert draws.refusals["a"] == 0


# -- properties over any legal sequence of actions ------------------------------

ACTIONS = list(DrawAction)


@st.composite
def phases_and_choices(draw):
    n_a = draw(st.integers(0, 7))
    n_b = draw(st.integers(0, 7))
    first = draw(st.sampled_from(["a", "b"]))
    choices = draw(st.lists(st.integers(0, 100), max_size=60))
    attempts = draw(st.lists(st.sampled_from(ACTIONS), max_size=60))
    a = [f"a{i}" for i in range(n_a)]
    b = [f"b{i}" for i in range(n_b)]
    return a, b, first, choices, attempts


def run(draws, choices, attempts):
    """Play legal actions chosen by ``choices``; try ``attempts`` in between."""
    step = 0
    while not draws.finished:
        assert step <= 7 + 7 + 2 + 7, "the phase must finish"
        if step < len(attempts):
            attempt = attempts[step]
            if attempt not in draws.legal_actions():
                before = draws.to_dict()
                with pytest.raises(IllegalAction):
                    draws.apply(attempt)
                assert draws.to_dict() == before
        legal = draws.legal_actions()
        assert legal, "a side with the floor can always do something"
        choice = choices[step] if step < len(choices) else 0
        draws.apply(legal[choice % len(legal)])
        assert all(n >= 0 for n in draws.refusals.values())
        assert DrawPhase.from_dict(json.loads(json.dumps(draws.to_dict()))) == draws
        step += 1


@given(phases_and_choices())
def test_every_card_is_played_exactly_once_whatever_the_legal_actions(case):
    a, b, first, choices, attempts = case
    draws = DrawPhase({"a": a, "b": b}, first)
    run(draws, choices, attempts)
    played = [card for play in draws.played for card in play.cards]
    assert sorted(played) == sorted(a + b)
    assert len(played) == len(set(played))
    for play in draws.played:
        assert all(str(card).startswith(play.side) for card in play.cards)


@given(phases_and_choices())
def test_each_side_plays_its_pile_in_order(case):
    a, b, first, choices, attempts = case
    draws = DrawPhase({"a": a, "b": b}, first)
    run(draws, choices, attempts)
    for side, pile in (("a", a), ("b", b)):
        revealed = [
            card for play in draws.played if play.side == side for card in play.cards
        ]
        reserved = [
            p for p in draws.played if p.side == side and p.action is DrawAction.RESERVE
        ]
        # Apart from the one reserved card, cards come out in pile order.
        if reserved:
            held = next(
                c
                for p in draws.played
                if p.side == side
                and p.action
                in (DrawAction.PLAY_RESERVE, DrawAction.PLAY_RESERVE_AND_TOP)
                for c in p.cards[:1]
            )
            revealed.remove(held)
            pile = [c for c in pile if c != held]
        assert revealed == pile


@given(phases_and_choices())
def test_the_floor_alternates_while_both_sides_have_cards(case):
    a, b, first, choices, attempts = case
    draws = DrawPhase({"a": a, "b": b}, first)
    previous = None
    for step in range(40):
        if draws.finished:
            break
        both = draws.has_cards("a") and draws.has_cards("b")
        speaker = draws.speaker
        if previous is not None and both:
            assert speaker != previous
        legal = draws.legal_actions()
        choice = choices[step] if step < len(choices) else 0
        draws.apply(legal[choice % len(legal)])
        previous = speaker if draws.has_cards(speaker) else None
    assert draws.finished


@given(
    st.integers(0, 8),
    st.integers(0, 8),
    st.sampled_from(["a", "b"]),
)
def test_refusals_are_the_difference_in_cards_and_only_the_shorter_side_has_them(
    n_a, n_b, first
):
    draws = DrawPhase(
        {"a": [f"a{i}" for i in range(n_a)], "b": [f"b{i}" for i in range(n_b)]},
        first,
    )
    assert draws.refusals["a"] + draws.refusals["b"] == abs(n_a - n_b)
    assert min(draws.refusals.values()) == 0
