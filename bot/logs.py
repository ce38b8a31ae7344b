"""Structured logs: one line per record, ``key=value`` fields, and never the bot token."""

from __future__ import annotations

import logging
import re

_TOKEN_SHAPE = re.compile(r"[A-Za-z\d_-]{23,28}\.[A-Za-z\d_-]{6,7}\.[A-Za-z\d_-]{27,40}")


class Redact(logging.Filter):
    """Removes the token (and anything shaped like a Discord token) from every record."""

    def __init__(self, token: str = "") -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = self._redact(record.getMessage()), None
        # A traceback can hold the token too (an exception message quoting a header): the
        # formatter prints ``exc_text`` when it is set, so set it, redacted.
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self._redact(record.stack_info)
        return True

    def _redact(self, text: str) -> str:
        if self.token and self.token in text:
            text = text.replace(self.token, "[token]")
        return _TOKEN_SHAPE.sub("[token]", text)


def setup_logging(level: str = "INFO", token: str | None = None) -> None:
    """Logs to stderr at ``level``, with ``token`` (default: the configured ``DISCORD_TOKEN``)
    and token-shaped text redacted."""
    if token is None:
        from bot.config import current

        token = current().discord_token
    handler = logging.StreamHandler()
    handler.addFilter(Redact(token))
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
