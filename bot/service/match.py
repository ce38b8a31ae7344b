"""The match: a game as the service holds it during one command, its row, its engine and its
state (:class:`Match`). "Table" means one thing only in the service: what the players see in
the channel, the posted message and its picture.

Also the small facts about seats that every room of the service asks (who sits where, their
names for messages and for pictures), in one place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.service.errors import Refusal
from bot.service.narrate import plain_name
from bot.service.replies import Actor
from bot.service.text import Name
from bot.store.models import GameRow, SeatRow
from i18n import language_for
from rules.core import Action, Game, get_game

BOT_MARK = "🤖"  # how computer seats' names begin (i18n bots.name)
DEFAULT_SETTINGS: dict[str, int] = {"deadline_minutes": 24 * 60, "reminder_minutes": 120}


@dataclass
class Match:
    row: GameRow
    engine: Game[Any]
    state: Any

    @classmethod
    def of(cls, row: GameRow) -> Match:
        engine = get_game(row.kind)
        return cls(row, engine, engine.load(row.state or {}))

    @property
    def kind(self) -> str:
        return self.row.kind

    def names(self) -> list[Name]:
        return seat_names(self.row)

    def plain_names(self) -> list[str]:
        return plain_names(self.row)


def seat_names(row: GameRow) -> list[Name]:
    """Each seat's name for messages, in seat order."""
    return [Name(plain_name(s.display_name)) for s in seats_in_order(row)]


def plain_names(row: GameRow) -> list[str]:
    """Each seat's name for pictures and button labels (plain text, no markup). The pictures'
    fonts have no emoji: a computer seat's bot mark is written "Bot" there ("Bot Normal 1")."""
    return [
        plain_name(s.display_name.replace(BOT_MARK, "Bot") if s.computer else s.display_name)
        for s in seats_in_order(row)
    ]


def seats_in_order(row: GameRow) -> list[SeatRow]:
    return sorted(row.seats, key=lambda s: s.seat)


def new_seat(number: int, actor: Actor) -> SeatRow:
    return SeatRow(
        seat=number,
        user_id=actor.user_id,
        display_name=str(actor.display_name)[:100],
        locale=language_for(actor.locale),
    )


def computer_plays(seat: SeatRow) -> bool:
    """Whether the computer makes this seat's moves now, so that no person is pinged or waited
    for: a computer seat, a person on autopilot, or a removed player (bot/service/computer.py)."""
    return seat.computer is not None or seat.autopilot or seat.left


def require(row: GameRow | None) -> GameRow:
    if row is None:
        raise Refusal("lobby.error.no_game")
    return row


def require_host(actor: Actor, row: GameRow | None) -> None:
    """Only the game's host, or someone who may manage the channel (Discord's Manage Channels),
    may do this: anyone else is refused, with nothing changed."""
    if not actor.can_manage and (row is None or actor.user_id != row.host_id):
        raise Refusal("lobby.error.host_or_manager")


def seat_of(row: GameRow, user_id: int) -> SeatRow | None:
    return next((s for s in row.seats if s.user_id == user_id), None)


def seat_of_number(row: GameRow, number: int) -> SeatRow:
    return next(s for s in row.seats if s.seat == number)


def settings(row: GameRow) -> dict[str, Any]:
    return {**DEFAULT_SETTINGS, **row.settings}


# A paused game's deadlines (``bot.service.pause``) are set this far on: a century, so that
# none comes due while it waits.
SET_ASIDE = 100 * 365 * 24 * 3600.0


def paused(row: GameRow) -> bool:
    """The bot cannot post the game's table (``bot.service.pause``)."""
    return row.settings.get("paused_at") is not None


def held(row: GameRow) -> bool:
    """The host holds the game's deadlines (holidays: ``/game settings hold:on``)."""
    return row.settings.get("held_at") is not None


def set_aside(row: GameRow) -> float:
    """How far on new deadline rows are set: a century for each reason the game waits (the
    bot cannot post there; the host holds its deadlines), so that each ends on its own."""
    return SET_ASIDE * (paused(row) + held(row))


def set_aside_for(row: GameRow, seat: SeatRow) -> float:
    """``set_aside`` for one seat's rows. A computer seat has no holidays: a hold spares absent
    people their deadlines while the others play on, and a computer's turn is part of playing
    on (a hold that stopped it stopped a game against the computer). Only a table the bot
    cannot post to waits for it."""
    return SET_ASIDE * paused(row) if seat.computer is not None else set_aside(row)


def computer_seats(row: GameRow) -> list[int]:
    """The seats of computer players (``/game addbot``), not people on autopilot."""
    return [s.seat for s in row.seats if s.computer is not None]


def public_locale(row: GameRow) -> str:
    """The language of the game's channel (the server's, when the game was opened)."""
    return str(row.settings.get("locale", "en"))


def closing(status: str) -> dict[str, Any]:
    """The columns of a game that ends: its status, and its channel freed for a new game (the
    unique ``open_channel_id``, see GameRow)."""
    return {"status": status, "open_channel_id": None}


def close(row: GameRow, status: str) -> None:
    for key, value in closing(status).items():
        setattr(row, key, value)


def whole_number(value: Any) -> int:
    """A whole number a database column can hold (user ids, minutes); anything else is refused."""
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise Refusal("lobby.error.number", value=str(value)[:30]) from None
    if not -(2**63) < number < 2**63:
        raise Refusal("lobby.error.number", value=str(value)[:30])
    return number


def automatic_steps(match: Match, seats: Iterable[int]) -> dict[int, Action]:
    """Of ``seats`` (pending ones), those whose step has no decision in it (ZvV's autoroll),
    each with that step: the service plays them at once, nobody is asked or waited for."""
    steps = {seat: match.engine.automatic(match.state, seat) for seat in seats}
    return {seat: step for seat, step in steps.items() if step is not None}
