"""The service: command → lock → load → engine → save → replies.

Every public method takes who (:class:`Actor`) and where (:class:`Place`), returns a
:class:`Reply` and never raises for anything a user did: refusals and rules errors become a
translated private message, and nothing is changed (the transaction rolls back). Replies are
delivered only after the commit, so an acknowledged move is always in the database.

This module holds the commands, each a :data:`~bot.service.transaction.Work` run by the loop
of :class:`~bot.service.runner.Runner`; the work itself lives in the rooms named for it:
``lobby``, ``moves``, ``timeouts`` (with ``deadlines``), and the replies are composed in
``compose``. The read-only commands (:mod:`bot.service.reading`), what the adapter reports
and the deadline loop's work (:mod:`bot.service.upkeep`) are functions of the service's
state, taken into the class below as its methods: one class on one base, not a stack.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from bot import metrics
from bot.service import (
    buttons,
    computer,
    history,
    lobby,
    me,
    moves,
    pause,
    reading,
    rematch,
    replays,
    shown,
    standings,
    upkeep,
)
from bot.service import undo as undoing
from bot.service.draft import Draft
from bot.service.errors import Refusal
from bot.service.fairuse import LOOK, REPLAY, Replaying
from bot.service.reading import game_number, page_number, player_of
from bot.service.replies import Actor, Message, Place, Reply
from bot.service.runner import Runner
from bot.service.text import Channel, phrase
from bot.service.transaction import Tx, Work
from bot.store import repository as repo
from bot.store.database import create_engine, database_url, upgrade
from i18n import LANGUAGES, language_for
from rules.core import CommandArgs

log = logging.getLogger("partida.service")


class Service(Runner):
    """The commands that change a game (each a transaction, run by :meth:`run`), the
    read-only ones (``reading``) and the upkeep (``upkeep``)."""

    # ================================================================= read-only (reading.py)

    suggest = reading.suggest
    rules = reading.rules
    help = reading.help
    mine = reading.mine
    welcome = reading.welcome
    history = reading.history
    leaderboard = reading.leaderboard
    stats = reading.stats
    state_from_log = reading.state_from_log

    # ================================================================= upkeep (upkeep.py)

    moved = upkeep.moved
    prune = upkeep.prune
    compact_closed = upkeep.compact_closed
    rebuild_ratings = upkeep.rebuild_ratings
    pause = upkeep.pause
    gone = upkeep.gone
    resume = upkeep.resume
    table_again = upkeep.table_again
    owed = upkeep.owed
    delivered = upkeep.delivered
    unpictured = upkeep.unpictured
    attempted = upkeep.attempted
    dm_closed = upkeep.dm_closed
    waiting = upkeep.waiting
    written_deadline = upkeep.written_deadline
    next_deadline = upkeep.next_deadline
    run_deadlines = upkeep.run_deadlines

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        render: bool = True,
        clock: Callable[[], float] = time.time,
        migrate: bool = True,
        computer_delay: float = 1.5,
    ) -> Service:
        resolved = database_url(url)
        if migrate:
            await upgrade(resolved)
        shown.warm()  # every language's names, read once here rather than in the first move
        return cls(
            create_engine(resolved), render=render, clock=clock, computer_delay=computer_delay
        )

    async def close(self) -> None:
        await self.engine.dispose()

    # ================================================================= commands

    async def new_game(
        self, actor: Actor, place: Place, game: str, options: dict[str, Any] | None = None
    ) -> Reply:
        work = lobby.new_game(actor, place, game, options)
        return await self.run(actor, place, work, "new", here_only=True)

    async def join(self, actor: Actor, place: Place) -> Reply:
        return await self.run(actor, place, lobby.join(actor, place), "join")

    async def leave(self, actor: Actor, place: Place) -> Reply:
        return await self.run(actor, place, lobby.leave(actor, place), "leave")

    async def start(self, actor: Actor, place: Place) -> Reply:
        return await self.run(actor, place, lobby.start(actor, place), "start")

    async def cancel(self, actor: Actor, place: Place) -> Reply:
        return await self.run(actor, place, lobby.cancel(actor, place), "cancel")

    async def kick(self, actor: Actor, place: Place, user_id: int) -> Reply:
        return await self.run(actor, place, lobby.kick(actor, place, user_id), "kick")

    async def settings(
        self,
        actor: Actor,
        place: Place,
        deadline_minutes: int | None = None,
        reminder_minutes: int | None = None,
        misses: int | None = None,
        replay: bool | None = None,
        hold: bool | None = None,
        undo: bool | None = None,
        autopilot: str | None = None,
    ) -> Reply:
        """The game's time limits, the autopilot's missed deadlines and level, the channel's
        automatic replay (``replay``: the channel's own setting, which needs no open game),
        the host's hold on the game's deadlines (``hold``, bot/service/pause.py), and whether
        its players may take back a step (``undo``, bot/service/undo.py)."""
        limits_asked = (deadline_minutes, reminder_minutes, misses, autopilot) != (None,) * 4
        parts: list[Work] = []
        if replay is not None:
            parts.append(replays.set_automatic(actor, place, replay))
        if hold is not None:
            parts.append(pause.hold(actor, hold))
        if undo is not None:
            parts.append(undoing.allow(actor, undo))
        if limits_asked or not parts:
            parts.append(
                lobby.change_settings(actor, deadline_minutes, reminder_minutes, misses, autopilot)
            )
        return await self.run(actor, place, _together(parts), "settings")

    async def add_bot(self, actor: Actor, place: Place, level: str | None = None) -> Reply:
        """``/game addbot [level]``: a computer player takes the next seat in the lobby."""
        return await self.run(actor, place, computer.add_bot(actor, place, level), "addbot")

    async def replace(self, actor: Actor, place: Place, user_id: int, new: Actor) -> Reply:
        """``/game replace``: ``new`` takes over the seat of ``user_id`` mid-game."""
        work = computer.replace(actor, place, user_id, new)
        return await self.run(actor, place, work, "replace")

    async def rematch(self, actor: Actor, place: Place, game_id: int | None = None) -> Reply:
        """The same game again, with the same players (``game_id``: the channel's last finished game if None). The
        rematch opens where the game was played: in its thread, when it had one, even when
        asked in the channel the thread hangs from."""
        async with self.sessions() as session:
            source = await rematch.source(session, place, game_id)
            if source is None:
                return self.refusal(
                    Refusal("rematch.error.none"), await self.language_of(session, actor)
                )
        there = Place(source.channel_id, place.guild_id, place.locale)
        work = rematch.work(actor, there, source.id)
        return await self.run(actor, there, work, "rematch", here_only=True)

    async def replay_game(self, actor: Actor, place: Place, game_id: int | str) -> Reply:
        """``/game replay``: post a game of this server as one animated picture. A server
        draws one at a time: a request meanwhile, or for a finished game posted lately, is
        answered with that replay (``fairuse.Replays``)."""
        guild = place.guild_id if place.guild_id is not None else -place.channel_id
        wanted = replays.game_number(game_id)
        if (busy := self._replay_elsewhere(guild, wanted)) is not None:
            async with self.sessions() as session:
                lang = await self.language_of(session, actor)
            text, replay = busy
            return Reply(
                private=Message(
                    phrase(
                        text,
                        lang,
                        id=replay.game_id,
                        channel=Channel(replay.channel_id, str(replay.channel_id)),
                    )
                ),
                ok=False,
            )
        if refused := await self.over_budget(REPLAY, actor, place, count=False):
            return refused
        lang = language_for(place.locale)
        self.replays_now.start(guild, wanted or 0, place.channel_id)
        posted = False
        ended: list[bool] = []
        try:
            work = replays.command(place, game_id, lang, ended)
            reply = await self.run(actor, place, work, "replay")
            posted = reply.ok
            if posted:
                self.fair_use.use(REPLAY, actor.user_id, place.guild_id)
            return reply
        finally:
            # A finished game's replay never changes: asked again soon, the posted one answers.
            self.replays_now.finish(guild, posted and all(ended))

    def _replay_elsewhere(self, guild: int, wanted: int | None) -> tuple[str, Replaying] | None:
        """The catalogue key and the replay that answers a request for ``wanted`` instead of a
        new drawing: the one this server is drawing, or the same game posted lately."""
        drawing_now = self.replays_now.drawing(guild)
        if drawing_now is not None:
            same = drawing_now.game_id == wanted
            return ("fairuse.replay.drawing" if same else "fairuse.replay.one_at_a_time"), (
                drawing_now
            )
        posted = self.replays_now.posted(guild, wanted) if wanted is not None else None
        if posted is not None:
            return "fairuse.replay.posted", posted
        return None

    async def status(self, actor: Actor, place: Place) -> Reply:
        # Read-only (as is the board): never SQLite's one writer, unless a player back from
        # autopilot is written (``computer.reclaim`` takes it), so a flood of looks does not
        # queue every game's moves behind it.
        return await self.run(actor, place, lobby.status(), "status", write_late=True)

    async def undo(self, actor: Actor, place: Place) -> Reply:
        """``/game undo``: the player's own last step taken back, where the rules allow."""
        return await self.run(actor, place, undoing.undo(actor, place), "undo", write_late=True)

    async def board(self, actor: Actor, place: Place) -> Reply:
        if refused := await self.over_budget(LOOK, actor, place):
            return refused
        return await self.run(actor, place, lobby.board(actor), "board", write_late=True)

    async def act(
        self, actor: Actor, place: Place, game: str | None, command: str, args: CommandArgs
    ) -> Reply:
        work = moves.act(actor, place, game, command, args)
        # The log line names the game, never the command: which command a player sent in a
        # simultaneous phase (place a trap, or retrieve one) is itself a secret.
        return await self.run(actor, place, work, f"{game}.move", write_late=True)

    async def press(self, actor: Actor, place: Place, press: buttons.Press | None) -> Reply:
        """A button click or a select submission, decoded by the adapter (``buttons.decode``;
        None: an id of ours that does not decode): a move, Join, Leave and Start under the
        lobby message, Rematch under a closing message, ↩, or a page of a read-only view
        (history, leaderboard)."""
        if press is not None and press.game_id == buttons.VIEW_GAME:
            return await self._view(actor, place, press)
        if press is not None and press.command == buttons.REMATCH:
            return await self.rematch(actor, place, press.game_id)
        if press is not None and buttons.is_undo(press):
            work = undoing.undo(actor, place, game_id=press.game_id)
            return await self.run(actor, place, work, "undo", write_late=True)
        if press is not None and buttons.is_lobby(press):
            # The lobby message stays in the channel while the game moves to its thread: the
            # click acts where the game is now.
            async with self.sessions() as session:
                row = await repo.game_by_id(session, press.game_id)
            if row is not None:
                place = Place(row.channel_id, place.guild_id, place.locale)
            work = lobby.clicked(actor, place, press.game_id, press.command)
            return await self.run(actor, place, work, f"lobby.{press.command}")
        work = moves.clicked(actor, place, press)
        return await self.run(actor, place, work, "press", write_late=True)

    async def _view(self, actor: Actor, place: Place, view: buttons.Press) -> Reply:
        """A button of a read-only view: a page of the history or of a leaderboard, or a
        history entry's Replay."""
        if view.command == history.HISTORY:
            return await self.history(
                actor,
                place,
                page_number(view.args.get("page")),
                after=game_number(view.args.get("after")),
                before=game_number(view.args.get("before")),
            )
        if view.command == history.REPLAY:
            return await self.replay_game(actor, place, str(view.args.get("game", "")))
        if view.command == buttons.BOARD:
            return await self.board(actor, place)
        if view.command == standings.LEADERBOARD:
            return await self.leaderboard(
                actor,
                place,
                str(view.args.get("game", "")),
                page_number(view.args.get("page")),
                after=player_of(view.args.get("after")),
                before=player_of(view.args.get("before")),
            )
        return self.refusal(Refusal("lobby.error.stale_button"), language_for(actor.locale))

    @metrics.read("language")
    async def language(self, actor: Actor, place: Place, language: str) -> Reply:
        """A user's own language for replies (``auto``: follow their Discord client)."""
        choice = str(language).strip().lower()
        if choice not in (*LANGUAGES, "auto"):
            return self.refusal(
                Refusal("lobby.error.language", languages=", ".join(LANGUAGES)),
                language_for(actor.locale),
            )
        chosen = None if choice == "auto" else choice
        async with self.sessions() as session, session.begin():
            await repo.set_player_language(session, actor.user_id, chosen)
        self.languages[actor.user_id] = (chosen, self.clock())  # the next reply uses it
        lang = language_for(actor.locale) if choice == "auto" else choice
        return Reply(private=Message(phrase("lobby.language.set", lang)))

    @metrics.read("me")
    async def me(
        self,
        actor: Actor,
        place: Place,
        notify: str | None = None,
        quiet: str | None = None,
        zone: str | None = None,
        away: str | None = None,
    ) -> Reply:
        """``/me``: how the user is reached, across servers (bot/service/me.py): shown, or
        changed by the options given. Bad input changes nothing."""
        async with self.sessions() as session:
            lang = await self.language_of(session, actor)
        try:
            async with self.sessions() as session, session.begin():
                reach = await me.change(
                    session,
                    actor.user_id,
                    self.clock(),
                    notify=notify,
                    quiet=quiet,
                    zone=zone,
                    away=away,
                )
        except Refusal as refusal:
            return self.refusal(refusal, lang)
        return Reply(private=Message(me.shown(reach, lang, self.clock())))


def _together(parts: list[Work]) -> Work:
    """The parts of one ``/game settings`` in one transaction: all of them, or (one refused)
    none, and one answer saying each."""

    async def work(tx: Tx) -> Draft:
        draft = Draft()
        for part in parts:
            done = await part(tx)
            draft.private += done.private
            draft.public += done.public
        return draft

    return work
