"""The console makes every move Discord's buttons and menus make: ``/press N`` on a button
that opens a move's menus, ``/select value`` in the menu that offers it (the private ones of a
move chosen step by step too), and never a typed game command."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from bot.console import Console, ConsoleClock
from bot.service import Service
from bot.service import buttons as button_ids
from bot.service.match import Match
from bot.service.replies import Message, Select
from bot.service.text import Text
from bot.store import repository as repo
from rules.core import get_game

# The deals are seeded, so that each game is the one the test describes: deal 3's Bad Bones game
# has alice take a trap back (a public menu) just after bob was shown a private menu of squares.
DEAL = "bot.service.lobby.secrets.randbits"


async def _play_by_menus(tmp_path: Path, game: str, options: str, moves: int) -> tuple[str, int]:
    """Open ``game`` for alice and bob (Spanish), then play ``moves`` random legal moves with
    ``/press`` and ``/select`` only. Returns what the console printed and the moves made."""
    clock = ConsoleClock()
    service = await Service.open(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}", clock=clock)
    out = io.StringIO()
    console = Console(service, clock, tmp_path / "img", out)
    engine = get_game(game)
    rng = random.Random(3)
    made = 0
    try:
        for line in (
            f"@alice /game new {game} {options}",
            "@bob:es /game join",
            "@alice /game start",
        ):
            await console.line(line)
        for _ in range(moves):
            async with service.sessions() as session:
                row = await repo.open_game(session, console.channel)
            if row is None or row.state is None:
                break
            match = Match.of(row)
            seat = rng.choice(sorted(engine.pending(match.state)))
            who = "@alice" if seat == 0 else "@bob:es"
            typed = engine.to_command(rng.choice(engine.legal_actions(match.state, seat)))
            assert typed is not None, "a legal action is a command a player can type"
            command, args = typed
            spec = next(c for c in engine.commands if c.name == command)
            button = button_ids.button_id(row.id, row.phase, command, args)
            # (A Bad Bones question's button carries when it was asked: ``~<asked>``.)
            shown = [re.sub(r"~\d+:", ":", b, count=1) for b in console.last_buttons]
            if button in shown:
                await console.line(f"{who} /press {shown.index(button) + 1}")
            else:
                assert spec.steps, f"no button nor menu makes {command} {args}"
                opener = button_ids.step_id(row.id, row.phase, command, {}, None)
                if opener in console.last_buttons:
                    await console.line(f"{who} /press {console.last_buttons.index(opener) + 1}")
                for param in spec.steps:
                    if param in args:
                        await console.line(f"{who} /select {args[param]}")
            async with service.sessions() as session:
                after = await repo.game_by_id(session, row.id)
            assert after is not None and after.version > row.version, out.getvalue()[-1500:]
            made += 1
    finally:
        await service.close()
    return out.getvalue(), made


async def test_zvv_moves_and_walls_by_press_and_select_in_the_console(tmp_path: Path) -> None:
    text, made = await _play_by_menus(tmp_path, "zvv", "size:9", 30)
    assert made == 30
    assert "⚠️" not in text, text
    assert "menu (/select a b …): Which pawn do you move?" in text
    assert "¿A qué casilla va" in text, "bob's private menus speak Spanish"
    assert "O escríbela: `/zvv mover peon:" in text, "and show the command to type instead"


async def test_bad_bones_traps_by_press_and_select_in_the_console(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(DEAL, lambda bits: 3)
    text, made = await _play_by_menus(tmp_path, "badbones", "", 25)
    assert made >= 15  # (or the game ended)
    assert "⚠️" not in text, text
    assert "[1] Place a trap…" in text
    assert "¿Qué trampa colocas?" in text


def _menu(placeholder: str, custom_id: str, values: list[str]) -> Message:
    return Message(
        Text.of(placeholder),
        selects=(Select(placeholder, custom_id, tuple((v, v) for v in values)),),
    )


async def test_a_select_is_made_in_the_menus_its_player_sees_never_in_another_players_private_one(
    console: tuple[Console, io.StringIO],
) -> None:
    con, _ = console
    alice, bob = con.actor("alice", None), con.actor("bob", "es")
    # The phase message offers the traps alice may take back; then bob, placing his dragon step
    # by step, is shown privately a menu of every square (C2 among them).
    con.print_message(
        "#1 №11", _menu("Which trap do you take back?", "pt:1:p:retrieve:@square", ["C2", "D4"])
    )
    squares = _menu(
        "dragón: ¿en qué casilla?", "pt:1:p:place:trap=dragon&@square#0", ["A1", "C2", "E5"]
    )
    con.print_message("→ bob (only they see this)", squares, to=bob.user_id)
    assert con.menu_for(alice, ["C2"]) == "pt:1:p:retrieve:@square", "alice's is the public one"
    assert con.menu_for(bob, ["C2"]) == "pt:1:p:place:trap=dragon&@square#0", "bob's newest"
    assert con.menu_for(bob, ["D4"]) == "pt:1:p:retrieve:@square", "bob sees the public one too"
