"""Ports on 127.0.0.1 for tests that need one."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port where nothing listens now (bound, then closed): for a server the test starts
    there, or as a server that is down."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
