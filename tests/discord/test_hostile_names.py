"""Display names built to break a message: characters that are invisible, break a line or turn
the text around leave the name wherever it is shown (docs/discord.md, "Names as typed, cleaned")."""

from __future__ import annotations

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
