"""Moves: a typed command or a button, checked once, resolved, saved and answered.

A move's path: the actor's seat is checked; the engine's ``parse`` reads the command into an
action and checks it (the game's one ``check``, as ``apply`` does); the engine resolves it in
place on this command's own load; one :class:`~rules.core.Snapshot` of the game after it feeds the replies,
the pings, the buttons and the deadlines; the writes come last, all together.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from bot.service import buttons as button_ids
from bot.service import (
    compose,
    deadlines,
    lobby_posts,
    picks,
    ratings,
    replays,
    shown,
    standings,
    undoable,
)
from bot.service.draft import Draft, Post
from bot.service.errors import Refusal
from bot.service.match import (
    Match,
    automatic_steps,
    closing,
    require,
    seat_of,
    seat_of_number,
)
from bot.service.narrate import fill_args
from bot.service.replies import Actor, Place
from bot.service.text import lines
from bot.service.transaction import Tx, Work
from bot.store import logs
from bot.store import repository as repo
from bot.store.models import ACTIVE, FINISHED, GameRow
from i18n import language_for
from rules.core import Action, Command, CommandArgs, RulesError

# Steps with no decision played within one move, at most (a guard: ZvV has one, its roll).
MAX_AUTOMATIC = 4


def act(actor: Actor, place: Place, game: str | None, command: str, args: CommandArgs) -> Work:
    async def work(tx: Tx) -> Draft:
        match, seat = seated(tx.row, actor, game)
        with seat_names(match, tx.lang):
            typed = shown.canonical_args(match.kind, _command_args(args))
            action = match.engine.parse(str(command), typed, match.state, seat)
            return await resolve(tx, match, seat, action, place, by_default=False)

    return work


def clicked(actor: Actor, place: Place, press: button_ids.Press | None) -> Work:
    """A button click or a select submission, as the adapter decoded it (None: an id of ours
    that does not decode, answered as out of date)."""

    async def work(tx: Tx) -> Draft:
        row = tx.row
        if press is None or row is None or row.id != press.game_id or row.status != ACTIVE:
            raise Refusal("lobby.error.stale_button")
        match, seat = seated(row, actor, None)
        spec = picks.stepped(match, press.command)
        stepping = spec is not None and (press.step or press.select_param in spec.steps)
        if button_ids.phase_hash(row.phase) != press.phase:
            # A pick made before the game moved on: its menus show what was legal then.
            raise Refusal("lobby.error.stale_pick" if stepping else "lobby.error.stale_button")
        if spec is not None and stepping:
            with seat_names(match, tx.lang):
                draft = await _step(tx, match, seat, spec, dict(press.args), place)
            # A later step's menu is the picker's own message (the answer to the step before):
            # it becomes the answer. The first step's (under the phase message or a private
            # board) stays as it is.
            draft.in_place = press.step and press.select_param is not None
            return draft
        with seat_names(match, tx.lang):
            if press.asked is not None:
                _still_asked(match, seat, press)
            try:
                action = match.engine.parse(press.command, dict(press.args), match.state, seat)
            except RulesError:
                owners = _owners(match, seat, press)
                if owners:  # "Bob: 1-05 · slot 2" pressed by Alice: the move is Bob's
                    raise RulesError("lobby.error.others_button", seats=owners) from None
                raise
            return await resolve(tx, match, seat, action, place, by_default=False)

    return work


async def _step(
    tx: Tx, match: Match, seat: int, spec: Command, made: CommandArgs, place: Place
) -> Draft:
    """A step of a move chosen from menus (``bot.service.picks``): the next step's menus,
    privately, with nothing saved; or, the last step made, the move itself."""
    made = {k: v for k, v in shown.canonical_args(match.kind, made).items() if v not in ("", None)}
    if not picks.leads_somewhere(match, seat, spec, made):
        raise picks.refused(match, seat, spec.name, made)
    step = picks.next_step(match, seat, spec, made)
    if step is not None:
        return picks.chooser(match, seat, spec, made, step, tx.lang)
    action = match.engine.parse(spec.name, made, match.state, seat)
    return await resolve(tx, match, seat, action, place, by_default=False)


def _still_asked(match: Match, seat: int, press: button_ids.Press) -> None:
    """A button of a question (Bad Bones phase 3) acts while the presser's question it was
    made for is open: asked no later than the newest question of its message, and offering
    this very button. Whatever the others answered meanwhile, it stays valid; the presser's
    own answered question (a follow-up asked since) makes it stale. A button of the same
    message that answers another player's question only (bob's "3" among cara's "1, 2") is
    not out of date: it goes on to be refused with the presser's own answers."""
    item = match.engine.pending(match.state).get(seat)
    newest = press.asked if press.asked is not None else -1
    mine = item is not None and item.asked is not None and item.asked <= newest
    if mine and _offers(match, seat, press):
        return
    if item is not None and item.asked is not None and item.asked > newest:
        raise Refusal("lobby.error.question_answered")  # a follow-up was asked since
    owners = _owners(match, seat, press)
    if owners:
        raise RulesError("lobby.error.others_button", seats=owners)
    if mine:
        return  # another's answer, under the presser's own open question: the rules say why not
    raise Refusal("lobby.error.stale_button")


def _offers(match: Match, seat: int, press: button_ids.Press) -> bool:
    """Whether ``seat``'s buttons now include the one pressed."""
    wanted = (press.command, {k: str(v) for k, v in press.args.items()})
    return any(
        (command, {k: str(v) for k, v in args.items()}) == wanted
        for command, args in match.engine.buttons(match.state, seat)
    )


def _owners(match: Match, seat: int, press: button_ids.Press) -> list[int]:
    """The other seats offered the button ``press`` (one the presser cannot use), where
    the buttons say whose they are (``compose.says_whose``). Elsewhere the presser's own refusal
    says more."""
    pending = match.engine.pending(match.state)
    if not compose.says_whose(match, pending, press.command, len(pending)):
        return []
    return [other for other in sorted(pending) if other != seat and _offers(match, other, press)]


def suggest(
    row: GameRow | None, actor: Actor, game: str, command: str, param: str, args: CommandArgs
) -> list[str]:
    """Autocomplete values from the actor's legal actions (empty when there is no move to make)."""
    try:
        match, seat = seated(row, actor, game)
        filled = shown.canonical_args(match.kind, _command_args(args))
        return match.engine.suggestions(match.state, seat, str(command), str(param), filled)
    except (Refusal, RulesError):
        return []


def seated(row: GameRow | None, actor: Actor, game: str | None) -> tuple[Match, int]:
    """The started game and the actor's seat in it, or the refusal that says why not."""
    row = require(row)
    if row.status != ACTIVE or row.state is None:
        raise Refusal("lobby.error.not_started")
    if game is not None and game != row.kind:
        raise Refusal("lobby.error.other_game", game_key=f"{row.kind}.name")
    seat = seat_of(row, actor.user_id)
    if seat is None or seat.left:
        raise Refusal("lobby.error.not_seated")
    return Match.of(row), seat.seat


async def resolve(
    tx: Tx,
    match: Match,
    seat: int,
    action: Action,
    place: Place,
    *,
    by_default: bool,
    due: float | None = None,
    timed_out: bool | None = None,
) -> Draft:
    """Play an action already found legal, save it, and draft the replies. ``due``: the
    deadline a default is played at (the rest of the seat's turn keeps it); ``by_default``: no
    person chose it (a deadline, or the computer), logged as such; ``timed_out``: the channel is
    told the player ran out of time (by default: when ``by_default``; not for a seat the
    computer plays)."""
    row, engine, now = match.row, match.engine, tx.now
    if not by_default:
        player = seat_of_number(row, seat)
        if player.misses:
            player.misses = 0  # "missed deadlines in a row": they are here again
    before = engine.snapshot(match.state)
    # The position before a player's own step, for the ↩ on their confirmation (undo).
    undo_from = None if by_default else engine.copy(match.state)
    events = engine.resolve(match.state, seat, action, now)
    # Steps with no decision that follow at once (ZvV's autoroll: the next player's roll) are
    # played in this same move, so that the channel reads one message for both, not one for the
    # move and another a moment later for the roll; each is logged as its own entry.
    steps = [(seat, action, by_default)]
    after = engine.snapshot(match.state)
    for _ in range(MAX_AUTOMATIC):
        automatic = next(iter(automatic_steps(match, after.pending).items()), None)
        if automatic is None:
            break
        events += engine.resolve(match.state, automatic[0], automatic[1], now)
        steps.append((automatic[0], automatic[1], True))
        after = engine.snapshot(match.state)
    seen = row.version  # grows with every save, so it numbers the log without a MAX() query
    changed = after.phase != row.phase or after.over
    saved: dict[str, Any] = {"state": engine.dump(match.state), "updated_at": now}
    if changed:
        saved.update(phase=after.phase, phase_started_at=now)
        if not after.over:
            mover, away = (None, seat) if by_default else (seat, None)
            saved["messages"] = compose.phase_record(match, after, before, mover=mover, away=away)
    if after.over:
        result = after.result
        saved.update(
            closing(FINISHED),
            result={
                "winners": list(result.winners) if result else [],
                "scores": {str(k): v for k, v in (result.scores if result else {}).items()},
            },
        )
    repo.as_saved(row, saved)  # the replies read the new phase (buttons); the writes save it
    draft = compose.move_draft(
        match,
        before,
        after,
        seat,
        events,
        tx.lang,
        language_for(place.locale),
        by_default=by_default,
        timed_out=by_default if timed_out is None else timed_out,
        rest_of_turn=by_default and due is not None,
        draws=tx.draws(row.kind),
    )
    if (
        undo_from is not None
        and len(steps) == 1
        and undoable.offered(match, seat, action, undo_from)
    ):
        draft.private_buttons = (*draft.private_buttons, undoable.button(row.id, tx.lang))
        draft.ack_by_edit = False  # the confirmation carries the ↩, so it is sent
    if draft.messages is not None:  # (a live table message's narration, kept with the move)
        saved["messages"] = draft.messages
        repo.as_saved(row, {"messages": draft.messages})  # (as routing reads it: whom it pinged)
    # The writes come last: on SQLite, other games' moves run while this one only computes.
    # A game that ends keeps its log as one compacted row (bot/store/logs.py), written in the
    # transaction that ends it; the moves before this one are read before taking the writer.
    earlier = [logs.entry(e) for e in await logs.moves(tx.session, row.id)] if after.over else []
    await tx.writer.take()
    writes = repo.Writes().save_game(row, seen, saved, entries=len(steps))
    logged: list[dict[str, Any]] = [
        {"seq": seen + n, "seat": who, "action": done.to_json(), "at": now, "by_default": d}
        for n, (who, done, d) in enumerate(steps)
    ]
    if after.over:
        logs.compact(writes, row.id, earlier + logged)
        writes.clear_deadlines(row.id)
        if row.parent_channel_id is not None:
            # The thread stays open a while for the last words, then is archived.
            writes.add_deadlines([deadlines.archive_row(row.id, now, after.phase)])
        # The ratings move with the result, in its transaction: read under the writer (and
        # locked on PostgreSQL), so two games ending at once on a server both count.
        public_lang = language_for(place.locale)
        changes = await ratings.record(tx.session, writes, row, saved["result"], now)
        if changes:
            _tell_ratings(draft, changes, public_lang)
        _offer_rematch(draft, row.id, public_lang)
        if tx.draws(row.kind) and await replays.automatic(tx.session, row):
            last = (seat, action.to_json(), now)
            made = await replays.job(tx.session, row, public_lang, last)
            _after_closing(draft, replays.post(row, made, public_lang))
    else:
        for e in logged:
            writes.append_action(row.id, e["seq"], e["seat"], e["action"], now, e["by_default"])
        # A follow-up question for the mover (Bad Bones phase 3, asked in place) is the next
        # step of its turn: its deadline carries on, with the grace a step gets.
        mine, later = before.pending.get(seat), after.pending.get(seat)
        asked_again = mine is not None and later is not None and later.asked != mine.asked
        await deadlines.plan(
            tx,
            writes,
            match,
            after.pending,
            phase_changed=changed or asked_again,
            was_pending=set(before.pending),
            same_turn=after.turn == before.turn,
            mover=None if by_default else seat,
            turn_due={seat: due} if due is not None else None,
        )
    await repo.run(tx.session, writes)
    return draft


def _tell_ratings(draft: Draft, changes: list[ratings.Change], lang: str) -> None:
    """The closing message's narration ends with how the ratings moved."""
    for index, post in enumerate(draft.public):
        if post.phase:
            said = standings.changes_text(changes, lang)
            told = lines([post.narration, said]) if post.narration.parts else said
            draft.public[index] = replace(post, narration=told)


def _offer_rematch(draft: Draft, game_id: int, lang: str) -> None:
    """The closing message carries the Rematch button (``bot.service.rematch`` answers it)."""
    for index, post in enumerate(draft.public):
        if post.phase:
            button = lobby_posts.rematch_button(game_id, lang)
            draft.public[index] = replace(post, buttons=(*post.buttons, button))


def _after_closing(draft: Draft, post: Post) -> None:
    """``post`` right under the closing message, in its channel (before the result the parent
    channel of a thread hears)."""
    at = next((i + 1 for i, p in enumerate(draft.public) if p.phase), len(draft.public))
    draft.public.insert(at, post)


@contextlib.contextmanager
def seat_names(match: Match, lang: str) -> Iterator[None]:
    """A rules error that names a seat ("the pawn on G1 belongs to {seat}") names the player:
    the refusal is worded after the transaction, when the seats are no longer at hand. A
    command it names is named as the reader's client shows it ("«tirar»", not "«roll»")."""
    try:
        yield
    except RulesError as error:
        args = fill_args(error.args_map, match.names(), lang)
        if isinstance(args.get("command"), str):
            args["command"] = picks.command_name(match.kind, args["command"], lang)
        raise RulesError(error.key, **args) from error


def _command_args(args: CommandArgs) -> CommandArgs:
    """Arguments as adapters should send them: text, whole numbers and booleans (``None``: not
    given). Anything else (a float, a list…) becomes its text, which the engine then refuses in
    words, rather than reaching an engine's ``int()`` as ``inf``."""
    return {
        str(k): v if v is None or isinstance(v, str | int | bool) else str(v)
        for k, v in dict(args).items()
    }
