"""Run a benchmark as if on a slower machine (``--slower`` of ``bench_live.py``
and ``bench_tap.py``).

A fast machine cannot tell whether a slower one holds a target: the issue's
club laptop runs the action in ~15 ms where a bench machine may take 8.
Here every core of the machine is taken from everything else for a share
``1 - 1/factor`` of each ``PERIOD_SECONDS``: one process per core, pinned
to it, at a real-time priority (``SCHED_FIFO``, above every ordinary
process), spins for that share at a random point of each period (each
core at its own) and sleeps the rest. Whatever else runs (the
benchmark, the server, PostgreSQL, Chromium, the kernel's work for them)
gets ``1/factor`` of each core, period after period: a single thread's
10 ms of work takes ``10 * factor`` ms, and the cores do per second what
the slower machine's do.

(A CPU cgroup quota, tried first, slows only a group that uses the whole
machine: one thread on two cores never reaches it, so a tap ran at full
speed.)

It is an emulation at the period's grain (2 ms): work shorter than that
runs at full speed or waits a spin out, and a thread the spin preempts may
hold a lock the others wait for (pessimistic). CPU times measured by the
benchmark are this machine's; the benchmarks scale them by ``factor``. The
kernel's tick-sampled busy time (``/proc/stat``) does not see the spins'
short turns truly.

Needs the right to a real-time priority (root, as on the project's
machines). The spinners end with the context, and on their own when the
process that started them is gone.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import random
import time
from collections.abc import Iterator

PERIOD_SECONDS = 0.002
PRIORITY = 10  # any real-time priority runs before every ordinary process


def slowdown(text: str) -> float:
    """``--slower``'s factor: 1 (this machine) or more."""
    try:
        factor = float(text)
    except ValueError:
        factor = 0.0
    if not factor >= 1:  # NaN too
        raise argparse.ArgumentTypeError(f"{text!r}: a factor of 1 or more")
    return factor


def add_slower_option(parser: argparse.ArgumentParser) -> None:
    """A benchmark's ``--slower F`` option (``args.slower``: 1 by default)."""
    parser.add_argument(
        "--slower",
        type=slowdown,
        default=1.0,
        help="as on a machine this many times slower (every core given to "
        "the rest 1/F of the time: tests/bench/slower.py; needs root)",
    )


def _spin(core: int, factor: float, parent: int) -> None:
    """Take ``1 - 1/factor`` of ``core`` in every period, from a random
    point of it, until the parent process is gone."""
    os.sched_setaffinity(0, {core})
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(PRIORITY))
    busy = PERIOD_SECONDS * (1 - 1 / factor)
    pick = random.Random(core).uniform
    period = time.monotonic()
    while os.getppid() == parent:
        start = period + pick(0, PERIOD_SECONDS - busy)
        left = start - time.monotonic()
        if left > 0:
            time.sleep(left)
        end = time.monotonic() + busy
        while time.monotonic() < end:
            pass
        period += PERIOD_SECONDS
        if period + PERIOD_SECONDS < time.monotonic():  # late: start afresh
            period = time.monotonic()


def _may_spin() -> bool:
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(PRIORITY))
    except OSError:  # PermissionError without root
        return False
    os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    return True


@contextlib.contextmanager
def slower(factor: float) -> Iterator[list[int]]:
    """The machine at 1/``factor`` of its speed, for everything, while
    inside; yields the spinners' pids (their CPU time is not the work's)."""
    if factor <= 1:
        yield []
        return
    # Try the priority in a child: this process stays an ordinary one.
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        allowed = pool.apply(_may_spin)
    if not allowed:
        raise SystemExit(
            "--slower needs the right to a real-time priority (SCHED_FIFO: root)"
        )
    cores = sorted(os.sched_getaffinity(0))
    spinners = [
        context.Process(
            target=_spin,
            args=(core, factor, os.getpid()),
            daemon=True,
        )
        for core in cores
    ]
    for spinner in spinners:
        spinner.start()
    try:
        yield [spinner.pid for spinner in spinners]
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.join()
