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

from collections.abc import Sequence

from bot.service import buttons as button_ids
from bot.service.draft import Draft, Post, RenderJob
from bot.service.errors import Refusal
from bot.service.narrate import events_text, fill_args, plain_name
from bot.service.replies import Actor, Button, Select
from bot.service.table import Table, computer_plays, seat_names
from bot.service.text import Mention, Name, Text, When, join, lines, phrase
from bot.store.models import ACTIVE, DeadlineRow, GameRow
from i18n import catalogue, language_for
from rules.core import CommandArgs, Event, Pending, RulesError, Snapshot, get_game, public

MAX_BUTTONS = 25  # Discord: 5 rows of 5
TIMED_OUT = "lobby.deadline.defaulted"


def refusal(error: Refusal | RulesError, lang: str) -> Text:
    """A refused command, in the words of its error."""
    # Arguments may echo what the user typed: braces in them must not read as a template.
    echoed = {
        k: v.replace("{", "(").replace("}", ")") if isinstance(v, str) else v
        for k, v in error.args_map.items()
    }
    return "⚠️ " + phrase(error.key, lang, **fill_args(echoed, [], lang))


def picture(table: Table, lang: str) -> RenderJob:
    """The channel's picture of the table: the public view only."""
    view = table.engine.view(table.state, None)
    return RenderJob(table.kind, view, table.plain_names(), lang, private=False)


def pending_text(kind: str, item: Pending, names: Sequence[Name], lang: str) -> Text:
    """What a seat is asked ("choose the dice to keep")."""
    return phrase(f"{kind}.pending.{item.kind}", lang, **fill_args(item.args, names, lang))


def phase_post(
    table: Table,
    snap: Snapshot,
    events: list[Event],
    lang: str,
    *,
    before: Snapshot | None = None,
    timed_out: int | None = None,
    draw: bool = True,
) -> Post:
    """The one public message of a resolved phase: events, who is awaited, buttons, and the
    picture of the table (``draw``: when the game's ``picture_key`` says the table deserves a
    new one)."""
    names = table.names()
    said: list[Text] = []
    if timed_out is not None:
        said.append(phrase(TIMED_OUT, lang, player=names[timed_out]))
    said.extend(events_text(events, names, lang))
    mentions: list[int] = []
    buttons: tuple[Button, ...] = ()
    selects: tuple[Select, ...] = ()
    if snap.over:
        result = snap.result
        if result is not None and result.summary is not None:
            said.extend(events_text([result.summary], names, lang))
        winners = join(names[s] for s in (result.winners if result else ()))
        said.append(
            phrase("lobby.over.winners", lang, winners=winners)
            if winners
            else phrase("lobby.over.nobody", lang)
        )
    else:
        by_seat = {s.seat: s for s in table.row.seats}
        # A step with no decision (ZvV's autoroll) is played at once: nobody is asked for it.
        asked = {
            seat: item
            for seat, item in snap.pending.items()
            if table.engine.automatic(table.state, seat) is None
        }
        for seat, item in sorted(asked.items()):
            user = by_seat[seat]
            earlier = before.pending.get(seat) if before is not None else None
            away = computer_plays(user)  # nobody to ping: the computer plays it
            if not away and (earlier is None or earlier.kind != item.kind):
                mentions.append(user.user_id)
            who: Mention | Name = names[seat] if away else Mention(user.user_id, names[seat].text)
            what = pending_text(table.kind, item, names, lang)
            said.append(phrase("lobby.act.awaiting", lang, player=who, what=what))
        clocks = [p.deadline for p in snap.pending.values() if p.deadline is not None]
        if clocks:
            said.append(phrase("lobby.act.clock", lang, when=When(int(min(clocks)))))
        # No buttons for the seats no person plays (a person on autopilot keeps theirs: a click
        # brings them back).
        seats = [s for s in sorted(asked) if not (by_seat[s].computer or by_seat[s].left)]
        buttons = offered_buttons(table, seats, lang, snap.pending)
        selects = offered_selects(table, seats, lang)
        if selects:
            buttons = buttons[:20]  # a select takes one of the five rows
    return Post(
        table.row.channel_id,
        lines(said),
        mentions=tuple(mentions),
        buttons=buttons,
        selects=selects,
        picture=picture(table, lang) if draw else None,
        phase=True,
    )


def move_draft(
    table: Table,
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
) -> Draft:
    """The replies to a move: the mover's private lines and buttons, and the channel's message
    (the whole phase message, with its picture when the picture key moved on)."""
    draft = Draft()
    names = table.names()
    timed_out = by_default if timed_out is None else timed_out
    if not by_default:
        draft.say(phrase("lobby.act.recorded", lang))
        draft.private.extend(events_text([e for e in events if e.to == seat], names, lang))
    # Private news for anyone but the actor (an item drawn at the start of a turn) cannot go in
    # the actor's reply: the channel is told *that* there is news, never what it is, and
    # /game board shows it to its owner.
    # (A computer seat has nobody to tell.)
    bots = {s.seat for s in table.row.seats if s.computer is not None}
    others = sorted(
        {e.to for e in events if e.to is not None and (by_default or e.to != seat)} - bots
    )
    told = public(events) + ([Event("lobby.act.private_news", {"seats": others})] if others else [])
    if after.phase != before.phase or after.over:
        draw = draws and (after.over or after.picture_key != before.picture_key)
        draft.public.append(
            phase_post(
                table,
                after,
                told,
                public_lang,
                before=before,
                timed_out=seat if timed_out else None,
                draw=draw,
            )
        )
        return draft
    still = set(after.pending)
    said: list[Text] = []
    if timed_out:
        said.append(phrase(TIMED_OUT, public_lang, player=names[seat]))
    said.extend(events_text(told, names, public_lang))
    if seat in before.pending and seat not in still and still:
        waiting = join(names[s] for s in sorted(still))
        said.append(phrase("lobby.act.ready", public_lang, player=names[seat], waiting=waiting))
    if said:
        draft.public.append(Post(table.row.channel_id, lines(said)))
    if not by_default and seat in still:
        draft.private_buttons = offered_buttons(table, [seat], lang)
    return draft


def offered_buttons(
    table: Table, seats: list[int], lang: str, pending: dict[int, Pending] | None = None
) -> tuple[Button, ...]:
    """The buttons for ``seats``' legal moves, in the game's own command order (claims before
    "pass"). Players asked different things at once (Bad Bones: one picks a cemetery, another a
    direction) share one row of buttons: a button only one of them can use says whose it is.
    Players asked the same thing (everyone claims a die) need no names."""
    engine, row = table.engine, table.row
    seen: list[tuple[str, CommandArgs]] = []
    owners: list[list[int]] = []  # the seats offered each button of ``seen``
    for seat in seats:
        for item in engine.buttons(table.state, seat):
            if item in seen:
                owners[seen.index(item)].append(seat)
            else:
                seen.append(item)
                owners.append([seat])
    order = {c.name: i for i, c in enumerate(engine.commands)}
    ranked = sorted(
        zip(seen, owners, strict=True), key=lambda pair: order.get(pair[0][0], len(order))
    )
    asked_apart = pending is not None and len({p.kind for p in pending.values()}) > 1
    names = table.names()
    known = catalogue(language_for(lang))
    out: list[Button] = []
    for (command, args), offered in ranked[:MAX_BUTTONS]:
        custom_id = button_ids.button_id(row.id, row.phase, command, args)
        if custom_id is None:
            continue
        key = f"{row.kind}.button.{command}"
        label = (
            str(phrase(key, lang, **fill_args(args, names, lang)))
            if key in known
            else " ".join([command, *map(str, args.values())])
        )
        if asked_apart and len(offered) == 1:
            label = str(
                phrase("lobby.act.owned_button", lang, player=names[offered[0]], label=label)
            )
        out.append(Button(label[:80], custom_id))
    return tuple(out)


def offered_selects(table: Table, seats: list[int], lang: str) -> tuple[Select, ...]:
    """At most one multi-select menu (a command with a ``select`` parameter: keep dice)."""
    engine, row = table.engine, table.row
    for command in engine.commands:
        if command.select is None:
            continue
        tokens: dict[str, None] = {}
        for seat in seats:
            for value in engine.suggestions(table.state, seat, command.name, command.select, {}):
                for token in value.split():
                    tokens.setdefault(token, None)
        if not tokens:
            continue
        options = tuple((tok, tok) for tok in list(tokens)[:25])
        placeholder = str(phrase(f"{row.kind}.command.{command.name}", lang))[:150]
        select_id = button_ids.select_id(row.id, row.phase, command.name, command.select)
        return (Select(placeholder, select_id, options, 1, len(options)),)
    return ()


def lobby_text(row: GameRow, lang: str, key: str, actor: Actor) -> Text:
    """A lobby notice (opened, joined, left) with the game's seats and options."""
    engine = get_game(row.kind)
    options = ", ".join(f"{k}={v}" for k, v in sorted(row.options.items())) or "—"
    return phrase(
        key,
        lang,
        player=Name(plain_name(actor.display_name)),
        game=phrase(f"{row.kind}.name", lang),
        options=options,
        players=join(seat_names(row)),
        count=len(row.seats),
        min=engine.min_seats,
        max=engine.max_seats,
    )


def status_lines(
    row: GameRow, deadlines: dict[tuple[int, str], DeadlineRow], lang: str
) -> list[Text]:
    """``/game status``: the game, its seats, and who is awaited until when."""
    engine = get_game(row.kind)
    names = seat_names(row)
    said = [
        phrase(
            f"lobby.status.{row.status}",
            lang,
            game=phrase(f"{row.kind}.name", lang),
            count=len(row.seats),
            min=engine.min_seats,
            max=engine.max_seats,
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
        table = Table.of(row)
        for seat_no, item in sorted(engine.pending(table.state).items()):
            due = deadlines.get((seat_no, "default"))
            line = phrase(
                "lobby.status.awaiting",
                lang,
                player=names[seat_no],
                what=pending_text(row.kind, item, names, lang),
            )
            said.append(line + Text.of(" ", When(int(due.due_at))) if due else line)
    return said


def reminder(table: Table, seat: int, item: Pending, user_id: int, due: float, lang: str) -> Post:
    """The nudge before a seat's deadline (only that player is pinged)."""
    names = table.names()
    text = phrase(
        "lobby.deadline.reminder",
        lang,
        player=Mention(user_id, names[seat].text),
        what=pending_text(table.kind, item, names, lang),
        when=When(int(due)),
    )
    return Post(table.row.channel_id, text, mentions=(user_id,))
