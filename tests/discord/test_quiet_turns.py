"""One message per turn: the steps of a player's turn edit that turn's message, through the fake
Discord, and the edit answers the click that made it (an interaction call, which Discord's
global rate limit does not count). When Discord fails that answer (refused, rate limited,
late), the player is never told less than the truth and the turn's message still shows it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store import repository as repo
from rules.core import get_game
from tests.discord.conftest import Bots
from tests.discord.test_honest_answers import SAVED, TRY_AGAIN, past_the_window
from tests.fakediscord import FakeDiscord, Sent
from tests.fakediscord.faults import CALLBACK, EDIT, ORIGINAL, Fault
from tests.fakediscord.server import Exchange, FakeUser
from tests.fakediscord.table import play

INTERACTION = ("/interactions/", "/webhooks/")


async def started(fake: FakeDiscord, bot: Any, game: str, *users: FakeUser) -> tuple[int, Sent]:
    """Open, fill and start ``game``; returns its channel (the lobby's thread) and the first
    turn's message."""
    await (await fake.slash(users[0], f"{game} new")).result()
    await fake.idle()
    async with bot.get_service().sessions() as session:
        [row] = await repo.open_games_in_threads(session, fake.channel_id)
    where = row.channel_id
    for user in users[1:]:
        await (await fake.slash(user, "game join", channel_id=where)).result()
    await (await fake.slash(users[0], "game start", channel_id=where)).result()
    await fake.idle()
    return where, fake.in_channel(where)[-1]


async def farkle_for_two(fake: FakeDiscord, bots: Bots) -> tuple[Any, int, Sent, FakeUser]:
    """A started two-player Farkle game: the bot, its channel, the first turn's message and
    the player whose turn it is."""
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    where, table = await started(fake, bot, "farkle", alice, bob)
    first = alice if await whose_turn(bot, where) == alice.id else bob
    return bot, where, table, first


async def step(fake: FakeDiscord, user: FakeUser, message: Sent) -> Exchange:
    """The first move the message offers: its first button (not "🎒 Your board", which shows
    the player's own board), or every choice of its menu (all the dice that score, set aside
    together)."""
    moves = [label for label in message.buttons if not label.startswith("🎒")]
    if moves:
        return await fake.click(user, message, message.buttons[moves[0]])
    [menu] = message.selects
    values = [option["value"] for option in menu["options"]][: menu.get("max_values", 1)]
    return await fake.choose(user, message, menu["custom_id"], values)


def counted(fake: FakeDiscord, since: int) -> list[str]:
    """The calls since ``since`` that Discord's global rate limit counts."""
    return [f"{m} {r}" for m, r in fake.calls[since:] if not r.startswith(INTERACTION)]


async def whose_turn(bot: Any, where: int) -> int:
    """The user whose turn it is."""
    async with bot.get_service().sessions() as session:
        row = await repo.open_game(session, where)
    assert row is not None and row.state is not None
    unit = get_game(row.kind).turn(get_game(row.kind).load(row.state))
    assert unit.player is not None
    return next(s.user_id for s in row.seats if s.seat == unit.player)


async def test_a_farkle_turn_is_one_message_edited_step_by_step(
    fake: FakeDiscord, bots: Bots
) -> None:
    bot, where, table, alice = await farkle_for_two(fake, bots)
    pinged = [int(u) for u in table.allowed_mentions.get("users") or []]
    assert pinged == [alice.id], "the turn's player is pinged, as the turn begins"
    posts, steps = len(fake.posted), 0
    told: list[str] = []
    for _ in range(3):  # choose, roll, set aside… while it is still Alice's turn
        if await whose_turn(bot, where) != alice.id:
            break
        message = fake.messages[int(table.message["id"])]
        calls = len(fake.calls)
        exchange = await step(fake, alice, message)
        await exchange.result()
        await fake.idle()
        if await whose_turn(bot, where) != alice.id:
            break
        now = fake.messages[int(table.message["id"])]
        assert len(fake.posted) == posts, "a step of the turn posts nothing"
        assert now.text != message.text, "the turn's message shows the step"
        assert all(line in now.text for line in told), "and keeps what it told before"
        told = [line for line in now.embeds[0].splitlines() if line] if now.embeds else told
        # The click was answered by the edit itself: the deferred click's original message.
        assert exchange.callback is not None and exchange.callback["type"] == 6
        assert exchange.answer is not None and exchange.answer.message["id"] == table.message["id"]
        assert counted(fake, calls) == [], "the edit was the click's own answer"
        steps += 1
    assert steps, "Alice's turn had a step before it passed"


@pytest.mark.parametrize(
    "fault",
    [
        Fault(method="PATCH", route=ORIGINAL, status=404),  # Discord lost the interaction
        Fault(method="PATCH", route=ORIGINAL, status=429, retry_after=0.1, times=6),
    ],
    ids=["refused", "rate-limited"],
)
async def test_a_turns_edit_whose_answer_fails_is_still_delivered_and_told_as_saved(
    fake: FakeDiscord, bots: Bots, fault: Fault
) -> None:
    _, where, table, alice = await farkle_for_two(fake, bots)
    fake.inject(fault)
    exchange = await fake.click(alice, table, next(iter(table.buttons.values())))
    await exchange.result()
    for _ in range(200):  # the channel's sender edits it instead (its delay, then the edit)
        if fake.messages[int(table.message["id"])].text != table.text:
            break
        await asyncio.sleep(0.05)
    await fake.idle()
    said = "\n".join(m.content for m in exchange.messages)
    assert SAVED in said and TRY_AGAIN not in said.lower(), said
    now = fake.messages[int(table.message["id"])]
    assert now.text != table.text, "the turn's message shows the move all the same"
    assert fake.in_channel(where)[-1].message["id"] == table.message["id"], "in place"


async def test_a_turns_edit_answered_503_by_the_channel_goes_out_later(
    fake: FakeDiscord, bots: Bots
) -> None:
    _, where, table, alice = await farkle_for_two(fake, bots)
    # A typed move: its answer is the "thinking…" message; the turn's message is edited by the
    # channel's sender, whose first try Discord fails.
    outage = fake.inject(Fault(method="PATCH", route=EDIT, status=503))
    exchange = await fake.slash(alice, "farkle recruit", channel_id=where)
    answer = await exchange.result()
    assert "⚠️" not in answer.content and TRY_AGAIN not in answer.content.lower()
    for _ in range(300):
        if fake.messages[int(table.message["id"])].text != table.text:
            break
        await asyncio.sleep(0.05)
    await fake.idle()
    assert outage.hits == 1
    assert fake.messages[int(table.message["id"])].text != table.text, "edited on the retry"


async def test_a_late_click_on_a_turns_message_changes_nothing(
    fake: FakeDiscord, bots: Bots
) -> None:
    fake.window = 3.0
    _, where, table, alice = await farkle_for_two(fake, bots)
    fake.inject(Fault(route=CALLBACK, status=None, delay=3.5))
    exchange = await fake.click(alice, table, next(iter(table.buttons.values())))
    await past_the_window(fake, exchange)
    assert exchange.failed, "the player reads that it failed…"
    assert fake.messages[int(table.message["id"])].text == table.text, "…and nothing changed"


# ------------------------------------------------------------------ whole games


@pytest.mark.parametrize(
    ("game", "options", "seats"),
    [
        ("farkle", {}, 3),
        ("zvv", {"size": 9, "round_limit": 6}, 2),
    ],
)
@pytest.mark.usefixtures("quick_windows")
async def test_a_whole_turn_based_game_posts_once_a_turn_and_pings_once(
    fake: FakeDiscord, bots: Bots, game: str, options: dict[str, Any], seats: int
) -> None:
    bot = await bots.start()
    users = [fake.add_user(500 + i, f"P{i}") for i in range(seats)]
    counts = await play(fake, bot, game, users, seed=4, options=options, level="normal")
    assert counts.turns > 3, counts.line()
    # The start's post, one a turn, one for each player asked within a turn (a brawl declared
    # against them), the end: nothing else.
    posted = [s for s in fake.posted if s.channel_id == counts.where]
    asked = sum(1 for s in posted if "brawl is declared against you" in s.content)
    # (A turn whose story outgrows one message goes on in another, pinging nobody.)
    going_on = sum(1 for s in posted if "⏳" in s.content and not s.allowed_mentions.get("users"))
    assert counts.game_posts <= counts.turns + asked + going_on + 1, counts.line()
    assert counts.unanswered == 0, "every move was answered"
    # (Farkle: a brawl's post pings the player who plays next, whose turn then begins in it.)
    assert counts.game_posts <= 1.2 * counts.turns, (counts.game_posts, counts.turns)
    assert counts.most_pings <= 1, "nobody is pinged twice in one turn"
    assert counts.edits >= counts.moves - 2 * counts.turns, "the steps are edits"
    # What the rate limit counts: the posts counted above, and at most one edit a turn where no
    # click made it (the picture that follows a busy answer, a computer's step).
    assert counts.game_counted <= counts.game_posts + counts.turns, counts.line()
    fake.check()
