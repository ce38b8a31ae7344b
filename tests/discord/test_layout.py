"""How a service message becomes Discord messages: nothing cut, and every ping where it pings.

A mention notifies only from a message's content, never from an embed, so a head too long for
the 2,000 characters of the content must keep each called player's mention in the content."""

from __future__ import annotations

import re

from bot.discord.layout import MAX_CONTENT, MAX_DESCRIPTION, layout
from bot.discord.markup import markdown
from bot.service.replies import Message
from bot.service.text import Mention, Name, Text, lines

LOUD = "*_~|>" * 6 + "*_"  # a 32-character name of markdown: each character escapes to two


def _awaiting(user_id: int, question: str | Text) -> Text:
    return Text.of("⏳ ", Mention(user_id, f"p{user_id}"), ": ", question)


def test_a_head_that_fits_is_the_content_whole() -> None:
    head = lines([_awaiting(1, "your move"), _awaiting(2, "your move")])
    (piece,) = layout(Message(head, mentions=(1, 2)))
    assert piece.content == "⏳ <@1>: your move\n⏳ <@2>: your move"
    assert piece.embeds == []


def test_six_long_questions_keep_all_six_mentions_in_the_content() -> None:
    # Six catapults each asking "at whose graveyard?" and listing five markdown-laden names:
    # about 380 characters a line once escaped, 2,300 in all, over the content's 2,000.
    names = Text.of(*(Text.of(Name(f"{LOUD[:30]}{i:02d}"), ", ") for i in range(5)))
    question = Text.of("Your catapult fires: at whose graveyard? Answer with a seat: ", names)
    head = lines([_awaiting(400 + i, question) for i in range(6)])
    assert len(markdown(head)) > MAX_CONTENT, "once escaped, the head is over the limit"
    first, *rest = layout(Message(head, mentions=tuple(range(400, 406))))
    assert not rest
    assert len(first.content) <= MAX_CONTENT
    called = [int(m) for m in re.findall(r"⏳ <@(\d+)>", first.content)]
    assert called == list(range(400, 406)), "every awaited player is called in the content"
    # The lines that did not fit open the narration whole: the content names them, the
    # embed says what they are asked.
    told = "\n".join(first.embeds)
    assert "⏳ <@405>: Your catapult fires" in told
    assert "⏳ <@405>" in first.content.split("\n")[-1]
    assert first.content.count("Your catapult fires") + told.count("Your catapult fires") == 6


def test_a_narration_longer_than_an_embed_continues_in_the_next_embed() -> None:
    story = lines([f"line {i:04d} " + "x" * 90 for i in range(120)])  # 12,000 characters
    pieces = layout(Message(Text.of("🏆"), narration=story))
    embeds = [e for piece in pieces for e in piece.embeds]
    assert all(len(e) <= MAX_DESCRIPTION for e in embeds)
    assert "\n".join(embeds) == str(story), "nothing cut, nothing reordered"
    assert len(pieces) >= 2, "past 6,000 characters the story goes on in a second message"
