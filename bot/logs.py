"""Structured logs: one line per record, ``key=value`` fields, and never the bot token."""

from __future__ import annotations

import logging
import os
import re

_TOKEN_SHAPE = re.compile(r"[A-Za-z\d_-]{23,28}\.[A-Za-z\d_-]{6,7}\.[A-Za-z\d_-]{27,40}")


class Redact(logging.Filter):
    """Removes the token (and anything shaped like a Discord token) from every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        token = os.environ.get("DISCORD_TOKEN", "")
        if token and token in message:
            message = message.replace(token, "[token]")
        message = _TOKEN_SHAPE.sub("[token]", message)
        record.msg, record.args = message, None
        return True


def setup_logging(level: str = "INFO") -> None:
    handler = logging.StreamHandler()
    handler.addFilter(Redact())
    handler.setFormatter(
        logging.Formatter("%(asctime)s level=%(levelname)s logger=%(name)s %(message)s")
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper() if isinstance(level, str) else level)
    # The database drivers log every statement with its parameters at DEBUG (and SQLAlchemy at
    # INFO): whole game states, hidden hands and secret submissions included. They stay at
    # WARNING even when the bot runs at DEBUG.
    quiet = max(logging.WARNING, root.level)
    for name in ("aiosqlite", "asyncpg", "sqlalchemy"):
        logging.getLogger(name).setLevel(quiet)
