"""SQLAlchemy 2 typed models: games, seats, the action log, deadlines, player settings.

Times are seconds since the epoch (floats): the service's clock is injectable (tests, the
console's ``/wait``), and plain numbers compare the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
    false,
    literal_column,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship, validates

# Game statuses. "lobby" and "active" are *open*: at most one open game per channel.
LOBBY = "lobby"
ACTIVE = "active"
FINISHED = "finished"
CANCELLED = "cancelled"
OPEN_STATUSES = (LOBBY, ACTIVE)


class Base(DeclarativeBase):
    pass


# C0 and C1 control characters and DEL. PostgreSQL refuses NUL in text outright (the whole save
# fails), and no other control character belongs in a name shown in a chat.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def clean_name(name: str, limit: int = 100) -> str:
    """A display name as stored: control characters removed, at most ``limit`` characters."""
    return _CONTROL.sub("", name)[:limit]


class GameRow(Base):
    """One game in one channel.

    ``open_channel_id`` equals ``channel_id`` while the game is open and NULL once it ends; its
    unique constraint is how the *database* guarantees one unfinished game per channel (NULLs
    never collide, on SQLite and PostgreSQL alike, and it needs no partial index).

    ``version`` is the optimistic lock: every save is ``UPDATE … WHERE version = :seen``, so two
    writers that loaded the same version cannot both win.

    Every list reads through an index in the order it shows (docs/storage.md, "Indexes"): a
    channel's finished games and its threads' by (channel, status, updated_at, id), newest first
    from the index's end; the open games of a server or of a channel's threads by partial
    indexes that hold open games only (``open_channel_id IS NOT NULL``), which stay small
    however many games have ended.
    """

    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_channel_listed", "channel_id", "status", "updated_at", "id"),
        Index("ix_games_parent_listed", "parent_channel_id", "status", "updated_at", "id"),
        Index(
            "ix_games_open_guild",
            "guild_id",
            "updated_at",
            sqlite_where=text("open_channel_id IS NOT NULL"),
            postgresql_where=text("open_channel_id IS NOT NULL"),
        ),
        Index(
            "ix_games_open_parent",
            "parent_channel_id",
            "id",
            sqlite_where=text("open_channel_id IS NOT NULL"),
            postgresql_where=text("open_channel_id IS NOT NULL"),
        ),
        # The finished games in the order they ended, a page at a time (the ratings rebuild).
        Index("ix_games_ended", "status", "updated_at", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    open_channel_id: Mapped[int | None] = mapped_column(BigInteger, unique=True, nullable=True)
    guild_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    kind: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default=LOBBY)
    host_id: Mapped[int] = mapped_column(BigInteger)
    seed: Mapped[int] = mapped_column(BigInteger)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    phase: Mapped[str] = mapped_column(String(64), default="")
    phase_started_at: Mapped[float] = mapped_column(Float, default=0.0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    version: Mapped[int] = mapped_column(Integer, default=1)
    # The messages edited in place, by role (``bot.service.replies.Slot``): ``"lobby"`` and
    # ``"phase"``, each ``{"channel": id, "id": message id or None, ...}``; the phase's also holds
    # its ``phase`` token and the seats ``awaited`` when it began (who shows as ready). A table
    # message edited in place (``bot.service.live``) keeps its post's phase token under the key
    # ``"table"``: stored data, so the key keeps its name, though in the code and docs "table"
    # means only what the players see (the ``Match`` is the game a command holds).
    messages: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # When the game is played in a thread (``channel_id``), the channel the thread hangs from.
    parent_channel_id: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="game",
        order_by="SeatRow.seat",
        cascade="all, delete-orphan",
        lazy="joined",  # one query loads a game with its seats
    )

    __mapper_args__ = {"version_id_col": version}


class SeatRow(Base):
    """A player's seat. Seats are numbered in join order (D4 of Bad Bones: left = previous)."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "user_id", name="uq_seat_user"),)

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger)
    display_name: Mapped[str] = mapped_column(String(100))
    locale: Mapped[str] = mapped_column(String(8), default="en")
    # A player who left (or was kicked) mid-game keeps the seat, and the seat plays its default
    # actions at once, so the game goes on without them ("zombie mode").
    left: Mapped[bool] = mapped_column(default=False)
    # A computer player's level ("easy", "normal", "hard"; docs/bots.md), or None for a person. A
    # computer seat's ``user_id`` is negative: no Discord user has it.
    computer: Mapped[str | None] = mapped_column(String(8), nullable=True, default=None)
    # A person's seat the computer plays while they are away (missed deadlines, or left), until
    # their next command in the game; ``misses`` counts their deadlines missed in a row.
    autopilot: Mapped[bool] = mapped_column(default=False)
    misses: Mapped[int] = mapped_column(Integer, default=0)

    game: Mapped[GameRow] = relationship(back_populates="seats")

    @validates("display_name")
    def _clean_display_name(self, _key: str, value: str) -> str:
        return clean_name(value)


class ActionRow(Base):
    """The action log: replaying it from the seed rebuilds the game's state exactly."""

    __tablename__ = "actions"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)
    by_default: Mapped[bool] = mapped_column(default=False)


class GameLogRow(Base):
    """A closed game's action log, compacted (``bot/store/logs.py``): one row per game instead
    of one per move, the entries as zlib-compressed JSON. Written when the game ends, in the
    transaction that ends it, and its ``actions`` rows deleted in the same one; ``moves``,
    ``first_at`` and ``last_at`` answer the history without opening ``data``."""

    __tablename__ = "game_logs"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    moves: Mapped[int] = mapped_column(Integer)
    first_at: Mapped[float] = mapped_column(Float)
    last_at: Mapped[float] = mapped_column(Float)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class DeadlineRow(Base):
    """When a pending seat is reminded (``kind="reminder"``) or gets its default action
    (``kind="default"``). Stored, so that deadlines survive a restart. ``phase`` is the phase
    token the deadline belongs to: a deadline of an earlier phase is void."""

    __tablename__ = "deadlines"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    due_at: Mapped[float] = mapped_column(Float, index=True)
    phase: Mapped[str] = mapped_column(String(64))


class PlayerRow(Base):
    """A user's own settings, across servers: the language they chose with ``/game language``,
    and how they are reached (``/me``, bot/service/reach.py): mentions, direct messages or both,
    quiet hours in their own time zone, and the day they are back when away."""

    __tablename__ = "players"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # "mention" (None), "dm" or "both"
    notify: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # Quiet hours as minutes after midnight in ``time_zone`` (start > end: across midnight).
    quiet_start: Mapped[int | None] = mapped_column(Integer, nullable=True)
    quiet_end: Mapped[int | None] = mapped_column(Integer, nullable=True)
    time_zone: Mapped[str | None] = mapped_column(String(64), nullable=True)
    away_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Discord refused a direct message (the user takes none from the bot's servers): mentions
    # are used instead until the user chooses direct messages again.
    dm_closed: Mapped[bool] = mapped_column(default=False, server_default=false())


class RatingRow(Base):
    """One player's rating at one game on one server (``docs/ratings.md``).

    ``player`` names who is rated: ``u:<user id>`` for a person, ``cpu:<level>`` for a computer
    player (one rating per level), ``game:<variant>`` for the game itself as the opponent of a
    cooperative or solo table. ``guild_id`` 0 stands for "no server" (the console's games have
    one; direct messages never hold games). ``name`` is the name shown on the server at the
    player's last rated game. ``mu`` and ``sigma`` are openskill's; the shown number is
    ``mu - 3 sigma``."""

    __tablename__ = "ratings"
    __table_args__ = (
        Index("ix_ratings_guild_player", "guild_id", "player"),
        # The leaderboard's order (best first, ties by player) and a stats place's count read
        # this index, not the server's every row. The expression is written as the queries
        # write it (``ORDINAL``), so that SQLite and PostgreSQL match the two.
        Index("ix_ratings_rank", "guild_id", "kind", text("(mu - 3 * sigma) DESC"), "player"),
    )

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    best_score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    updated_at: Mapped[float] = mapped_column(Float)


# A rating's shown number, as SQL: ``mu - 3 sigma``, with the 3 written out (a bound parameter
# would not match the index ``ix_ratings_rank``).
ORDINAL = RatingRow.mu - literal_column("3") * RatingRow.sigma


class RatedGameRow(Base):
    """A finished game that moved the ratings, once: what each seat's rating was before and
    after (``changes``: ``{seat: {"player", "before": [mu, sigma], "after": [mu, sigma]}}``),
    for the history and for ``partida ratings rebuild`` to know what it has done."""

    __tablename__ = "rated_games"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    changes: Mapped[dict[str, Any]] = mapped_column(JSON)
    rated_at: Mapped[float] = mapped_column(Float)


class ChannelRow(Base):
    """A channel's own settings, which outlive its games (a game's are in ``games.settings``).
    ``replay``: post the whole game as an animation with its closing message."""

    __tablename__ = "channels"

    channel_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    replay: Mapped[bool] = mapped_column(default=False)


class DeliveryRow(Base):
    """A post, an edit or an archive that a committed command owes a channel (or thread),
    written in that command's transaction and deleted once Discord took it (``docs/discord.md``,
    the sender). ``body`` is the post as the service planned it (``bot.service.owed``: words,
    buttons, the picture's render job); ``nonce`` goes with it to Discord, so a repeat after a
    crash returns the message already posted instead of posting it twice. ``version`` is the
    game's version the post shows; ``attempts`` and ``next_try_at`` say how its delivery went."""

    __tablename__ = "deliveries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), index=True, nullable=True
    )
    channel_id: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(8))  # "post" | "edit" | "archive"
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    nonce: Mapped[str] = mapped_column(String(25))
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try_at: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)
