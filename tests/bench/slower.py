"""Run a benchmark as if on a slower machine (``bench_live.py --slower``).

A fast machine cannot tell whether a slower one holds a target: the issue's
club laptop runs the action in ~15 ms where a bench machine may take 8. This
puts the benchmark (its process and every process it starts: the server,
the load generator) and PostgreSQL's processes in a CPU cgroup whose quota is
the machine's cores divided by ``factor``, per 10 ms period: together they
get at most 1/``factor`` of the machine, as on one ``factor`` times slower.

It is an emulation, pessimistic on latency: a slower machine runs every
instruction slower, this one runs at full speed until the period's quota is
spent, then stalls until the next period (at most 10 ms). What the cores do
per second is the slower machine's.

Needs a writable cgroup v1 ``cpu`` controller (root, as on the project's
machines); PostgreSQL's processes are given back to the root group at the
end, whatever happens.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

CPU_CGROUP = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 10_000


def postgres_pids() -> list[int]:
    """PostgreSQL's server processes on this machine (by their name)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                name = Path(f"/proc/{entry}/comm").read_text().strip()
            except OSError:
                continue
            if name == "postgres":
                found.append(int(entry))
    return found


def _move(pids, group: Path) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):  # a process that ended meanwhile
            (group / "cgroup.procs").write_text(str(pid))


@contextlib.contextmanager
def slower(factor: float) -> Iterator[None]:
    """This process, what it starts from now on, and PostgreSQL, at
    1/``factor`` of the machine's CPU while inside."""
    if factor <= 1:
        yield
        return
    if not os.access(CPU_CGROUP / "cgroup.procs", os.W_OK):
        raise SystemExit(
            f"--slower needs a writable cgroup v1 cpu controller at {CPU_CGROUP} "
            "(root); this machine has none"
        )
    group = CPU_CGROUP / f"bench-slower-{os.getpid()}"
    group.mkdir()
    try:
        (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        quota = int((os.cpu_count() or 1) * PERIOD_US / factor)
        (group / "cpu.cfs_quota_us").write_text(str(quota))
        _move([os.getpid(), *postgres_pids()], group)
        yield
    finally:
        # Everything still in the group (new PostgreSQL backends included)
        # back to the root group, then the group goes.
        pids = (group / "cgroup.procs").read_text().split()
        _move(pids, CPU_CGROUP)
        with contextlib.suppress(OSError):
            group.rmdir()
