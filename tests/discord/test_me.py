"""``/me`` through the fake Discord: a player who asked for direct messages gets them, not pings;
one whose DMs are closed is mentioned instead, once with a note, and from then on; a DM that
Discord fails (5xx, 429) is retried until it goes out, once."""

from __future__ import annotations

from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.discord.test_paused_channel import until
from tests.discord.test_quiet_turns import started, whose_turn
from tests.fakediscord import FakeDiscord, faults
from tests.fakediscord.faults import Fault
from tests.test_me import _clock_hours


async def _tiny(fake: FakeDiscord, alice, bob) -> int:
    """A started two-player tiny game (both bid at once): its thread."""
    await (await fake.slash(alice, "tiny new", rounds=2)).result()
    await (await fake.slash(bob, "game join")).result()
    await (await fake.slash(alice, "game start")).result()
    await fake.idle()
    return next(iter(fake.threads))


def _pinged(fake: FakeDiscord, where: int, user_id: int) -> int:
    return sum(
        user_id in [int(u) for u in (s.allowed_mentions.get("users") or [])]
        for s in fake.in_channel(where)
    )


async def test_a_player_who_chose_direct_messages_gets_one_and_no_ping(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    answer = await (await fake.slash(bob, "me", notify="dm")).result()
    assert answer.ephemeral and "direct message" in answer.text
    thread = await _tiny(fake, alice, bob)
    await until(lambda: len(fake.to(bob)) == 1)
    (dm,) = fake.to(bob)
    assert "Your turn in" in dm.text and f"<#{thread}>" in dm.text
    assert _pinged(fake, thread, bob.id) == 0, "Bob is named in the table, never pinged"
    assert _pinged(fake, thread, alice.id) >= 1, "Alice is pinged as before"
    assert not fake.to(alice)
    fake.check()


async def test_closed_direct_messages_fall_back_to_the_mention_once_with_a_note(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    fake.dms_closed.add(bob.id)
    await (await fake.slash(bob, "me", notify="dm")).result()
    thread = await _tiny(fake, alice, bob)
    await until(lambda: any("does not let me send you" in s.text for s in fake.in_channel(thread)))
    notes = [s for s in fake.in_channel(thread) if "does not let me send you" in s.text]
    assert len(notes) == 1 and [int(u) for u in notes[0].allowed_mentions["users"]] == [bob.id]
    assert not fake.to(bob)
    # The next round: Bob is simply mentioned; no DM is tried again.
    tries = sum(1 for r in fake.requests if r.route == faults.DM)
    pinged = _pinged(fake, thread, bob.id)
    for user in (alice, bob):  # both bid; then the turns to take or pass begin
        table = next(s for s in reversed(fake.in_channel(thread)) if s.components)
        await (await fake.click(user, table, "bid 1")).result()
    for _ in range(3):
        await fake.idle()
        if _pinged(fake, thread, bob.id) > pinged:
            break
        table = next(s for s in reversed(fake.in_channel(thread)) if s.components)
        await (await fake.click(alice, table, "pass")).result()
    assert sum(1 for r in fake.requests if r.route == faults.DM) == tries, "no DM tried again"
    assert _pinged(fake, thread, bob.id) > pinged, "Bob is mentioned in the table now"
    shown = await (await fake.slash(bob, "me")).result()
    assert "Discord refused my last direct message" in shown.text


async def test_a_direct_message_that_discord_fails_is_retried_and_sent_once(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(bob, "me", notify="dm")).result()
    fake.inject(Fault(route=faults.DM, status=503))
    fake.inject(Fault(route=faults.DM, status=429, retry_after=0.5))
    await _tiny(fake, alice, bob)
    await until(lambda: len(fake.to(bob)) >= 1, timeout=30)
    await fake.idle()
    assert len(fake.to(bob)) == 1, "once, whatever Discord did meanwhile"


async def test_the_undo_button_on_a_confirmation_takes_the_step_back_once(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    thread = await _tiny(fake, alice, bob)
    table = next(s for s in reversed(fake.in_channel(thread)) if s.components)
    clicked = await fake.click(alice, table, "bid 3")
    await clicked.result()  # the table's edit answers the click; her confirmation follows
    await fake.idle()
    confirmation = next(m for m in clicked.messages if m.ephemeral and "↩ Undo" in m.buttons)
    assert "✅" in fake.messages[int(table.message["id"])].text, "the table shows her bid made"
    posts = len(fake.in_channel(thread))
    # A click that reaches the bot after Discord's 3 s window: nothing is applied behind
    # "This interaction failed".
    late = await fake.click(alice, confirmation, "↩ Undo", age=3.5)
    await fake.idle()
    assert late.answer is None and len(fake.in_channel(thread)) == posts
    # Discord fails the answer once (503): retried, applied once, and the player told.
    fake.inject(Fault(route=faults.CALLBACK, status=503))
    taken = await (await fake.click(alice, confirmation, "↩ Undo")).result()
    assert taken.ephemeral and "taken back" in taken.text
    await fake.idle()
    # The table message is edited back (Alice awaited again, her bid to make), not posted anew.
    assert len(fake.in_channel(thread)) == posts, "no new post"
    shown = fake.messages[int(table.message["id"])].text
    assert f"⏳ <@{alice.id}>" in shown and "✅" not in shown, shown
    twice = await (await fake.click(alice, confirmation, "↩ Undo")).result()
    assert "no step in this game to take back" in twice.text, "once: nothing more of hers"
    fake.check()


async def test_a_held_back_turn_comes_by_one_direct_message_and_no_channel_post(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    """Bob asked for direct messages and it is his quiet time when the game begins: when it
    ends, he is told by one DM (Discord failing it with a 503 and a 429 first), and the channel
    gets nothing ("your quiet hours are over", pinging nobody, would tell it nothing)."""
    bot = await bots.start()
    alice, bob = fake.add_user(101, "Alice"), fake.add_user(102, "Bob")
    await (await fake.slash(bob, "me", notify="dm", quiet=_clock_hours(clock, -1, 2))).result()
    thread = await _tiny(fake, alice, bob)
    await fake.idle()
    assert not fake.to(bob), "quiet: not told yet"
    posts, edits = len(fake.in_channel(thread)), len(fake.edits)
    fake.inject(Fault(route=faults.DM, status=503))
    fake.inject(Fault(route=faults.DM, status=429, retry_after=0.5))
    clock.now += 2 * 3600
    bot.wake_deadlines()
    await until(lambda: len(fake.to(bob)) >= 1, timeout=30)
    await fake.idle()
    (dm,) = fake.to(bob)
    assert "Your turn in" in dm.text and f"<#{thread}>" in dm.text
    assert (len(fake.in_channel(thread)), len(fake.edits)) == (posts, edits), "the chat saw nothing"
    fake.check()


async def test_while_the_deadlines_are_held_no_time_is_shown_that_will_not_come(
    fake: FakeDiscord, bots: Bots, clock: Clock
) -> None:
    """The host holds the deadlines; a brawl is then declared. Its message does not say
    "Time runs out in 5 minutes" (nothing runs out while they are held), nor does
    ``/game status`` show a deadline a century away: both say the deadlines are held, each in
    its reader's language. One post, as ever."""
    bot = await bots.start()
    ana, bob = fake.add_user(101, "Ana", locale="es-ES"), fake.add_user(102, "Bob")
    where, table = await started(fake, bot, "farkle", ana, bob)
    first = ana if await whose_turn(bot, where) == ana.id else bob
    await (await fake.slash(ana, "game settings", channel_id=where, hold="on")).result()
    await fake.idle()
    posts = len(fake.in_channel(where))
    brawl = next(label for label in table.buttons if label.startswith("Brawl"))
    await (await fake.click(first, table, brawl)).result()
    await fake.idle()
    (asked,) = fake.in_channel(where)[posts:]
    assert "A brawl is declared against you" in asked.content
    assert "Time runs out" not in asked.text and "<t:" not in asked.content, asked.text
    assert "The host has paused the deadlines" in asked.content, asked.content
    for user, held in ((bob, "has paused the deadlines"), (ana, "ha pausado los plazos")):
        status = await (await fake.slash(user, "game status", channel_id=where)).result()
        assert held in status.text and "<t:" not in status.text, status.text
    await (await fake.slash(ana, "game settings", channel_id=where, hold="off")).result()
    status = await (await fake.slash(bob, "game status", channel_id=where)).result()
    assert "paused" not in status.text and "<t:" in status.text, "its deadline, back"
