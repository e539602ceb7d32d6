"""A server thread's name told to the kernel (``top -H``, ``ps -L``,
``/proc/<pid>/task/<tid>/comm``): Python's own thread name, which Python
before 3.14 keeps to itself. Where a process's CPU goes can then be read by
thread: the request workers (``django_N``), the live look (``live-look_0``)
and the event loop, the main thread (``tests/bench/bench_live.py``)."""

from __future__ import annotations

import ctypes
import sys
import threading

PR_SET_NAME = 15  # prctl(2); the kernel keeps 15 bytes of it


def name_os_thread() -> None:
    """Give the calling thread its Python name in the kernel (Linux; elsewhere,
    or when the C library cannot be had, nothing)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        prctl = ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        return
    name = threading.current_thread().name.encode("utf-8", "replace")[:15]
    prctl(PR_SET_NAME, ctypes.c_char_p(name), 0, 0, 0)
