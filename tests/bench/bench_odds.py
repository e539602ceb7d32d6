"""Benchmark of rules.odds: exact odds, their speed, and a simulation beside them.

Run: ``.venv/bin/python tests/bench/bench_odds.py`` (not collected by pytest).

- Tests against a difficulty (II-A-3): every value -5..15 x difficulty 0..25,
  in the three reroll modes. Simulated with 100,000 dice chains from
  ``SeededDice`` shared by every cell (a chain rolled "always"; "if_needed"
  and "never" stop on a prefix of it, as ``characteristic_test`` does, which
  the script checks on the first chains), plus a few cells simulated with
  ``characteristic_test`` itself, 100,000 tests each.
- Opposed tests (II-A-3): every gap -10..10 exact; a few gaps simulated with
  ``opposed_test``, 100,000 tests each.
- Wound rolls (II-B): every FOR - RES from -10 to +15 (RES 5), plain,
  amplified and attenuated, simulated with 100,000 rolls each.

Times are per query: cold (every cache cleared first) and warm (cached).
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import checks, odds, wounds  # noqa: E402
from rules.dice import ScriptedDice, SeededDice  # noqa: E402

ROLLS = 100_000
VALUES = range(-5, 16)
DIFFICULTIES = range(0, 26)
MODES = checks.REROLL_MODES
GAPS = range(-10, 11)
WOUND_GAPS = range(-10, 16)
RESISTANCE = 5
WOUND_KINDS = {"plain": (0, 0), "amplified": (1, 0), "attenuated": (0, 1)}
SIMULATED_TESTS = [(3, 7), (0, 9), (2, 12), (-2, 4), (5, 20)]
SIMULATED_GAPS = [-3, 0, 1, 3, 5, 6]


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)]


def _time_queries(queries) -> tuple[list[float], list[float]]:
    """Cold and warm seconds for each query (a zero-argument callable)."""
    cold, warm = [], []
    for query in queries:
        odds.cache_clear()
        start = time.perf_counter()
        query()
        cold.append(time.perf_counter() - start)
        start = time.perf_counter()
        query()
        warm.append(time.perf_counter() - start)
    return cold, warm


def _timing_row(name: str, cold: list[float], warm: list[float]) -> str:
    def us(seconds: float) -> str:
        return f"{seconds * 1e6:9.1f}"

    return (
        f"{name:<22}{len(cold):>6} {us(statistics.median(cold))} "
        f"{us(_percentile(cold, 0.95))} {us(statistics.median(warm))} "
        f"{us(_percentile(warm, 0.95))}"
    )


# --- Simulations ---------------------------------------------------------------


def _chains(seed: str, count: int) -> list[tuple[int, ...]]:
    """``count`` dice rolled "always": each six rerolled (II-A-1)."""
    dice = SeededDice(seed)
    chains = []
    for _ in range(count):
        faces = [dice.d6()]
        while faces[-1] == 6:
            faces.append(dice.d6())
        chains.append(tuple(faces))
    return chains


def _score(chain: tuple[int, ...], mode: str) -> int:
    """The highest natural that ``mode`` would reach for some target: a test
    succeeds iff score >= the natural needed (checked against the rules)."""
    if mode == "never":
        return chain[0]
    natural = checks.natural_result(chain)
    if mode == "always":
        return natural
    # "if_needed" stops on the first six that wins: 6, 12... up to the last.
    return max(natural, 6 * (len(chain) - 1))


def _simulate_test(job: tuple[int, int, str]) -> float:
    value, difficulty, mode = job
    dice = SeededDice(f"test {value} {difficulty} {mode}")
    wins = sum(
        checks.characteristic_test(value, difficulty, dice, reroll=mode).success
        for _ in range(ROLLS)
    )
    return wins / ROLLS


def _simulate_opposed(job: tuple[int, str]) -> float:
    gap, mode = job
    dice = SeededDice(f"opposed {gap} {mode}")
    wins = sum(
        checks.opposed_test(gap, 0, dice, reroll=mode).winner == "a"
        for _ in range(ROLLS)
    )
    return wins / ROLLS


def _simulate_wounds(kind: str) -> dict[int, dict[str, float]]:
    amplified, attenuated = WOUND_KINDS[kind]
    dice = SeededDice(f"wounds {kind}")
    count = 2 if amplified == attenuated else 3
    rolls = Counter(tuple(dice.d6() for _ in range(count)) for _ in range(ROLLS))
    table = {}
    for gap in WOUND_GAPS:
        outcomes = Counter()
        for faces, times in rolls.items():
            result = wounds.wound_roll(
                faces,
                RESISTANCE + gap,
                RESISTANCE,
                amplified=amplified,
                attenuated=attenuated,
            )
            outcomes[result.outcome] += times
        table[gap] = {o: outcomes[o] / ROLLS for o in wounds.OUTCOMES}
    return table


# --- Report ----------------------------------------------------------------------


def main() -> None:
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        test_jobs = [(v, d, m) for (v, d), m in product(SIMULATED_TESTS, MODES)]
        opposed_jobs = [(g, m) for g, m in product(SIMULATED_GAPS, MODES)]
        simulated_tests = pool.map(_simulate_test, test_jobs)
        simulated_opposed = pool.map(_simulate_opposed, opposed_jobs)
        simulated_wounds = pool.map(_simulate_wounds, WOUND_KINDS)

        # Exact odds and timings, in this process while the pool simulates.
        grid = [(v, d, m) for v, d, m in product(VALUES, DIFFICULTIES, MODES)]
        test_cold, test_warm = _time_queries(
            [
                lambda v=v, d=d, m=m: odds.test_success(v, d, reroll=m)
                for v, d, m in grid
            ]
        )
        gaps = [(g, m) for g, m in product(GAPS, MODES)]
        opposed_cold, opposed_warm = _time_queries(
            [lambda g=g, m=m: odds.opposed_win(g, 0, reroll=m) for g, m in gaps]
        )
        wound_jobs = [(g, k) for g, k in product(WOUND_GAPS, WOUND_KINDS)]
        wound_cold, wound_warm = _time_queries(
            [
                lambda g=g, k=k: odds.wound_outcomes(
                    RESISTANCE + g,
                    RESISTANCE,
                    amplified=WOUND_KINDS[k][0],
                    attenuated=WOUND_KINDS[k][1],
                )
                for g, k in wound_jobs
            ]
        )

        # The shared chains: score each once per mode, then read every cell.
        chains = _chains("bench chains", ROLLS)
        for chain in chains[:2000]:  # the score rule is the rules' own
            for (value, difficulty), mode in product(SIMULATED_TESTS, MODES):
                played = checks.characteristic_test(
                    value, difficulty, ScriptedDice(chain), reroll=mode
                )
                need = max(difficulty, 1) - value
                assert played.success == (_score(chain, mode) >= need), chain
        at_least = {}
        for mode in MODES:
            scores = Counter(_score(chain, mode) for chain in chains)
            top = max(scores)
            running, table = 0, {}
            for score in range(top, -40, -1):
                running += scores.get(score, 0)
                table[score] = running / ROLLS
            at_least[mode] = table

        def simulated_cell(value: int, difficulty: int, mode: str) -> float:
            need = max(difficulty, 1) - value
            table = at_least[mode]
            return table.get(need, 0.0 if need > 0 else 1.0)

        print("Exact odds (rules.odds) beside a 100,000-roll SeededDice simulation\n")
        print("Time per query, microseconds")
        print(
            f"{'query':<22}{'count':>6} {'cold med':>9} {'cold p95':>9} "
            f"{'warm med':>9} {'warm p95':>9}"
        )
        print(_timing_row("test_success", test_cold, test_warm))
        print(_timing_row("opposed_win", opposed_cold, opposed_warm))
        print(_timing_row("wound_outcomes", wound_cold, wound_warm))

        sigma = 0.5 / math.sqrt(ROLLS)
        print(f"\nExact vs simulated (one standard error at most {sigma:.4f})")
        print(f"{'check':<34}{'cells':>6} {'max |diff|':>11}  worst cell")
        for mode in MODES:
            diffs = [
                (
                    abs(
                        float(odds.test_success(v, d, reroll=m))
                        - simulated_cell(v, d, m)
                    ),
                    (v, d),
                )
                for v, d, m in grid
                if m == mode
            ]
            worst = max(diffs)
            print(
                f"{'test, shared chains, ' + mode:<34}{len(diffs):>6} "
                f"{worst[0]:>11.5f}  value {worst[1][0]}, difficulty {worst[1][1]}"
            )
        diffs = [
            (abs(float(odds.test_success(v, d, reroll=m)) - sim), (v, d, m))
            for (v, d, m), sim in zip(test_jobs, simulated_tests, strict=True)
        ]
        worst = max(diffs)
        print(
            f"{'characteristic_test, 100k each':<34}{len(diffs):>6} "
            f"{worst[0]:>11.5f}  {worst[1]}"
        )
        opposed_sims = list(zip(opposed_jobs, simulated_opposed, strict=True))
        diffs = [
            (abs(float(odds.opposed_win(g, 0, reroll=m)) - sim), (g, m))
            for (g, m), sim in opposed_sims
        ]
        worst = max(diffs)
        print(
            f"{'opposed_test, 100k each':<34}{len(diffs):>6} "
            f"{worst[0]:>11.5f}  gap {worst[1][0]}, {worst[1][1]}"
        )
        wound_tables = dict(zip(WOUND_KINDS, simulated_wounds, strict=True))
        for kind, table in wound_tables.items():
            a, t = WOUND_KINDS[kind]
            diffs = [
                (
                    abs(
                        float(
                            odds.wound_outcomes(
                                RESISTANCE + g, RESISTANCE, amplified=a, attenuated=t
                            )[o]
                        )
                        - table[g][o]
                    ),
                    (g, o),
                )
                for g in WOUND_GAPS
                for o in wounds.OUTCOMES
            ]
            worst = max(diffs)
            print(
                f"{'wounds, ' + kind:<34}{len(diffs):>6} "
                f"{worst[0]:>11.5f}  FOR-RES {worst[1][0]}, {worst[1][1]}"
            )

        print("\nTest success, 'if_needed', % (rows: value; columns: difficulty)")
        shown = list(range(0, 26, 2))
        print("val " + "".join(f"{d:>6}" for d in shown))
        for value in VALUES:
            cells = "".join(
                f"{float(odds.test_success(value, d)) * 100:6.1f}" for d in shown
            )
            print(f"{value:>3} {cells}")

        print("\nOpposed test, P(a wins) %, by gap = value_a - value_b")
        print(f"{'gap':>4}" + "".join(f"{m:>11}" for m in MODES) + "   simulated")
        simulated_by = {job: sim for job, sim in opposed_sims}
        for gap in GAPS:
            cells = "".join(
                f"{float(odds.opposed_win(gap, 0, reroll=m)) * 100:11.3f}"
                for m in MODES
            )
            sims = " ".join(
                f"{simulated_by[(gap, m)] * 100:.3f}"
                for m in MODES
                if (gap, m) in simulated_by
            )
            print(f"{gap:>4}{cells}   {sims}")

        print("\nWound roll, RES 5, plain: exact % / simulated %")
        print(f"{'FOR-RES':>7}" + "".join(f"{o:>15}" for o in wounds.OUTCOMES))
        for gap in WOUND_GAPS:
            exact = odds.wound_outcomes(RESISTANCE + gap, RESISTANCE)
            simulated = wound_tables["plain"][gap]
            cells = "".join(
                f"{float(exact[o]) * 100:7.2f}/{simulated[o] * 100:6.2f} "
                for o in wounds.OUTCOMES
            )
            print(f"{gap:>7} {cells}")
    print(f"\nTotal time {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
