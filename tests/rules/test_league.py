"""rules.league on hand-worked examples: standings, tie-breakers, ratings, pairings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from rules.league import (
    GameResult,
    Scheme,
    rating_changes,
    ratings,
    round_robin,
    standings,
)


def r(a, b, outcome, score_a=0, score_b=0):
    return GameResult(a, b, outcome, score_a, score_b)


def table(rows):
    return [(row.rank, row.player, row.points) for row in rows]


# A 5-player round robin (10 games). A, B and C finish level on 4 points; the
# mini-league of those three (A beat B, B beat C, A drew C: A 4, B 3, C 1)
# orders them, although C has by far the best goal average.
FIVE_PLAYER_ROUND_ROBIN = [
    r("A", "B", "a"),
    r("B", "C", "a"),
    r("A", "C", "draw"),
    r("D", "A", "a"),
    r("E", "A", "a"),
    r("B", "D", "draw"),
    r("E", "B", "a"),
    r("C", "D", "a", 500, 0),
    r("E", "C", "a"),
    r("D", "E", "a"),
]


def test_a_three_way_tie_in_a_five_player_round_robin_is_broken_by_the_mini_league():
    rows = standings("ABCDE", FIVE_PLAYER_ROUND_ROBIN)
    assert table(rows) == [
        (1, "E", 9),
        (2, "D", 7),
        (3, "A", 4),
        (4, "B", 4),
        (5, "C", 4),
    ]
    by_player = {row.player: row for row in rows}
    assert [by_player[p].head_to_head for p in "ABC"] == [4, 3, 1]
    # C would have led the group on goal average: the mini-league came first.
    assert by_player["C"].goal_average == 500 > by_player["A"].goal_average
    assert all(row.played == 4 for row in rows)
    assert (by_player["B"].won, by_player["B"].drawn, by_player["B"].lost) == (
        1,
        1,
        2,
    )


# X beats Z by 200, Y beats W by 50: two groups level on points, nobody in a
# group having met.
TWO_WINS = [r("X", "Z", "a", 300, 100), r("Y", "W", "a", 200, 150)]


def test_the_mini_league_is_the_whole_group_level_on_points_wherever_it_stands():
    # X and Y level on 3 points; Z and W level on 0; nobody in a group met.
    rows = standings("XYZW", TWO_WINS)
    assert [row.head_to_head for row in rows] == [0, 0, 0, 0]


def test_players_level_on_points_and_mini_league_are_split_by_goal_average():
    rows = standings("XYZW", TWO_WINS)
    assert [(row.rank, row.player, row.goal_average) for row in rows] == [
        (1, "X", 200),
        (2, "Y", 50),
        (3, "W", -50),
        (4, "Z", -200),
    ]


def test_players_level_until_then_are_split_by_strength_of_schedule():
    results = [
        r("P", "Q", "a", 100, 0),
        r("R", "S", "a", 100, 0),
        r("Q", "T", "draw", 0, 0),
    ]
    rows = standings("PQRST", results)
    by_player = {row.player: row for row in rows}
    assert by_player["P"].strength_of_schedule == 1  # Q has 1 point
    assert by_player["R"].strength_of_schedule == 0  # S has none
    assert table(rows) == [
        (1, "P", 3),
        (2, "R", 3),
        (3, "T", 1),
        (4, "Q", 1),
        (5, "S", 0),
    ]


def test_score_for_breaks_a_tie_left_by_goal_average():
    rows = standings("KLMN", [r("K", "M", "a", 30, 10), r("L", "N", "a", 50, 30)])
    assert [row.player for row in rows[:2]] == ["L", "K"]
    assert rows[0].rank == 1 and rows[1].rank == 2


def test_players_level_on_every_criterion_share_a_rank_and_are_listed_by_name():
    rows = standings("EDCBA", [r("C", "D", "a", 10, 0), r("A", "B", "a", 10, 0)])
    assert [(row.rank, row.player, row.shared) for row in rows] == [
        (1, "A", True),
        (1, "C", True),
        (3, "E", False),  # no game: 0 points, but a goal average of 0 beats -10
        (4, "B", True),
        (4, "D", True),
    ]
    no_game = rows[2]
    assert (no_game.played, no_game.points, no_game.strength_of_schedule) == (0, 0, 0)


def test_the_tie_breakers_apply_in_the_season_s_order():
    results = [r("X", "Z", "a", 300, 100), r("Y", "W", "a", 200, 50)]
    # X +200 for 300; Y +150 for 200: goal average says X, nothing says Y.
    assert standings("XYZW", results)[0].player == "X"
    only_sos = Scheme(tiebreakers=("strength_of_schedule",))
    rows = standings("XYZW", results, only_sos)
    assert (rows[0].rank, rows[1].rank) == (1, 1)


def test_points_per_result_follow_the_scheme():
    rows = standings("AB", [r("A", "B", "a")], Scheme(win=2, draw=1, loss=1))
    assert [(row.player, row.points) for row in rows] == [("A", 2), ("B", 1)]


def test_the_graded_scale_tells_major_from_minor_results_by_the_margin():
    graded = Scheme(scale="graded", major_win=5, minor_win=4, minor_loss=1, margin=100)
    assert graded.points(r("A", "B", "a", 250, 100)) == (5, 0)
    assert graded.points(r("A", "B", "b", 120, 200)) == (1, 4)
    assert graded.points(r("A", "B", "draw", 100, 100)) == (1, 1)
    assert Scheme().points(r("A", "B", "a", 250, 100)) == (3, 0)


@pytest.mark.parametrize(
    "make",
    [
        lambda: r("A", "A", "a"),
        lambda: r("A", "B", "won"),
        lambda: r("A", "B", "a", -1, 0),
        lambda: Scheme(tiebreakers=("coin_toss",)),
        lambda: Scheme(scale="elo"),
    ],
)
def test_it_refuses_what_a_season_cannot_count(make):
    with pytest.raises(ValueError):
        make()


names = st.sampled_from(["A", "B", "C", "D", "E", "F"])
results_strategy = st.lists(
    st.tuples(names, names, st.sampled_from(["a", "b", "draw"]), st.integers(0, 400))
    .filter(lambda t: t[0] != t[1])
    .map(lambda t: r(t[0], t[1], t[2], t[3], 400 - t[3])),
    max_size=20,
)


@settings(max_examples=60, deadline=None)
@given(results_strategy)
def test_standings_are_ordered_by_points_and_every_game_is_counted(results):
    rows = standings("ABCDEF", results)
    assert len(rows) == 6
    assert [row.points for row in rows] == sorted(
        (row.points for row in rows), reverse=True
    )
    assert sum(row.played for row in rows) == 2 * len(results)
    assert sum(row.won for row in rows) == sum(row.lost for row in rows)
    assert rows[0].rank == 1
    for before, after in zip(rows, rows[1:], strict=False):
        assert after.rank >= before.rank
        if after.rank == before.rank:
            assert before.player < after.player


# --- ratings -----------------------------------------------------------------


def test_ratings_equal_openskill_s_own_plackett_luce_calculation():
    results = [
        r("A", "B", "a"),
        r("B", "C", "draw"),
        r("C", "A", "a"),
        r("A", "B", "b"),
    ]
    model = PlackettLuce()
    own = {name: model.rating(name=name) for name in "ABC"}
    for result in results:
        ranks = {"a": [1, 2], "b": [2, 1], "draw": [1, 1]}[result.outcome]
        [[a], [b]] = model.rate(
            [[own[result.player_a]], [own[result.player_b]]], ranks=ranks
        )
        own[result.player_a], own[result.player_b] = a, b
    rated = ratings(results)
    for name in "ABC":
        assert rated[name].mu == pytest.approx(own[name].mu, abs=1e-12)
        assert rated[name].sigma == pytest.approx(own[name].sigma, abs=1e-12)
        assert rated[name].ordinal == pytest.approx(own[name].ordinal(), abs=1e-12)


def test_a_first_rating_is_the_model_s_default_and_each_game_s_change_is_kept():
    changes = rating_changes([r("A", "B", "a")])
    default = PlackettLuce().rating()
    assert changes[0].before_a.mu == default.mu
    assert changes[0].before_b.sigma == default.sigma
    assert changes[0].after_a.mu > default.mu > changes[0].after_b.mu


def test_a_draw_between_equals_changes_no_mean_and_the_order_of_games_matters():
    drawn = ratings([r("A", "B", "draw")])
    assert drawn["A"].mu == pytest.approx(25.0)
    assert drawn["A"].sigma < 25 / 3
    one_way = ratings([r("A", "B", "a"), r("B", "C", "a")])
    other_way = ratings([r("B", "C", "a"), r("A", "B", "a")])
    assert one_way["A"].mu != other_way["A"].mu


# --- pairings ----------------------------------------------------------------


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 9])
def test_the_circle_method_pairs_everyone_with_everyone_once(count):
    players = [f"P{i}" for i in range(count)]
    rounds = round_robin(players)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    met = [frozenset(pair) for pairs in rounds for pair in pairs]
    assert len(met) == len(set(met)) == count * (count - 1) // 2
    for pairs in rounds:
        seated = [p for pair in pairs for p in pair]
        assert len(seated) == len(set(seated))
        assert len(seated) >= count - 1


def test_a_round_robin_refuses_a_player_listed_twice():
    with pytest.raises(ValueError):
        round_robin(["A", "A", "B"])
