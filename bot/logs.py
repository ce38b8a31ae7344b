"""Structured logs: one line per record, ``key=value`` fields, and never a secret: not the bot
token, not an interaction token, not what a player typed or chose."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

_TOKEN_SHAPE = re.compile(r"[A-Za-z\d_-]{23,28}\.[A-Za-z\d_-]{6,7}\.[A-Za-z\d_-]{27,40}")
# An interaction token is a password for answering (and editing) that interaction for 15
# minutes; it sits in the callback and webhook URLs discord.py logs, and in payloads.
_URL_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/?#\s'\"]+")
_TOKEN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+""")


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
        if len(self.token) >= 8 and self.token in text:  # a mistyped "x" must not blank every x
            text = text.replace(self.token, "[token]")
        text = _URL_TOKEN.sub(r"\1[token]", text)
        text = _TOKEN_FIELD.sub(r"\1[token]", text)
        return _TOKEN_SHAPE.sub("[token]", text)


# Fields of a Discord payload that say *which* event or object it is, never what anyone wrote.
_IDS = ("t", "op", "s", "id", "type", "guild_id", "channel_id", "application_id", "message_id")


class DiscordPayloads(logging.Filter):
    """discord.py logs whole payloads at DEBUG: every gateway event (``discord.gateway``: an
    INTERACTION_CREATE holds the typed arguments, a sealed bid, the interaction token) and every
    REST request and answer (``discord.http``, ``discord.webhook``: the private replies, the
    token in the URL). For records of the ``discord`` loggers this replaces every payload among
    the arguments by its type and ids, so the lines still say what happened and when."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name != "discord" and not record.name.startswith("discord."):
            return True
        if not isinstance(record.msg, str):
            record.msg = _summary(record.msg)
        if isinstance(record.args, dict):
            record.args = {k: _summary(v) for k, v in record.args.items()}
        elif record.args:
            record.args = tuple(_summary(arg) for arg in record.args)
        return True


def _summary(value: Any) -> Any:
    """A log argument with any payload in it reduced to its type and ids."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(value)} bytes>"
    if isinstance(value, str):
        if not value.lstrip().startswith(("{", "[")):
            return value  # a method, a URL (its token is redacted later), a name of an event
        try:
            value = json.loads(value)
        except ValueError:
            return f"<payload of {len(value)} characters>"
    if isinstance(value, dict):
        fields = {k: value[k] for k in _IDS if _plain(value.get(k))}
        inner = value.get("d")
        if isinstance(inner, dict):  # a gateway frame: the event's own ids
            fields.update({f"d.{k}": inner[k] for k in _IDS if _plain(inner.get(k))})
        return "<payload " + " ".join(f"{k}={v}" for k, v in fields.items()) + ">"
    if isinstance(value, list | tuple):
        return f"<list of {len(value)}>"
    return f"<{type(value).__name__}>"


def _plain(value: Any) -> bool:
    """An id, a type number or an event name: nothing a user wrote."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, str) and bool(re.fullmatch(r"\d{1,20}|[A-Z_]{1,40}", value))


def setup_logging(level: str = "INFO", token: str | None = None) -> None:
    """Logs to stderr at ``level``, with ``token`` (default: the configured ``DISCORD_TOKEN``)
    and token-shaped text redacted, and discord.py's payloads reduced to their ids."""
    if token is None:
        from bot.config import current

        token = current().discord_token
    handler = logging.StreamHandler()
    handler.addFilter(DiscordPayloads())  # first: it needs the record's arguments
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
    # Alembic lists its autogenerate plug-ins at INFO at every start: noise before the one
    # line that matters when the database cannot be used. Its migrations' lines stay.
    logging.getLogger("alembic.runtime.plugins").setLevel(max(logging.WARNING, root.level))
