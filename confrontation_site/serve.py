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
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence

from confrontation_site.env import FALSE_WORDS, TRUE_WORDS

APPLICATION = "confrontation_site.asgi:application"
DEFAULT_PROXY_ADDRESS = "127.0.0.1"


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


def command(environ: Mapping[str, str], options: Sequence[str]) -> list[str]:
    """The whole uvicorn command line."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        APPLICATION,
        *proxy_options(environ),
        *options,
    ]


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = command(os.environ, argv)
    os.execv(args[0], args)


if __name__ == "__main__":
    main()
