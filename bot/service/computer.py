"""Computer players in a game: computer seats, the autopilot of absent players, and taking a
seat over.

A seat is *played by the computer* when it is a computer seat (``/game addbot``), when its
person is on autopilot (they missed ``misses`` deadlines in a row, or left), or when they were
removed. Such a seat gets a deadline row due ``Tx.computer_delay`` seconds after it becomes
pending (``deadlines.plan``), which the ordinary deadline loop runs (``timeouts``): the move
goes through ``moves.resolve`` like any other, so it is logged and replays stay exact, and no
game ever waits on a computer inside another command.

The move itself is ``rules.core.policy.choose`` (docs/bots.md): deterministic, from the
position alone, thought out off the event loop (``thinking``) and, for a deadline, before the
deadline's transaction (``think``), so a search never holds SQLite's writer or a channel's lock.
A game without a policy (the platform's test game) plays its pending default. An absent
person's seat plays at the game's autopilot level (``/game settings autopilot:<level>``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.service import compose, deadlines, lobby_posts, thinking
from bot.service.draft import Draft, Post
from bot.service.errors import Refusal
from bot.service.match import Match, new_seat, require, require_host, seat_of, settings
from bot.service.narrate import plain_name
from bot.service.replies import Actor, Place
from bot.service.shown import fold
from bot.service.text import Name, Text, phrase
from bot.service.transaction import Tx, Work
from bot.store import repository as repo
from bot.store.models import ACTIVE, LOBBY, GameRow, SeatRow
from i18n import LANGUAGES, language_for
from rules.core import Action, get_game
from rules.core.actions import Withdraw
from rules.core.policy import LEVELS, has_policy

AUTOPILOT_LEVEL = "normal"  # an absent person's seat, unless the host chose another level
DEFAULT_MISSES = 2  # missed deadlines in a row before the autopilot takes the seat
MAX_MISSES = 20


def autopilot_level(row: GameRow) -> str:
    """The level the computer plays an absent person's seat at (a setting of the game)."""
    return str(settings(row).get("autopilot", AUTOPILOT_LEVEL))


def level_of(row: GameRow, seat: SeatRow) -> str:
    return seat.computer or autopilot_level(row)


async def action_for(match: Match, seat: int, level: str) -> Action:
    """The computer's move for ``seat``: the policy's choice, thought out off the event loop
    (a search in a worker process: ``thinking``)."""
    if not has_policy(match.kind):
        return match.engine.pending(match.state)[seat].default
    return await thinking.decide(match.engine, match.state, seat, level)


@dataclass(frozen=True)
class Thought:
    """A move thought out before its deadline's transaction, for the game at ``version``."""

    version: int
    seat: int
    level: str
    action: Action

    def fits(self, row: GameRow, seat: int, level: str) -> bool:
        """Whether it is still the move: the game has not changed since (nor the level)."""
        return (self.version, self.seat, self.level) == (row.version, seat, level)


async def think(row: GameRow, seat: int, phase: str) -> Thought | None:
    """The computer's move for a due deadline of ``seat``, thought out before the deadline's
    transaction takes the channel's lock and SQLite's writer (a hard decision searches for up to
    a second: inside, it would hold up every game's moves). None when no decision is due
    (another phase, a step with no decision); the transaction checks it still fits."""
    if row.status != ACTIVE or row.phase != phase or not has_policy(row.kind):
        return None
    match = Match.of(row)
    user = next((s for s in row.seats if s.seat == seat), None)
    if user is None or seat not in match.engine.pending(match.state):
        return None
    if match.engine.automatic(match.state, seat) is not None:
        return None
    level = level_of(row, user)
    return Thought(row.version, seat, level, await action_for(match, seat, level))


def misses_allowed(row: GameRow) -> int:
    return int(settings(row).get("misses", DEFAULT_MISSES))


def name_of(level: str, number: int, lang: str) -> str:
    """A computer seat's name: the bot mark, its level and its number ("🤖 Normal 1")."""
    return str(phrase("bots.name", lang, level=phrase(f"bots.level.{level}", lang), number=number))


# --------------------------------------------------------------------------- the lobby


def level_named(typed: str) -> str:
    """The level a player typed: its key (``hard``) or its name in either language
    (``Difícil``, ``dificil``); a Refusal listing the levels otherwise."""
    wanted = fold(typed)
    for level in LEVELS:
        names = {level} | {fold(str(phrase(f"bots.level.{level}", lang))) for lang in LANGUAGES}
        if wanted in names:
            return level
    raise Refusal("bots.error.level", levels_key="bots.levels")  # named in the reader's words


def add_bot(actor: Actor, place: Place, level: str | None) -> Work:
    """``/game addbot [level]``: the host seats a computer player in the lobby."""

    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        if row.status != LOBBY:
            raise Refusal("lobby.error.already_started")
        require_host(actor, row)
        chosen = level_named(level or AUTOPILOT_LEVEL)
        engine = get_game(row.kind)
        if not has_policy(row.kind):
            raise Refusal("bots.error.no_policy", game_key=f"{row.kind}.name")
        if len(row.seats) >= engine.max_seats:
            raise Refusal("lobby.error.full", max=engine.max_seats)
        public_lang = language_for(place.locale)
        # Computer seats are numbered for good (never reused), with user ids no person has.
        number = 1 + max((-s.user_id for s in row.seats if s.computer is not None), default=0)
        name = name_of(chosen, number, public_lang)
        seat = new_seat(len(row.seats), Actor(-number, name, public_lang))
        seat.computer = chosen
        row.seats.append(seat)
        row.updated_at = tx.now
        await tx.session.flush()
        draft = Draft()
        draft.say(phrase("bots.added.private", tx.lang, player=Name(name)))
        draft.public.append(lobby_posts.lobby_post(row, public_lang))  # an edit: who sits now
        return draft

    return work


def only_computers(row: GameRow) -> bool:
    return all(s.computer is not None for s in row.seats)


# --------------------------------------------------------------------------- autopilot


def to_autopilot(seat: SeatRow, lang: str, reason: str) -> Text:
    """Hand a person's seat to the computer, and what the channel is told (once: the seat is
    not handed over again while it is on autopilot)."""
    seat.autopilot = True
    return phrase(f"bots.autopilot.{reason}", lang, player=Name(plain_name(seat.display_name)))


async def reclaim(tx: Tx, actor: Actor, place: Place) -> Post | None:
    """A person on autopilot who sends any command in their game has their seat back (a
    removed player does not). Runs inside the command's own transaction, before it."""
    row = tx.row
    if row is None or row.status != ACTIVE:
        return None
    seat = seat_of(row, actor.user_id)
    if seat is None or not seat.autopilot or seat.left:
        return None
    await tx.writer.take()  # the seat row is written at the next flush
    seat.autopilot = False
    seat.misses = 0
    # Their pending deadline was a computer's few seconds: give them a person's deadline again.
    await deadlines.restart(tx, Match.of(row), seat.seat)
    name = Name(plain_name(seat.display_name))
    text = phrase("bots.autopilot.back", language_for(place.locale), player=name)
    return Post(place.channel_id, text)


# --------------------------------------------------------------------------- replacing


async def withdraw_sealed(tx: Tx, match: Match, seat: int) -> bool:
    """A seat that changes hands with a sealed choice in the current phase (made, not yet
    revealed: Bad Bones' hidden submissions) loses it, so that nobody but the person who made it
    ever sees it (docs/bots.md): the newcomer chooses afresh. The withdrawal is logged as a
    step of the seat (``Withdraw``), so the log replays to the same game. Whether there was one
    to take back."""
    engine, state, row = match.engine, match.state, match.row
    if not engine.sealed(state, seat):
        return False
    engine.play(state, seat, Withdraw(), tx.now)
    seen = row.version
    saved: dict[str, Any] = {"state": engine.dump(state), "updated_at": tx.now}
    repo.as_saved(row, saved)
    writes = repo.Writes().save_game(row, seen, saved)
    writes.append_action(row.id, seen, seat, Withdraw().to_json(), tx.now, True)
    await repo.run(tx.session, writes)
    return True


def replace(actor: Actor, place: Place, old_user: int, new: Actor) -> Work:
    """``/game replace player:<user> with:<user>``: a new person takes over a seat mid-game
    (the host or a channel manager). The seat keeps its number, its position and its history;
    only who plays it changes."""

    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        require_host(actor, row)
        if row.status != ACTIVE:
            raise Refusal("lobby.error.not_started")
        seat = seat_of(row, old_user)
        if seat is None:
            raise Refusal("lobby.error.not_a_player")
        if seat_of(row, new.user_id) is not None:
            raise Refusal("bots.error.already_seated")
        await tx.writer.take()
        old_name = Name(plain_name(seat.display_name))
        fresh = new_seat(seat.seat, new)
        seat.user_id, seat.display_name = fresh.user_id, fresh.display_name
        seat.locale = fresh.locale
        seat.computer, seat.autopilot, seat.left, seat.misses = None, False, False, 0
        if row.host_id == old_user:
            row.host_id = new.user_id
        row.updated_at = tx.now
        await tx.session.flush()
        match = Match.of(row)
        reset = await withdraw_sealed(tx, match, seat.seat)
        await deadlines.restart(tx, match, seat.seat)
        new_name = Name(plain_name(new.display_name))
        draft = Draft()
        draft.say(phrase("bots.replace.private", tx.lang, player=old_name, new=new_name))
        public_lang = language_for(place.locale)
        text = phrase("bots.replace.public", public_lang, player=old_name, new=new_name)
        if reset:
            text = Text.of(
                text, " ", phrase("bots.replace.reset", public_lang, player=old_name, new=new_name)
            )
            edit = compose.readiness(match, match.engine.snapshot(match.state), public_lang)
            if edit is not None:  # the phase message waits for the seat again
                draft.public.append(edit)
        draft.public.append(Post(place.channel_id, text, mentions=(new.user_id,)))
        return draft

    return work
