"""``make run`` stopped with Ctrl-C (issue 31, issue 30).

With phones connected it printed two tracebacks and took up to 5.9 s. Here
``make run`` is started as a terminal starts it (its own process group) and
the whole group gets SIGINT, as Ctrl-C sends it.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import threading
import time

import httpx

from tests.support.servers import ROOT, free_port, manage, server_env, shell_json


def test_ctrl_c_on_make_run_with_two_phones_connected(tmp_path):
    env = server_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
        SECRET_KEY="make-run-test-" + "k" * 40,  # the phones' sessions are signed
    )
    manage("migrate", "--noinput", env=env)
    game = shell_json(
        "from tests.support.live_setup import setup_game; setup_game()", env
    )
    # `make` as the reader's, without reinstalling the shared test virtualenv.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "make"
    wrapper.write_text('#!/bin/sh\nexec /usr/bin/make -o .venv/.run-installed "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    port = free_port()
    env.update(PORT=str(port), PATH=f"{bin_dir}:{os.environ['PATH']}")
    env.pop("DEBUG")  # as a reader runs it: make run's own default
    log = tmp_path / "make-run.log"
    base = f"http://127.0.0.1:{port}"
    opened = threading.Barrier(3)
    ended: dict[str, float] = {}

    def phone(side: str) -> None:
        cookies = {"sessionid": game["sessions"][side]}
        url = f"{base}/games/{game['public_id']}/stream"
        try:
            with httpx.stream("GET", url, cookies=cookies, timeout=30) as response:
                assert response.status_code == 200
                chunks = response.iter_raw()
                next(chunks)  # the retry hint: the stream is open
                opened.wait(timeout=30)
                for _chunk in chunks:
                    pass
        except httpx.HTTPError:
            pass
        finally:
            ended[side] = time.monotonic()

    with open(log, "w") as output:
        process = subprocess.Popen(
            ["make", "run"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a terminal's foreground group
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
        phones = [threading.Thread(target=phone, args=(side,)) for side in "ab"]
        for thread in phones:
            thread.start()
        opened.wait(timeout=30)
        interrupted = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C
        process.wait(timeout=30)
        stopped = time.monotonic() - interrupted
        for thread in phones:
            thread.join(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    said = log.read_text()
    after = said[said.index("Serving on") :]
    print(f"FIGURE stopped {stopped:.2f} s after SIGINT; output after it:\n{after}")
    assert "Traceback" not in said
    assert stopped < 5
    assert set(ended) == {"a", "b"}
