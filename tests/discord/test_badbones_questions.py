"""Bad Bones phase 3 through the fake Discord: three players answer their questions at once.

The questions are asked in the phase message, which each answer edits; every question's buttons
stay valid until it is answered, whatever the others answer meanwhile (no "That button belongs
to an earlier phase"); nobody is pinged by an answer; the phase posts once, and the next phase
once. The same with Discord answering 429s, 5xx and late.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest

from rules.badbones import GAME
from rules.badbones.state import TRAP
from tests.badbones.helpers import position
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord, FakeUser, Sent
from tests.fakediscord.faults import CALLBACK, EDIT, FOLLOWUP, POST, Fault

STALE = "earlier phase"


def three_boards(seats: int, options: dict[str, Any], seed: int) -> object:
    """Ana: two skeletons leave through the top forest, then her catapult throws the skeleton
    emperor; Beto: his dragon repels one; Cora: two leave through the top forest."""
    return position(
        "A1 N\nB1 N\nC4 catapult\nC5 N@emperor",
        "C2 dragon\nC1 S",
        "D1 N\nE1 N",
        stage=TRAP,
        options={"chiefs": True},
    )


# Each player's answers, in the order their questions come (a rival's seat, or a way).
ANSWERS = {"Ana": ["2", "3", "2"], "Beto": ["E"], "Cora": ["1", "2"]}


def _answer_label(sent: Sent, player: FakeUser, value: str) -> str | None:
    """The button ``player`` clicks to answer ``value``: theirs by name, or a shared one."""
    for label in (f"{player.name}: {value}", value):
        if label in sent.buttons:
            return label
    return None


async def _answer_together(
    fake: FakeDiscord, table_id: int, players: list[FakeUser], step: int
) -> list[str]:
    """Every player with an answer left clicks it at once on the message as it stands."""
    sent = fake.messages[table_id]
    clicks = []
    for player in players:
        answers = ANSWERS[player.name]
        if step < len(answers):
            label = _answer_label(sent, player, answers[step])
            assert label is not None, (player.name, answers[step], list(sent.buttons))
            clicks.append(fake.click(player, sent, label))
    exchanges = await asyncio.gather(*clicks)
    said = [(await e.result()).content for e in exchanges]
    await fake.idle()
    return said


async def _at_the_questions(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch, *, render: bool = False
) -> tuple[list[FakeUser], Sent]:
    """Three players through phases 1 and 2 (nothing each): phase 3's message with its
    questions."""
    monkeypatch.setattr(GAME, "setup", three_boards)
    await bots.start(render=render)
    players = [fake.add_user(701, "Ana"), fake.add_user(702, "Beto"), fake.add_user(703, "Cora")]
    await (await fake.slash(players[0], "badbones new")).result()
    for player in players[1:]:
        await (await fake.slash(player, "game join")).result()
    await (await fake.slash(players[0], "game start")).result()
    for player in players:
        await (await fake.slash(player, "badbones nothing")).result()
    await fake.idle()
    return players, next(s for s in reversed(fake.posted) if "Question 1" in s.content)


@pytest.mark.parametrize("faults", ["none", "429", "5xx", "late"])
async def test_three_players_answer_phase_3_at_once_in_one_edited_message(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch, faults: str
) -> None:
    players, asked = await _at_the_questions(fake, bots, monkeypatch, render=True)
    ana, beto, cora = players
    table_id = int(asked.message["id"])
    assert set(asked.allowed_mentions.get("users") or []) == {p.id for p in players}
    assert "the pink skeleton on A1 leaves your board" in asked.content
    assert "the pink skeleton on D1 leaves your board" in asked.content
    posts, edits = len(fake.posted), len(fake.edits)
    if faults == "429":  # the channel's first edit and post are rate limited once
        fake.inject(Fault(method="PATCH", route=EDIT, status=429, retry_after=0.3))
        fake.inject(Fault(method="POST", route=POST, status=429, retry_after=0.3))
    elif faults == "5xx":
        fake.inject(Fault(method="PATCH", route=EDIT, status=503))
        fake.inject(Fault(method="POST", route=POST, status=502))
        fake.inject(Fault(method="POST", route=FOLLOWUP, status=500))
    elif faults == "late":  # every answer reaches Discord 2.5 s late (within the 3 s window)
        fake.inject(Fault(route=CALLBACK, status=None, delay=2.5, times=None))

    said = await _answer_together(fake, table_id, players, 0)
    assert not any(STALE in s for s in said), said
    middle = fake.messages[table_id]
    # Ana and Cora are asked about their second skeleton; Beto is done: the message says so.
    assert "Question 2: the pink skeleton on B1" in middle.content
    assert "Question 2: the pink skeleton on E1" in middle.content
    assert "beto" not in middle.content.lower().split("question")[0] or "✅" in middle.content
    told = "\n".join(middle.embeds)
    assert "flees Beto's dragon on C2 towards E" in told
    assert "Ana sends the pink skeleton leaving A1 through the top forest to Beto" in told

    said += await _answer_together(fake, table_id, players, 1)
    assert "throws the pink skeleton emperor coming from C5" in fake.messages[table_id].content
    said += await _answer_together(fake, table_id, players, 2)
    assert not any(STALE in s or "⚠️" in s for s in said), said

    # The phase is over: one new message for round 2, which pings everyone (their heroes).
    new_posts = fake.posted[posts:]
    in_table = [s for s in new_posts if s.channel_id == asked.channel_id and not s.ephemeral]
    assert len(in_table) == 1, [s.content for s in in_table]
    assert "Move your hero" in in_table[0].content
    final = "\n".join(in_table[0].embeds)
    assert "Ana's catapult on C4 throws the pink skeleton emperor from C5 at Beto" in final
    table_edits = [e for e in fake.edits[edits:] if int(e.message["id"]) == table_id]
    assert table_edits, "the answers were shown by editing the phase message"
    assert all(not e.allowed_mentions.get("users") for e in table_edits), "edits ping nobody"
    pinged = [u for s in new_posts for u in s.allowed_mentions.get("users") or []]
    assert sorted(pinged) == sorted(p.id for p in players), "once each: round 2"
    if folder := os.environ.get("PARTIDA_PICTURES"):
        for data in middle.files.values():
            with open(os.path.join(folder, f"badbones-questions-{faults}.png"), "wb") as out:
                out.write(data)


async def test_a_button_of_an_answered_question_is_stale_and_another_players_is_refused(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    players, asked = await _at_the_questions(fake, bots, monkeypatch)
    ana, beto, cora = players
    mine = _answer_label(asked, ana, "2")
    assert mine is not None
    first = await (await fake.click(ana, asked, mine)).result()
    await fake.idle()
    assert "⚠️" not in first.content
    # The same button, on the message as it was: Ana's first question is answered.
    again = await (await fake.click(ana, asked, mine)).result()
    assert "answered that question already" in again.content
    # Beto's way, clicked by Cora: his, not hers; Beto's own click on the old message works.
    theirs = await (await fake.click(cora, asked, "Beto: E")).result()
    assert "That button is Beto's" in theirs.content
    his = await (await fake.click(beto, asked, "Beto: E")).result()
    assert "⚠️" not in his.content
