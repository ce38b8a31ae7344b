"""``/game undo`` (and the ↩ button on a player's own confirmation): take back a slip.

A player may take back their own last step when nobody has acted since and the step revealed
nothing random or hidden (a roll, a draw, a simultaneous phase's resolution): the engine's rule,
``Game.undoable``, one per game. The game is rebuilt from its seed and its log without that
step, and the step leaves the log for good, so a replay and the ratings never see it. The
table message is edited back to the table as it now stands (:func:`table_back`): a turn's
message keeps its story and adds who took a step back; a phase message shows the player awaited
again. Only where the message that showed the table before the step is no longer the table's
(the step passed the turn) is the table posted again. Nothing private is said in the channel. A
host turns undo off for a game with ``/game settings undo:off``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import delete

from bot.service import compose, deadlines, live
from bot.service.draft import Draft, Post
from bot.service.errors import Refusal
from bot.service.match import (
    Match,
    public_locale,
    require,
    require_host,
    seat_of,
    seat_of_number,
    settings,
)
from bot.service.narrate import plain_name
from bot.service.pause import table_post
from bot.service.replies import Actor, Place
from bot.service.text import Name, phrase
from bot.service.transaction import Tx, Work
from bot.service.undoable import allowed
from bot.store import repository as repo
from bot.store.models import ACTIVE, ActionRow
from rules.core import Event, RulesError, Snapshot

UNDONE = "core.undo.public"  # "↩️ {seat} took back their last step.", in the table's story


def undo(actor: Actor, place: Place, game_id: int | None = None) -> Work:
    """``game_id``: the game whose confirmation's ↩ was pressed (a later game refuses it)."""

    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        if game_id is not None and row.id != game_id:
            raise Refusal("lobby.error.stale_button")
        player = seat_of(row, actor.user_id)
        if row.status != ACTIVE or row.state is None:
            raise Refusal("lobby.error.not_started")
        if player is None or player.left:
            raise Refusal("lobby.error.not_seated")
        match, seat = Match.of(row), player.seat
        engine = match.engine
        if not allowed(settings(row)):
            raise Refusal("core.undo.off")
        log = await repo.action_log(tx.session, row.id)
        if not any(entry.seat == seat for entry in log):
            raise Refusal("core.undo.nothing")
        last = log[-1]
        if last.seat != seat:
            raise Refusal("core.undo.not_last")
        if last.by_default:
            raise Refusal("core.undo.by_default")
        before = engine.new_game(len(row.seats), row.options, row.seed)
        for entry in log[:-1]:
            before, _ = engine.apply(
                before, entry.seat, engine.action_from_json(entry.action), entry.at
            )
        try:
            engine.undoable(before, seat, engine.action_from_json(last.action), match.state)
        except RulesError as error:
            raise Refusal(error.key, **error.args_map) from None
        await tx.writer.take()
        await tx.session.execute(
            delete(ActionRow).where(ActionRow.game_id == row.id, ActionRow.seq == last.seq)
        )
        now = engine.snapshot(match.state)
        match.state = before
        back = engine.snapshot(before)
        saved: dict[str, Any] = {"state": engine.dump(before), "updated_at": tx.now}
        if back.phase != row.phase:
            saved.update(phase=back.phase, phase_started_at=tx.now)
        post, messages = table_back(match, now, back, seat, draw=tx.draws(row.kind))
        if messages is not None:
            saved["messages"] = messages
        repo.as_saved(row, saved)
        writes = repo.Writes().save_game(row, row.version, saved)
        await deadlines.plan(tx, writes, match, engine.pending(before), phase_changed=True)
        await repo.run(tx.session, writes)
        draft = Draft()
        draft.say(phrase("core.undo.done", tx.lang))
        draft.public.append(post)
        return draft

    return work


def table_back(
    match: Match, now: Snapshot, back: Snapshot, seat: int, *, draw: bool
) -> tuple[Post, dict[str, Any] | None]:
    """The channel's table after ``seat`` took back a step (``now`` → ``back``, ``match``
    holding ``back``'s state), and the phase message's record to keep (``None``: as it is).

    - A turn's message (``bot.service.live``) that still shows this turn is edited back: the
      table as it stands, its buttons and picture, and its story with "X took back their last
      step" added (what the step did stays told: the channel saw it).
    - A phase message of a phase that goes on (a submission taken back before the others
      chose) is edited to show the player awaited again.
    - Otherwise (the step had passed the turn, whose earlier message is not the table's any
      more) the table is posted anew, in the phase's slot, saying who took a step back, and
      pinging nobody."""
    lang = public_locale(match.row)
    found = live.record(match)
    if found is not None:
        record = compose.phase_record(match, back, now)["phase"]
        if record.get("table") == found.get("table"):
            messages = live.remember(match, record, [Event(UNDONE, {"seat": seat})])
            whole = compose.phase_post(match, back, [], lang, before=now, draw=draw)
            edit = live.edit(match, whole, messages["phase"], lang)
            return (edit if back.phase != now.phase else replace(edit, phase=False)), messages
    elif back.phase == now.phase:
        ready = compose.readiness(match, back, lang)
        if ready is not None:
            return ready, None
    name = Name(plain_name(seat_of_number(match.row, seat).display_name))
    said = phrase(UNDONE, lang, seat=name)
    # A turn's message posted anew tells its story and who took a step back; its record keeps
    # that line, so the step played again, told a second time, never reads as two steps.
    kept = None if found is None else live.remember(match, found, [Event(UNDONE, {"seat": seat})])
    # It pings nobody: the player who took the step back is at the table, and whoever the step
    # had made awaited is not any more (the others awaited were pinged when they were asked).
    return replace(table_post(match, said, draw=draw), mentions=()), kept


def allow(actor: Actor, on: bool) -> Work:
    """``/game settings undo:on|off``: the host lets the players take back steps, or not."""

    async def work(tx: Tx) -> Draft:
        row = require(tx.row)
        require_host(actor, row)
        await tx.writer.take()
        row.settings = {**row.settings, "undo": on}
        draft = Draft()
        draft.say(phrase("core.undo.allowed" if on else "core.undo.off", tx.lang))
        return draft

    return work
