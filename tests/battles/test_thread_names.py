"""The server's threads carry their Python names in the kernel, so that
``top -H`` and the live bench tell the request workers and the live look
from the event loop (``battles.thread_names``)."""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from battles.live import stream
from battles.thread_names import name_os_thread
from confrontation_site.sync_views import SyncViews

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the kernel's thread names: Linux"
)


def kernel_name() -> str:
    return Path(f"/proc/self/task/{threading.get_native_id()}/comm").read_text().strip()


def test_a_thread_takes_its_python_name_cut_to_the_kernels_fifteen_bytes():
    with ThreadPoolExecutor(
        1, thread_name_prefix="a-rather-long-pool", initializer=name_os_thread
    ) as pool:
        assert pool.submit(kernel_name).result() == "a-rather-long-p"


def test_request_workers_and_the_live_look_are_named():
    views = SyncViews(wsgi_app=None, workers=1)
    try:
        assert views.executor.submit(kernel_name).result() == "django_0"
    finally:
        views.executor.shutdown()
    assert stream._looks.submit(kernel_name).result() == "live-look_0"
