"""Ratings: openskill's Plackett-Luce model, one rating per server, game and player.

A game moves the ratings once, when it ends, in the transaction that records its result
(``moves.resolve``); a cancelled game never ends and never counts, and neither does an abandoned
one (no person was playing at the end: the computer played every seat out). The policy, pure and in one place:

- **Competitive games** rank the seats: the winners first (tied with each other), then the
  others by score, best first (equal scores tie); without scores all the others tie.
- **Against the game** (a cooperative or solo game: the game's registration answers
  ``versus``, the variant played) the players are one team and the game itself is the other, a
  virtual player per variant (``game:<game>:<variant>``): a win beats it, a loss loses to it,
  so a harder variant earns more when beaten and costs less when lost to.
- **Computer players** are rated like people, one rating per level (``cpu:<level>``).
- A competitive game for one seat has nothing to compare and is not rated.

The number shown is openskill's ordinal, ``mu - 3 sigma`` (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy.ext.asyncio import AsyncSession

from bot.service.match import computer_plays
from bot.service.narrate import plain_name
from bot.store import ratings as store
from bot.store import repository as repo
from bot.store.models import GameRow, RatingRow
from rules.core import registration

MODEL = PlackettLuce()
NO_GUILD = 0  # the rating server of a game without one (the console's, tests')


@dataclass(frozen=True)
class Standing:
    """A rating as openskill keeps it."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The shown number: a rating the player is ~99.7 % sure to be above."""
        return self.mu - 3 * self.sigma


NEW = Standing(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class Seated:
    """A seat as the ratings see it: who plays it, under what name, and how it ended."""

    seat: int
    player: str
    name: str
    won: bool
    score: int | None


@dataclass(frozen=True)
class Change:
    seat: int | None  # None: the game's own virtual player
    player: str
    name: str
    before: Standing
    after: Standing

    @property
    def delta(self) -> float:
        return self.after.ordinal - self.before.ordinal


def player_key(user_id: int, computer_level: str | None = None) -> str:
    """Who a rating belongs to: a person, or a computer player's level (one rating a level)."""
    return f"cpu:{computer_level}" if computer_level is not None else f"u:{user_id}"


def opponent(kind: str, options: dict[str, Any], seats: int) -> str | None:
    """The game's own virtual player when the players play against the game, else None."""
    variant = registration(kind).versus(options, seats)
    return None if variant is None else f"game:{kind}:{variant}"


def ranks(seats: Sequence[Seated]) -> list[float]:
    """openskill's ranks (lower is better; equal ranks tie): winners, then by score."""
    scores = sorted({s.score for s in seats if not s.won and s.score is not None}, reverse=True)
    out: list[float] = []
    for seat in seats:
        if seat.won:
            out.append(0)
        elif seat.score is None:
            out.append(1 + len(scores))
        else:
            out.append(1 + scores.index(seat.score))
    return out


def rate(
    seats: Sequence[Seated], versus: str | None, current: dict[str, Standing]
) -> dict[str, Standing]:
    """The new standings of everyone in the game (``versus``: the game's virtual player)."""

    def rating(player: str) -> Any:
        now = current.get(player, NEW)
        return MODEL.rating(mu=now.mu, sigma=now.sigma)

    if versus is not None:
        team_won = any(s.won for s in seats)
        players = [s.player for s in seats]
        rated = MODEL.rate(
            [[rating(p) for p in players], [rating(versus)]],
            ranks=[0.0, 1.0] if team_won else [1.0, 0.0],
        )
        out = {p: Standing(r.mu, r.sigma) for p, r in zip(players, rated[0], strict=True)}
        out[versus] = Standing(rated[1][0].mu, rated[1][0].sigma)
        return out
    rated = MODEL.rate([[rating(s.player)] for s in seats], ranks=ranks(seats))
    return {
        s.player: Standing(team[0].mu, team[0].sigma) for s, team in zip(seats, rated, strict=True)
    }


def seated(row: GameRow, result: dict[str, Any]) -> list[Seated]:
    """The seats of a finished game with their outcome (``result`` as ``games.result`` keeps
    it). A player seated twice (two computer seats of one level) is rated by the first."""
    winners = set(result.get("winners", []))
    scores = {int(k): int(v) for k, v in (result.get("scores") or {}).items()}
    out: list[Seated] = []
    taken: set[str] = set()
    for seat in sorted(row.seats, key=lambda s: s.seat):
        player = player_key(seat.user_id, seat.computer)
        if player in taken:
            continue
        taken.add(player)
        out.append(
            Seated(
                seat.seat,
                player,
                plain_name(seat.display_name),
                seat.seat in winners,
                scores.get(seat.seat),
            )
        )
    return out


def counts(row: GameRow, seats: Sequence[Seated]) -> bool:
    """Whether a finished game is rated: not abandoned, and someone to compare with."""
    if all(computer_plays(s) for s in row.seats):
        return False
    return len(seats) >= 2 or opponent(row.kind, row.options, len(row.seats)) is not None


async def record(
    session: Any, writes: repo.Writes, row: GameRow, result: dict[str, Any], now: float
) -> list[Change]:
    """Rate a game that has just ended: read the standings (locked on PostgreSQL), add their
    new values and the game's mark to ``writes`` (run by the caller, with the result), and
    return what changed. Nothing for a game that does not count."""
    players = rated_players(row, result)
    if players is None:
        return []
    guild = row.guild_id or NO_GUILD
    known = {r.player: _known(r) for r in await store.load(session, guild, row.kind, players)}
    changes, rows = plan(row, result, known, now)
    store.save(writes, rows, set(known))
    store.mark(writes, row.id, changes, now)
    return changes


def rated_players(row: GameRow, result: dict[str, Any]) -> list[str] | None:
    """Whose ratings a finished game moves (its seats', then the game's own virtual player),
    or None when it does not count."""
    seats = seated(row, result)
    if not counts(row, seats):
        return None
    versus = opponent(row.kind, row.options, len(row.seats))
    return [s.player for s in seats] + ([versus] if versus else [])


def plan(
    row: GameRow, result: dict[str, Any], known: dict[str, dict[str, Any]], now: float
) -> tuple[list[Change], list[dict[str, Any]]]:
    """What a counted game does to the ratings, from the standings ``known`` of its players
    (rating rows as dicts; a player missing has none yet): the changes, and each player's
    whole new rating row. The one computation, for a game ending and for the rebuild."""
    seats = seated(row, result)
    guild = row.guild_id or NO_GUILD
    versus = opponent(row.kind, row.options, len(row.seats))
    current = {p: Standing(k["mu"], k["sigma"]) for p, k in known.items()}
    new = rate(seats, versus, current)
    changes = [
        Change(s.seat, s.player, s.name, current.get(s.player, NEW), new[s.player]) for s in seats
    ]
    rows: list[dict[str, Any]] = []
    for seat in seats:
        was = known.get(seat.player)
        best = [b for b in (was["best_score"] if was else None, seat.score) if b is not None]
        rows.append(
            _values(
                guild,
                row.kind,
                seat.player,
                seat.name,
                new[seat.player],
                was,
                seat.won,
                max(best) if best else None,
                now,
            )
        )
    if versus is not None:
        was = known.get(versus)
        lost = not any(s.won for s in seats)
        rows.append(_values(guild, row.kind, versus, versus, new[versus], was, lost, None, now))
        changes.append(Change(None, versus, versus, current.get(versus, NEW), new[versus]))
    return changes, rows


def _known(row: RatingRow) -> dict[str, Any]:
    return {
        "mu": row.mu,
        "sigma": row.sigma,
        "games": row.games,
        "wins": row.wins,
        "best_score": row.best_score,
    }


def _values(
    guild: int,
    kind: str,
    player: str,
    name: str,
    standing: Standing,
    was: dict[str, Any] | None,
    won: bool,
    best: int | None,
    now: float,
) -> dict[str, Any]:
    return {
        "guild_id": guild,
        "kind": kind,
        "player": player,
        "name": name[:100],
        "mu": standing.mu,
        "sigma": standing.sigma,
        "games": (was["games"] if was else 0) + 1,
        "wins": (was["wins"] if was else 0) + (1 if won else 0),
        "best_score": best,
        "updated_at": now,
    }


# ---------------------------------------------------------------- partida ratings rebuild

PAGE = 500  # finished games read at a time
BATCH = 1000  # rating rows written in one transaction

Step = Callable[[str], Awaitable[None]]


class Book:
    """The standings as the rebuild computes them, in memory: one rating row (a dict) per
    server, game and player. Its size is the number of ratings, never the number of games."""

    def __init__(self) -> None:
        self.rows: dict[tuple[int, str], dict[str, dict[str, Any]]] = {}

    def rate(self, row: GameRow) -> dict[str, Any] | None:
        """Rate a finished game on the book; its ``rated_games`` row, or None (not counted)."""
        result = row.result or {}
        players = rated_players(row, result)
        if players is None:
            return None
        board = self.rows.setdefault((row.guild_id or NO_GUILD, row.kind), {})
        known = {p: board[p] for p in players if p in board}
        changes, rows = plan(row, result, known, row.updated_at)
        for values in rows:
            board[values["player"]] = values
        return store.marked(row.id, changes, row.updated_at)

    def has(self, key: tuple[int, str, str]) -> bool:
        return key[2] in self.rows.get((key[0], key[1]), {})

    def all(self) -> Iterator[dict[str, Any]]:
        for board in self.rows.values():
            yield from board.values()


async def rebuild(
    sessions: Callable[[], AsyncSession],
    *,
    page: int = PAGE,
    batch: int = BATCH,
    step: Step | None = None,
) -> int:
    """Rate every finished game again from scratch, in the order they ended (``partida
    ratings rebuild``: after the migration that added ratings, or to repair them), with the
    numbers a game gives when it ends (``plan``). Returns how many games counted.

    Never one long transaction, so no game waits on it (docs/ratings.md):

    1. the finished games, ``page`` at a time in the order they ended, are rated on a
       :class:`Book` in memory; each page's ``rated_games`` rows are replaced in a short
       transaction;
    2. ratings no game gives any more are deleted, and the book's rows are written, ``batch``
       rows a transaction;
    3. one short transaction holds the ratings (``store.hold``), rates the games that ended
       since step 1 read past them, and writes their marks and players' rows.

    A game that ends meanwhile rates from whatever its players' rows say then, and step 3
    rates it again from the book, so the result is the rebuild's over every game, in order.
    ``step`` (tests) is awaited between the transactions, with the step's name."""
    book = Book()
    rated = 0
    after: tuple[float, int] | None = None
    while True:
        async with sessions() as session:
            games = await store.finished_after(session, after, page)
            marks = [m for m in (book.rate(g) for g in games) if m is not None]
            ids = [g.id for g in games]
            if games:
                after = (games[-1].updated_at, games[-1].id)
            session.expunge_all()
        if not ids:
            break
        rated += len(marks)
        async with sessions() as session, session.begin():
            await store.replace_marks(session, ids, marks)
        if step is not None:
            await step("games")

    key: tuple[int, str, str] | None = None
    while True:
        async with sessions() as session:
            keys = await store.keys_after(session, key, batch)
        if not keys:
            break
        key = keys[-1]
        gone = [k for k in keys if not book.has(k)]
        if gone:
            async with sessions() as session, session.begin():
                await store.forget(session, gone)
    chunk: list[dict[str, Any]] = []
    for values in book.all():
        chunk.append(values)
        if len(chunk) >= batch:
            await _put(sessions, chunk, step)
            chunk = []
    await _put(sessions, chunk, step)

    async with sessions() as session, session.begin():
        await store.hold(session)
        late = await store.finished_after(session, after, None)
        marks = [m for m in (book.rate(g) for g in late) if m is not None]
        rated += len(marks)
        await store.replace_marks(session, [g.id for g in late], marks)
        touched: dict[tuple[int, str, str], dict[str, Any]] = {}
        for game in late:
            board = book.rows.get((game.guild_id or NO_GUILD, game.kind), {})
            for player in rated_players(game, game.result or {}) or []:
                touched[(game.guild_id or NO_GUILD, game.kind, player)] = board[player]
        await store.put(session, list(touched.values()))
    return rated


async def _put(
    sessions: Callable[[], AsyncSession], rows: list[dict[str, Any]], step: Step | None
) -> None:
    if not rows:
        return
    async with sessions() as session, session.begin():
        await store.put(session, rows)
    if step is not None:
        await step("ratings")
