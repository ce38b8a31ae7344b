"""Ratings: openskill's Plackett-Luce model, one rating per server, game and player.

A game moves the ratings once, when it ends, in the transaction that records its result
(``moves.resolve``); a cancelled game never ends and never counts, and neither does an abandoned
one (no person was at the table at the end: the computer played every seat out). The policy, pure and in one place:

- **Competitive tables** rank the seats: the winners first (tied with each other), then the
  others by score, best first (equal scores tie); without scores all the others tie.
- **Against the game** (FUSE, cooperative or solo Bad Bones) the table is one team and the game
  itself is the other, a virtual player per variant (``game:fuse:standard``,
  ``game:badbones:coop-heroic`` …): a win beats it, a loss loses to it, so a harder variant
  earns more when beaten and costs less when lost to.
- **Computer players** are rated like people, one rating per level (``cpu:<level>``).
- A competitive game for one seat has nothing to compare and is not rated.

The number shown is openskill's ordinal, ``mu - 3 sigma`` (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.service.narrate import plain_name
from bot.service.table import computer_plays
from bot.store import ratings as store
from bot.store import repository as repo
from bot.store.models import GameRow, RatingRow

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
    """The game's own virtual player when the table plays against the game, else None."""
    if kind == "fuse":
        variant = str(options.get("difficulty", "standard"))
        return f"game:fuse:{variant}{'-hard' if options.get('hard') else ''}"
    if kind == "badbones" and (options.get("cooperative") or seats == 1):
        variant = "coop" if options.get("cooperative") else "solo"
        return f"game:badbones:{variant}{'-heroic' if options.get('heroic') else ''}"
    return None


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
    seats = seated(row, result)
    if not counts(row, seats):
        return []
    guild = row.guild_id or NO_GUILD
    versus = opponent(row.kind, row.options, len(row.seats))
    keys = [s.player for s in seats] + ([versus] if versus else [])
    known = {r.player: r for r in await store.load(session, guild, row.kind, keys)}
    current = {p: Standing(r.mu, r.sigma) for p, r in known.items()}
    new = rate(seats, versus, current)
    changes = [
        Change(s.seat, s.player, s.name, current.get(s.player, NEW), new[s.player]) for s in seats
    ]
    rows: list[dict[str, Any]] = []
    for seat in seats:
        was = known.get(seat.player)
        best = [b for b in (was.best_score if was else None, seat.score) if b is not None]
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
    store.save(writes, rows, set(known))
    store.mark(writes, row.id, changes, now)
    return changes


def _values(
    guild: int,
    kind: str,
    player: str,
    name: str,
    standing: Standing,
    was: RatingRow | None,
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
        "games": (was.games if was else 0) + 1,
        "wins": (was.wins if was else 0) + (1 if won else 0),
        "best_score": best,
        "updated_at": now,
    }


async def rebuild(session: Any) -> int:
    """Rate every finished game again from scratch, in the order they ended (``partida ratings
    rebuild``: after the migration that added ratings, or to repair them). Returns how many
    games counted. One transaction: the caller commits."""
    await store.clear(session)
    rated = 0
    for row in await store.finished_in_order(session):
        writes = repo.Writes()
        if await record(session, writes, row, row.result or {}, row.updated_at):
            rated += 1
        await repo.run(session, writes)
    return rated
