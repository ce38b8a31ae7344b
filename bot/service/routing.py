"""Routing a command's posts by the ``/me`` settings of those they mention (bot/service/reach.py).

Every command's draft passes through :func:`route` before its posts are recorded
(``Service._run``), so the deadline loop's reminders and defaults are routed like moves. A draft
that mentions nobody costs nothing; one that does reads the settings of those it mentions (one
query by primary key; most users have no row).
"""

from __future__ import annotations

from dataclasses import replace

from bot.service import compose, deadlines, live
from bot.service.draft import Draft, Post
from bot.service.match import Match, computer_plays, public_locale
from bot.service.narrate import plain_name
from bot.service.reach import BOTH, DM, PING, Reach, reaches
from bot.service.text import Channel, Mention, Name, Text, When, phrase
from bot.service.transaction import Tx
from bot.store import repository as repo
from bot.store.models import ACTIVE, GameRow, SeatRow


async def route(tx: Tx, draft: Draft) -> None:
    """Honour the mentioned players' ``/me`` settings in ``draft`` (see the module's doc)."""
    row = tx.row
    mentioned = {user for post in draft.public for user in post.mentions}
    away_seats = _away_seats(row)
    if not mentioned and not away_seats:
        return
    found = await reaches(tx.session, mentioned | {seat.user_id for seat in away_seats})
    if away_seats:
        await _returns(tx, draft, away_seats, found)
    if not found:
        return
    routed: list[Post] = []
    for post in draft.public:
        keep: list[int] = []
        for user in post.mentions:
            reach = found.get(user)
            if reach is None:
                keep.append(user)
            elif reach.away(tx.now) and await _away(tx, draft, user, reach):
                pass  # the computer plays their seat: nobody to ping
            elif (ends := reach.quiet_until(tx.now)) is not None:
                await _later(tx, user, ends)
            else:
                if reach.notify in (DM, BOTH) and not reach.dm_closed:
                    routed.append(_direct(tx, post, reach))
                if reach.notify != DM or reach.dm_closed:
                    keep.append(user)
        if post.only_ping and not keep:
            continue  # "your quiet hours are over" pinging nobody: untrue, or said by DM
        routed.append(replace(post, mentions=tuple(keep)))
    # The channel's posts first, in their order, then the direct messages they called for.
    draft.public[:] = [p for p in routed if p.dm is None] + [p for p in routed if p.dm is not None]


def _direct(tx: Tx, post: Post, reach: Reach) -> Post:
    """The direct message that tells ``reach``'s user about ``post``: a line and where to go
    (the table itself stays in the channel); if Discord refuses it, the channel mentions them
    with a note instead (``fallback``)."""
    lang = reach.language or _seat_locale(tx.row, reach.user_id) or tx.lang
    row = tx.row
    game = phrase(f"{row.kind}.name", lang) if row is not None else Text()
    where = Channel(post.channel_id, str(game))
    text = phrase("me.dm.turn", lang, game=game, channel=where)
    name = _name(row, reach.user_id)
    fallback = phrase("me.dm.closed", public_locale(row) if row else tx.lang, player=name)
    return Post(post.channel_id, text, dm=reach.user_id, fallback=fallback)


def _name(row: GameRow | None, user_id: int) -> Mention:
    seat = _seat_of_user(row, user_id)
    return Mention(user_id, plain_name(seat.display_name) if seat else str(user_id))


def _seat_of_user(row: GameRow | None, user_id: int) -> SeatRow | None:
    if row is None:
        return None
    return next((s for s in row.seats if s.user_id == user_id), None)


def _seat_locale(row: GameRow | None, user_id: int) -> str | None:
    seat = _seat_of_user(row, user_id)
    return seat.locale if seat else None


async def _later(tx: Tx, user_id: int, when: float) -> None:
    """Ping ``user_id`` when their quiet hours end, if the game still awaits them then."""
    seat = _seat_of_user(tx.row, user_id)
    if tx.row is None or seat is None:
        return
    await tx.writer.take()
    await repo.replace_deadline(
        tx.session, deadlines.deadline_row(tx.row.id, seat.seat, PING, when, tx.row.phase)
    )
    if tx.row.status == ACTIVE and tx.row.state is not None:
        live.held_back(Match.of(tx.row), user_id)  # (a turn of theirs posts anew, pinging them)


# --------------------------------------------------------------------------- away


def _away_seats(row: GameRow | None) -> list[SeatRow]:
    """The seats of this game the autopilot took because their player is away."""
    if row is None or row.status != ACTIVE:
        return []
    said = set(row.settings.get("away", ()))
    return [s for s in row.seats if s.seat in said and s.autopilot and not s.left]


async def _away(tx: Tx, draft: Draft, user_id: int, reach: Reach) -> bool:
    """The game awaits a player who is away: their seat goes on the autopilot, said once in
    this game (a seat they took back here stays theirs). False: not so here."""
    row = tx.row
    seat = _seat_of_user(row, user_id)
    if row is None or seat is None or computer_plays(seat):
        return False
    said = list(row.settings.get("away", ()))
    if seat.seat in said or seat.seat in row.settings.get("away_done", ()):
        return False  # said once in each game: a seat they took back here stays theirs
    await tx.writer.take()
    lang = public_locale(row)
    seat.autopilot = True  # (bot/service/computer.py: any command of theirs here takes it back)
    until = When(int(reach.away_until or tx.now), style="d")
    name = Name(plain_name(seat.display_name))
    text = phrase("bots.autopilot.away", lang, player=name, until=until)
    draft.public.append(Post(row.channel_id, text))
    row.settings = {**row.settings, "away": [*said, seat.seat]}
    await deadlines.restart(tx, Match.of(row), seat.seat)
    return True


async def _returns(tx: Tx, draft: Draft, seats: list[SeatRow], found: dict[int, Reach]) -> None:
    """Seats the autopilot played while their player was away come back once they are not."""
    row = tx.row
    assert row is not None
    back = [s for s in seats if not (found.get(s.user_id) or Reach(s.user_id)).away(tx.now)]
    if not back:
        return
    await tx.writer.take()
    lang = public_locale(row)
    numbers = {s.seat for s in back}
    done = sorted({*row.settings.get("away_done", ()), *numbers})
    away = [n for n in row.settings.get("away", ()) if n not in numbers]
    row.settings = {**row.settings, "away": away, "away_done": done}
    match = Match.of(row)
    for seat in back:
        seat.autopilot = False
        seat.misses = 0
        await deadlines.restart(tx, match, seat.seat)
        name = Name(plain_name(seat.display_name))
        pending = match.engine.pending(match.state).get(seat.seat)
        text = phrase("bots.autopilot.back", lang, player=name)
        mentions: tuple[int, ...] = ()
        if pending is not None:  # their turn now: they are told, as a new turn would
            what = compose.pending_text(row.kind, pending, match.names(), lang)
            asked = phrase(
                "lobby.act.awaiting", lang, player=Mention(seat.user_id, name.text), what=what
            )
            text = Text.of(text, "\n", asked)
            mentions = (seat.user_id,)
        draft.public.append(Post(row.channel_id, text, mentions=mentions))
