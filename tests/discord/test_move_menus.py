"""Moves chosen from menus, through the fake Discord (``bot/service/picks.py``): whole games with
no typed command, what a step costs the chat (no channel post), and the picks that are refused:
another player's, and one made after the table moved on."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import buttons as button_ids
from bot.service.match import Match
from bot.store import repository as repo
from rules.core import get_game
from rules.zvv.actions import Move
from tests.discord.conftest import Bots
from tests.discord.test_honest_answers import SAVED, TRY_AGAIN, past_the_window, requests_of
from tests.fakediscord import FakeDiscord
from tests.fakediscord.faults import CALLBACK, FOLLOWUP, ORIGINAL, Fault
from tests.fakediscord.server import FakeUser, Sent
from tests.fakediscord.table import play
from tests.support.commands import command_for

CALLBACK_ROUTE = "/interactions/{id}/{token}/callback"
FOLLOWUP_ROUTE = "/webhooks/{app}/{token}"
ORIGINAL_ROUTE = "/webhooks/{app}/{token}/messages/{message}"


def _rest(fake: FakeDiscord, since: int) -> list[str]:
    return [f"{method} {route}" for method, route in fake.calls[since:]]


SMALL_ZVV = {"size": 9, "round_limit": 4}
# Each whole game is a deal of its own (not the one tests/conftest.py draws from the test's
# name), so that renaming a test keeps the game whose counts it asserts.
DEAL = "bot.service.lobby.secrets.randbits"


@pytest.mark.usefixtures("quick_windows")
async def test_a_whole_zvv_game_is_played_by_clicks_only(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(DEAL, lambda bits: 4)
    bot = await bots.start()
    users = [fake.add_user(700 + i, f"Z{i}") for i in range(3)]
    counts = await play(fake, bot, "zvv", users, seed=4, options=SMALL_ZVV, clicks_only=True)
    assert counts.typed == 0, counts.line()
    assert counts.picked["move"] > 5, counts.picked
    final = fake.in_channel(counts.where)[-1]
    assert "🏆" in final.content, final.content
    # Every step is answered privately: the channel gets one post per turn (the last is the
    # end; a turn's steps edit it), as when every move is typed, and never a menu.
    assert counts.private == counts.picks + counts.openers, counts.line()
    assert counts.game_posts <= counts.turns + 1, counts.line()
    assert not any("?" in s.text and s.selects and "@to" in str(s.selects) for s in fake.posted)
    fake.check()  # every menu and button met Discord's schema and limits


@pytest.mark.usefixtures("quick_windows")
async def test_bad_bones_traps_and_purchases_are_made_by_clicks_only(
    fake: FakeDiscord, bots: Bots, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(DEAL, lambda bits: 2)
    bot = await bots.start()
    users = [fake.add_user(720 + i, f"B{i}", locale="es-ES") for i in range(3)]
    fake.guild_locale = "es-ES"
    options = {"advanced": True, "solo_rounds": 2}
    counts = await play(fake, bot, "badbones", users, seed=2, options=options, clicks_only=True)
    assert counts.typed == 0, counts.line()
    assert counts.picked["place"] >= 3, counts.picked
    assert counts.picked["buy"] >= 2, counts.picked
    fake.check()


# ----------------------------------------------------------------- one move, step by step


async def _table(fake: FakeDiscord, bot: Any) -> tuple[Any, Sent]:
    """The game's row as it stands, and its latest message with controls."""
    sent = next(s for s in reversed(fake.in_channel()) if s.selects or s.buttons)
    ids = [c["custom_id"] for c in sent.components]
    game_id = next(p.game_id for i in ids if (p := button_ids.decode(i)) and p.game_id)
    async with bot.get_service().sessions() as session:
        row = await repo.game_by_id(session, game_id)
    return row, sent


async def _zvv_move(
    fake: FakeDiscord, bots: Bots, locale: str = "en-US"
) -> tuple[Any, FakeUser, FakeUser]:
    """A 2-player Zombies vs Vampires game played (typed, first legal move) until a player is
    asked to move a pawn: the bot, that player and the other."""
    bot = await bots.start()
    ana = fake.add_user(800, "ana", locale=locale)
    ben = fake.add_user(801, "ben", locale=locale)
    # Room to reach a move: at SMALL_ZVV's 4 rounds the dice sometimes end the game before any
    # face asks for one (then no legal action is left to type).
    await (await fake.slash(ana, "zvv new", **{**SMALL_ZVV, "round_limit": 30})).result()
    await (await fake.slash(ben, "game join")).result()
    await (await fake.slash(ana, "game start")).result()
    await fake.idle()
    engine = get_game("zvv")
    for _ in range(60):
        row, _sent = await _table(fake, bot)
        match = Match.of(row)
        seat = match.state.turn
        user = ana if row.seats[seat].user_id == ana.id else ben
        if match.state.phase == "move":
            return bot, user, ben if user is ana else ana
        command, args = command_for(engine, engine.legal_actions(match.state, seat)[0])
        options: dict[str, Any] = args  # the slash command's options by name
        await (
            await fake.slash(user, f"zvv {command}", channel_id=row.channel_id, **options)
        ).result()
        await fake.idle()
    raise AssertionError("nobody was asked to move a pawn")


def _menu(sent: Sent, param: str) -> dict[str, Any]:
    return next(m for m in sent.selects if m["custom_id"].split("#")[0].endswith(f"@{param}"))


def _values(menu: dict[str, Any]) -> list[str]:
    return [o["value"] for o in menu["options"]]


async def test_a_two_step_move_costs_no_channel_post(fake: FakeDiscord, bots: Bots) -> None:
    bot, mover, _ = await _zvv_move(fake, bots)
    row, phase = await _table(fake, bot)
    pawns = _menu(phase, "pawn")
    assert _values(pawns) and all(len(o["label"]) <= 100 for o in pawns["options"])
    posts, edits, calls = len(fake.posted), len(fake.edits), len(fake.calls)

    first = await fake.choose(mover, phase, pawns["custom_id"], [_values(pawns)[0]])
    menu = await first.result()
    assert menu.ephemeral, "the first pick is seen by its player alone"
    assert "⚠️" not in menu.content and "/zvv move pawn:" in menu.content, menu.content
    destinations = [v for m in menu.selects for v in _values(m)]
    engine = get_game("zvv")
    match = Match.of(row)
    pawn = _values(pawns)[0]
    legal = {
        a.to
        for a in engine.legal_actions(match.state, match.state.turn)
        if isinstance(a, Move) and a.pawn == pawn
    }
    assert set(destinations) == legal, "the menus offer exactly the pawn's legal moves"
    await fake.idle()
    assert len(fake.posted) == posts and len(fake.edits) == edits, "the channel saw nothing"
    assert _rest(fake, calls) == [f"POST {CALLBACK_ROUTE}", f"POST {FOLLOWUP_ROUTE}"]

    calls = len(fake.calls)
    holder = next(m for m in menu.selects if destinations[0] in _values(m))
    second = await fake.choose(mover, menu, holder["custom_id"], [destinations[0]])
    receipt = await second.result()
    assert receipt.ephemeral and receipt.message["id"] == menu.message["id"], "edited in place"
    assert not receipt.selects, "the menu is spent: the receipt replaces it"
    await fake.idle()
    after, _ = await _table(fake, bot)
    assert after.phase != row.phase, "the move was made"
    said = _rest(fake, calls)
    assert said[:2] == [f"POST {CALLBACK_ROUTE}", f"PATCH {ORIGINAL_ROUTE}"], said
    # The whole move: two picks, four interaction calls, and the table's one post.
    assert len(fake.posted) - posts == 1


async def _pawn_picked(fake: FakeDiscord, bots: Bots, locale: str) -> tuple[Any, ...]:
    """A ZvV game whose mover has picked their first pawn: the bot, the mover, the other
    player, the game's row, the phase message, its pawn menu and the private answer."""
    bot, mover, other = await _zvv_move(fake, bots, locale)
    row, phase = await _table(fake, bot)
    pawns = _menu(phase, "pawn")
    menu = await (await fake.choose(mover, phase, pawns["custom_id"], [_values(pawns)[0]])).result()
    return bot, mover, other, row, phase, pawns, menu


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_another_players_pick_is_refused_and_changes_nothing_for_the_first(
    fake: FakeDiscord, bots: Bots, locale: str
) -> None:
    picked = await _pawn_picked(fake, bots, locale)
    bot, mover, other, row, phase, pawns, menu = picked
    posts, edits = len(fake.posted), len(fake.edits)

    # The other player picks in the same public menu: refused, to them alone, in their words.
    refused = await (
        await fake.choose(other, phase, pawns["custom_id"], [_values(pawns)[-1]])
    ).result()
    assert refused.ephemeral and "⚠️" in refused.content
    wanted = "No es tu turno" if locale == "es-ES" else "It is not your turn"
    assert wanted in refused.content, refused.content
    await fake.idle()
    assert (len(fake.posted), len(fake.edits)) == (posts, edits)
    assert (await _table(fake, bot))[0].phase == row.phase, "nothing changed"

    # The first player's own menu is untouched by it: their pick still makes the move.
    target = _values(menu.selects[0])[0]
    done = await (await fake.choose(mover, menu, menu.selects[0]["custom_id"], [target])).result()
    assert "⚠️" not in done.content, done.content
    await fake.idle()
    assert (await _table(fake, bot))[0].phase != row.phase


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_a_pick_after_the_table_moved_on_is_refused_in_words(
    fake: FakeDiscord, bots: Bots, locale: str
) -> None:
    bot, mover, _, row, _, pawns, menu = await _pawn_picked(fake, bots, locale)
    pawn = _values(pawns)[0]
    target = _values(menu.selects[0])[0]
    # The move is made another way (typed) before the menu is used.
    typed = await fake.slash(mover, "zvv move", channel_id=row.channel_id, pawn=pawn, to=target)
    assert "⚠️" not in (await typed.result()).content
    await fake.idle()
    moved, _ = await _table(fake, bot)
    posts, edits = len(fake.posted), len(fake.edits)

    late = await (await fake.choose(mover, menu, menu.selects[0]["custom_id"], [target])).result()
    assert late.ephemeral and "⚠️" in late.content
    # Refused as an out-of-date pick, or (seen once in CI, cause not yet found: see the
    # closing note of session 8) as a button of an earlier phase: either says the truth.
    wanted = ("ya no vale", "fase anterior") if locale == "es-ES" else ("out of date", "earlier")
    assert any(w in late.content for w in wanted), late.content
    await fake.idle()
    assert (len(fake.posted), len(fake.edits)) == (posts, edits), "the channel saw nothing"
    assert (await _table(fake, bot))[0].version == moved.version, "nothing was saved"


# ----------------------------------------------------------------- Discord failing


async def test_menus_under_late_answers_5xx_and_429s_never_tell_less_than_the_truth(
    fake: FakeDiscord, bots: Bots
) -> None:
    fake.window = 3.0  # Discord's own
    bot, mover, _ = await _zvv_move(fake, bots)
    row, phase = await _table(fake, bot)
    pawns = _menu(phase, "pawn")
    pawn = _values(pawns)[0]

    # Delivered 4.5 s after it was made: nothing is run, nothing sent.
    late = await fake.choose(mover, phase, pawns["custom_id"], [pawn], age=4.5)
    await past_the_window(fake, late)
    assert late.failed and requests_of(fake, late) == []

    # The menu's follow-up is lost (Discord answers 404): nothing was saved, so the player
    # reads "try again", never "saved".
    fake.inject(Fault(method="POST", route=FOLLOWUP, status=404))
    lost = await fake.choose(mover, phase, pawns["custom_id"], [pawn])
    await past_the_window(fake, lost)
    said = "\n".join(m.content for m in lost.messages)
    assert TRY_AGAIN in said.lower() and SAVED not in said, said

    # A 503 on the defer (discord.py tries again in time) and a 429 on the answer (waited
    # out): the menu comes, once.
    fake.inject(Fault(route=CALLBACK, status=503))
    fake.inject(Fault(method="POST", route=FOLLOWUP, status=429, retry_after=0.5))
    first = await fake.choose(mover, phase, pawns["custom_id"], [pawn])
    menu = await first.result()
    assert menu.ephemeral and menu.selects and "⚠️" not in menu.content, menu.content
    assert len([m for m in first.messages if m.selects]) == 1
    assert (await _table(fake, bot))[0].version == row.version, "a pick saves nothing"

    # The move's answer (the menu replaced by the receipt) is lost after the move was saved:
    # the player is told it is saved, and the table follows.
    fake.inject(Fault(method="PATCH", route=ORIGINAL, status=404))
    posts = len(fake.posted)
    target = _values(menu.selects[0])[0]
    done = await fake.choose(mover, menu, menu.selects[0]["custom_id"], [target])
    await past_the_window(fake, done)
    said = "\n".join(m.content for m in done.messages)
    assert SAVED in said and TRY_AGAIN not in said.lower(), said
    assert (await _table(fake, bot))[0].phase != row.phase, "the move was made once"
    assert len(fake.posted) == posts + 1, "and the table followed"


async def test_the_private_board_offers_the_first_step_and_stays(
    fake: FakeDiscord, bots: Bots
) -> None:
    bot, mover, _ = await _zvv_move(fake, bots)
    row, _ = await _table(fake, bot)
    board = await (await fake.slash(mover, "game board", channel_id=row.channel_id)).result()
    assert board.ephemeral and "Your board" in board.content
    pawns = _menu(board, "pawn")
    menu = await (await fake.choose(mover, board, pawns["custom_id"], [_values(pawns)[0]])).result()
    assert menu.ephemeral and menu.message["id"] != board.message["id"], "a message of its own"
    kept = fake.messages[int(board.message["id"])]
    assert menu.selects and "Your board" in kept.content and kept.selects, "the board stays"
