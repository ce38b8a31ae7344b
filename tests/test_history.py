"""/game history: pages with buttons, each game's result, players with their rating change,
length, and a replay button."""

from __future__ import annotations

from bot.service import Service
from bot.service.buttons import decode
from tests.conftest import ALICE, BOB, CAROL, HERE, Clock
from tests.support.replies import private


async def test_history_pages_with_results_ratings_length_and_replay(
    service: Service, clock: Clock
) -> None:
    for _ in range(6):
        assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 1})).ok
        assert (await service.join(BOB, HERE)).ok
        assert (await service.start(ALICE, HERE)).ok
        assert (await service.act(ALICE, HERE, "tiny", "bid", {"amount": 3})).ok
        clock.now += 3600
        assert (await service.act(BOB, HERE, "tiny", "bid", {"amount": 1})).ok
        assert (await service.act(ALICE, HERE, "tiny", "pass", {})).ok
        clock.now += 300
        assert (await service.act(BOB, HERE, "tiny", "pass", {})).ok
    first = await service.history(CAROL, HERE)
    assert first.private is not None
    assert "Página 1 " in private(first), "the reader's language (Carol reads Spanish)"
    text = str(first.private.narration)  # the entries, under the head
    assert text.count("• ") == 5 and "Ganó: Alice" in text and "4 jugadas, 1h 05m" in text
    assert "• #6 " in text, "each game's number, which /game replay takes"
    assert "Alice (+" in text and "Bob (−" in text, "each player's rating change"
    labels = [b.label for b in first.private.buttons]
    assert labels[:5] == ["Repetir #6", "Repetir #5", "Repetir #4", "Repetir #3", "Repetir #2"]
    assert labels[5:] == ["Más antiguas ▶"]
    nxt = decode(first.private.buttons[-1].custom_id)
    assert nxt is not None and nxt.args == {"page": "2", "after": "2"}, "the page, the last game"
    second = await service.press(ALICE, HERE, decode(first.private.buttons[-1].custom_id))
    assert second.private is not None and "Page 2 " in private(second)
    assert str(second.private.narration).count("• ") == 1
    assert [b.label for b in second.private.buttons] == ["Replay #1", "◀ Newer"]
    typed = await service.history(ALICE, HERE, 2)
    assert typed.private is not None and "Page 2 " in private(typed), "/game history page:2"
    replay = await service.press(ALICE, HERE, decode(first.private.buttons[0].custom_id))
    assert replay.ok and "game 6" in str(replay.public[0].message.text)


async def test_a_page_button_naming_a_game_beyond_any_number_is_the_first_page(
    service: Service,
) -> None:
    # A forged ▶ (a custom id is the client's to send) naming a game past SQLite's integers
    # raised OverflowError out of the service instead of an answer.
    from bot.service.buttons import view_id

    for edge in ("after", "before"):
        forged = decode(view_id("history", {"page": 2, edge: 10**30}), [])
        assert forged is not None
        page = await service.press(ALICE, HERE, forged)
        assert "No finished games in this channel yet" in private(page), edge
