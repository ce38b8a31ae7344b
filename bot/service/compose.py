"""Composing what the table is told: pure functions of a game and a snapshot, no database.

Who is pinged, which buttons a message carries and what is posted are decided here, from the
game's :class:`~rules.core.Snapshot` after a move (and the one before it), so each policy can be
tested from a position alone, as a rule is.

Ping policy: a player is mentioned when they start being awaited or are asked something new;
players still awaited for the same thing are named but not pinged again (every purchase at the
team's Market in Bad Bones moves the phase on while the whole team shops). The player who has
just moved is pinged too when asked something new: in a slow game they may have left right
after their move, and a missed ping stalls the table until the reminder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.service import asking, live, picks, pieces
from bot.service import buttons as button_ids
from bot.service.draft import Draft, Post, RenderJob
from bot.service.errors import Refusal
from bot.service.guide import jump_link
from bot.service.match import (
    Match,
    automatic_steps,
    computer_plays,
    held,
    public_locale,
    seat_names,
    seat_of_number,
    set_aside,
)
from bot.service.narrate import events_text, fill_args
from bot.service.replies import Button, Select, Slot
from bot.service.shown import show, show_args
from bot.service.text import Channel, Mention, Name, Text, When, join, lines, phrase
from bot.store.models import ACTIVE, DeadlineRow, GameRow
from i18n import catalogue, language_for
from rules.core import CommandArgs, Event, Pending, RulesError, Snapshot, get_game, public

MAX_BUTTONS = 25  # Discord: 5 rows of 5
MAX_ROWS = 5
TIMED_OUT = asking.TIMED_OUT
TURN_TIMED_OUT = "lobby.deadline.defaulted_seat"  # the same, kept in a turn's narration


def refusal(error: Refusal | RulesError, lang: str) -> Text:
    """A refused command, in the words of its error."""
    # Arguments may echo what the user typed: braces in them must not read as a template.
    echoed = {
        k: v.replace("{", "(").replace("}", ")") if isinstance(v, str) else v
        for k, v in error.args_map.items()
    }
    shown = show_args(error.key.split(".", 1)[0], echoed, lang)  # "the G4" → "el V4"
    return "⚠️ " + phrase(error.key, lang, **fill_args(shown, [], lang))


def picture(match: Match, lang: str) -> RenderJob:
    """The channel's picture of the table: the public view only."""
    view = match.engine.view(match.state, None)
    return RenderJob(
        match.kind, view, match.plain_names(), lang, private=False, game_id=match.row.id
    )


def pending_text(kind: str, item: Pending, names: Sequence[Name], lang: str) -> Text:
    """What a seat is asked ("choose the dice to keep"); a die it names as the reader names it
    (FUSE: "place your N2" in Spanish)."""
    shown = show_args(kind, item.args, lang)
    return phrase(f"{kind}.pending.{item.kind}", lang, **fill_args(shown, names, lang))


def phase_post(
    match: Match,
    snap: Snapshot,
    events: list[Event],
    lang: str,
    *,
    before: Snapshot | None = None,
    timed_out: int | None = None,
    draw: bool = True,
    autoplayed: frozenset[int] = frozenset(),
) -> Post:
    """The one public message of a resolved phase: who is awaited (the head, with their
    mentions, first) or the winner, what happened (the narration), buttons, and the picture of
    the table (``draw``: when the game's ``picture_key`` says the table deserves a new one).
    Readiness later edits the head of this very message (:func:`readiness`). ``autoplayed``:
    seats about to be played by default, whom nobody waits for."""
    names = match.names()
    told: list[Text] = []
    if timed_out is not None:
        told.append(phrase(TIMED_OUT, lang, player=names[timed_out]))
    told.extend(events_text(events, names, lang))
    mentions: list[int] = []
    buttons: tuple[Button, ...] = ()
    selects: tuple[Select, ...] = ()
    if snap.over:
        result = snap.result
        if result is not None and result.summary is not None:
            told.extend(events_text([result.summary], names, lang))
        won = result.winners if result else ()
        winners = join(names[s] for s in won)
        head = (
            phrase("lobby.over.winners", lang, winners=winners, count=len(won))
            if winners
            else phrase("lobby.over.nobody", lang)
        )
    else:
        by_seat = {s.seat: s for s in match.row.seats}
        # A turn's message pings the player whose turn begins and whoever is newly asked in it.
        by_turns = live.by_turns(match, snap)
        turn_pings = live.pinged(before, snap) if by_turns else frozenset()
        if by_turns and before is not None:  # (a table posted anew pings whom it awaits)
            found = (match.row.messages or {}).get("phase") or {}
            turn_pings -= live.pinged_seats(match, found) or frozenset()
        # A message asking another player within the turn names whose turn follows.
        after_this, ping_next = live.next_named(match, before, snap) if by_turns else (None, False)
        # A step with no decision (ZvV's autoroll) is played at once: nobody is asked for it;
        # but a turn that begins with one (the game's first) names and pings its player, whose
        # turn message the roll then edits (an edit pings nobody).
        shown = turn_pings if before is None else frozenset()
        automatic = automatic_steps(match, snap.pending).keys()
        skipped = autoplayed | (automatic - shown)
        awaited = {seat: item for seat, item in snap.pending.items() if seat not in skipped}
        for seat, item in sorted(awaited.items()):
            user = by_seat[seat]
            earlier = before.pending.get(seat) if before is not None else None
            newly = earlier is None or earlier.kind != item.kind
            # Nobody to ping where the computer plays the seat.
            if not computer_plays(user) and (seat in turn_pings if by_turns else newly):
                mentions.append(user.user_id)
        head = awaited_lines(match, snap, (), lang, skipped, shown)
        if after_this is not None and after_this not in awaited:  # (asked too: pinged once)
            user = by_seat[after_this]
            if ping_next:
                mentions.append(user.user_id)
            who = Mention(user.user_id, names[after_this].text)
            head = lines([head, phrase("lobby.act.plays_next", lang, player=who)])
        # No buttons for the seats no person plays (a person on autopilot keeps theirs: a click
        # brings them back).
        seats = [
            s
            for s in sorted(awaited)
            if not (by_seat[s].computer or by_seat[s].left) and s not in automatic
        ]
        # Moves chosen from menus first (a pawn, "Place a trap…"): the common moves.
        opened, menus = picks.controls(match, seats, lang)
        selects = (*offered_selects(match, seats, lang), *menus)[:MAX_ROWS]
        # A select takes one of the five rows.
        room = (MAX_ROWS - len(selects)) * 5
        buttons = (*opened, *offered_buttons(match, seats, lang, snap.pending))[:room]
        if seats and len(buttons) < room and any(c.hidden for c in match.engine.commands):
            # Moves no public message may offer (a Farkle item: a button per item would tell
            # the channel what a player holds) are made from the player's own board: offered
            # alike whatever anyone holds, so it tells nobody anything.
            buttons = (*buttons, board_button(lang))
    return Post(
        match.row.channel_id,
        head,
        narration=lines(told),
        mentions=tuple(mentions),
        buttons=buttons,
        selects=selects,
        picture=picture(match, lang) if draw else None,
        phase=True,
        slot=None if snap.over else Slot(match.row.id, "phase", snap.phase),
    )


def holding(match: Match) -> bool:
    """Whether the host holds the game's deadlines, so that no person's runs out meanwhile. Not
    in a real-time game (``Presentation.edited``): its own clock (FUSE's bomb) is the engine's,
    which ends the game by it at the next move, held or not, so its time is still shown."""
    return held(match.row) and not live.shown(match).edited


def awaited_lines(
    match: Match,
    snap: Snapshot,
    ready: Sequence[int],
    lang: str,
    skipped: frozenset[int] = frozenset(),
    shown: frozenset[int] = frozenset(),
) -> Text:
    """The head of a phase message: one line per seat the phase waits for, in seat order,
    "⏳ @player: what" while awaited and "✅ player is ready" once they have submitted, then
    the clock. Mentions come first in the message, so no length of narration can push them out.
    ``skipped``: seats the computer plays at once (their turn's deadline is spent, or the step
    has no decision in it), whom nobody waits for, but for those ``shown`` (a turn's player
    called as it begins); seats the computer plays are named, not mentioned."""
    names = match.names()
    by_seat = {s.seat: s for s in match.row.seats}
    said: list[Text] = []
    skipped = skipped | (automatic_steps(match, snap.pending).keys() - shown)
    for seat in sorted((set(snap.pending) - skipped) | set(ready)):
        item = snap.pending.get(seat)
        if item is None:
            said.append(phrase("lobby.act.done", lang, player=names[seat]))
            continue
        user = by_seat[seat]
        if computer_plays(user):  # nobody is waited for: the computer plays it in a moment
            said.append(phrase("bots.playing", lang, player=names[seat]))
            continue
        who = Mention(user.user_id, names[seat].text)
        what = pending_text(match.kind, item, names, lang)
        said.append(phrase("lobby.act.awaiting", lang, player=who, what=what))
    timed = {
        s: (p.deadline, live.round_timer(match, p))
        for s, p in snap.pending.items()
        if s not in skipped and (p.deadline is not None or live.round_timer(match, p) is not None)
    }
    if holding(match):  # people's deadlines stop (a computer seat's run on): no time for them
        stopped = {s for s in timed if by_seat[s].computer is None}
        if stopped:
            said.append(phrase("lobby.status.held", lang))
        timed = {s: times for s, times in timed.items() if s not in stopped}
    clocks = [clock for clock, _ in timed.values() if clock is not None]
    timers = [timer for _, timer in timed.values() if timer is not None]
    if clocks:
        said.append(phrase("lobby.act.clock", lang, when=When(int(min(clocks)))))
    if timers:  # a real-time round's own short timer, counted from the round's start
        due = match.row.phase_started_at + min(timers)
        said.append(phrase("lobby.act.round_timer", lang, when=When(int(due))))
    return lines(said)


def phase_record(
    match: Match,
    snap: Snapshot,
    before: Snapshot | None = None,
    told: Sequence[Event] = (),
    mover: int | None = None,
    away: int | None = None,
) -> dict[str, Any]:
    """What the game row keeps of its phase message (``GameRow.messages``): the message id is
    filled in once the adapter has posted it (``Service.delivered``, ``Posted``). A table message edited in
    place (an edited table, a turn's message: ``bot.service.live``) goes on, or begins here with
    ``told`` (what its post narrates: "the game begins"), compared with ``before`` (``mover``:
    the seat that made the step in person, ``away``: the seat whose step was played by
    default, ``live.new_message``)."""
    kept = live.carried(match, snap, before, mover, away)
    if kept.get("table") == snap.phase and told:
        kept["told"] = [[e.key, e.args] for e in told]
    return {
        **(match.row.messages or {}),
        "phase": {
            "channel": match.row.channel_id,
            "id": None,
            "phase": snap.phase,
            "awaited": sorted(snap.pending),
            **kept,
        },
    }


def readiness(
    match: Match, snap: Snapshot, lang: str, skipped: frozenset[int] = frozenset()
) -> Post | None:
    """A submission in a phase that goes on: the phase message's head again, with who is now
    ready, as an edit of that message (never a new post; ``None`` when the row knows of no
    phase message for this phase, e.g. a game started before messages were recorded)."""
    record = (match.row.messages or {}).get("phase") or {}
    if record.get("phase") != snap.phase:
        return None
    awaited = [int(s) for s in record.get("awaited") or []]
    ready = [s for s in awaited if s not in snap.pending]
    return Post(
        int(record.get("channel") or match.row.channel_id),
        awaited_lines(match, snap, ready, lang, skipped),
        slot=Slot(match.row.id, "phase", snap.phase),
        edit=True,
        edit_of=int(record["id"]) if record.get("id") else None,
    )


def move_draft(
    match: Match,
    before: Snapshot,
    after: Snapshot,
    seat: int,
    events: list[Event],
    lang: str,
    public_lang: str,
    *,
    by_default: bool,
    draws: bool,
    timed_out: bool | None = None,
    rest_of_turn: bool = False,
) -> Draft:
    """The replies to a move: the mover's private lines and buttons, and the channel's message:
    the whole phase message (with its picture when the picture key moved on) when the phase
    moved on, else an edit of the phase message saying who is ready."""
    draft = Draft()
    names = match.names()
    earlier = before.pending.get(seat)
    # The game's own clock (a deadline the engine set: FUSE's bomb) ran out and ended it: the
    # engine narrates that; "X ran out of time" would blame the one seat whose default was played.
    game_clock = after.over and earlier is not None and earlier.deadline is not None
    blame = (by_default if timed_out is None else timed_out) and not game_clock
    moved_on = after.phase != before.phase or after.over
    if not by_default:
        draft.say(phrase("lobby.act.recorded", lang))
        # The echo of one's own hidden submission ("Saved: … hidden until everyone has
        # chosen") is untrue once this very move resolved the phase (the last to choose, or a
        # solo game): the channel's message says what happened to it. News is kept.
        echoes = [e for e in events if e.to == seat and (not moved_on or match.engine.is_news(e))]
        draft.private.extend(events_text(echoes, names, lang))
    # Private news for anyone but the actor (an item drawn at the start of a turn) cannot go in
    # the actor's reply: the channel is told *that* there is news, never what it is, and
    # /game board shows it to its owner.
    # One line per seat, naming only that player, and only for news (not the echo of a move
    # played by default); a seat no person reads (a computer seat, a player who left) is not
    # told.
    unread = _unread(match)
    news = sorted(
        {
            e.to
            for e in events
            if e.to is not None
            and (by_default or e.to != seat)
            and e.to not in unread
            and match.engine.is_news(e)
        }
    )
    told = public(events) + [Event("lobby.act.private_news", {"seat": s}) for s in news]
    # A missed deadline used up the seat's deadline for the whole turn: the computer plays its
    # next step in this turn at once, so nobody waits for it.
    again = rest_of_turn and after.turn == before.turn and seat in after.pending
    autoplayed = {seat} if again else set()
    found = live.record(match)
    if found is not None and not after.over:
        return _live_move(
            draft,
            match,
            before,
            after,
            seat,
            told,
            found,
            public_lang,
            blame,
            draws=draws,
            autoplayed=frozenset(autoplayed),
            acted=not by_default,
        )
    draw = draws and (after.over or after.picture_key != before.picture_key)
    if moved_on and asking.asks(after):
        # A phase of questions asked in place begins: its message keeps what it narrates.
        kept = [asking.timed_out(seat), *told] if blame else told
        draft.messages = asking.remember(match, kept, fresh=True)
    elif not moved_on and (asking.asks(before) or asking.asks(after)):
        computer = by_default or computer_plays(seat_of_number(match.row, seat))
        told = asking.by_computer(told) if computer else told
        if blame:
            told = [asking.timed_out(seat), *told]
        whole = phase_post(
            match,
            after,
            [],
            public_lang,
            before=before,
            draw=draw,
            autoplayed=frozenset(autoplayed),
        )
        asking.answered(
            draft, match, before, after, whole, told, public_lang, frozenset(autoplayed)
        )
        if not by_default and seat in after.pending:  # the next question about their board
            draft.say(pending_text(match.kind, after.pending[seat], names, lang))
            draft.private_buttons = offered_buttons(match, [seat], lang)
        return draft
    if moved_on:
        post = phase_post(
            match,
            after,
            told,
            public_lang,
            before=before,
            timed_out=seat if blame else None,
            draw=draw,
            autoplayed=frozenset(autoplayed),
        )
        draft.public.append(post)
        result = thread_result(match, post, public_lang) if after.over else None
        if result is not None:
            draft.public.append(result)
        return draft
    said: list[Text] = []
    if blame:
        said.append(phrase(TIMED_OUT, public_lang, player=names[seat]))
    said.extend(events_text(told, names, public_lang))
    if said:
        # Something the table must read happened without moving the phase on (a timeout):
        # that is news, not readiness, and an edit would be overwritten by the next one.
        draft.public.append(Post(match.row.channel_id, Text(), narration=lines(said)))
    if seat in before.pending and seat not in after.pending:
        edit = readiness(match, after, public_lang, frozenset(autoplayed))
        if edit is not None:
            draft.public.append(edit)
            draft.ack_by_edit = not by_default and len(draft.private) == 1
    if not by_default and seat in after.pending:
        draft.private_buttons = offered_buttons(match, [seat], lang)
    return draft


def _live_move(
    draft: Draft,
    match: Match,
    before: Snapshot,
    after: Snapshot,
    seat: int,
    told: list[Event],
    found: dict[str, Any],
    lang: str,
    blame: bool,
    *,
    draws: bool,
    autoplayed: frozenset[int],
    acted: bool,
) -> Draft:
    """A move at a table whose message is edited in place (``bot.service.live``: an edited
    table, a turn's message): the table message edited, or posted anew where the rules there
    say so. A seat the timer played for is a line in it, not a post of its own."""
    earlier = before.pending.get(seat)
    if blame and earlier is not None:
        timer = live.round_timer(match, earlier) is not None
        key = live.timed_out_key(match, timer, TURN_TIMED_OUT)
        told = [Event(key, {"seat": seat}), *told]
    draw = draws and after.picture_key != before.picture_key
    whole = phase_post(match, after, told, lang, before=before, draw=draw, autoplayed=autoplayed)
    draft.messages = live.remember(match, found, told)
    if after.phase != before.phase and found.get("table") == after.phase:
        # A new table message, which pings whom it asks anew (an edited table's sitting: each
        # player once, ``live.posted``).
        record = draft.messages["phase"]
        if live.shown(match).edited:
            whole, record = live.posted(match, whole, record, after, lang, autoplayed)
        else:  # whom the turn's messages pinged: its player, or the ones asked and next
            record = {**record, "pinged": sorted({*(record.get("pinged") or []), *whole.mentions})}
        draft.messages = {**draft.messages, "phase": record}
        draft.public.append(whole)
        return draft
    edit = live.edit(match, whole, draft.messages["phase"], lang)
    # (It announces a phase only when the phase moved on: a new round, the returns.)
    draft.public.append(edit if after.phase != before.phase else replace(edit, phase=False))
    # The clicked message shows the move: it stands for the "Recorded" answer; the buttons
    # are on it, so the mover needs none of their own.
    draft.ack_by_edit = acted and len(draft.private) == 1
    return draft


def _unread(match: Match) -> set[int]:
    """Seats no person reads: computer seats, and players who left."""
    return {s.seat for s in match.row.seats if s.left or s.computer is not None}


def offered_buttons(
    match: Match, seats: list[int], lang: str, pending: dict[int, Pending] | None = None
) -> tuple[Button, ...]:
    """The buttons for ``seats``' legal moves, in the game's own command order (claims before
    "pass"). Players asked different things at once (Bad Bones: one picks a cemetery, another a
    direction) share one row of buttons: a button only one of them can use says whose it is.
    Players asked the same thing (everyone claims a die) need no names."""
    engine, row = match.engine, match.row
    seen: list[tuple[str, CommandArgs]] = []
    owners: list[list[int]] = []  # the seats offered each button of ``seen``
    for seat in seats:
        for item in engine.buttons(match.state, seat):
            if item in seen:
                owners[seen.index(item)].append(seat)
            else:
                seen.append(item)
                owners.append([seat])
    order = {c.name: i for i, c in enumerate(engine.commands)}
    state = match.state
    ranked = sorted(
        zip(seen, owners, strict=True),
        key=lambda pair: (
            order.get(pair[0][0], len(order)),
            engine.button_rank(state, pair[0][0], pair[0][1]),
        ),
    )
    names = match.names()
    known = catalogue(language_for(lang))
    out: list[Button] = []
    # Questions that stay open while others are answered (Bad Bones phase 3): the buttons
    # carry the newest question asked here, so each stays valid until its own is answered.
    asked = [
        item.asked
        for seat, item in (engine.pending(state) if pending is None else pending).items()
        if seat in seats and item.asked is not None
    ]
    mark = max(asked) if asked else None
    for (command, args), offered in ranked[:MAX_BUTTONS]:
        custom_id = button_ids.button_id(row.id, row.phase, command, args, mark)
        if custom_id is None:
            continue
        key = f"{row.kind}.button.{command}"
        label = (
            str(phrase(key, lang, **fill_args(show_args(row.kind, args, lang), names, lang)))
            if key in known
            else " ".join([command, *map(str, args.values())])
        )
        if says_whose(match, pending, command, len(seats)) and len(offered) == 1:
            label = str(
                phrase("lobby.act.owned_button", lang, player=names[offered[0]], label=label)
            )
        out.append(Button(label[:80], custom_id))
    return tuple(out)


def board_button(lang: str) -> Button:
    """ "🎒 Your board": ``/game board`` in one click (its menus hold the hidden moves)."""
    return Button(str(phrase("lobby.board.button", lang)), button_ids.view_id(button_ids.BOARD, {}))


def says_whose(
    match: Match, pending: Mapping[int, Pending] | None, command: str, among: int
) -> bool:
    """Whether a button of ``command``, offered to one of ``among`` seats, names its player:
    players asked different things at once (Bad Bones: one picks a cemetery, another a
    direction) share one row of buttons, and so do several holders of an owned command (FUSE's
    placements and returns). ``moves.clicked`` tells a presser whose such a button is."""
    apart = pending is not None and len({p.kind for p in pending.values()}) > 1
    owned = any(c.name == command and c.owned for c in match.engine.commands)
    return apart or (owned and among > 1)


def offered_selects(match: Match, seats: list[int], lang: str) -> tuple[Select, ...]:
    """At most one multi-select menu (a command with a ``select`` parameter: keep dice)."""
    engine, row = match.engine, match.row
    for command in engine.commands:
        if command.select is None:
            continue
        tokens: dict[str, None] = {}
        for seat in seats:
            for value in engine.suggestions(match.state, seat, command.name, command.select, {}):
                for token in value.split():
                    tokens.setdefault(token, None)
        if not tokens:
            continue
        options = tuple(
            (tok, str(show(row.kind, command.select, tok, lang))) for tok in list(tokens)[:25]
        )
        placeholder = str(phrase(f"{row.kind}.command.{command.name}", lang))[:150]
        select_id = button_ids.select_id(row.id, row.phase, command.name, command.select)
        # A token that names a piece says what it does under its label.
        details = tuple(
            pieces.detail(row.kind, command.name, command.select, tok, lang) for tok, _ in options
        )
        return (
            Select(
                placeholder,
                select_id,
                options,
                1,
                len(options),
                details if any(details) else (),
            ),
        )
    return ()


def thread_result(match: Match, final: Post, lang: str) -> Post | None:
    """A game played in a thread ends: its parent channel hears the result, with a link."""
    row = match.row
    if row.parent_channel_id is None:
        return None
    text = phrase(
        "lobby.thread.result",
        lang,
        game=phrase(f"{row.kind}.name", lang),
        thread=Channel(row.channel_id, str(phrase(f"{row.kind}.name", lang))),
        result=final.text,
    )
    return Post(row.parent_channel_id, text)


def status_lines(
    row: GameRow, deadlines: dict[tuple[int, str], DeadlineRow], lang: str
) -> list[Text]:
    """``/game status``: the game, its seats, and who is awaited until when."""
    engine = get_game(row.kind)
    names = seat_names(row)
    low, high = engine.seat_range(row.options)
    said = [
        phrase(
            f"lobby.status.{row.status}",
            lang,
            game=phrase(f"{row.kind}.name", lang),
            count=len(row.seats),
            min=low,
            max=high,
        )
    ]
    for seat in sorted(row.seats, key=lambda s: s.seat):
        marker = " " + str(phrase("lobby.status.host", lang)) if seat.user_id == row.host_id else ""
        gone = ""
        if seat.left:
            gone = " — " + str(phrase("lobby.status.left", lang))
        elif seat.computer is not None:
            gone = " — " + str(phrase("bots.status.computer", lang))
        elif seat.autopilot:
            gone = " — " + str(phrase("bots.status.autopilot", lang))
        said.append(Text.of(f"{seat.seat + 1}. ", names[seat.seat], marker, gone))
    if row.state is not None and row.status == ACTIVE:
        match = Match.of(row)
        # A waiting game's deadlines are set a century on (held, or the bot cannot post):
        # no time is shown for them, "in 100 years" would be nonsense.
        waiting = set_aside(row) > 0
        for seat_no, item in sorted(engine.pending(match.state).items()):
            due = deadlines.get((seat_no, "default"))
            line = phrase(
                "lobby.status.awaiting",
                lang,
                player=names[seat_no],
                what=pending_text(row.kind, item, names, lang),
            )
            said.append(line + Text.of(" ", When(int(due.due_at))) if due and not waiting else line)
        if held(row):
            said.append(phrase("lobby.status.held", lang))
    return said


def nudge(match: Match, seat: int, item: Pending, user_id: int, due: float | None) -> Post:
    """The ping a player's quiet hours held back, once they end: they are still awaited."""
    names = match.names()
    lang = public_locale(match.row)
    text = phrase(
        "lobby.deadline.nudge",
        lang,
        player=Mention(user_id, names[seat].text),
        what=pending_text(match.kind, item, names, lang),
        link=jump_link(match.row.guild_id, match.row.channel_id),
    )
    if due is not None:
        text = Text.of(text, " ", phrase("lobby.deadline.until", lang, when=When(int(due))))
    return Post(match.row.channel_id, text, mentions=(user_id,), only_ping=True)


def reminder(match: Match, seat: int, item: Pending, user_id: int, due: float, lang: str) -> Post:
    """The nudge before a seat's deadline (only that player is pinged)."""
    names = match.names()
    text = phrase(
        "lobby.deadline.reminder",
        lang,
        player=Mention(user_id, names[seat].text),
        what=pending_text(match.kind, item, names, lang),
        when=When(int(due)),
        link=jump_link(match.row.guild_id, match.row.channel_id),
    )
    return Post(match.row.channel_id, text, mentions=(user_id,))
