"""Print this machine's IPv4 addresses on the local network, comma-separated.

``make run HOST=0.0.0.0`` uses them to allow the host names the second
phone will use (ALLOWED_HOSTS) and to say which address to open. Nothing is
sent on the network: the addresses come from ``hostname -I`` or, failing
that, from resolving this machine's own name.
"""

from __future__ import annotations

import ipaddress
import socket
import subprocess


def lan_addresses() -> list[str]:
    found: list[str] = []
    try:
        output = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=5, check=False
        ).stdout
        found = output.split()
    except (OSError, subprocess.SubprocessError):
        pass
    if not found:
        try:
            found = socket.gethostbyname_ex(socket.gethostname())[2]
        except OSError:
            found = []
    addresses = []
    for text in found:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if address.version == 4 and not address.is_loopback and text not in addresses:
            addresses.append(text)
    return addresses


if __name__ == "__main__":
    print(",".join(lan_addresses()))
