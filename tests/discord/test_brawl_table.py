"""A Dragon Farkle brawl at a table of three, through the fake Discord: A brawls C while B plays
next. One post asks C at once (D8) and names B as playing next, pinging both; when the brawl
ends A's turn, B's turn begins in that very message (an edit, which pings nobody: it pinged
B). Also when Discord fails the post (429, 503), the edit that begins B's turn (503, 429), or
a click reaches the bot past Discord's 3 s window: nobody loses their ping or their move."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from bot.service import buttons as button_ids
from bot.store import repository as repo
from rules.core import get_game
from rules.core.policy import choose
from tests.discord.conftest import Bots
from tests.discord.test_honest_answers import past_the_window
from tests.discord.test_quiet_turns import started
from tests.fakediscord import FakeDiscord, Sent
from tests.fakediscord.faults import CALLBACK, EDIT, POST, Fault
from tests.fakediscord.server import FakeUser
from tests.fakediscord.table import _typed
from tests.support.commands import command_for

FARKLE = get_game("farkle")
DEAL = "bot.service.lobby.secrets.randbits"
SEED = 1  # (a deal whose brawl, played as the normal computer would, is over in a few steps)


@dataclass
class Brawl:
    """A three-player game at its first turn: the channel, the turn's message, and the
    players by role."""

    bot: Any
    where: int
    table: Sent
    attacker: FakeUser
    defender: FakeUser
    following: FakeUser  # the player whose turn comes next
    seats: dict[int, FakeUser]


async def three_at_a_table(fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch) -> Brawl:
    monkeypatch.setattr(DEAL, lambda bits: SEED)
    fake.window = 3.0
    bot = await bots.start()
    users = [fake.add_user(101 + i, name) for i, name in enumerate(("Alice", "Bob", "Carol"))]
    where, table = await started(fake, bot, "farkle", *users)
    row = await _row(bot, where)
    seats = {s.seat: next(u for u in users if u.id == s.user_id) for s in row.seats}
    turn = FARKLE.turn(FARKLE.load(row.state)).player
    assert turn is not None
    return Brawl(
        bot, where, table, seats[turn], seats[(turn + 2) % 3], seats[(turn + 1) % 3], seats
    )


async def _row(bot: Any, where: int) -> Any:
    async with bot.get_service().sessions() as session:
        row = await repo.open_game(session, where)
    assert row is not None and row.state is not None
    return row


def brawl_button(game: Brawl) -> str:
    seat = next(s for s, u in game.seats.items() if u is game.defender)
    return f"Brawl #{seat + 1}"


def pings(sent: list[Sent]) -> Counter[int]:
    return Counter(int(u) for s in sent for u in s.allowed_mentions.get("users") or [])


async def play_out(fake: FakeDiscord, game: Brawl) -> None:
    """The brawl played as the normal computer would, each move typed, until A's turn ends."""
    turn = FARKLE.turn_key(FARKLE.load((await _row(game.bot, game.where)).state))
    for _ in range(60):
        row = await _row(game.bot, game.where)
        state = FARKLE.load(row.state)
        if FARKLE.turn_key(state) != turn:
            return
        seat = min(FARKLE.pending(state))
        command, args = command_for(FARKLE, choose(FARKLE, state, seat, "normal"))
        typed = _typed(dict(args))
        answer = await (
            await fake.slash(game.seats[seat], f"farkle {command}", channel_id=game.where, **typed)
        ).result()
        assert "⚠️" not in answer.content, answer.content
        await fake.idle()
    raise AssertionError("the brawl did not end in 60 moves")


async def until_shown(fake: FakeDiscord, message_id: int, words: str) -> None:
    """Wait for the channel's sender to land an edit (retries included) showing ``words``."""
    for _ in range(300):
        if words in fake.messages[message_id].text:
            break
        await asyncio.sleep(0.05)
    await fake.idle()


async def posted_after(fake: FakeDiscord, where: int, posts: int) -> list[Sent]:
    """The channel's posts after the first ``posts``, once one came (a refused post is posted
    again: discord.py's retry, then the sender's)."""
    for _ in range(300):
        if len(fake.in_channel(where)) > posts:
            break
        await asyncio.sleep(0.05)
    await fake.idle()
    return fake.in_channel(where)[posts:]


def asked_and_next(game: Brawl, post: Sent) -> None:
    """The brawl's post: it asks the defender and names the next player, pinging each once."""
    assert pings([post]) == Counter({game.defender.id: 1, game.following.id: 1}), (
        post.allowed_mentions
    )
    assert f"⏳ <@{game.defender.id}>" in post.content, "the defender is asked to answer"
    assert f"<@{game.following.id}>, you play next" in post.content, post.content


@pytest.mark.parametrize(
    "fault",
    [
        None,
        Fault(method="POST", route=POST, status=429, retry_after=0.3),
        Fault(method="POST", route=POST, status=503),
    ],
    ids=["answered", "post-429", "post-503"],
)
@pytest.mark.usefixtures("quick_windows")
async def test_a_brawl_pings_the_defender_and_who_plays_next_whose_turn_begins_in_it(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch, fault: Fault | None
) -> None:
    game = await three_at_a_table(fake, bots, monkeypatch)
    where = game.where
    outage = fake.inject(fault) if fault is not None else None
    posts = len(fake.in_channel(where))
    declared = await fake.click(game.attacker, game.table, brawl_button(game))
    await declared.result()
    [post] = await posted_after(fake, where, posts)
    asked_and_next(game, post)
    if outage is not None:
        assert outage.hits >= 1, "Discord refused the post first"
    message_id = int(post.message["id"])

    await play_out(fake, game)
    await fake.idle()
    assert len(fake.in_channel(where)) == posts + 1, "the next turn posts nothing"
    now = fake.messages[message_id]
    assert f"⏳ <@{game.following.id}>" in now.content, "B's turn begins in the post that pinged B"
    assert "you play next" not in now.content
    assert "declares a brawl" in now.text, "and still tells the brawl"
    posted = [s for s in fake.posted if s.channel_id == where][-1:]
    assert pings(posted) == Counter({game.defender.id: 1, game.following.id: 1}), (
        "nobody pinged again"
    )
    # B plays on in it: their first step edits the same message.
    row = await _row(game.bot, where)
    state = FARKLE.load(row.state)
    player = FARKLE.turn(state).player
    assert player is not None and game.seats[player] is game.following
    command, args = command_for(FARKLE, choose(FARKLE, state, player, "normal"))
    wanted = button_ids.button_id(row.id, row.phase, command, args)
    assert wanted in now.buttons.values(), "B's moves are buttons on that message"
    fake.check()


@pytest.mark.parametrize(
    "fault",
    [
        Fault(method="PATCH", route=EDIT, status=503),
        Fault(method="PATCH", route=EDIT, status=429, retry_after=0.3),
    ],
    ids=["edit-503", "edit-429"],
)
@pytest.mark.usefixtures("quick_windows")
async def test_the_edit_that_begins_the_next_turn_reaches_the_table_when_discord_fails_it(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch, fault: Fault
) -> None:
    game = await three_at_a_table(fake, bots, monkeypatch)
    where = game.where
    posts = len(fake.in_channel(where))
    await (await fake.click(game.attacker, game.table, brawl_button(game))).result()
    [post] = await posted_after(fake, where, posts)
    asked_and_next(game, post)
    message_id = int(post.message["id"])
    posts = len(fake.in_channel(where))
    # Every move typed: each edit of the brawl's message is the channel sender's, and Discord
    # fails the first of them (the last, which begins B's turn, follows it on the retry).
    outage = fake.inject(fault)
    await play_out(fake, game)
    await until_shown(fake, message_id, f"⏳ <@{game.following.id}>")
    assert outage.hits >= 1
    assert f"⏳ <@{game.following.id}>" in fake.messages[message_id].content, "shown all the same"
    assert len(fake.in_channel(where)) == posts, "in place: nothing posted"
    fake.check()


@pytest.mark.usefixtures("quick_windows")
async def test_a_late_click_on_the_brawl_changes_nothing_and_the_next_one_pings_both(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await three_at_a_table(fake, bots, monkeypatch)
    where, table = game.where, game.table
    posts = len(fake.in_channel(where))
    fake.inject(Fault(route=CALLBACK, status=None, delay=3.5))
    late = await fake.click(game.attacker, table, brawl_button(game))
    await past_the_window(fake, late)
    assert late.failed, "the attacker reads that it failed…"
    assert len(fake.in_channel(where)) == posts, "…nothing is posted, nobody pinged…"
    assert fake.messages[int(table.message["id"])].text == table.text, "…and nothing changed"
    # Clicked again in time: the brawl is declared, and its post pings both.
    await (await fake.click(game.attacker, table, brawl_button(game))).result()
    [post] = await posted_after(fake, where, posts)
    asked_and_next(game, post)
    await play_out(fake, game)
    assert f"⏳ <@{game.following.id}>" in fake.messages[int(post.message["id"])].content
    assert len(fake.in_channel(where)) == posts + 1
    fake.check()
