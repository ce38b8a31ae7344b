"""Whole games played through the fake Discord, as players would: random legal moves, by
clicking the button that makes them (on the phase message, or under the player's own
"Recorded") or by typing the slash command when no button does. Used by the end-to-end tests
of the table and by ``python -m bench rest`` and ``python -m bench table``.

What the chat saw is counted (:class:`Counts`): REST calls (and those Discord's global rate
limit counts), channel posts, edits, pictures and mentions, per move, per resolved phase and
per turn (the engine's ``turn_key``: a player's turn, a Bad Bones phase, a FUSE round), the
pings each player got in each turn, the most posts in any 5 s, and the buttons refused as
stale when several players answer at once.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.service import buttons as button_ids
from bot.service.match import Match
from bot.store import repository as repo
from bot.store.models import ACTIVE
from i18n import t
from rules.core import Command, CommandArgs, get_game
from rules.core.policy import choose
from tests.fakediscord.server import Exchange, FakeDiscord, FakeUser, Sent
from tests.support.commands import command_for


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
    turns: int = 0  # turns (``turn_key``) the game went through, the first included
    rounds: int = 0  # Bad Bones' and FUSE's rounds (0: the game has none)
    pictures: int = 0  # posts and edits that brought a picture, after the start
    game_posts: int = 0  # posts after the start (the lobby's left out), the end included
    game_pings: int = 0
    game_counted: int = 0  # counted calls (see ``counted``) from the start on
    # pings each user got in each turn: (turn, user) → pings
    turn_pings: Counter[tuple[str, int]] = field(default_factory=Counter)
    most_in_5s: int = 0  # the most posts in any 5 s window, in the game's channel
    stale: int = 0  # answers refusing a button as stale (from an earlier phase)
    together: int = 0  # moves sent at once with another player's
    unanswered: int = 0  # interactions that failed (too late to answer: nothing was done)

    @property
    def rest(self) -> int:
        return sum(self.calls.values())

    @property
    def counted(self) -> int:
        """The calls Discord's global rate limit (50 a second per bot token) counts: all but
        the interactions' own (callbacks, and follow-ups and edits by the interaction's
        token), lobby included."""
        return sum(n for route, n in self.calls.items() if not _interaction_route(route))

    @property
    def per_move(self) -> float:
        """REST calls per move, once the game has begun (the lobby's are counted apart)."""
        return (self.rest - self.lobby_calls) / max(1, self.moves)

    def per_turn(self, amount: int) -> float:
        return amount / max(1, self.turns)

    @property
    def most_pings(self) -> int:
        """The most pings one player got in one turn."""
        return max(self.turn_pings.values(), default=0)

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
    computers: int = 0,
    together: int = 1,
    level: str | None = None,
) -> Counts:
    """Open ``game`` with ``users`` (the first hosts), play it to its end with random legal
    moves and return what it cost. ``patient``: wait for every edit before the next move (as
    players who take longer than the edit delay); otherwise moves come as fast as the bot
    answers, and several make one edit. ``computers``: computer seats added by the host (the
    bot plays them by its deadline loop). ``together``: up to this many awaited players
    answer at once, each on the table as they saw it (their clicks race). ``level``: the
    players choose as the computer of that level would, rather than at random (random play
    declares a Farkle brawl two turns in three). ``clicks_only``: a move no button makes is made in
    the menus of its steps (``Command.steps``), never typed."""
    rng = random.Random(seed)
    engine = get_game(game)
    selects = {c.name: c.select for c in engine.commands if c.select}
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
    for _ in range(computers):
        added = await (await fake.slash(users[0], "game addbot", channel_id=where)).result()
        assert "⚠️" not in added.content, added.content
    game_from = (len(fake.posted), len(fake.edits))  # the start's own post is the game's
    calls_from = len(fake.calls)
    started = await (await fake.slash(users[0], "game start", channel_id=where)).result()
    assert "⚠️" not in started.content, started.content
    players = {u.id: Player(u) for u in users}
    await _settle(fake, bot, True)
    counts.lobby_calls = len(fake.calls) - calls_before
    turn: str | None = None
    seen: set[str] = set()
    rounds: set[int] = set()
    stale = t("lobby.error.stale_button", "en")
    idle_for = 0.0
    while counts.moves < max_moves:
        async with service.sessions() as session:
            row = await repo.open_game(session, where)
        if row is None or row.status != ACTIVE:
            break
        match = Match.of(row)
        snap = engine.snapshot(match.state)
        if turn is None:  # the start's post is the first turn's
            turn = snap.turn
            seen.add(turn)
            _count_turn(counts, fake, game_from, turn, where)
            game_from = (len(fake.posted), len(fake.edits))
        _note_round(rounds, match.state)
        pending = snap.pending
        assert pending, f"{game}: nobody is pending in phase {row.phase}"
        people = {s.seat: s.user_id for s in row.seats if s.user_id in players and not s.left}
        ours = sorted(set(pending) & set(people))
        if not ours:  # only computer seats are awaited: the bot plays them in a moment
            await asyncio.sleep(0.05)
            idle_for += 0.05
            assert idle_for < 60, f"{game}: the computer seats never played"
            continue
        idle_for = 0.0
        movers = rng.sample(ours, min(together, len(ours)))
        sends = []
        for seat in movers:
            if level is None:
                action = rng.choice(engine.legal_actions(match.state, seat))
            else:
                action = choose(engine, match.state, seat, level)
            player = players[people[seat]]
            sends.append((player, *(command_for(engine, action))))
        exchanges = []
        for player, command, args in sends:
            wanted = button_ids.button_id(row.id, row.phase, command, args)
            holder = _holding(fake, player, wanted, where)
            if holder is None and wanted is not None and clicks_only:
                await fake.idle(quiet=0.02)  # quick players: the phase's message is on its way
                holder = _holding(fake, player, wanted, where)
            stepped = next((c for c in engine.commands if c.name == command and c.steps), None)
            param = selects.get(command)
            menu = button_ids.select_id(row.id, row.phase, command, param) if param else None
            offered = _holding(fake, player, menu, where) if param and param in args else None
            if holder is not None and wanted is not None:
                exchanges.append(fake.click(player.user, holder, _as_on(holder, wanted)))
                counts.clicks += 1
            elif offered is not None and menu is not None and param is not None:
                values = str(args[param]).split()
                exchanges.append(fake.choose(player.user, offered, menu, values))
                counts.clicks += 1
            elif clicks_only:
                assert stepped is not None, f"{game}: no button nor menu makes {command} {args}"
                exchanges.append(
                    pick(fake, counts, player, row.id, row.phase, stepped, args, where)
                )
                counts.picked[command] += 1
            else:
                typed = _typed(args)
                exchanges.append(
                    fake.slash(player.user, f"{game} {command}", channel_id=where, **typed)
                )
                counts.typed += 1
        sent = await asyncio.gather(*exchanges)
        answers = await asyncio.gather(*(_answer(exchange) for exchange in sent))
        if len(sent) > 1:
            counts.together += len(sent)
        for (player, command, args), answer in zip(sends, answers, strict=True):
            if answer is None:  # reached the bot too late (a loaded machine): not applied
                counts.unanswered += 1
                continue
            if stale in answer.text:
                counts.stale += 1
            elif len(sends) == 1 and not computers:
                # A lone move is always legal: refused, it is a bug. (With computer seats a
                # real-time game's computer may take the same die first: a true refusal.)
                assert "⚠️" not in answer.content, (game, command, args, answer.content)
            player.last = answer
            counts.moves += 1
        await _settle(fake, bot, patient)
        async with service.sessions() as session:
            after = await repo.game_by_id(session, row.id)
        if after is None or after.phase != row.phase or after.status != ACTIVE:
            counts.phases += 1
        if after is not None and after.status == ACTIVE and after.state is not None:
            # What a move sent is its next turn's: the post that passes the turn pings
            # whose turn begins.
            turn = engine.turn_key(engine.load(after.state))
            seen.add(turn)
        _count_turn(counts, fake, game_from, turn, where)
        game_from = (len(fake.posted), len(fake.edits))
    await _settle(fake, bot, True)
    if turn is not None:
        _count_turn(counts, fake, game_from, turn, where)
    for method, route in fake.calls[calls_before:]:
        counts.calls[f"{method} {route}"] += 1
    posted = fake.posted[posts_before:]
    counts.posts = len(posted)
    counts.edits = len(fake.edits) - edits_before
    counts.pings = sum(len(s.allowed_mentions.get("users") or []) for s in posted)
    counts.game_counted = sum(
        1
        for method, route in fake.calls[calls_from:]
        if not _interaction_route(f"{method} {route}")
    )
    counts.turns = len(seen)
    counts.rounds = len(rounds)
    # Discord's 5 s, as long as the fake's windows are (``RateLimits.scale``).
    window = 5.0 * fake.ratelimits.scale
    counts.most_in_5s = most_in(window, [s.at for s in posted if s.channel_id == where])
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
    if answer.ephemeral:  # the move's receipt replaced the private menus
        assert not menus, f"{spec.name} {args}: still asked {menus}"
    else:
        # The last step was picked under the phase message: the click is answered by that
        # message's edit (quiet-turn), whose menus are the table's next question (another
        # player's, or the mover's next move), never a further step of this move.
        assert answer.message["id"] == phase_message.message["id"], (spec.name, answer.content)
        going_on = {
            button_ids.step_id(game_id, phase, spec.name, made, param)
            for param in spec.steps
            if param not in made
        }
        left = [m["custom_id"] for m in menus if m["custom_id"].split("#")[0] in going_on]
        assert not left, f"{spec.name} {args}: still asked {left}"
    return exchange


async def _answer(exchange: Exchange) -> Sent | None:
    """The visible answer, or ``None`` when none came in 30 s (the interaction failed: the bot
    got it too late to answer, and did nothing; or its answer is lost: counted, and the tests
    that play whole games assert there is none)."""
    try:
        return await exchange.result(timeout=30.0)
    except TimeoutError:
        return None


def _count_turn(
    counts: Counts, fake: FakeDiscord, since: tuple[int, int], turn: str | None, where: int
) -> None:
    """What the chat got since ``since`` (posts, edits), counted to ``turn``."""
    posts = [s for s in fake.posted[since[0] :] if s.channel_id == where]
    edits = fake.edits[since[1] :]
    counts.game_posts += len(posts)
    counts.pictures += sum(1 for s in (*posts, *edits) if s.files)
    for sent in posts:
        for user in sent.allowed_mentions.get("users") or []:
            counts.game_pings += 1
            counts.turn_pings[(str(turn), int(user))] += 1


def _note_round(rounds: set[int], state: Any) -> None:
    """Bad Bones' and FUSE's rounds (their states number them)."""
    number = getattr(state, "round", None)
    if isinstance(number, int):
        rounds.add(number)


def most_in(window: float, times: list[float]) -> int:
    """The most of ``times`` (seconds) that fall within any ``window`` seconds."""
    times = sorted(times)
    most, first = 0, 0
    for last, at in enumerate(times):
        while at - times[first] >= window:
            first += 1
        most = max(most, last - first + 1)
    return most


def _interaction_route(route: str) -> bool:
    """``"POST /interactions/{id}/{token}/callback"``, ``"PATCH /webhooks/…"``: an interaction's
    own call (a bot's webhooks are its interactions' here: it makes none of its own)."""
    path = route.split(" ", 1)[-1]
    return path.startswith(("/interactions/", "/webhooks/"))


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
    wanted = _unasked(custom_id)
    if player.last is not None and wanted in _ids(player.last):
        return player.last
    for sent in reversed(fake.in_channel(where)):
        if wanted in _ids(sent):
            return sent
        if sent.buttons or sent.selects:
            return None  # the latest phase message lacks it: older buttons are stale
    return None


def _ids(sent: Sent) -> set[str]:
    """The custom ids of a message's buttons and menus, without the mark of the question they
    answer (``~<asked>``, Bad Bones phase 3: bot/service/buttons.py)."""
    return {_unasked(i) for i in (*sent.buttons.values(), *(s["custom_id"] for s in sent.selects))}


def _unasked(custom_id: str) -> str:
    return re.sub(r"^(pt:\d+:[0-9a-f]*)~\d+:", r"\1:", custom_id)


def _as_on(sent: Sent, custom_id: str) -> str:
    """``custom_id`` as the message ``sent`` carries it (with its question's mark, if any)."""
    wanted = _unasked(custom_id)
    return next(
        (
            i
            for i in (*sent.buttons.values(), *(s["custom_id"] for s in sent.selects))
            if _unasked(i) == wanted
        ),
        custom_id,
    )


def _typed(args: dict[str, Any]) -> dict[str, Any]:
    """Command arguments as a slash command's options (numbers stay numbers)."""
    out: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, str) and value.lstrip("-").isdigit():
            out[key] = int(value)
        else:
            out[key] = value
    return out
