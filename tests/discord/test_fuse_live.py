"""FUSE live through Discord: the rounds are edits of one table message with the round's
buttons on it, its picture replaced when a new round is drawn."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from bot.service import lobby
from tests.conftest import Clock
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord, FakeUser, Sent


def _button(sent: Sent, command: str, owner: str | None = None) -> list[str]:
    """The labels of the message's buttons for ``command`` (one player's, or the shared ones)."""
    return [
        label
        for label, custom_id in sent.buttons.items()
        if f":{command}:" in custom_id
        and (label.startswith(f"{owner}: ") if owner else ": " not in label)
    ]


async def _play_one(fake: FakeDiscord, player: FakeUser, table_id: int) -> bool:
    """``player`` clicks on the table message what a hurried person would: their placement,
    else a die, else Pass. False: nothing of theirs to click."""
    refused: set[str] = set()  # (a die someone took first, or one that fits no card of theirs)
    for _ in range(6):
        table = fake.messages[table_id]
        labels = [
            *_button(table, "place", player.name),
            *_button(table, "take", player.name),
            *_button(table, "return", player.name),
            *_button(table, "place"),  # (not named when only this player is asked)
            *_button(table, "take"),
            *_button(table, "return"),
            *_button(table, "claim"),
            *_button(table, "pass", player.name),
            *_button(table, "pass"),
        ]
        labels = [label for label in labels if label not in refused]
        if not labels:
            return False
        answer = await (await fake.click(player, table, labels[0])).result()
        await fake.idle()
        if "⚠️" not in answer.content:
            return True
        refused.add(labels[0])
    return False


async def test_live_rounds_edit_one_table_message_with_its_buttons_and_picture(
    fake: FakeDiscord, bots: Bots, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One deal, every run: the lobby's seed alone. (Patching ``secrets.randbits`` itself would
    # give every discord.py message the same nonce, and Discord, with ``enforce_nonce``,
    # answers a repeated nonce with the earlier message instead of posting.)
    monkeypatch.setattr(lobby, "secrets", SimpleNamespace(randbits=lambda bits: 3))
    await bots.start(render=True)
    ana, bea = fake.add_user(601, "Ana"), fake.add_user(602, "Bea")
    await (await fake.slash(ana, "fuse new")).result()
    await (await fake.slash(bea, "game join")).result()
    await (await fake.slash(ana, "game start")).result()
    await fake.idle()
    start = next(s for s in reversed(fake.in_channel()) if _button(s, "draw"))
    table_id = int(start.message["id"])
    picture = start.files
    posts = len(fake.posted)
    drawn = await (await fake.click(ana, start, _button(start, "draw")[0])).result()
    await fake.idle()
    assert int(drawn.message["id"]) == table_id, "the click is answered by the table's edit"
    first = fake.messages[table_id]
    assert "Round 1" in "\n".join(first.embeds) and "<t:" in first.content
    assert _button(first, "claim") and _button(first, "pass")
    assert first.files and first.files != picture, "round 1's picture replaced the start's"
    assert len(first.message["attachments"]) == 1
    rounds_seen = {1}
    for _ in range(40):
        table = fake.messages[table_id]
        told = "\n".join(table.embeds)
        if "defused" in told or len(fake.posted) > posts:
            break  # a defused bomb: the next round is a new message (tests/test_fuse_live.py)
        rounds_seen |= {n for n in range(2, 30) if f"Round {n}:" in told}
        if len(rounds_seen) >= 3:
            break
        clock.now += 2
        if not await _play_one(fake, ana, table_id) and not await _play_one(fake, bea, table_id):
            await fake.idle()  # nothing to click: the computer plays a seat in a moment
    assert len(rounds_seen) >= 2, "the game went on to another round"
    assert len(fake.posted) == posts or "defused" in "\n".join(fake.messages[table_id].embeds)
    edited = [e for e in fake.edits if int(e.message["id"]) == table_id]
    assert edited and all(e.buttons for e in edited if e.content), "the round's buttons"
    assert all(not e.allowed_mentions.get("users") for e in edited), "edits ping nobody"
    later = fake.messages[table_id]
    assert len(later.message["attachments"]) == 1, "one picture, replaced, never stacked"
    assert later.files != first.files, "a later round's picture replaced round 1's"
    if folder := os.environ.get("PARTIDA_PICTURES"):  # to look at them: PARTIDA_PICTURES=/tmp/x
        for name, sent in (("start", start), ("round1", first), ("later", later)):
            for data in sent.files.values():
                with open(os.path.join(folder, f"fuse-live-{name}.png"), "wb") as out:
                    out.write(data)
