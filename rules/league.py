"""A club's season: points per result, standings with tie-breakers, ratings.

Pure Python (no Django, no I/O). The public names are those of
``RULES_API.md`` ("League"): ``GameResult``, ``Scheme``, ``standings`` with
its ``Standing`` rows, and ``ratings`` with its ``Rating`` values. Also here:
the graded points scale (an extension of ``Scheme``), ``round_robin`` (the
circle method) and ``rating_changes`` (each game's change, for the pages).

The tie-breakers are the community's, in the season's order:

- ``head_to_head`` ("confrontation directe"): the points each player of a
  group level on points earned in the games between players of that group
  only, a mini-league computed once for the whole group;
- ``goal_average``: score for minus score against over all the player's games;
- ``score_for``: the total scored;
- ``strength_of_schedule``: the sum, over the player's games, of that game's
  opponent's points in the standings;
- ``extended_strength_of_schedule``: the sum, over the player's games, of that
  game's opponent's ``strength_of_schedule`` (RULES_API.md "Tournament").

A Swiss event (RULES_API.md "Tournament") also counts byes (a game played
and won, ``Scheme.bye`` points, ``Scheme.bye_score`` scored, no opponent) and
bonus or penalty points (``adjustments``), and ranks by ``SWISS_TIEBREAKERS``.

Every criterion ranks the higher value first; players level on every
criterion share a rank (``1, 2, 2, 4``) and are listed by name.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx
from openskill.models import PlackettLuce

OUTCOMES = ("a", "b", "draw")
TIEBREAKERS = ("head_to_head", "goal_average", "score_for", "strength_of_schedule")
# The Swiss order of tie-breakers (after points), as Best Coast Pairings and
# Longshanks rank an event: strength of schedule, then extended strength of
# schedule, then goal average.
SWISS_TIEBREAKERS = (
    "strength_of_schedule",
    "extended_strength_of_schedule",
    "goal_average",
)
# Every tie-breaker a scheme may name (``TIEBREAKERS`` is a season's default).
ALL_TIEBREAKERS = (*TIEBREAKERS, "extended_strength_of_schedule")
SCALES = ("win_draw_loss", "graded")


@dataclass(frozen=True)
class GameResult:
    """One game of the season: who played, who won (or ``"draw"``), the scores.

    A score is what that player scored in the game (army points destroyed,
    or scenario points, as the season says).
    """

    player_a: str
    player_b: str
    outcome: str
    score_a: int = 0
    score_b: int = 0

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"The outcome is one of {OUTCOMES}, not {self.outcome!r}.")
        if self.player_a == self.player_b:
            raise ValueError("A player cannot play against themselves.")
        for score in (self.score_a, self.score_b):
            if isinstance(score, bool) or not isinstance(score, int):
                raise ValueError("A score is a whole number.")
            if score < 0:
                raise ValueError("A score is never below 0.")


@dataclass(frozen=True)
class Scheme:
    """Points per result and the tie-breakers, in order.

    The default is win/draw/loss = 3/1/0. With ``scale="graded"`` (the
    community's graded scale) a win or a loss is *major* when the scores
    differ by ``margin`` or more, *minor* otherwise, and earns
    ``major_win``/``minor_win``/``minor_loss``/``major_loss``; a draw earns
    ``draw`` either way.

    In a Swiss event a bye earns ``bye`` points (default: a win's 3, as Best
    Coast Pairings and Longshanks score it) and ``bye_score`` scored.
    """

    win: int = 3
    draw: int = 1
    loss: int = 0
    tiebreakers: tuple[str, ...] = TIEBREAKERS
    scale: str = "win_draw_loss"
    major_win: int = 5
    minor_win: int = 4
    minor_loss: int = 1
    major_loss: int = 0
    margin: int = 100
    bye: int = 3
    bye_score: int = 0

    def __post_init__(self) -> None:
        unknown = [name for name in self.tiebreakers if name not in ALL_TIEBREAKERS]
        if unknown:
            raise ValueError(f"Unknown tie-breaker(s): {', '.join(unknown)}.")
        if len(set(self.tiebreakers)) != len(self.tiebreakers):
            raise ValueError("A tie-breaker is listed once.")
        if self.scale not in SCALES:
            raise ValueError(f"The points scale is one of {SCALES}.")
        if self.margin < 1:
            raise ValueError("The margin of a major result is at least 1.")
        for value in (self.bye, self.bye_score):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(
                    "A bye's points and score are whole numbers, 0 or more."
                )

    def points(self, result: GameResult) -> tuple[int, int]:
        """The points ``(player_a, player_b)`` earn for ``result``."""
        if result.outcome == "draw":
            return self.draw, self.draw
        if self.scale == "graded":
            major = abs(result.score_a - result.score_b) >= self.margin
            won = self.major_win if major else self.minor_win
            lost = self.major_loss if major else self.minor_loss
        else:
            won, lost = self.win, self.loss
        return (won, lost) if result.outcome == "a" else (lost, won)


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    rank: int
    player: str
    played: int
    won: int
    drawn: int
    lost: int
    points: int
    score_for: int
    score_against: int
    goal_average: int
    strength_of_schedule: int
    head_to_head: int = 0
    shared: bool = False
    extended_strength_of_schedule: int = 0


@dataclass
class _Line:
    player: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int = 0
    score_for: int = 0
    score_against: int = 0
    opponents: list[str] = field(default_factory=list)
    head_to_head: int = 0
    strength_of_schedule: int = 0
    extended_strength_of_schedule: int = 0


def _key(line: _Line, tiebreakers: Sequence[str]) -> tuple[int, ...]:
    values = {
        "head_to_head": line.head_to_head,
        "goal_average": line.score_for - line.score_against,
        "score_for": line.score_for,
        "strength_of_schedule": line.strength_of_schedule,
        "extended_strength_of_schedule": line.extended_strength_of_schedule,
    }
    return (line.points, *(values[name] for name in tiebreakers))


def standings(
    players: Iterable[str],
    results: Iterable[GameResult],
    scheme: Scheme = Scheme(),  # noqa: B008 - frozen, never changed
    *,
    byes: Iterable[str] = (),
    adjustments: Mapping[str, int] | None = None,
) -> list[Standing]:
    """The season's standings, best first (see the module's docstring).

    Players named by a result but not in ``players`` are listed too. Each
    name in ``byes`` is one bye of that player: one game played and won,
    ``scheme.bye`` points, ``scheme.bye_score`` scored, no opponent (nothing
    added to anyone's strength of schedule). ``adjustments`` adds bonus (or,
    below 0, penalty) points to a player's points before any tie-breaker.
    A strength of schedule sums the opponents' points as the standings show
    them (their byes and adjustments included).
    """
    results = list(results)
    lines: dict[str, _Line] = {name: _Line(name) for name in players}
    for name in byes:
        line = lines.setdefault(name, _Line(name))
        line.played += 1
        line.won += 1
        line.points += scheme.bye
        line.score_for += scheme.bye_score
    for name, extra in (adjustments or {}).items():
        if isinstance(extra, bool) or not isinstance(extra, int):
            raise ValueError("Bonus and penalty points are whole numbers.")
        lines.setdefault(name, _Line(name)).points += extra
    for result in results:
        for name in (result.player_a, result.player_b):
            lines.setdefault(name, _Line(name))
        a, b = lines[result.player_a], lines[result.player_b]
        points_a, points_b = scheme.points(result)
        for line, own, other, points in (
            (a, result.score_a, result.score_b, points_a),
            (b, result.score_b, result.score_a, points_b),
        ):
            line.played += 1
            line.points += points
            line.score_for += own
            line.score_against += other
        a.opponents.append(b.player)
        b.opponents.append(a.player)
        if result.outcome == "draw":
            a.drawn += 1
            b.drawn += 1
        else:
            winner, loser = (a, b) if result.outcome == "a" else (b, a)
            winner.won += 1
            loser.lost += 1
    for line in lines.values():
        line.strength_of_schedule = sum(lines[o].points for o in line.opponents)
    for line in lines.values():
        line.extended_strength_of_schedule = sum(
            lines[o].strength_of_schedule for o in line.opponents
        )
    # The mini-league of each group level on points, computed once per group.
    groups: dict[int, set[str]] = {}
    for line in lines.values():
        groups.setdefault(line.points, set()).add(line.player)
    for group in groups.values():
        if len(group) < 2:
            continue
        for result in results:
            if result.player_a in group and result.player_b in group:
                points_a, points_b = scheme.points(result)
                lines[result.player_a].head_to_head += points_a
                lines[result.player_b].head_to_head += points_b
    ordered = sorted(
        lines.values(),
        key=lambda line: (
            tuple(-value for value in _key(line, scheme.tiebreakers)),
            line.player,
        ),
    )
    table: list[Standing] = []
    rank = 0
    previous: tuple[int, ...] | None = None
    keys = [_key(line, scheme.tiebreakers) for line in ordered]
    for position, (line, key) in enumerate(zip(ordered, keys, strict=True), start=1):
        if key != previous:
            rank = position
            previous = key
        shared = keys.count(key) > 1
        table.append(
            Standing(
                rank=rank,
                player=line.player,
                played=line.played,
                won=line.won,
                drawn=line.drawn,
                lost=line.lost,
                points=line.points,
                score_for=line.score_for,
                score_against=line.score_against,
                goal_average=line.score_for - line.score_against,
                strength_of_schedule=line.strength_of_schedule,
                head_to_head=line.head_to_head,
                shared=shared,
                extended_strength_of_schedule=line.extended_strength_of_schedule,
            )
        )
    return table


# --- ratings -----------------------------------------------------------------


@dataclass(frozen=True)
class Rating:
    """A player's skill estimate: ``mu`` ± ``sigma``; ``ordinal = mu - 3 sigma``."""

    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class RatingChange:
    """What one game did to both players' ratings."""

    result: GameResult
    before_a: Rating
    after_a: Rating
    before_b: Rating
    after_b: Rating


def _rating(value) -> Rating:
    return Rating(mu=value.mu, sigma=value.sigma, ordinal=value.mu - 3 * value.sigma)


def rating_changes(results: Iterable[GameResult]) -> list[RatingChange]:
    """Each game's change, applying the results one by one in the given order.

    openskill's Plackett-Luce model with its default parameters; a draw is a
    tie; a player's first rating is the model's default.
    """
    model = PlackettLuce()
    current: dict[str, object] = {}
    changes = []
    for result in results:
        a = current.get(result.player_a) or model.rating(name=result.player_a)
        b = current.get(result.player_b) or model.rating(name=result.player_b)
        ranks = {"a": [1, 2], "b": [2, 1], "draw": [1, 1]}[result.outcome]
        [[new_a], [new_b]] = model.rate([[a], [b]], ranks=ranks)
        current[result.player_a] = new_a
        current[result.player_b] = new_b
        changes.append(
            RatingChange(result, _rating(a), _rating(new_a), _rating(b), _rating(new_b))
        )
    return changes


# The club's scale, in this one place: a newcomer (openskill's ordinal 0) shows
# 1500, and one unit of ordinal is 48 points, so that openskill's beta (25/6,
# the skill gap that makes the better player win about 76% of the time) is
# 200 points, as on the Elo scale players know. The spread is one sigma on the
# same scale (a newcomer: ± 400).
RATING_BASE = 1500
RATING_SCALE = 48
PROVISIONAL_GAMES = 5


@dataclass(frozen=True)
class ShownRating:
    """A rating on the club's scale: ``value`` ± ``spread`` (whole points)."""

    value: int
    spread: int


def shown_rating(rating: Rating) -> ShownRating:
    """``RATING_BASE + RATING_SCALE * ordinal`` ± ``RATING_SCALE * sigma``."""
    return ShownRating(
        value=round(RATING_BASE + RATING_SCALE * rating.ordinal),
        spread=round(RATING_SCALE * rating.sigma),
    )


def ratings(results: Iterable[GameResult]) -> dict[str, Rating]:
    """Each player's rating after ``results``, applied in the given order."""
    final: dict[str, Rating] = {}
    for change in rating_changes(results):
        final[change.result.player_a] = change.after_a
        final[change.result.player_b] = change.after_b
    return final


# --- pairings ------------------------------------------------------------------


def seed_order(players: Iterable[str], seed: str) -> list[str]:
    """``players`` shuffled by ``seed``: sorted by the SHA-256 of the seed and
    the name (stable across Python versions, unlike ``random.Random``)."""
    return sorted(players, key=lambda p: _first_round_key(p, seed, None))


def _first_round_key(
    player: str, seed: str, seeding: Sequence[str] | None
) -> tuple[int, str, str]:
    if seeding is not None:
        place = list(seeding).index(player) if player in seeding else len(seeding)
        return place, "", player
    digest = hashlib.sha256(f"{seed}\n{player}".encode()).hexdigest()
    return 0, digest, player


def round_robin(players: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Every player meets every other once: the circle method.

    The first player stays put while the others turn round the circle one
    place a round; with an odd number a bye (``None``) joins the circle and
    whoever meets it rests that round (the pair is left out). ``n`` players
    play ``n - 1`` rounds (``n`` when odd).
    """
    circle: list[str | None] = list(players)
    if len(set(circle)) != len(circle):
        raise ValueError("A player is listed once.")
    if len(circle) < 2:
        return []
    if len(circle) % 2:
        circle.append(None)
    size = len(circle)
    rounds = []
    for number in range(size - 1):
        pairs = []
        for i in range(size // 2):
            home, away = circle[i], circle[size - 1 - i]
            if home is None or away is None:
                continue
            # Alternate who is named first, so nobody is always "A".
            pairs.append((home, away) if (number + i) % 2 == 0 else (away, home))
        rounds.append(pairs)
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def swiss_round(
    players: Sequence[str],
    results: Iterable[GameResult],
    *,
    scheme: Scheme = Scheme(),  # noqa: B008 - frozen, never changed
    byes: Iterable[str] = (),
    groups: Mapping[str, str] | None = None,
    seed: str = "",
    seeding: Sequence[str] | None = None,
    adjustments: Mapping[str, int] | None = None,
) -> list[tuple[str, str | None]]:
    """The next round of a Swiss tournament: pairs, best table first.

    Players are ranked by ``standings`` with their ``byes`` (a bye's points
    count) and ``adjustments``. With no result yet (no game of any of
    ``players``), players level on points are ordered by ``seeding`` when
    given (a club rating, best first; names not in it after, by name), else
    by a shuffle determined by ``seed``: each name's SHA-256 with the seed
    (the same seed, the same pairs, on every Python); with an empty seed and
    no ``seeding``, by name. A dropped player is simply not in ``players``; a
    late one is, with fewer results.

    ``(player, None)`` is a bye, listed last. Every player of ``players`` is
    in exactly one pair; ``results`` are the games played so far (a game of
    someone no longer in ``players`` still counts for the history).

    - With an odd number of players the bye goes to the lowest-ranked player
      (by ``standings``) among those with the fewest byes so far (``byes``
      lists who had one, once per bye): the lowest-ranked who has not had one.
    - The others are paired by networkx's maximum weight matching over every
      possible pair (as Tabbycat pairs), with weights that put these
      priorities lexicographically, each one before all the next ones:

      1. the fewest rematches (a pair that met ``k`` times costs ``k``);
      2. the smallest points gaps: the sum over the pairs of the squared
         difference of points (one gap of 6 costs more than two of 3);
      3. the fewest pairs of the same ``groups`` value (a people, a club);
      4. closest in the standings from the top down: the best-ranked player
         meets the nearest rank possible, then the next unpaired one, and so
         on (a weight per rank that outweighs every lower rank together).

      The fourth level makes the best matching unique, so the round does not
      depend on the order of ``players`` or on the matching's tie-breaks.
    """
    players = list(players)
    if len(set(players)) != len(players):
        raise ValueError("A player is listed once.")
    if not players:
        return []
    results = list(results)
    wanted = set(players)
    byes = list(byes)
    table = [
        row
        for row in standings(
            players, results, scheme, byes=byes, adjustments=adjustments
        )
        if row.player in wanted
    ]
    order = [row.player for row in table]
    points = {row.player: row.points for row in table}
    first_round = not any(r.player_a in wanted or r.player_b in wanted for r in results)
    if first_round and (seed or seeding is not None):
        order.sort(key=lambda p: (-points[p], *_first_round_key(p, seed, seeding)))
    rank = {player: index for index, player in enumerate(order)}
    bye_count = Counter(byes)
    pairs: list[tuple[str, str | None]] = []
    bye: str | None = None
    if len(order) % 2:
        fewest = min(bye_count[player] for player in order)
        bye = [player for player in order if bye_count[player] == fewest][-1]
        order.remove(bye)
    met = Counter(frozenset((r.player_a, r.player_b)) for r in results)
    groups = groups or {}

    def same_group(a: str, b: str) -> bool:
        group = groups.get(a)
        return group is not None and group == groups.get(b)

    size = len(order)
    # Mixed radix: each level's worst total stays below one unit of the level above.
    radix = size + 2
    tie_unit = 1
    group_unit = radix ** (size + 1)
    gap_unit = group_unit * (size + 1)
    widest = max((points[p] for p in order), default=0) - min(
        (points[p] for p in order), default=0
    )
    rematch_unit = gap_unit * (size * widest * widest + 1)
    top = rematch_unit * (max(met.values(), default=0) + 2)  # every weight > 0
    graph = nx.Graph()
    graph.add_nodes_from(range(size))
    for i in range(size):
        for j in range(i + 1, size):
            a, b = order[i], order[j]
            cost = (
                met[frozenset((a, b))] * rematch_unit
                + (points[a] - points[b]) ** 2 * gap_unit
                + same_group(a, b) * group_unit
                + (j - i - 1) * radix ** (size - i) * tie_unit
            )
            graph.add_edge(i, j, weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    for i, j in sorted(tuple(sorted(edge)) for edge in matching):
        pairs.append((order[i], order[j]))
    pairs.sort(key=lambda pair: rank[pair[0]])
    if bye is not None:
        pairs.append((bye, None))
    return pairs


__all__ = [
    "GameResult",
    "Rating",
    "RatingChange",
    "PROVISIONAL_GAMES",
    "RATING_BASE",
    "RATING_SCALE",
    "ALL_TIEBREAKERS",
    "SCALES",
    "SWISS_TIEBREAKERS",
    "Scheme",
    "ShownRating",
    "Standing",
    "TIEBREAKERS",
    "rating_changes",
    "ratings",
    "round_robin",
    "seed_order",
    "shown_rating",
    "standings",
    "swiss_round",
]
