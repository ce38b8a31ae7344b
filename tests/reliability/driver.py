"""A small bot process for the reliability tests: plays random legal moves through the service.

Run as ``python -m tests.reliability.driver URL --seed 1 --steps 500``. It plays the open games
of the database (set up beforehand with :func:`setup_games`), one random legal command at a time
as the seated user, and every ``--deadline-every`` steps moves its clock 25 hours on and runs the
deadlines. It prints one line per fact, flushed at once, so that a test that SIGKILLs it knows
exactly what was acknowledged before the kill:

- ``READY {}``: the service is open;
- ``TRY {...}``: about to submit (game, the log sequence number it expects, seat, action, and
  whether this submission resolves the phase);
- ``ACK {...}``: the service answered "✅ Recorded" for that submission;
- ``ANNOUNCE {"channel": c}``: a phase-resolution message was produced (after commit);
- ``DEFAULTED {"channel": c}``: a post without a slot said a default (after commit);
- ``SAID {...}``: a post or edit of a slot's message, whole, with the game version it shows
  (after commit): :func:`defaults_by_process` finds the defaults it added;
- ``DONE {...}``: it stopped (all games over, or out of steps).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select

from bot.service import Actor, Place, Service
from bot.store import repository as repo
from bot.store.models import ACTIVE, GameRow
from i18n import t
from rules.core import Game, game_names, get_game
from tests.support.commands import command_for
from tests.support.tiny import install

DAY_PLUS = 25 * 3600.0
# How a default is announced: the generic line, or a live FUSE table's (round timer, deadline).
DEFAULTED_MARKS = tuple(
    t(key, "en", **{arg: "\x00"}).split("\x00")[-1].strip()
    for key, arg in (
        ("lobby.deadline.defaulted", "player"),
        ("fuse.live.timer", "seat"),
        ("fuse.live.deadline", "seat"),
    )
)


@dataclass(frozen=True)
class GameSpec:
    kind: str
    seats: int
    channel: int
    options: dict[str, Any] = field(default_factory=dict)


def short_options(kind: str) -> dict[str, Any]:
    """Options for a short game, so tests can play whole games: every int option about rounds
    (``rounds``, ``round_limit``, ``solo_rounds``…) at 3, within its bounds."""
    out: dict[str, Any] = {}
    for spec in get_game(kind).option_specs:
        if spec.type == "int" and "round" in spec.name:
            value = max(3, spec.min if spec.min is not None else 3)
            out[spec.name] = min(value, spec.max) if spec.max is not None else value
    return out


def all_games() -> list[str]:
    """Every registered game plus the test game (a game whose engine fails to import is
    simply absent from the registry, and so skipped). In a test process the test game is
    registered by tests/reliability/conftest.py; in a driver process by ``main``."""
    return list(dict.fromkeys([*game_names(), "tiny"]))


def seat_count(kind: str, wanted: int = 2) -> int:
    engine = get_game(kind)
    return max(engine.min_seats, min(engine.max_seats, wanted))


def user_id(channel: int, seat: int) -> int:
    return channel * 100 + seat + 1


def actor_for(channel: int, seat: int) -> Actor:
    return Actor(user_id(channel, seat), f"P{seat}")


async def setup_games(service: Service, specs: Iterable[GameSpec]) -> dict[int, int]:
    """Open, fill and start one game per spec; returns channel → game id."""
    ids: dict[int, int] = {}
    for spec in specs:
        place = Place(spec.channel, 1)
        reply = await service.new_game(actor_for(spec.channel, 0), place, spec.kind, spec.options)
        assert reply.ok, reply.private
        for seat in range(1, spec.seats):
            assert (await service.join(actor_for(spec.channel, seat), place)).ok
        reply = await service.start(actor_for(spec.channel, 0), place)
        assert reply.ok, reply.private
        async with service.sessions() as session:
            row = await repo.open_game(session, spec.channel)
            assert row is not None
            ids[spec.channel] = row.id
    return ids


PER_ROUND = 2  # due deadlines a round of --deadlines-only takes


def emit(tag: str, data: dict[str, Any]) -> None:
    sys.stdout.write(f"{tag} {json.dumps(data, sort_keys=True)}\n")
    sys.stdout.flush()


def watch_announcements(service: Service) -> None:
    """Report each phase announcement and each applied default *after commit*: ``finish``
    runs only for committed transactions, and a phase announcement is a post marked
    ``phase`` (a retried transaction's posts never reach ``finish``).

    A post without a slot that says a default is one ``DEFAULTED``. A post with a slot (a
    turn's or a live table's message, edited in place) is reported whole as ``SAID``, with the
    game version it shows: its edits repeat the narration so far, and the other process may
    have posted or edited the same message, so only the whole timeline of the message, both
    processes' edits in version order, tells which default lines are new
    (:func:`defaults_by_process`)."""
    # As the Discord client does (``bot/discord/client.py``): each command records what it owes
    # its channels, and so each draft knows the game version its posts show.
    service.owes = True
    finish = service.finish

    async def watched_finish(draft: Any) -> Any:
        for post in draft.public:
            if post.phase:
                emit("ANNOUNCE", {"channel": post.channel_id})
            said = [str(post.text), *str(post.narration).split("\n")]
            if post.slot is not None:
                slot = [post.slot.game_id, post.slot.role, post.slot.phase]
                emit(
                    "SAID",
                    {
                        "channel": post.channel_id,
                        "slot": slot,
                        "version": draft.version,
                        "edit": post.edit,
                        "lines": said,
                    },
                )
            elif any(mark in line for line in said for mark in DEFAULTED_MARKS):
                emit("DEFAULTED", {"channel": post.channel_id})
        return await finish(draft)

    service.finish = watched_finish  # type: ignore[method-assign]  # watching, then the real one


def defaults_by_process(outputs: list[list[tuple[str, dict[str, Any]]]]) -> list[Counter[int]]:
    """Per process, per channel, the defaults it announced: its ``DEFAULTED`` posts, and the
    default lines its posts and edits of a slot's message added to that message. A slot's
    posts and edits, from both processes, are read in the order of the game version they
    show; an edit shows its message's narration so far (a live table's, its latest lines), so
    only the lines past those it keeps from the message as it stood are news. A default
    really announced twice (two processes, or twice in one message) is still two lines."""
    counts: list[Counter[int]] = [Counter() for _ in outputs]
    timelines: dict[tuple[Any, ...], list[tuple[int, int, int, dict[str, Any]]]] = {}
    for index, lines in enumerate(outputs):
        for number, (tag, data) in enumerate(lines):
            if tag == "DEFAULTED":
                counts[index][data["channel"]] += 1
            elif tag == "SAID":
                key = (data["channel"], *data["slot"])
                assert data["version"] is not None, data  # (``watch_announcements``: owes)
                timelines.setdefault(key, []).append((data["version"], index, number, data))
    for events in timelines.values():
        shown: list[str] | None = None
        for _version, index, _number, data in sorted(events, key=lambda e: e[:3]):
            said: list[str] = data["lines"]
            if data["edit"] and shown is not None:
                new = said[1:][_overlap(shown, said[1:]) :]
            else:
                new = said
            shown = said[1:]
            counts[index][data["channel"]] += sum(
                any(mark in line for mark in DEFAULTED_MARKS) for line in new
            )
    return counts


def _overlap(before: list[str], after: list[str]) -> int:
    """How many first lines of ``after`` are the last lines of ``before`` (kept narration)."""
    for size in range(min(len(before), len(after)), 0, -1):
        if before[-size:] == after[:size]:
            return size
    return 0


class Clock:
    def __init__(self, offset: float) -> None:
        self.offset = offset

    def __call__(self) -> float:
        return time.time() + self.offset


def pick(engine: Game[Any], state: Any, rng: random.Random) -> tuple[int, Any] | None:
    pending = engine.pending(state)
    if not pending:
        return None
    seat = rng.choice(sorted(pending))
    actions = [a for a in engine.legal_actions(state, seat) if engine.to_command(a) is not None]
    if not actions:
        return None
    return seat, rng.choice(actions)


class KillSwitch:
    """Kills this process on purpose at one point of one move: ``write``, inside the move's
    transaction right after its writes ran (nothing committed yet); ``commit``, after the
    commit but before the reply reaches the player. ``on``: the how-manyth phase-resolving
    submission it kills (the middle of a resolution)."""

    def __init__(self, service: Service, point: str | None, on: int) -> None:
        self.point, self.on, self.seen, self.armed = point, on, 0, False
        if point == "write":
            real_run = repo.run

            async def run_then_die(session: Any, writes: Any) -> None:
                await real_run(session, writes)
                self.fire()

            repo.run = run_then_die
        elif point == "commit":
            real_finish = service.finish

            async def die_before_reply(draft: Any) -> Any:
                self.fire()
                return await real_finish(draft)

            service.finish = die_before_reply  # type: ignore[method-assign]  # the crash point

    def before(self, resolves: bool) -> None:
        """Called before each submission: arm the switch for the chosen one."""
        if self.point is not None and resolves:
            self.seen += 1
            self.armed = self.seen == self.on

    def after(self) -> None:
        self.armed = False

    def fire(self) -> None:
        if self.armed:
            emit("KILL", {"point": self.point})
            os.kill(os.getpid(), signal.SIGKILL)


async def play(
    url: str,
    seed: int,
    steps: int,
    deadline_every: int,
    until_done: bool,
    kill_at: str | None = None,
    kill_on: int = 1,
) -> int:
    rng = random.Random(seed)
    # Restarted processes continue after the latest time in the database, so time never runs
    # backwards in a game's log.
    probe = await Service.open(url, render=False, migrate=False)
    async with probe.sessions() as session:
        latest = (await session.execute(select(func.max(GameRow.updated_at)))).scalar() or 0.0
    await probe.close()
    clock = Clock(max(0.0, float(latest) - time.time()) + 1.0)
    service = await Service.open(url, render=False, migrate=False, clock=clock)
    watch_announcements(service)
    switch = KillSwitch(service, kill_at, kill_on)
    emit("READY", {})
    done = 0
    channels: list[int] = []
    step = 0
    while step < steps or until_done:
        if step % 40 == 0 or not channels:
            async with service.sessions() as session:
                channels = [
                    g.channel_id for g in await repo.open_games(session) if g.status == ACTIVE
                ]
            if not channels:
                break
        step += 1
        if deadline_every and step % deadline_every == 0:
            clock.offset += DAY_PLUS
            await service.run_deadlines()
            continue
        channel = rng.choice(channels)
        async with service.sessions() as session:
            row = await repo.open_game(session, channel)
        if row is None or row.status != ACTIVE or row.state is None:
            channels.remove(channel)
            continue
        engine = get_game(row.kind)
        state = engine.load(row.state)
        chosen = pick(engine, state, rng)
        if chosen is None:
            continue
        seat, action = chosen
        command, args = command_for(engine, action)
        after, _ = engine.apply(state, seat, action, clock())
        resolves = engine.phase(after) != row.phase or engine.is_over(after)
        facts = {
            "channel": channel,
            "game": row.id,
            "seq": row.version,
            "seat": seat,
            "action": action.to_json(),
            "resolves": resolves,
        }
        emit("TRY", facts)
        user = next(s for s in row.seats if s.seat == seat)
        switch.before(resolves)
        reply = await service.act(
            Actor(user.user_id, user.display_name), Place(channel, 1), row.kind, command, args
        )
        switch.after()
        text = str(reply.private.text) if reply.private else ""
        if reply.ok and text.startswith("✅"):
            emit("ACK", facts)
        elif not reply.ok:
            emit("REFUSED", {**facts, "text": text})
        done += 1
    await service.close()
    emit("DONE", {"steps": step, "submitted": done})
    return 0


def parse_output(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The driver's lines as (tag, data); a line cut by a kill is dropped."""
    out = []
    for line in text.splitlines():
        tag, _, rest = line.partition(" ")
        try:
            out.append((tag, json.loads(rest)))
        except json.JSONDecodeError:
            continue
    return out


async def deadlines_only(url: str, days: float) -> int:
    """Say ``READY`` once connected, wait for ``GO`` on stdin (the test sends it when every
    process is ready, so that they start together however loaded the machine is), then, with
    the clock ``days`` ahead, run the deadlines until none is due. Each round takes
    at most ``PER_ROUND`` due deadlines and then yields a moment, as a bot's deadline loop does
    between its other work: on SQLite, a process running them all back to back would keep the
    one writer to itself, and the other would never get a turn."""
    clock = Clock(days * 86400.0)
    real_due = repo.due_deadlines

    async def a_few(session: Any, now: float, limit: int = 100, guild_id: int | None = None) -> Any:
        return await real_due(session, now, min(limit, PER_ROUND), guild_id)

    repo.due_deadlines = a_few
    service = await Service.open(url, render=False, migrate=False, clock=clock)
    watch_announcements(service)
    emit("READY", {})
    go = await asyncio.to_thread(sys.stdin.readline)
    assert go.strip() == "GO", f"expected GO on stdin, read {go!r}"
    rounds = 0
    while (upcoming := await service.next_deadline()) is not None and upcoming <= clock():
        await service.run_deadlines()
        rounds += 1
        await asyncio.sleep(0.01)
    await service.close()
    emit("DONE", {"rounds": rounds})
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--deadline-every", type=int, default=0)
    parser.add_argument("--until-done", action="store_true")
    parser.add_argument("--deadlines-only", action="store_true")
    parser.add_argument("--days", type=float, default=30.0)
    parser.add_argument("--kill-at", choices=("write", "commit"), default=None)
    parser.add_argument("--kill-on", type=int, default=1)
    args = parser.parse_args(argv)
    install()  # this process's own registry: the tiny game is played too
    if args.deadlines_only:
        return asyncio.run(deadlines_only(args.url, args.days))
    return asyncio.run(
        play(
            args.url,
            args.seed,
            args.steps,
            args.deadline_every,
            args.until_done,
            args.kill_at,
            args.kill_on,
        )
    )


if __name__ == "__main__":
    sys.exit(main())
