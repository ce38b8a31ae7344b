"""Computer players through the real discord.py client and the fake Discord: /game addbot, the
computer's turns a moment later in the channel, /game settings misses, /game replace."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.service import Service
from bot.service.match import Match
from bot.store import repository as repo
from bot.store.models import GameRow
from rules.core.policy import choose
from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.discord.test_more import wait_for_post
from tests.fakediscord import FakeDiscord
from tests.fakediscord.server import FakeUser

# The held-deadlines game's deal: Alice begins, and the computer's turn comes as a post of its
# own (the 503 meets it). In other deals the computer begins, or Alice's next turn begins in
# the message that named her as playing next, and the counts below would not apply.
DEAL = 4


async def _until_the_computer_is_asked(
    fake: FakeDiscord, service: Service, alice: FakeUser, thread: int, game: str, *, steps: int
) -> GameRow:
    """Alice (seat 0) plays the steps the easy policy picks, typed as slash commands, until
    the computer (seat 1) is asked, at most ``steps`` of them; the game as it then stands."""
    for _ in range(steps):
        async with service.sessions() as session:
            row = await repo.open_game(session, thread)
        assert row is not None and row.state is not None
        match = Match.of(row)
        if 1 in match.engine.pending(match.state):
            return row
        mapped = match.engine.to_command(choose(match.engine, match.state, 0, "easy"))
        assert mapped is not None
        command, args = mapped
        options: dict[str, Any] = dict(args)  # the slash command's options by name
        answer = await (
            await fake.slash(alice, f"{game} {command}", channel_id=thread, **options)
        ).result()
        assert "⚠️" not in answer.content, answer.content
        await fake.idle()
    async with service.sessions() as session:
        row = await repo.open_game(session, thread)
    assert row is not None
    return row


async def test_addbot_seats_a_computer_that_plays_in_the_channel(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "zvv new", size=9)).result()
    refused = await (await fake.slash(bob, "game addbot", level="easy")).result()
    assert refused.ephemeral and "host" in refused.content.lower()
    added = await (await fake.slash(alice, "game addbot", level="easy")).result()
    assert added.ephemeral and "🤖 Easy 1 takes a seat" in added.content
    await fake.idle()
    assert "👥 2/4: Alice, 🤖 Easy 1" in fake.in_channel()[-1].content, "the lobby, edited"
    settings = await (await fake.slash(alice, "game settings", misses=3)).result()
    assert "before the computer takes over a seat: 3" in settings.content
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()

    # Whoever starts (the seed decides), the computer's turn comes: after Alice's roll and
    # move if she starts, at once otherwise. Play Alice's steps by the buttons and typed moves
    # the policy picks, until the computer is asked.
    service = bot.get_service()
    (thread,) = fake.threads  # the game is played in its own thread
    row = await _until_the_computer_is_asked(fake, service, alice, thread, "zvv", steps=6)
    asked = fake.in_channel()[-1]
    assert "⏳ 🤖 Easy 1" in asked.text
    assert not asked.buttons, "no buttons for a seat no person plays"
    before = len(fake.in_channel())
    clock.now += service.computer_delay  # a moment later (the test's clock is fake)
    bot.wake_deadlines()
    await wait_for_post(fake, before + 1)
    played = "\n".join(p.text for p in fake.in_channel()[before:])
    assert "🤖 Easy 1" in played, played
    assert row is not None, "the game the computer was asked in"
    async with service.sessions() as session:
        log = await repo.action_log(session, row.id)
    steps = [e for e in log if e.seat == 1]
    assert steps and all(e.by_default for e in steps), "the computer's moves, in the log"
    assert any(e.action["type"] != "roll" for e in steps), "it chose its step after the roll"
    assert "ran out of time" not in played

    status = await (await fake.slash(bob, "game status")).result()
    assert "🤖 Easy 1 — computer player" in status.content


async def test_replace_hands_a_seat_to_someone_new(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    carol = fake.add_user(103, "Carol", locale="es-ES")
    mod = fake.add_user(109, "Mod", manage=True)
    await (await fake.slash(alice, "zvv new", size=9)).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    # The option named "with" (a Python keyword) is given in a dict.
    with_carol: dict[str, Any] = {"with": carol}
    not_allowed = await fake.slash(carol, "game replace", player=bob, **with_carol)
    assert "Solo quien organiza la partida" in (await not_allowed.result()).content, "in Spanish"
    done = await (await fake.slash(mod, "game replace", player=bob, **with_carol)).result()
    assert done.ephemeral and "Carol now plays the seat of Bob" in done.content
    await fake.idle()
    announce = fake.in_channel()[-1]
    assert "Carol takes over the seat of Bob" in announce.content
    assert announce.allowed_mentions["users"] == [103]
    status = await (await fake.slash(carol, "game status")).result()
    assert "2. Carol" in status.content and "Bob" not in status.content
    gone = await (await fake.slash(bob, "game board")).result()
    assert "not playing" in gone.content


async def test_the_autopilot_level_is_a_game_setting(fake: FakeDiscord, bots: Bots) -> None:
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "farkle new")).result()
    refused = await (await fake.slash(bob, "game settings", autopilot="hard")).result()
    assert refused.ephemeral and "host" in refused.content.lower()
    chosen = await (await fake.slash(alice, "game settings", autopilot="hard")).result()
    assert chosen.ephemeral and "plays an absent player's seat at: Hard" in chosen.content
    added = await (await fake.slash(alice, "game addbot", level="hard")).result()
    assert added.ephemeral and "🤖 Hard 1 takes a seat" in added.content
    service = bot.get_service()
    (thread,) = fake.threads  # the game is played in its own thread
    async with service.sessions() as session:
        row = await repo.open_game(session, thread)
    assert row is not None and row.settings["autopilot"] == "hard"


async def test_the_computer_plays_on_while_the_host_holds_the_deadlines(
    fake: FakeDiscord, bots: Bots, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Holidays for a game against the computer: Alice holds the deadlines and plays on; the
    computer's turn is posted as ever (through a 503), and Alice is pinged when it is hers."""
    from tests.fakediscord import faults
    from tests.fakediscord.faults import Fault

    monkeypatch.setattr("bot.service.lobby.secrets.randbits", lambda bits: DEAL)
    bot = await bots.start()
    alice = fake.add_user(101, "Alice")
    await (await fake.slash(alice, "farkle new")).result()
    await (await fake.slash(alice, "game addbot", level="easy")).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    (thread,) = fake.threads
    held = await (await fake.slash(alice, "game settings", channel_id=thread, hold="on")).result()
    assert "paused this game's deadlines" in held.content
    await fake.idle()
    service = bot.get_service()
    await _until_the_computer_is_asked(fake, service, alice, thread, "farkle", steps=12)
    assert "⏳ 🤖 Easy 1" in fake.in_channel(thread)[-1].text
    outage = fake.inject(Fault(method="POST", route=faults.POST, channel_id=thread, status=503))
    before = len(fake.in_channel(thread))
    pings = [m for m in fake.in_channel(thread) if "<@101>" in m.content]
    clock.now += service.computer_delay + 1
    bot.wake_deadlines()
    async with asyncio.timeout(40):
        while True:  # the computer's turn, step by step, until Alice is asked again
            clock.now += service.computer_delay + 1
            bot.wake_deadlines()
            await asyncio.sleep(0.05)
            async with service.sessions() as session:
                row = await repo.open_game(session, thread)
            assert row is not None
            match = Match.of(row)
            if 0 in match.engine.pending(match.state) and outage.hits:
                break
    await wait_for_post(fake, before + 1, timeout=30)
    await fake.idle()
    new = fake.in_channel(thread)[before:]
    assert any("🤖 Easy 1" in m.text for m in new), "the computer's moves, told"
    now_pinged = [m for m in fake.in_channel(thread) if "<@101>" in m.content]
    assert len(now_pinged) == len(pings) + 1, "Alice is pinged once: her turn again"
    async with service.sessions() as session:
        log = await repo.action_log(session, row.id)
    assert any(e.seat == 1 for e in log), "the computer played, the deadlines held"


async def test_a_game_a_missed_deadline_ends_closes_with_no_autopilot_notice(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    """Bob's one allowed miss is the game's last move: the thread reads the closing message
    (one post, pinging nobody), not also that the computer now plays his seat."""
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(alice, "tiny new", rounds=1)).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game settings", deadline=10, reminder=0, misses=1)).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    (thread,) = fake.threads
    await (await fake.click(alice, fake.in_channel(thread)[-1], "bid 3")).result()
    await (await fake.click(bob, fake.in_channel(thread)[-1], "bid 1")).result()
    await fake.idle()
    await (await fake.slash(alice, "tiny pass", channel_id=thread)).result()
    await fake.idle()
    before = len(fake.in_channel(thread))
    clock.now += 11 * 60
    bot.wake_deadlines()
    await wait_for_post(fake, before + 1, timeout=30)
    await asyncio.sleep(0.3)
    await fake.idle()
    closing = fake.in_channel(thread)[before:]
    assert len(closing) == 1, [m.text for m in closing]
    assert "🏆" in closing[0].text and "missed their deadlines" not in closing[0].text
    assert not closing[0].allowed_mentions.get("users"), "nobody pinged"
