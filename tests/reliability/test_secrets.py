"""Hidden information stays hidden: views, events, messages, image inputs and logs.

What is hidden is asked of each game, not hard-coded: a seat's *own* data is whatever its view
shows that the public view does not (keys present only in ``view(state, seat)``), and a secret
simultaneous submission is whatever differs between two submissions the seat could make.

- **Simultaneous phases** (several seats pending): for a pending seat with two different legal
  sealed submissions (``Game.sealed``) that do not resolve the phase, the public view, every
  other seat's view, the public events and the phase token are identical either way. Several
  seats may also be pending on choices the rules make public (Bad Bones' phase-3 questions,
  answered before the table): those are told, not sealed; a choice that the seat's own view
  tells apart but the table's view and events do not must be declared sealed.
- **Own data**: a seat's own-only values never appear in the public view or in another seat's
  view (unless that seat holds the same value itself, or it is public anyway).
- **Through the service**: playing random games, no private event line reaches a public
  message, no public image is drawn from anything but the public view, and no log line (at
  DEBUG, every logger) contains a private line or a seat's own data.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import Actor, Place, Reply, Service
from bot.service.fairuse import LOOK, REPLAY, Budget, FairUse, Limit
from bot.store import repository as repo
from rules.core import Event, Game, get_game, public
from rules.core.actions import Withdraw
from tests.reliability.common import game_params, games, loop_service, production_logging
from tests.reliability.driver import GameSpec, pick, seat_count, setup_games
from tests.support.commands import command_for
from tests.support.rows import game_by_id

GAMES = 6
MAX_STEPS = 150
SAMPLE_EVERY = 3
SERVICE_STEPS = 40
# The tests ask for a board and a replay after every move: more than fair use lets one user
# (not what they test).
UNLIMITED = {kind: Budget(Limit(10**9, 1.0), Limit(10**9, 1.0)) for kind in (LOOK, REPLAY)}


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))


def own_only(engine: Game[Any], state: Any, seat: int) -> dict[tuple[Any, ...], str]:
    """Values in the seat's view under keys the public view lacks, as JSON (skipping the
    seat's own number and empty or tiny values that would match anywhere)."""
    mine = dict(leaves(engine.view(state, seat)))
    shared = dict(leaves(engine.view(state, None)))
    out: dict[tuple[Any, ...], str] = {}
    for path, value in mine.items():
        if not path or path in shared or any(path[:i] in out for i in range(1, len(path))):
            continue
        text = json.dumps(value, sort_keys=True)
        if value == seat or len(text) < 8:
            continue
        out[path] = text
    return out


def event_form(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.key, json.dumps(e.args, sort_keys=True, default=str)) for e in public(events)]


def random_states(engine: Game[Any], seats: int, seed: int) -> Iterator[Any]:
    rng = random.Random(seed)
    state = engine.new_game(seats, {}, seed)
    now = 1_000_000.0
    for _ in range(MAX_STEPS):
        if engine.is_over(state):
            return
        yield state
        chosen = pick(engine, state, rng)
        if chosen is None:
            return
        state, _ = engine.apply(state, chosen[0], chosen[1], now)
        now += 1.0


def seat_counts(engine: Game[Any]) -> list[int]:
    return sorted({max(engine.min_seats, 2), engine.max_seats} & set(range(1, 7)))


@pytest.mark.parametrize("kind", game_params())
def test_a_simultaneous_submission_is_invisible_until_the_phase_resolves(kind: str) -> None:
    engine = get_game(kind)
    compared = 0
    for seats in seat_counts(engine):
        for seed in range(GAMES):
            for state in random_states(engine, seats, seed):
                pending = engine.pending(state)
                if len(pending) < 2:
                    continue
                seat = sorted(pending)[seed % len(pending)]
                actions = engine.legal_actions(state, seat)[:6]
                outcomes = []
                for action in actions:
                    after, events = engine.apply(state, seat, action, 2_000_000.0)
                    if engine.phase(after) != engine.phase(state) or engine.is_over(after):
                        continue  # this submission resolves the phase: then all is revealed
                    if not engine.sealed(after, seat):
                        # A choice the rules make public (Bad Bones' phase 3, D13 seals phases
                        # 1 and 2 only): told to the table. One the seat's own view tells apart
                        # and the table does not must be sealed (the next test checks it).
                        continue
                    others = {t: engine.view(after, t) for t in range(seats) if t != seat}
                    outcomes.append(
                        (engine.view(after, None), others, event_form(events), engine.phase(after))
                    )
                for other in outcomes[1:]:
                    compared += 1
                    assert other[0] == outcomes[0][0], f"{kind}: the public view shows a secret"
                    assert other[1] == outcomes[0][1], f"{kind}: another seat sees a secret"
                    assert other[2] == outcomes[0][2], f"{kind}: a public event tells a secret"
                    assert other[3] == outcomes[0][3], f"{kind}: the phase token tells a secret"
    if compared == 0:
        pytest.skip(f"{kind} has no simultaneous phase with a choice (nothing to hide)")


@pytest.mark.parametrize("kind", game_params())
def test_a_sealed_submission_leaves_nothing_behind_when_its_seat_changes_hands(kind: str) -> None:
    """``/game replace`` withdraws a seat's sealed choice (``Game.sealed``/``withdraw``), so
    that the newcomer cannot read it. Wherever several seats are pending: a submission that the
    seat's own view tells apart from another must be declared sealed, and withdrawing it must
    give back the state from before it was made, to the last field. A choice the table is told
    (its public view or public events tell it apart: Bad Bones' phase-3 answers) is public, not
    sealed: only own views that differ where the table's trace is the same count. (A standing
    preference, ``prefer``, is a setting, not a legal submission: it is not among these.)"""
    engine = get_game(kind)
    compared = 0
    for seats in seat_counts(engine):
        for seed in range(GAMES):
            for state in random_states(engine, seats, seed):
                pending = engine.pending(state)
                if len(pending) < 2:
                    continue
                seat = sorted(pending)[seed % len(pending)]
                before = engine.copy(state)
                if engine.sealed(before, seat):
                    before, _ = engine.apply(before, seat, Withdraw())
                own_views: dict[str, set[str]] = {}
                sealed_here = 0
                for action in engine.legal_actions(before, seat)[:6]:
                    after, told = engine.apply(before, seat, action, 2_000_000.0)
                    if engine.phase(after) != engine.phase(before) or engine.is_over(after):
                        continue
                    table = json.dumps([engine.view(after, None), event_form(told)], sort_keys=True)
                    own = json.dumps(engine.view(after, seat), sort_keys=True)
                    own_views.setdefault(table, set()).add(own)
                    if not engine.sealed(after, seat):
                        continue
                    compared, sealed_here = compared + 1, sealed_here + 1
                    withdrawn, events = engine.apply(after, seat, Withdraw())
                    assert public(events) == [], f"{kind}: a withdrawal tells the table a secret"
                    assert engine.dump(withdrawn) == engine.dump(before), (
                        f"{kind}: {action} leaves a trace once withdrawn"
                    )
                if any(len(views) > 1 for views in own_views.values()):
                    assert sealed_here, f"{kind}: a seat's view shows a choice not declared sealed"
    if compared == 0:
        pytest.skip(f"{kind} has no sealed choice (nothing to withdraw)")


@pytest.mark.parametrize("kind", game_params())
def test_own_data_is_in_no_other_view(kind: str) -> None:
    """A seat's own value showing up in another seat's private part of the view could be a
    coincidence (both hold a shield); a leak shows up every time. So count, per (seat, path),
    how often the value appears in another seat's view, and fail on a path where it always
    does."""
    engine = get_game(kind)
    seen: Counter[tuple[int, tuple[Any, ...]]] = Counter()
    found: Counter[tuple[int, tuple[Any, ...]]] = Counter()
    for seats in seat_counts(engine):
        for seed in range(GAMES):
            for step, state in enumerate(random_states(engine, seats, seed)):
                if step % SAMPLE_EVERY:
                    continue
                public_text = json.dumps(engine.view(state, None), sort_keys=True)
                texts = {t: json.dumps(engine.view(state, t), sort_keys=True) for t in range(seats)}
                own = {t: own_only(engine, state, t) for t in range(seats)}
                for seat in range(seats):
                    for path, value in own[seat].items():
                        if value in public_text:
                            continue  # public anyway (e.g. a card everyone saw played)
                        for other in range(seats):
                            if other == seat or own[other].get(path) == value:
                                continue  # the same value for both: nothing to tell apart
                            seen[other - seat, path] += 1
                            found[other - seat, path] += value in texts[other]
    if not seen:
        pytest.skip(f"{kind} shows no seat anything the table does not see")
    for key, count in seen.items():
        if count >= 10:
            assert found[key] < 0.9 * count, f"{kind}: seat+{key[0]} always sees {key[1]}"


@pytest.mark.parametrize("kind", game_params())
def test_service_messages_images_and_logs_keep_secrets(kind: str, tmp_path: Path) -> None:
    engine = get_game(kind)
    seats = seat_count(kind, 3)
    rng = random.Random(7)
    secrets: set[str] = set()
    with production_logging("DEBUG") as logs, loop_service(tmp_path) as svc:
        service = svc.service
        jobs: list[Any] = []
        original = service.finish

        private_jobs: list[Any] = []

        async def finish(draft: Any) -> Reply:
            jobs.extend(post.picture for post in draft.public if post.picture is not None)
            if draft.private_image is not None:
                private_jobs.append(draft.private_image)
            return await original(draft)

        service.finish = finish  # type: ignore[method-assign]  # a spy, then the real one
        service.fair_use = FairUse(service.clock, UNLIMITED)
        channel = 10
        place = Place(channel, 1)
        game_id = svc.run(setup_games(service, [GameSpec(kind, seats, channel)]))[channel]

        for _ in range(SERVICE_STEPS):
            row = svc.run(game_by_id(service, game_id))
            if row.status != "active":
                break
            assert row.state is not None, "an active game has its state"
            state = engine.load(row.state)
            for seat in range(seats):
                secrets.update(v for v in own_only(engine, state, seat).values())
            chosen = pick(engine, state, rng)
            if chosen is None:
                break
            seat, action = chosen
            command, args = command_for(engine, action)
            user = next(s for s in row.seats if s.seat == seat)
            jobs.clear()
            reply = svc.run(
                service.act(Actor(user.user_id, user.display_name), place, kind, command, args)
            )
            assert reply.ok, reply.private
            public_text = "\n".join(str(o.message.text) for o in reply.public)
            private_lines = str(reply.private.text).splitlines()[1:] if reply.private else []
            moved = svc.run(game_by_id(service, game_id))
            assert moved.state is not None, "a game that was played has its state"
            if not engine.sealed(engine.load(moved.state), seat):
                # A question the table asks this player in its message (Bad Bones' phase 3 is
                # public: the next question is asked there and repeated to its player) is no
                # secret; a seat holding a sealed choice gets no such exemption.
                asked = f"@{user.display_name}: "
                private_lines = [line for line in private_lines if asked + line not in public_text]
            secrets.update(line for line in private_lines if len(line) >= 8)
            for line in private_lines:
                assert line not in public_text, f"{kind}: a private line went public: {line}"
            after = svc.run(game_by_id(service, game_id))
            assert after.state is not None, "a game that was played has its state"
            for job in jobs:
                assert not job.private
                assert job.view == engine.view(engine.load(after.state), None), (
                    f"{kind}: a public image drawn from more than the public view"
                )
        # /game board: a spectator gets the table, each player their own board, nothing more.
        row = svc.run(game_by_id(service, game_id))
        if row.status == "active":
            assert row.state is not None, "an active game has its state"
            state = engine.load(row.state)
            askers = [(Actor(99, "Spectator"), None)] + [
                (Actor(s.user_id, s.display_name), s.seat) for s in row.seats
            ]
            for asker, asker_seat in askers:  # the spectator has no seat
                private_jobs.clear()
                assert svc.run(service.board(asker, place)).ok
                (job,) = private_jobs
                assert job.view == engine.view(state, asker_seat), f"{kind}: board for {asker_seat}"
                assert job.private == (asker_seat is not None)
    logged = logs.getvalue()
    assert logged, "the bot logged nothing at DEBUG?"
    for secret in secrets:
        assert secret not in logged, f"{kind}: a log line holds a secret: {secret[:80]}"


def _log_lines(text: str) -> list[str]:
    """Log lines without what differs between any two runs (the time, the duration)."""
    lines = [line.split(" ", 2)[-1] for line in text.splitlines() if " level=" in line]
    return [re.sub(r" ms=[\d.]+", "", line) for line in lines]


def _secret_pair(engine: Game[Any], state: Any, by_name: bool) -> tuple[int, Any, Any] | None:
    """A pending seat of a simultaneous phase and two of its submissions that leave the phase
    open (so both stay secret) and differ as commands: by the command's name if ``by_name``,
    else in any way."""
    pending = sorted(engine.pending(state))
    if len(pending) < 2:
        return None
    for seat in pending:
        seen: dict[str, Any] = {}
        for action in engine.legal_actions(state, seat)[:40]:
            after, _ = engine.apply(state, seat, action, 2_000_000.0)
            if engine.phase(after) != engine.phase(state) or engine.is_over(after):
                continue
            command = engine.to_command(action)
            if command is None:
                continue
            key = command[0] if by_name else json.dumps(command, sort_keys=True, default=str)
            seen.setdefault(key, action)
        if len(seen) >= 2:
            first, second = list(seen.values())[:2]
            return seat, first, second
    return None


def _copy(source: Path, target: Path) -> None:
    with sqlite3.connect(source) as a, sqlite3.connect(target) as b:
        a.backup(b)


@pytest.mark.parametrize("kind", games())
def test_the_log_says_the_same_whichever_secret_was_submitted(kind: str, tmp_path: Path) -> None:
    """Two copies of one game at a simultaneous phase; the same seat submits a different
    secret in each: every log line of the two submissions must be the same. The pair is the
    first that differs by the command's name (the strongest case) if the game reaches one,
    else the first that differs at all (a snapshot of the database is kept for it)."""
    engine = get_game(kind)
    seats = seat_count(kind, 3)
    rng = random.Random(3)
    live = tmp_path / "fuzz.db"
    found: tuple[int, Any, Any] | None = None
    fallback: tuple[int, Any, Any] | None = None
    with loop_service(tmp_path) as svc:
        service = svc.service
        channel = 10
        place = Place(channel, 1)
        game_id = svc.run(setup_games(service, [GameSpec(kind, seats, channel)]))[channel]

        async def load(target: Service) -> Any:
            async with target.sessions() as session:
                return await repo.game_by_id(session, game_id)

        for _ in range(SERVICE_STEPS * 3):
            row = svc.run(load(service))
            if row.status != "active":
                break
            users = {s.seat: Actor(s.user_id, s.display_name) for s in row.seats}
            state = engine.load(row.state)
            if (found := _secret_pair(engine, state, by_name=True)) is not None:
                _copy(live, tmp_path / "at.db")
                break
            if fallback is None and (fallback := _secret_pair(engine, state, False)):
                _copy(live, tmp_path / "fallback.db")
            chosen = pick(engine, state, rng)
            if chosen is None:
                break
            seat, action = chosen
            command, args = command_for(engine, action)
            assert svc.run(service.act(users[seat], place, kind, command, args)).ok
    snapshot = tmp_path / ("at.db" if found else "fallback.db")
    found = found or fallback
    if found is None:
        pytest.skip(f"{kind}: no simultaneous phase with two secret submissions reached")
    seat, first, second = found
    lines = []
    with production_logging("DEBUG") as logs:
        for name, action in (("one.db", first), ("two.db", second)):
            _copy(snapshot, tmp_path / name)
            with loop_service(tmp_path, name) as copy:
                start = len(logs.getvalue())
                command, args = command_for(engine, action)
                reply = copy.run(copy.service.act(users[seat], place, kind, command, args))
                assert reply.ok, reply.private
                lines.append(_log_lines(logs.getvalue()[start:]))
    assert lines[0], "the submission logged nothing?"
    assert lines[0] == lines[1], f"{kind}: the log tells the secrets apart:\n{lines}"


@pytest.mark.parametrize("kind", game_params())
def test_a_replay_shows_only_what_the_channel_saw(kind: str, tmp_path: Path) -> None:
    """``/game replay`` of a game in progress, asked after every move (a secret submission
    waiting for the others included): every frame is a public view, the last is the public
    view of the table now, and no seat's own data or private line is in any frame."""
    from render.replay import shots

    engine = get_game(kind)
    seats = seat_count(kind, 3)
    rng = random.Random(11)
    with loop_service(tmp_path) as svc:
        service = svc.service
        jobs: list[Any] = []
        original = service.finish

        async def finish(draft: Any) -> Reply:
            jobs.extend(post.replay for post in draft.public if post.replay is not None)
            return await original(draft)

        service.finish = finish  # type: ignore[method-assign]  # a spy, then the real one
        service.fair_use = FairUse(service.clock, UNLIMITED)
        channel = 10
        place = Place(channel, 1)
        game_id = svc.run(setup_games(service, [GameSpec(kind, seats, channel)]))[channel]

        secrets: set[str] = set()
        for _ in range(SERVICE_STEPS):
            row = svc.run(game_by_id(service, game_id))
            if row.status != "active":
                break
            assert row.state is not None, "an active game has its state"
            state = engine.load(row.state)
            chosen = pick(engine, state, rng)
            if chosen is None:
                break
            seat, action = chosen
            command, args = command_for(engine, action)
            user = next(s for s in row.seats if s.seat == seat)
            reply = svc.run(
                service.act(Actor(user.user_id, user.display_name), place, kind, command, args)
            )
            assert reply.ok, reply.private
            if reply.private is not None:
                secrets.update(
                    line for line in str(reply.private.text).splitlines()[1:] if len(line) >= 8
                )
            moved = svc.run(game_by_id(service, game_id))
            assert moved.state is not None, "a game that was played has its state"
            after = engine.load(moved.state)
            for other in range(seats):
                secrets.update(own_only(engine, after, other).values())
            jobs.clear()
            asked = svc.run(service.replay_game(Actor(99, "Spectator"), place, game_id))
            assert asked.ok, asked.private
            (job,) = jobs
            taken = shots(job.kind, job.seats, job.options, job.seed, job.log)
            assert taken[-1].view == engine.view(after, None), f"{kind}: the last frame is now"
            shown = json.dumps([s.view for s in taken], sort_keys=True)
            for secret in secrets:
                assert secret not in shown, f"{kind}: a replay frame holds a secret: {secret[:80]}"
            texts = " ".join(str(o.message.text) for o in asked.public)
            for secret in secrets:
                assert secret not in texts
