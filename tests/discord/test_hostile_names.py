"""Display names built to break a message: characters that are invisible, break a line or turn
the text around leave the name wherever it is shown (docs/discord.md, "Names as typed, cleaned")."""

from __future__ import annotations

import pytest

from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord

# Discord lets a display name carry these; none is visible, each breaks a line, joins, turns
# the text around or (a C1 control: NEL) is drawn as a box in the table picture.
UNSEEN = "\x85\x9b\u2028\u2029\u2060\u2063\ufeff\u061c\u202e"


async def test_a_name_loses_line_breaks_and_invisible_marks_in_the_lobby(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    host = fake.add_user(301, f"Ro{UNSEEN}sa")
    await (await fake.slash(host, "tiny new")).result()
    await fake.idle()
    [lobby] = fake.in_channel()
    assert "hosted by Rosa" in lobby.content
    assert not set(UNSEEN) & set(lobby.content)
    assert fake.threads and all(not set(UNSEEN) & set(t["name"]) for t in fake.threads.values())
    assert lobby.allowed_mentions.get("users", []) == [], "the lobby pings nobody"


async def test_stats_of_a_player_never_rated_show_their_name_cleaned(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    newcomer = fake.add_user(302, f"Ro{UNSEEN}sa")
    answer = await (await fake.slash(newcomer, "game stats")).result()
    assert answer.ephemeral and "Rosa" in answer.content
    assert not set(UNSEEN) & set(answer.content)


# Names Discord accepts that show nothing: a Hangul filler (a letter drawn blank, and as a box
# in the table picture), the braille blank, combining accents with no letter to sit on (they
# land on the character before the name: "#4´" in a picture, "— ́" in a line).
@pytest.mark.parametrize(
    "blank", ["\u3164", "\u2800\u2800", "\u0301\u0301\u0301", " \u3164 \u0301"]
)
async def test_a_name_that_shows_nothing_is_a_question_mark(
    fake: FakeDiscord, bots: Bots, blank: str
) -> None:
    await bots.start()
    host = fake.add_user(303, blank)
    await (await fake.slash(host, "tiny new")).result()
    await fake.idle()
    [lobby] = fake.in_channel()
    assert "hosted by ? (" in lobby.content and "👥 1/4: ?\n" in lobby.content, lobby.content


async def test_a_name_keeps_its_accents_but_not_one_before_its_first_letter(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    host = fake.add_user(304, "\u0301Jose\u0301 \u3164")
    await (await fake.slash(host, "tiny new")).result()
    await fake.idle()
    assert "hosted by Jose\u0301 (" in fake.in_channel()[-1].content
