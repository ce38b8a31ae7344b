"""Whole games played through the fake Discord, as players would: random legal moves, by
clicking the button that makes them (on the phase message, or under the player's own
"Recorded") or by typing the slash command when no button does. Used by the end-to-end tests
of the table and by ``python -m bench rest``.

What the chat saw is counted (:class:`Counts`): REST calls, channel posts, edits and mentions,
per move and per resolved phase.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.service import buttons as button_ids
from bot.service.table import Table
from bot.store import repository as repo
from bot.store.models import ACTIVE
from rules.core import Command, CommandArgs, get_game
from tests.fakediscord.server import Exchange, FakeDiscord, FakeUser, Sent


@dataclass
class Counts:
    """What one game cost and showed."""

    game: str
    seats: int
    moves: int = 0
    phases: int = 0  # phases resolved (the phase token moved on, or the game ended)
    calls: Counter[str] = field(default_factory=Counter)  # REST calls by route
    lobby_calls: int = 0  # of which opening, joining and starting the game
    where: int = 0  # the channel the game was played in (its thread, when it had one)
    posts: int = 0  # channel messages (posts), lobby and end included
    edits: int = 0
    pings: int = 0  # users a post may notify (its allowed_mentions)
    clicks: int = 0
    typed: int = 0
    picks: int = 0  # choices in menus of moves chosen step by step (bot/service/picks.py)
    picked: Counter[str] = field(default_factory=Counter)  # moves made in menus, by command
    openers: int = 0  # clicks on a button that opens a move's menus ("Place a trap…")
    private: int = 0  # private answers to picks and openers (ephemeral, or edited in place)

    @property
    def rest(self) -> int:
        return sum(self.calls.values())

    @property
    def per_move(self) -> float:
        """REST calls per move, once the game has begun (the lobby's are counted apart)."""
        return (self.rest - self.lobby_calls) / max(1, self.moves)

    def line(self) -> str:
        per_move = self.per_move
        per_phase = max(1, self.phases)
        return (
            f"{self.game:9s} {self.seats} seats: {self.moves:4d} moves, {self.phases:4d} phases · "
            f"REST {self.rest:5d} (lobby {self.lobby_calls}), {per_move:.2f}/move · posts {self.posts / per_phase:.2f}, "
            f"edits {self.edits / per_phase:.2f}, pings {self.pings / per_phase:.2f} per phase"
            + (
                f" · {self.typed} typed, {sum(self.picked.values())} moves by menus "
                f"({self.picks} picks, {self.openers} openers, {self.private} private answers)"
                if self.picks
                else ""
            )
        )


class Player:
    def __init__(self, user: FakeUser) -> None:
        self.user = user
        self.last: Sent | None = None  # their latest private answer (may carry buttons)


async def play(
    fake: FakeDiscord,
    bot: Any,
    game: str,
    users: list[FakeUser],
    *,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    patient: bool = True,
    max_moves: int = 5000,
    channel_id: int | None = None,
    clicks_only: bool = False,
) -> Counts:
    """Open ``game`` with ``users`` (the first hosts), play it to its end with random legal
    moves and return what it cost. ``patient``: wait for every edit before the next move (as
    players who take longer than the edit delay); otherwise moves come as fast as the bot
    answers, and several make one edit. ``clicks_only``: a move no button makes is made in
    the menus of its steps (``Command.steps``), never typed."""
    rng = random.Random(seed)
    engine = get_game(game)
    service = bot.get_service()
    where = channel_id or fake.channel_id
    calls_before = len(fake.calls)
    posts_before = len(fake.posted)
    edits_before = len(fake.edits)
    counts = Counts(game, len(users))
    opened = await (await fake.slash(users[0], f"{game} new", **(options or {}))).result()
    assert "⚠️" not in opened.content, opened.content
    await _settle(fake, bot, True)
    async with service.sessions() as session:
        threaded = await repo.open_games_in_threads(session, where)
    if threaded:  # the game is played in the thread opened from its lobby message
        where = threaded[-1].channel_id
    counts.where = where
    for user in users[1:]:
        joined = await (await fake.slash(user, "game join", channel_id=where)).result()
        assert "⚠️" not in joined.content, joined.content
    started = await (await fake.slash(users[0], "game start", channel_id=where)).result()
    assert "⚠️" not in started.content, started.content
    players = {u.id: Player(u) for u in users}
    await _settle(fake, bot, True)
    counts.lobby_calls = len(fake.calls) - calls_before
    while counts.moves < max_moves:
        async with service.sessions() as session:
            row = await repo.open_game(session, where)
        if row is None or row.status != ACTIVE:
            break
        table = Table.of(row)
        pending = engine.pending(table.state)
        assert pending, f"{game}: nobody is pending in phase {row.phase}"
        seat = rng.choice(sorted(pending))
        action = rng.choice(engine.legal_actions(table.state, seat))
        user_id = next(s.user_id for s in row.seats if s.seat == seat)
        player = players[user_id]
        command, args = engine.to_command(action) or ("", {})
        wanted = button_ids.button_id(row.id, row.phase, command, args)
        holder = _holding(fake, player, wanted, where)
        if holder is None and wanted is not None and clicks_only:
            await fake.idle(quiet=0.02)  # quick players: the phase's message is on its way
            holder = _holding(fake, player, wanted, where)
        stepped = next((c for c in engine.commands if c.name == command and c.steps), None)
        if holder is not None and wanted is not None:
            exchange = await fake.click(player.user, holder, wanted)
            counts.clicks += 1
        elif clicks_only:
            assert stepped is not None, f"{game}: no button nor menu makes {command} {args}"
            exchange = await pick(fake, counts, player, row.id, row.phase, stepped, args, where)
            counts.picked[command] += 1
        else:
            exchange = await fake.slash(
                player.user, f"{game} {command}", channel_id=where, **_typed(args)
            )
            counts.typed += 1
        answer = await exchange.result()
        assert "⚠️" not in answer.content, (game, command, args, answer.content)
        player.last = answer
        counts.moves += 1
        await _settle(fake, bot, patient)
        async with service.sessions() as session:
            after = await repo.game_by_id(session, row.id)
        if after is None or after.phase != row.phase or after.status != ACTIVE:
            counts.phases += 1
    await _settle(fake, bot, True)
    for method, route in fake.calls[calls_before:]:
        counts.calls[f"{method} {route}"] += 1
    posted = fake.posted[posts_before:]
    counts.posts = len(posted)
    counts.edits = len(fake.edits) - edits_before
    counts.pings = sum(len(s.allowed_mentions.get("users") or []) for s in posted)
    return counts


async def pick(
    fake: FakeDiscord,
    counts: Counts,
    player: Player,
    game_id: int,
    phase: str,
    spec: Command,
    args: CommandArgs,
    where: int,
) -> Exchange:
    """Make the move ``spec`` with ``args`` in menus, as a player would: its first step under
    the latest phase message (a menu, or the button that opens it), each next one in the
    private answer to the pick before. Returns the last pick's exchange (the move's)."""
    opener = button_ids.step_id(game_id, phase, spec.name, {}, None)
    first = button_ids.step_id(game_id, phase, spec.name, {}, spec.steps[0])
    wanted = {opener, first}

    def holder() -> Sent | None:
        return next(
            (s for s in reversed(fake.in_channel(where)) if wanted & _ids(s)),
            None,
        )

    phase_message = holder()
    if phase_message is None:  # quick players: the phase's message is still on its way
        await fake.idle(quiet=0.02)
        phase_message = holder()
    assert phase_message is not None, f"no menu for {spec.name} in phase {phase}"
    if opener is not None and opener in phase_message.buttons.values():
        exchange = await fake.click(player.user, phase_message, opener)
        counts.clicks += 1
        counts.openers += 1
        answer = await exchange.result()
        counts.private += 1
        assert "⚠️" not in answer.content, (spec.name, answer.content)
        menus = answer.selects
    else:
        answer, menus = phase_message, phase_message.selects
    made: dict[str, str | int | bool] = {}
    for param in spec.steps:
        if param not in args:
            continue
        value = str(args[param])
        prefix = button_ids.step_id(game_id, phase, spec.name, made, param)
        assert prefix is not None
        menu = next(
            (
                m
                for m in menus
                if m["custom_id"].split("#")[0] == prefix
                and value in {o["value"] for o in m["options"]}
            ),
            None,
        )
        assert menu is not None, (spec.name, param, value, [m["custom_id"] for m in menus])
        exchange = await fake.choose(player.user, answer, menu["custom_id"], [value])
        counts.picks += 1
        answer = await exchange.result()
        counts.private += 1
        assert "⚠️" not in answer.content, (spec.name, made, param, value, answer.content)
        menus = answer.selects
        made[param] = value
    assert not menus, f"{spec.name} {args}: still asked {menus}"
    return exchange


def _ids(sent: Sent) -> set[str | None]:
    return {c.get("custom_id") for c in sent.components}


async def _settle(fake: FakeDiscord, bot: Any, patient: bool) -> None:
    """Wait until the bot is done with the last move (and, ``patient``, its edits too)."""
    if patient:
        await fake.idle(quiet=0.02)
        return
    checks = fake.busy_checks
    fake.busy_checks = [lambda: bot.busy > 0]
    try:
        await fake.idle(quiet=0.02)
    finally:
        fake.busy_checks = checks


def _holding(fake: FakeDiscord, player: Player, custom_id: str | None, where: int) -> Sent | None:
    """The message with the button for ``custom_id``: the player's own last answer, or the
    latest public message in the game's channel that has it."""
    if custom_id is None:
        return None
    if player.last is not None and custom_id in player.last.buttons.values():
        return player.last
    for sent in reversed(fake.in_channel(where)):
        if custom_id in sent.buttons.values():
            return sent
        if sent.buttons:
            return None  # the latest phase message lacks it: older buttons are stale
    return None


def _typed(args: dict[str, Any]) -> dict[str, Any]:
    """Command arguments as a slash command's options (numbers stay numbers)."""
    out: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, str) and value.lstrip("-").isdigit():
            out[key] = int(value)
        else:
            out[key] = value
    return out
