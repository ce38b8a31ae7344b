"""A table that keeps quiet, phase by phase and round by round, through the fake Discord: a
whole Bad Bones game (advanced, with chiefs) posts about once a phase and a whole FUSE relaxed
game once a round, each pinging a player at most once a phase (a round), with three players
answering at once and no button refused as stale. A FUSE round's returns are asked in the
round's message, edited by the click that answers them; when Discord fails that answer
(rate limited, a 503 on the channel's edit, a click that came too late), the player is never
told less than the truth and the round's message still shows what happened."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from bot.service import buttons as button_ids
from bot.store import repository as repo
from rules.core.policy import choose
from rules.fuse import FUSE
from tests.discord.conftest import Bots
from tests.discord.test_honest_answers import SAVED, TRY_AGAIN, past_the_window
from tests.fakediscord import FakeDiscord, Sent
from tests.fakediscord.faults import CALLBACK, EDIT, ORIGINAL, Fault
from tests.fakediscord.server import FakeUser
from tests.fakediscord.table import _typed, play
from tests.support.commands import command_for

# (The deals are seeded, so that each test plays the game it describes.)
DEAL = "bot.service.lobby.secrets.randbits"


@pytest.mark.parametrize(
    ("game", "options", "deal"),
    [
        ("badbones", {"advanced": True, "chiefs": True}, 5),
        ("fuse", {"mode": "relaxed", "rounds": 10}, 5),
    ],
    ids=["badbones-advanced-chiefs", "fuse-relaxed"],
)
@pytest.mark.usefixtures("quick_windows")
async def test_a_whole_game_posts_about_once_a_phase_and_pings_a_player_once(
    fake: FakeDiscord,
    bots: Bots,
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    options: dict[str, Any],
    deal: int,
) -> None:
    """Bad Bones counts by phase (the Market's purchases are one phase), FUSE by round (its
    claims, placements and returns are one round)."""
    monkeypatch.setattr(DEAL, lambda bits: deal)
    bot = await bots.start()
    users = [fake.add_user(600 + i, f"P{i}") for i in range(3)]
    counts = await play(fake, bot, game, users, seed=5, options=options, together=3, level="normal")
    assert counts.turns >= 8, counts.line()
    assert counts.unanswered == 0, "every move was answered"
    assert counts.stale == 0 and counts.together > 0, "three at once: no button went stale"
    assert counts.most_pings <= 1, f"a player pinged twice in one: {counts.turn_pings}"
    assert counts.game_posts <= 1.2 * counts.turns, counts.line()
    # The rest is edits: the readiness of a phase, a round's claims and placements.
    assert counts.edits >= counts.turns, counts.line()
    posted = [s for s in fake.posted if s.channel_id == counts.where]
    pings = Counter(int(u) for s in posted for u in s.allowed_mentions.get("users") or [])
    assert set(pings) <= {u.id for u in users}
    fake.check()


# ------------------------------------------------------------------ FUSE's returns

ALICE_ID, BOB_ID = 101, 102


@dataclass
class Returns:
    """A round's message asking for returns: its channel, the message, Alice (who answers
    first), her return's button and its command."""

    where: int
    table: Sent
    alice: FakeUser
    button: str
    command: str
    args: dict[str, Any]


async def fuse_returns(fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch) -> Returns:
    """A relaxed FUSE game of two played to its first returns (this deal's round 3 ends with
    both players returning a die; each move typed, as the computer would play it)."""
    monkeypatch.setattr(DEAL, lambda bits: 3)
    bot = await bots.start()
    alice, bob = fake.add_user(ALICE_ID, "Alice"), fake.add_user(BOB_ID, "Bob")
    await (await fake.slash(alice, "fuse new", mode="relaxed")).result()
    await fake.idle()
    async with bot.get_service().sessions() as session:
        [lobby] = await repo.open_games_in_threads(session, fake.channel_id)
    where = lobby.channel_id
    await (await fake.slash(bob, "game join", channel_id=where)).result()
    await (await fake.slash(alice, "game start", channel_id=where)).result()
    await fake.idle()
    players = (alice, bob)
    for _ in range(60):
        async with bot.get_service().sessions() as session:
            row = await repo.open_game(session, where)
        assert row is not None and row.state is not None
        state = FUSE.load(row.state)
        seat = min(FUSE.pending(state))
        command, args = command_for(FUSE, choose(FUSE, state, seat, "normal"))
        if state.stage == "return":
            wanted = button_ids.button_id(row.id, row.phase, command, args)
            assert wanted is not None and seat == 0
            table = fake.in_channel(where)[-1]
            assert wanted in table.buttons.values(), "the returns are buttons on the round"
            return Returns(where, table, alice, wanted, command, dict(args))
        typed = _typed(dict(args))
        answer = await (
            await fake.slash(players[seat], f"fuse {command}", channel_id=where, **typed)
        ).result()
        assert "⚠️" not in answer.content, answer.content
        await fake.idle(quiet=0.02)  # as play() waits between moves (tests/fakediscord/table.py)
    raise AssertionError("no returns in 60 moves")


@pytest.mark.usefixtures("quick_windows")
async def test_a_rounds_returns_are_answered_in_its_message(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = await fuse_returns(fake, bots, monkeypatch)
    where, table, alice, wanted = asked.where, asked.table, asked.alice, asked.button
    posts = len(fake.in_channel(where))
    exchange = await fake.click(alice, table, wanted)
    answer = await exchange.result()
    await fake.idle()
    assert len(fake.in_channel(where)) == posts, "Alice's return posts nothing…"
    now = fake.messages[int(table.message["id"])]
    assert "Alice returned" in now.text, "…it edits the round's message, which tells it"
    assert f"<@{BOB_ID}>" in now.content, "and still asks Bob"
    assert answer.message["id"] == table.message["id"], "the edit answers the click"


@pytest.mark.parametrize(
    "fault",
    [
        Fault(method="PATCH", route=ORIGINAL, status=429, retry_after=0.1, times=6),
        Fault(method="PATCH", route=ORIGINAL, status=503, times=3),
    ],
    ids=["rate-limited", "unavailable"],
)
@pytest.mark.usefixtures("quick_windows")
async def test_a_return_whose_answer_fails_is_delivered_and_told_as_saved(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch, fault: Fault
) -> None:
    asked = await fuse_returns(fake, bots, monkeypatch)
    where, table, alice, wanted = asked.where, asked.table, asked.alice, asked.button
    fake.inject(fault)
    exchange = await fake.click(alice, table, wanted)
    await exchange.result()
    for _ in range(200):  # the channel's sender edits it instead (its delay, then the edit)
        if "Alice returned" in fake.messages[int(table.message["id"])].text:
            break
        await asyncio.sleep(0.05)
    await fake.idle()
    said = "\n".join(m.content for m in exchange.messages)
    # Saved (the answer gave up: the table follows), or recorded (a retry got through).
    assert SAVED in said or "Recorded" in said, said
    assert TRY_AGAIN not in said.lower() and "⚠️" not in said, said
    assert "Alice returned" in fake.messages[int(table.message["id"])].text, "shown all the same"
    assert fake.in_channel(where)[-1].message["id"] == table.message["id"], "in place"


@pytest.mark.usefixtures("quick_windows")
async def test_a_typed_return_whose_edit_is_answered_503_goes_out_later(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = await fuse_returns(fake, bots, monkeypatch)
    where, table = asked.where, asked.table
    outage = fake.inject(Fault(method="PATCH", route=EDIT, status=503))
    typed = _typed(asked.args)
    exchange = await fake.slash(asked.alice, f"fuse {asked.command}", channel_id=where, **typed)
    answer = await exchange.result()
    assert "⚠️" not in answer.content and TRY_AGAIN not in answer.content.lower()
    for _ in range(300):
        if "Alice returned" in fake.messages[int(table.message["id"])].text:
            break
        await asyncio.sleep(0.05)
    await fake.idle()
    assert outage.hits == 1
    assert "Alice returned" in fake.messages[int(table.message["id"])].text, "edited on the retry"


@pytest.mark.usefixtures("quick_windows")
async def test_a_late_click_on_a_return_changes_nothing(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.window = 3.0
    asked = await fuse_returns(fake, bots, monkeypatch)
    table = asked.table
    fake.inject(Fault(route=CALLBACK, status=None, delay=3.5))
    exchange = await fake.click(asked.alice, table, asked.button)
    await past_the_window(fake, exchange)
    assert exchange.failed, "Alice reads that it failed…"
    assert fake.messages[int(table.message["id"])].text == table.text, "…and nothing changed"
