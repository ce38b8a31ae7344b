"""A game whose table the bot cannot post: its deadlines wait until it can again.

When Discord refuses the bot's posts in a game's channel (no Send Messages, a locked or
archived thread), every move, reminder and default would be another refused request, and
Discord bans a bot's address after 10,000 of them in 10 minutes. So the adapter pauses the
game: its deadline rows are set aside (moved ``SET_ASIDE`` seconds on, where the deadline
loop never looks), and new rows planned meanwhile are set aside too. When a post there works
again the adapter resumes it: the rows come back, later by as long as the pause lasted, so
no player loses time to the bot's trouble, and the channel gets the table as it stands (the
posts it missed meanwhile are not sent late, one by one).

The table as it stands is posted anew also when its message is lost (``again``): deleted by
someone, or its id never recorded because the bot stopped between the post and the record.
"""

from __future__ import annotations

from dataclasses import replace

from bot.service import compose, deadlines, live, lobby_posts
from bot.service.draft import Draft, Post
from bot.service.errors import Refusal
from bot.service.match import (
    SET_ASIDE,
    Match,
    computer_seats,
    held,
    paused,
    public_locale,
    require_host,
)
from bot.service.narrate import events_text
from bot.service.replies import Actor, Slot
from bot.service.text import Text, lines, phrase
from bot.service.transaction import Tx, Work
from bot.store import repository as repo
from bot.store.models import ACTIVE, LOBBY, GameRow


def hold(actor: Actor, on: bool) -> Work:
    """The host holds the game's deadlines (no reminder, no default, no computer turn for an
    absent player) or lets them run again, every deadline later by as long as the hold lasted.
    The game can still be played meanwhile; the channel is told either way."""

    async def work(tx: Tx) -> Draft:
        row = tx.row
        if row is None or row.status != ACTIVE:
            raise Refusal("lobby.error.not_started")
        require_host(actor, row)
        draft = Draft()
        lang = public_locale(row)
        if on == held(row):
            draft.say(phrase("lobby.hold.already_on" if on else "lobby.hold.already_off", tx.lang))
            return draft
        match = Match.of(row)
        if on and match.engine.clocked(match.state):
            # The rules' clock is the game's state: held and let run again, the deadlines came
            # back later by the hold while the bomb had gone off, and the next click lost.
            raise Refusal("lobby.hold.own_clock", game_key=f"{row.kind}.name")
        await tx.writer.take()
        if on:
            await repo.shift_deadlines(tx.session, row.id, SET_ASIDE)
            row.settings = {**row.settings, "held_at": tx.now}
        else:
            lasted = tx.now - float(row.settings["held_at"])
            await repo.shift_deadlines(tx.session, row.id, lasted - SET_ASIDE)
            row.settings = {k: v for k, v in row.settings.items() if k != "held_at"}
        await _computers_play_on(tx, row)
        said = phrase("lobby.hold.on" if on else "lobby.hold.off", lang)
        draft.public.append(Post(row.channel_id, said))
        draft.say(phrase("lobby.hold.on" if on else "lobby.hold.off", tx.lang))
        return draft

    return work


async def _computers_play_on(tx: Tx, row: GameRow) -> None:
    """A computer seat has no holidays (``match.set_aside_for``): a move of one that is due,
    shifted with the people's deadlines, is planned again from now (also one a hold set aside
    before computer seats played on through holds)."""
    match = Match.of(row)
    pending = match.engine.pending(match.state)
    for seat in computer_seats(row):
        if seat in pending:
            await deadlines.restart(tx, match, seat)


def pause(missing: tuple[str, ...], told: list[int]) -> Work:
    """Pause the channel's game; ``told`` receives its host's id the first time (the adapter
    tells the host, once, what the bot is missing)."""

    async def work(tx: Tx) -> Draft:
        row = tx.row
        if row is None or row.status != ACTIVE or paused(row):
            return Draft()
        await repo.shift_deadlines(tx.session, row.id, SET_ASIDE)
        row.settings = {**row.settings, "paused_at": tx.now, "missing": list(missing)}
        told.append(row.host_id)
        return Draft()

    return work


def gone(told: list[tuple[int, int | None]]) -> Work:
    """The channel (or thread) of the game is gone (deleted): pause the game and, when it was
    played in a thread whose channel has no open game of its own, move it back to that
    channel, where any command resumes it (the table is posted there as it stands). ``told``
    receives, the first time, the host's id and that channel (``None``: nowhere to go on)."""

    async def work(tx: Tx) -> Draft:
        row = tx.row
        if row is None or row.settings.get("gone"):
            return Draft()
        if row.status == ACTIVE and not paused(row):
            await repo.shift_deadlines(tx.session, row.id, SET_ASIDE)
            row.settings = {**row.settings, "paused_at": tx.now, "missing": []}
        parent = row.parent_channel_id
        if parent is not None and await repo.open_game(tx.session, parent) is None:
            row.channel_id = row.open_channel_id = parent
            row.parent_channel_id = None
        else:
            parent = None
        row.settings = {**row.settings, "gone": True}
        told.append((row.host_id, parent))
        return Draft()

    return work


def resume(told: list[int]) -> Work:
    """Resume the channel's game; ``told`` receives its host's id, and the draft carries the
    table as it stands, to post once."""

    async def work(tx: Tx) -> Draft:
        row = tx.row
        if row is None or not paused(row):
            return Draft()
        said = "lobby.pause.moved" if row.settings.get("gone") else "lobby.pause.resumed"
        lasted = tx.now - float(row.settings["paused_at"])
        await repo.shift_deadlines(tx.session, row.id, lasted - SET_ASIDE)
        row.settings = {
            k: v for k, v in row.settings.items() if k not in ("paused_at", "missing", "gone")
        }
        told.append(row.host_id)
        draft = Draft()
        if row.status == ACTIVE and row.state is not None:
            match = Match.of(row)
            draft.public.append(table_post(match, said, draw=tx.draws(row.kind)))
        return draft

    return work


def again(game_id: int, role: str) -> Work:
    """The message of ``role`` (``Slot.role``) of game ``game_id`` is lost: the lobby, or the
    table as it stands, posted anew in its slot (nothing once the game is over)."""

    async def work(tx: Tx) -> Draft:
        row = tx.row
        draft = Draft()
        if row is None or row.id != game_id:
            return draft
        if role == "lobby" and row.status == LOBBY:
            draft.public.append(lobby_posts.lobby_post(row, public_locale(row), edit=False))
        elif role == "phase" and row.status == ACTIVE and row.state is not None:
            match = Match.of(row)
            draft.public.append(table_post(match, "lobby.pause.again", draw=tx.draws(row.kind)))
        return draft

    return work


def table_post(match: Match, said: str | Text, *, draw: bool) -> Post:
    """The current phase's message, posted anew: who is awaited (pinged: they may have missed
    the phase), who is ready already, the buttons and the picture, under the line ``said`` (the
    game goes on). It takes the phase's slot, so readiness edits go to it from now on."""
    lang = public_locale(match.row)
    snap = match.engine.snapshot(match.state)
    post = compose.phase_post(match, snap, [], lang, draw=draw)
    record = (match.row.messages or {}).get("phase") or {}
    awaited = (record.get("awaited") or []) if record.get("phase") == snap.phase else []
    ready = [int(s) for s in awaited if int(s) not in snap.pending]
    gone = frozenset(s.seat for s in match.row.seats if s.left)
    narration = phrase(said, lang) if isinstance(said, str) else said
    found = live.record(match)
    if found is not None:
        # A table message edited in place (a turn's): the new one takes its slot, and tells
        # the story it told, so nothing it said is lost with it.
        told = events_text(live.narration(found), match.names(), lang)
        narration = lines([*told, narration])
        post = replace(post, slot=Slot(match.row.id, "phase", str(found["table"])))
    return replace(
        post,
        text=compose.awaited_lines(match, snap, ready, lang, gone),
        narration=narration,
    )
