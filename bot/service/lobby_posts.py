"""The lobby's message: posted by ``/game new`` (opening the game's thread), edited as players
come and go and when the game starts or ends; a rematch's lobby, and the Rematch button.
Pure functions of the game's row, like ``compose`` for the table's messages."""

from __future__ import annotations

from typing import Any

from bot.service import buttons as button_ids
from bot.service.draft import Post
from bot.service.match import seat_names, seats_in_order
from bot.service.options import summary as option_summary
from bot.service.replies import Button, Slot, ThreadPlan
from bot.service.text import Name, Text, join, phrase
from bot.store.models import ACTIVE, LOBBY, GameRow
from rules.core import get_game


def options_summary(row: GameRow, lang: str) -> Text:
    """A game's options in the reader's words: "Cooperative: yes · Difficulty: expert"."""
    return Text.of(option_summary(row.kind, row.options, lang))


def lobby_post(row: GameRow, lang: str, *, edit: bool = True) -> Post:
    """The lobby message: the game, its host, its options and its players, with Join, Leave and
    Start buttons. Posted once by /game new, then edited in place as players come and go, and
    when the game starts or is cancelled (buttons gone)."""
    engine = get_game(row.kind)
    names = seat_names(row)
    host = next(
        (n for s, n in zip(row.seats, names, strict=False) if s.user_id == row.host_id), None
    )
    low, high = engine.seat_range(row.options)  # (cooperative Bad Bones: 2–6)
    args: dict[str, Any] = {
        "game": phrase(f"{row.kind}.name", lang),
        "host": host or Name("?"),
        "options": options_summary(row, lang),
        "players": join(names),
        "count": len(row.seats),
        "min": low,
        "max": high,
    }
    record = (row.messages or {}).get("lobby") or {}
    edit_of = int(record["id"]) if record.get("id") else None
    slot = Slot(row.id, "lobby")
    channel = int(record.get("channel") or row.channel_id)  # the lobby stays where it was posted
    if row.status != LOBBY:
        key = "lobby.table.started" if row.status == ACTIVE else "lobby.table.closed"
        return Post(channel, phrase(key, lang, **args), slot=slot, edit=True, edit_of=edit_of)
    if row.settings.get("rematch_of") is not None:
        return _rematch_lobby(row, lang, args, channel, slot, edit=edit, edit_of=edit_of)
    buttons = tuple(
        Button(
            str(phrase(f"lobby.table.{command}", lang)), button_ids.lobby_id(row.id, command), style
        )
        for command, style in (("join", "success"), ("leave", "secondary"), ("start", "primary"))
    )
    return Post(
        channel,
        phrase("lobby.table.open", lang, **args),
        buttons=buttons,
        slot=slot,
        edit=edit,
        edit_of=edit_of,
        # The first post opens the game's thread, named for the game and its host.
        thread=None
        if edit
        else ThreadPlan(
            str(phrase("lobby.thread.name", lang, **args))[:100],
            phrase("lobby.thread.fallback", lang),
        ),
    )


def rematch_button(game_id: int, lang: str) -> Button:
    """Rematch, under a finished game's closing message and its rematch's lobby message."""
    custom_id = button_ids.button_id(game_id, "", button_ids.REMATCH, {})
    assert custom_id is not None, "a rematch button's id is short"
    return Button(str(phrase("rematch.button", lang)), custom_id, style="primary")


def _rematch_lobby(
    row: GameRow,
    lang: str,
    args: dict[str, Any],
    channel: int,
    slot: Slot,
    *,
    edit: bool,
    edit_of: int | None,
) -> Post:
    """A rematch's lobby message: its seats in the new order and who has not asked yet, with
    Rematch (to ask), Leave (to sit this one out) and Start (the host, sooner). It opens no
    thread: a rematch is played where its game was, in the game's thread if it had one."""
    ready = set(row.settings.get("ready", []))
    # A computer seat never asks (nor is waited for: ``lobby.rematch_complete``).
    people = [s.user_id if s.computer is None else None for s in seats_in_order(row)]
    waiting = [n for u, n in zip(people, seat_names(row), strict=True) if u and u not in ready]
    fewest = get_game(row.kind).seat_range(row.options)[0]
    if len(row.seats) < fewest:  # the others sat it out: it waits for newcomers, not for asks
        key = "rematch.lobby_short"
    else:
        key = "rematch.lobby" if waiting else "rematch.lobby_ready"
    text = phrase(key, lang, **args, waiting=join(waiting), fewest=fewest)
    buttons = (
        rematch_button(int(row.settings["rematch_of"]), lang),
        Button(str(phrase("lobby.table.leave", lang)), button_ids.lobby_id(row.id, "leave")),
        Button(str(phrase("lobby.table.start", lang)), button_ids.lobby_id(row.id, "start")),
    )
    return Post(channel, text, buttons=buttons, slot=slot, edit=edit, edit_of=edit_of)
