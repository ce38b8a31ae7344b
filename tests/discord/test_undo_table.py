"""A step taken back (``/game undo``, the ↩ on one's confirmation) edits the turn's message back
to the table as it stands, through the fake Discord: no new post, no ping, the story kept with
who took a step back, the moves offered again; also when Discord fails the edit (503, 429) and
when the ↩ click reaches the bot past Discord's 3 s window (nothing is taken back)."""

from __future__ import annotations

import pytest

from tests.discord.conftest import Bots
from tests.discord.test_paused_channel import until
from tests.discord.test_quiet_turns import farkle_for_two, step
from tests.fakediscord import FakeDiscord, Sent
from tests.fakediscord.faults import EDIT, POST, Fault

# A game whose first roll scores: the player recruits, the dice roll (random: kept for good),
# and the dice to set aside are offered in a menu (setting aside reveals nothing: undoable).
SEED = 2026


def _menu(message: Sent) -> list[str]:
    return [o["value"] for menu in message.selects for o in menu["options"]]


@pytest.mark.parametrize(
    "fault",
    [
        None,
        Fault(method="PATCH", route=EDIT, status=503),
        Fault(method="PATCH", route=EDIT, status=429, retry_after=0.3),
    ],
    ids=["answered", "edit-503", "edit-429"],
)
async def test_a_step_taken_back_edits_the_turns_message_back(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch, fault: Fault | None
) -> None:
    monkeypatch.setattr("bot.service.lobby.secrets.randbits", lambda bits: SEED)
    fake.window = 3.0
    _, where, table, player = await farkle_for_two(fake, bots)
    message_id = int(table.message["id"])
    await (await step(fake, player, table)).result()  # recruit; the roll follows
    await fake.idle()
    rolled = fake.messages[message_id]
    assert _menu(rolled), "the seed's first roll scores: the dice to set aside are offered"
    kept = await step(fake, player, rolled)  # sets aside every scoring die
    await kept.result()
    await fake.idle()
    assert not _menu(fake.messages[message_id]), "the dice are set aside"
    confirmation = next(m for m in kept.messages if m.ephemeral and "↩ Undo" in m.buttons)
    posts, before = len(fake.in_channel(where)), fake.messages[message_id].text

    # Past Discord's window the click fails for the player, and nothing is taken back.
    late = await fake.click(player, confirmation, "↩ Undo", age=3.5)
    await fake.idle()
    assert late.answer is None and fake.messages[message_id].text == before

    outage = fake.inject(fault) if fault is not None else None
    taken = await (await fake.click(player, confirmation, "↩ Undo")).result()
    assert taken.ephemeral and "taken back" in taken.text
    await until(lambda: "took back their last step" in fake.messages[message_id].text, 15)
    await fake.idle()
    back = fake.messages[message_id]
    assert len(fake.in_channel(where)) == posts, "nothing posted: the message is edited back"
    assert _menu(back) == _menu(rolled), "the same dice are offered to set aside again"
    assert f"⏳ <@{player.id}>" in back.text, "the player is awaited again"
    assert all(line in back.text for line in rolled.embeds[0].splitlines() if line), (
        "the turn's story so far is kept"
    )
    if outage is not None:
        assert outage.hits >= 1, "Discord failed the edit first; the sender retried it"
    fake.check()


@pytest.mark.parametrize(
    "fault",
    [
        None,
        Fault(method="POST", route=POST, status=503),
        Fault(method="POST", route=POST, status=429, retry_after=0.3),
    ],
    ids=["answered", "post-503", "post-429"],
)
async def test_a_step_that_passed_the_turn_taken_back_posts_the_table_anew_pinging_nobody(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch, fault: Fault | None
) -> None:
    """Play-test: Alice stopped (the turn passed to Bob, pinged in a message of his own) and
    took the stop back: her turn's table came back as one new post that pinged her, for her
    own click. It pings nobody: she is at the table, and Bob is no longer awaited."""
    monkeypatch.setattr("bot.service.lobby.secrets.randbits", lambda bits: SEED)
    _, where, table, player = await farkle_for_two(fake, bots)
    message_id = int(table.message["id"])
    await (await step(fake, player, table)).result()  # recruit; the roll follows
    await fake.idle()
    await (await step(fake, player, fake.messages[message_id])).result()  # set aside
    await fake.idle()
    stopped = await fake.click(player, fake.messages[message_id], "Stop")
    await stopped.result()
    await fake.idle()
    confirmation = next(m for m in stopped.messages if m.ephemeral and "↩ Undo" in m.buttons)
    posts = len(fake.in_channel(where))
    outage = fake.inject(fault) if fault is not None else None
    taken = await (await fake.click(player, confirmation, "↩ Undo")).result()
    assert taken.ephemeral and "taken back" in taken.text
    await until(lambda: len(fake.in_channel(where)) > posts, 15)
    await fake.idle()
    [anew] = fake.in_channel(where)[posts:]
    assert "took back their last step" in anew.text + "".join(anew.embeds)
    assert f"⏳ <@{player.id}>" in anew.text, "her turn again, her name on it"
    assert not anew.allowed_mentions.get("users"), "and nobody pinged"
    if outage is not None:
        assert outage.hits >= 1, "Discord failed the post first; the sender retried it"
    fake.check()
