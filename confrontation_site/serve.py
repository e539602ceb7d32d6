"""Start uvicorn with the client-address policy of the site (issue #13).

``make run`` and ``make serve-prod`` start the server through here:
``python -m confrontation_site.serve [uvicorn options...]``.

The rate limits count the client's address. uvicorn, left to itself, reads
``X-Forwarded-For`` from any connection coming from 127.0.0.1, so behind a
local tunnel (or on a phone hotspot forwarding to ``make run``) anyone could
forge a new address with every request. Here:

- without ``BEHIND_TLS_PROXY``: ``--no-proxy-headers``, the address is the
  socket's, whatever headers say;
- with ``BEHIND_TLS_PROXY=true``: ``--proxy-headers`` trusted only from
  ``PROXY_ADDRESS`` (default ``127.0.0.1``; comma-separated for several), the
  address the site's own reverse proxy connects from.

``battles.ratelimit.client_ip`` applies the same rule again inside Django.

It also refuses what cannot work and bounds the waits:

- more than one worker process (``--workers``, ``WEB_CONCURRENCY`` or
  ``UVICORN_WORKERS``, the ways uvicorn takes) with ``LIVE_BUS=memory``: a
  tap would reach a phone on another process only at the next heartbeat; it
  says to use the PostgreSQL or Redis bus instead. The number checked is
  then given to uvicorn as ``--workers``, so nothing else can change it;
- Ctrl-C (SIGINT) with phones connected: their streams end as the server
  starts shutting down (``confrontation_site.connections.on_shutdown``),
  and whatever is left is cut after ``GRACEFUL_SECONDS``;
- connections: the open-file limit is raised to the system's hard limit,
  at most ``CONCURRENCY_LIMIT`` are served at once (503 past it) and
  ``CONNECTIONS_PER_ADDRESS`` from one address; slow heads and bodies are
  closed and repeated warnings rate-limited (``confrontation_site.
  connections``, on uvicorn's h11 protocol, which is why ``--http h11``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from confrontation_site.env import FALSE_WORDS, TRUE_WORDS

APPLICATION = "confrontation_site.asgi:application"
DEFAULT_PROXY_ADDRESS = "127.0.0.1"
GRACEFUL_SECONDS = 2  # open streams are closed this long after Ctrl-C
CONCURRENCY_LIMIT = 4000  # connections and requests under way, per process


def behind_tls_proxy(environ: Mapping[str, str]) -> bool:
    word = (environ.get("BEHIND_TLS_PROXY") or "false").strip().lower()
    if word not in TRUE_WORDS | FALSE_WORDS:
        sys.exit(
            f"Configuration error: BEHIND_TLS_PROXY must be true or false, "
            f"not {word!r}."
        )
    return word in TRUE_WORDS


def proxy_addresses(environ: Mapping[str, str]) -> list[str]:
    raw = environ.get("PROXY_ADDRESS") or DEFAULT_PROXY_ADDRESS
    return [part.strip() for part in raw.split(",") if part.strip()]


def proxy_options(environ: Mapping[str, str]) -> list[str]:
    """uvicorn's options for ``X-Forwarded-For`` and ``X-Forwarded-Proto``."""
    if not behind_tls_proxy(environ):
        return ["--no-proxy-headers"]
    return [
        "--proxy-headers",
        "--forwarded-allow-ips",
        ",".join(proxy_addresses(environ)),
    ]


def option_value(options: Sequence[str], name: str) -> str | None:
    """The value of ``--name VALUE`` or ``--name=VALUE`` (the last one)."""
    found = None
    for index, option in enumerate(options):
        if option == name and index + 1 < len(options):
            found = options[index + 1]
        elif option.startswith(name + "="):
            found = option.split("=", 1)[1]
    return found


# Every way uvicorn takes a number of processes, in its order: the option,
# then WEB_CONCURRENCY, then UVICORN_WORKERS (click's UVICORN_ prefix).
WORKER_SOURCES = ("--workers", "WEB_CONCURRENCY", "UVICORN_WORKERS")


def worker_count(environ: Mapping[str, str], options: Sequence[str]) -> int:
    """How many processes uvicorn would start; ``command`` then names that
    number on the command line, so no other source can change it."""
    for source in WORKER_SOURCES:
        if source.startswith("--"):
            raw = option_value(options, source)
        else:
            raw = (environ.get(source) or "").strip() or None
        if raw is None:
            continue
        try:
            count = int(raw)
        except ValueError:
            sys.exit(f"Configuration error: {source} must be a number, not {raw!r}.")
        if count < 1:
            sys.exit(f"Configuration error: {source} must be 1 or more, not {raw!r}.")
        return count
    return 1


def check_bus(environ: Mapping[str, str], options: Sequence[str]) -> None:
    """Several processes need a bus they share (settings.LIVE_BUS)."""
    bus = (environ.get("LIVE_BUS") or "memory").strip().lower()
    workers = worker_count(environ, options)
    if workers > 1 and bus == "memory":
        sys.exit(
            f"Configuration error: {workers} worker processes (--workers, "
            "WEB_CONCURRENCY or UVICORN_WORKERS) with LIVE_BUS=memory "
            "would tell a phone on another process of a tap only at the next "
            "heartbeat. Set LIVE_BUS=postgres (with a postgres:// DATABASE_URL) "
            "or LIVE_BUS=redis (with REDIS_URL), or run one worker."
        )


def command(environ: Mapping[str, str], options: Sequence[str]) -> list[str]:
    """The whole uvicorn command line."""
    check_bus(environ, options)
    # Named here, so neither WEB_CONCURRENCY nor UVICORN_WORKERS can ask uvicorn
    # for another number than the one checked; h11, the protocol whose waits
    # and per-address cap confrontation_site.connections bounds.
    defaults = ["--workers", str(worker_count(environ, options))]
    if option_value(options, "--http") is None:
        defaults += ["--http", "h11"]
    if option_value(options, "--timeout-graceful-shutdown") is None:
        defaults += ["--timeout-graceful-shutdown", str(GRACEFUL_SECONDS)]
    if option_value(options, "--limit-concurrency") is None:
        defaults += ["--limit-concurrency", str(CONCURRENCY_LIMIT)]
    return [
        sys.executable,
        "-m",
        "uvicorn",
        APPLICATION,
        *proxy_options(environ),
        *defaults,
        *options,
    ]


def raise_file_limit() -> int:
    """The open-file limit raised to the hard one (kept across ``exec``)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):
            return soft
        return wanted
    return soft


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = command(os.environ, argv)
    raise_file_limit()
    os.execv(args[0], args)


if __name__ == "__main__":
    main()
