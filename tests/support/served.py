"""The app served the way ``make run`` serves it (``confrontation_site.serve``)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from tests.support.servers import ROOT, free_port


@contextmanager
def served(env: dict[str, str], *, ready_timeout: float = 60) -> Iterator[str]:
    """``python -m confrontation_site.serve`` on a free loopback port; its URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "confrontation_site.serve"]
        + ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ready_timeout
        while True:
            assert process.poll() is None, "the server stopped"
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
