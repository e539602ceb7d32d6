"""Tap keys come from the system's randomness drawn a few kilobytes at a
time (``battles.live.push``): every key still new, through a refill, on
every thread, and in a forked child (never the parent's next keys)."""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from battles.live import push

URL_SAFE = re.compile(r"^[A-Za-z0-9_-]{16}$")


def test_prefixes_are_new_and_url_safe_through_several_refills():
    count = 3 * push._DRAW_BYTES // push._KEY_BYTES
    prefixes = [push._random_prefix() for _ in range(count)]
    assert len(set(prefixes)) == count
    assert all(URL_SAFE.match(prefix) for prefix in prefixes)


def test_threads_drawing_at_once_never_share_a_prefix():
    with ThreadPoolExecutor(8) as pool:
        batches = list(
            pool.map(lambda _: [push._random_prefix() for _ in range(500)], range(8))
        )
    every = [prefix for batch in batches for prefix in batch]
    assert len(set(every)) == len(every)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork: POSIX only")
def test_a_forked_child_does_not_repeat_the_parents_keys():
    push._random_prefix()  # the pool holds keys not yet given
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the child: its next keys, to the parent, then out
        try:
            os.close(reader)
            keys = " ".join(push._random_prefix() for _ in range(20))
            os.write(writer, keys.encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as pipe:
        theirs = set(pipe.read().split())
    os.waitpid(child, 0)
    ours = {push._random_prefix() for _ in range(20)}
    assert len(theirs) == 20
    assert not ours & theirs
