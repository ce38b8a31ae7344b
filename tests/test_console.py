"""The console adapter, driven by a script as a user would type it."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path
from typing import Any

import pytest

from bot.console import Console, ConsoleClock, run_console
from bot.service import Service

SCRIPT = """\
# a whole tiny game, with a Spanish player, a stranger and a timeout
@alice /game new tiny rounds:1
@bob:es /game join
@alice /game start
@alice /tiny bid 3
@carol /tiny bid 1
/wait 25h
@alice /press 1
@bob /game status
@bob /tiny take
@alice /game history
nonsense line
"""


@pytest.mark.usefixtures("tiny")
async def test_a_scripted_game_in_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    code = await run_console(
        f"sqlite+aiosqlite:///{tmp_path / 'c.db'}", tmp_path / "img", io.StringIO(SCRIPT), out
    )
    text = out.getvalue()
    assert code == 0
    assert "Te has unido" in text, "bob's client speaks Spanish"
    assert "You are not playing in this game." in text, "carol is not seated"
    assert "bob ran out of time" in text, "the 25-hour wait ran bob's deadline"
    assert "Winner: alice" in text
    assert "Finished games in this channel" in text
    assert "? Write: @user /command" in text


def test_console_words_read_like_discord_options() -> None:
    from bot.console_spelling import command_named, split, words
    from rules.core import get_game

    assert words(r"place trap:wall square:B2 orientation:\ ") == [
        "place",
        "trap:wall",
        "square:B2",
        "orientation:\\",
    ]
    assert words('keep dice:"a c"') == ["keep", "dice:a c"]
    assert split(["dice:a", "c", "d"]) == ({"dice": "a c d"}, [])
    assert split(["A1", "to:B2"]) == ({"to": "B2"}, ["A1"])
    zvv = get_game("zvv")
    assert command_named("zvv", zvv.commands, "tirar") == "roll"
    assert command_named("zvv", zvv.commands, "roll") == "roll"


async def _play(tmp_path: Path, script: str, images: str = "img", db: str = "c.db") -> str:
    out = io.StringIO()
    url = f"sqlite+aiosqlite:///{tmp_path / db}"
    assert await run_console(url, tmp_path / images, io.StringIO(script), out) == 0
    return out.getvalue()


async def test_spanish_players_type_the_lobby_commands_the_spanish_text_tells_them(
    tmp_path: Path,
) -> None:
    """Play-test: the Spanish text says "únete con /partida unirse"; typing it said Unknown."""
    text = await _play(
        tmp_path,
        "@ana:es /partida nueva juego:badbones\n"
        "@beto:es /partida unirse\n"
        "@ana:es /partida ajustes plazo:90 aviso:30\n"
        "@ana:es /partida expulsar jugador:@beto\n"
        "@ana:es /partida estado\n"
        "@ana:es /partida bailar\n",
    )
    assert "Te has unido a la partida de Bad Bones" in text
    assert "Plazo para cada jugada: 90 minutos; aviso 30 minutos antes." in text
    assert "beto was removed from the game" in text  # the channel speaks English (--locale)
    assert "? Desconocido: /partida bailar. Prueba: nueva unirse salir" in text


async def test_a_spanish_player_opens_a_game_with_the_name_the_help_gives(tmp_path: Path) -> None:
    """Play-test: /help zvv says "Abre una mesa: /zvv nueva"; typing it said there was no game."""
    text = await _play(tmp_path, "@ana:es /help zvv\n@ana:es /zvv nueva tamaño:9 muros:12\n")
    assert "/zvv nueva" in text
    assert "No hay ninguna partida" not in text
    assert "Has abierto una partida de Zombis contra Vampiros" in text
    assert "Walls: 12" in text, "with its options, named in Spanish"


async def test_a_game_command_typed_wrong_is_answered_with_the_command_as_it_is_written(
    tmp_path: Path,
) -> None:
    """Play-test: `/badbones mover dirección:N` (the accent Discord's name has not), `mover` with
    nothing and `mover N extra` reached the game as no direction ("“None” is not a direction")
    or as N; each is now refused with the command written out, in the typist's language, and
    nothing is played."""
    text = await _play(
        tmp_path,
        "@ana:es /partida nueva badbones\n"
        "@ana:es /partida añadirbot\n"
        "@ana:es /partida empezar\n"
        "@ana:es /badbones mover dirección:N\n"
        "@ana:es /badbones mover N extra\n"
        "@ana:es /badbones mover\n"
        "@bob /badbones place trap:wall\n"
        "@ana:es /badbones mover direccion:N\n",
    )
    assert "None" not in text, text
    usage = "Escribe: /badbones mover direccion:<…>"
    assert f"? «dirección» no es una opción de este comando. {usage}" in text
    assert f"? Demasiados valores. {usage}" in text
    assert f"? {usage}" in text
    assert "? Write: /badbones place trap:<…> square:<…> [orientation:<…>]" in text
    assert text.count("✅ Anotado.") == 1, "only the move typed right is played"


async def test_the_dice_to_set_aside_may_be_typed_without_their_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/farkle keep a c d` is `dice:a c d`: the set of dice is one value, as its menu sends
    it. Before, only the first die was sent and the others were dropped without a word."""
    service = await Service.open(f"sqlite+aiosqlite:///{tmp_path / 'k.db'}", computer_delay=0.0)
    console = Console(service, ConsoleClock(), tmp_path / "img", io.StringIO())
    sent: list[dict[str, Any]] = []

    async def act(actor: Any, place: Any, game: str, command: str, args: dict[str, Any]) -> None:
        sent.append(args)

    monkeypatch.setattr(service, "act", act)
    await console.dispatch(console.actor("ana", None), "farkle", ["keep", "a", "c", "d"])
    await console.dispatch(console.actor("ana", None), "farkle", ["keep", "dice:a", "c"])
    assert sent == [{"dice": "a c d"}, {"dice": "a c"}]
    await service.close()


async def test_a_lobby_command_typed_wrong_is_answered_with_the_command_as_it_is_written(
    tmp_path: Path,
) -> None:
    """Play-test: `/yo avisos:md` (the name is aviso) showed the settings unchanged, with no
    word; `/partida repeticion partida:99` answered "No hay ninguna partida  en este
    servidor", the number missing; `/partida nueva` "No existe el juego «»". `/game rules`
    alone still lists the games, as it always has."""
    text = await _play(
        tmp_path,
        "@ana:es /yo avisos:md\n"
        "@ana:es /partida repeticion partida:99\n"
        "@ana:es /partida nueva\n"
        "@ana:es /partida historial 1 2\n"
        "@bob /game rules\n"
        "@ana:es /partida nueva farkle\n"
        "@ana:es /partida ajustes deshacer:quizá\n",
    )
    assert "ajustes [plazo:<…>]" in text and "[deshacer:<on|off>]" in text, text
    assert "desactivado deshacer" not in text, "a typo is not taken for off"
    assert "? «avisos» no es una opción de este comando. Escribe: /yo [aviso:<…>]" in text
    assert "? «partida» no es una opción de este comando. Escribe: /partida repeticion" in text
    assert "? Escribe: /partida nueva juego:<…>" in text
    assert "? Demasiados valores. Escribe: /partida historial [página:<…>]" in text
    assert "Tu configuración" not in text and "partida  en" not in text and "«»" not in text
    assert "Which game's rules?" in text


async def test_a_press_past_the_buttons_a_wait_typed_by_someone_and_a_game_by_its_name(
    tmp_path: Path,
) -> None:
    """Play-test: `/press 99` answered "That button belongs to an earlier phase or another
    game"; `@ana /wait 5m` was "Unknown command group /wait"; `/game rules game:Bad Bones`
    (the name Discord shows) was "There is no game called “Bad Bones”"."""
    text = await _play(
        tmp_path,
        "@ana /press 1\n"
        "@ana /game new badbones\n"
        "@ana /press 99\n"
        "@ana /wait 5m\n"
        '@ana /game rules game:"Bad Bones"\n'
        "@ana:es /partida añadirbot nivel:Difícil\n",
    )
    assert "earlier phase" not in text and "Unknown command group" not in text, text
    assert "? The last message has no buttons." in text
    assert "? /press N: the last message has buttons 1–3." in text
    assert "(time passes: 5m)" in text
    assert "There is no game called" not in text and "protect your tower" in text
    assert "🤖 Hard 1 ocupa un puesto." in text, "(the seat named in the channel's language)"


async def test_an_absurd_wait_is_refused_in_words_and_the_console_goes_on(tmp_path: Path) -> None:
    """Play-test: `/wait` with 400 digits killed the console with an OverflowError."""
    text = await _play(
        tmp_path, "/wait " + "9" * 400 + "\n/wait 99999999d\n/wait soon\n@alice /game status\n"
    )
    assert text.count("? /wait moves the clock at most 366 days at once.") == 2
    assert "? /wait takes a duration like 30s" in text
    assert "There is no game in this channel." in text, "the console still answers"


async def test_a_press_without_a_user_says_who_must_press(tmp_path: Path) -> None:
    """Play-test: a bare `/press 6` only printed the general hint."""
    text = await _play(tmp_path, "/press 6\n")
    assert "? Who types it? Write @user first: @alice /press …" in text


async def test_a_one_minute_deadline_without_a_reminder_is_accepted(tmp_path: Path) -> None:
    """Play-test: `/game settings deadline:1` was refused: the default 2-hour reminder was not
    shorter than the deadline. Now the reminder makes way, and the host is told."""
    text = await _play(
        tmp_path,
        "@alice /game new badbones\n"
        "@alice /game settings deadline:1\n"
        "@alice /game settings deadline:30\n"
        "@alice /game settings deadline:10 reminder:20\n",
    )
    assert "there is no reminder now" in text
    assert "Deadline for each move: 1 minutes; reminder 0 minutes before." in text
    # 30 minutes: the reminder (0) already fits, so nothing is said about it
    assert "Deadline for each move: 30 minutes; reminder 0 minutes before." in text
    assert "The reminder must be at least 0 minutes and shorter than the deadline." in text


async def test_two_runs_into_one_images_folder_keep_every_picture(tmp_path: Path) -> None:
    """Play-test: every run numbered its pictures from 0001 again and overwrote the last run's."""
    script = "@alice /game new badbones\n@bob /game join\n@alice /game start\n"
    first = await _play(tmp_path, script, db="one.db")
    earlier = sorted(p.name for p in (tmp_path / "img").iterdir())
    assert earlier == ["0001-badbones.png"] and "0001-badbones.png" in first
    second = await _play(tmp_path, script, db="two.db")
    assert "0002-badbones.png" in second
    assert sorted(p.name for p in (tmp_path / "img").iterdir()) == [
        "0001-badbones.png",
        "0002-badbones.png",
    ]


async def test_a_player_named_by_mention_is_shown_by_name(tmp_path: Path) -> None:
    """Play-test: kicking `@dora` before dora typed anything, or by a mention of her id, must
    name her, not show a number. Dora joins in one run; the next run kicks her by mention."""
    import zlib

    await _play(tmp_path, "@alice /game new badbones\n@dora /game join\n")
    dora = zlib.crc32(b"dora") + 1000
    text = await _play(
        tmp_path, f"@alice /game kick player:<@{dora}>\n@alice /game kick player:@erin\n"
    )
    assert "dora was removed from the game." in text
    assert str(dora) not in text
    assert "That user is not playing in this game." in text  # erin, never seen: refused


THREADS = """\
@alice /game new tiny rounds:1
@bob#1 /game join
@alice /game new tiny rounds:1
@carol#2 /game join
@alice#1 /game start
@alice /game status
@alice#1 /tiny bid 3
@bob#1 /tiny bid 1
@alice#1 /tiny take
@bob#1 /tiny pass
/wait 2h
"""


@pytest.mark.usefixtures("tiny")
async def test_threads_and_edits_in_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    code = await run_console(
        f"sqlite+aiosqlite:///{tmp_path / 't.db'}",
        tmp_path / "img",
        io.StringIO(THREADS),
        out,
        threads=True,
    )
    text = out.getvalue()
    assert code == 0
    assert "[#thread 1 «Tiny · alice»] (a thread from №1" in text
    assert "[#1 ✎ №1]" in text and "2/4: alice, bob" in text, "the lobby, edited in place"
    assert "There are 2 games here; use their threads: #thread 1" in text
    assert "[#thread 1 «Tiny · alice» ✎ №3] ✅ alice is ready." in text
    assert "[#1 №" in text and "in #thread 1 «Tiny · alice»: 🏆 Winner: alice" in text
    assert "[#thread 1 «Tiny · alice»] (archived)" in text


HELP_AND_MINE = """\
@ana:es /help
@ana:es /help farkle
@tom /tiny new rounds:4
@tom /game mine
@ana:es /game mine
"""


@pytest.mark.usefixtures("tiny")
async def test_help_and_mine_in_the_console(tmp_path: Path) -> None:
    out = io.StringIO()
    code = await run_console(
        f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
        tmp_path / "img",
        io.StringIO(HELP_AND_MINE),
        out,
    )
    text = out.getvalue()
    assert code == 0
    assert "`/partida nueva`" in text and "/farkle nueva" in text
    assert "rounds" in text and "opened" in text, "/tiny new takes the options"
    assert "(waiting for players): https://discord.com/channels/1/1" in text
    assert "No tienes ninguna partida abierta" in text


AFTER = """\
@alice /game new tiny rounds:1
@bob /game join
@alice /game start
@alice /tiny bid 3
@bob /tiny bid 1
@alice /tiny pass
@bob /tiny pass
@bob /game leaderboard tiny
@carol:es /game leaderboard game:tiny
@carol /game stats @alice
@bob /game stats
@bob /game history
@bob /press 1
@alice /game rematch
@bob /game rematch
"""


@pytest.mark.usefixtures("tiny")
async def test_ratings_history_and_rematch_in_the_console_and_the_rebuild_command(
    tmp_path: Path,
) -> None:
    from bot.cli import main

    url = f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"
    out = io.StringIO()
    assert await run_console(url, tmp_path / "img", io.StringIO(AFTER), out) == 0
    text = out.getvalue()
    assert "Ratings: alice" in text, "the closing message tells the change"
    assert "leaderboard on this server (page 1)" in text
    assert "1. alice" in text and "2. bob" in text
    assert "Clasificación de" in text, "each reader's language"
    assert "alice: jugadas 1, ganadas 1" in text and "bob: played 1, won 0" in text
    assert "• #1 Tiny" in text and "alice (+3.4), bob (−1.8)" in text, "the history"
    assert "[1] Replay #1" in text and "The whole game of Tiny (game 1)" in text
    assert "in pictures from the opening table to the end" in text, 'not "move by move"'
    assert "Seats, in the new order: bob, alice" in text and "Waiting for: bob." in text
    assert "▶️ Tiny has begun. 👥 bob, alice" in text, "both asked: the rematch began"
    # partida ratings rebuild: the same ratings from the stored games.
    os.environ["DATABASE_URL"] = url
    try:
        assert await asyncio.to_thread(main, ["ratings", "rebuild"]) == 0
    finally:
        del os.environ["DATABASE_URL"]
    again = io.StringIO()
    await run_console(url, tmp_path / "img", io.StringIO("@bob /game stats\n"), again)
    assert "bob: played 1, won 0" in again.getvalue()


def test_the_console_keeps_info_logs_out_of_the_game(tmp_path: Path) -> None:
    """`partida console` is a game on the terminal: no "level=INFO" line per command in it,
    unless asked for (`--log-level INFO`)."""
    import subprocess
    import sys

    script = "@alice /game new zvv\n@bob /game join\n"
    env = {k: v for k, v in os.environ.items() if k != "LOG_LEVEL"}
    env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"

    def play(*flags: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", *flags, "console", "--images", str(tmp_path)],
            input=script,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    quiet = play()
    assert "You joined the game" in quiet and "level=INFO" not in quiet
    assert "level=INFO" in play("--log-level", "INFO"), "asked for: there"


async def test_the_readmes_console_demo_plays_without_a_refusal(tmp_path: Path) -> None:
    """The lines the README shows a newcomer (its "Try it without Discord" block) all work,
    whoever the seed lets start."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Try it without Discord", 1)[1].split("```bash", 1)[1]
    lines = [line for line in block.split("```", 1)[0].splitlines() if line.startswith("@")]
    assert len(lines) >= 4
    for attempt in range(3):
        out = io.StringIO()
        url = f"sqlite+aiosqlite:///{tmp_path / f'demo{attempt}.db'}"
        code = await run_console(url, tmp_path / "img", io.StringIO("\n".join(lines)), out)
        text = out.getvalue()
        assert code == 0 and "⚠️" not in text, text
        assert text.count("✅ Recorded.") == 2, text


async def test_the_console_docs_threads_example_plays_as_written(tmp_path: Path) -> None:
    """docs/console.md's `--threads` example, whose lines opened a game of `tiny` (a test
    game, unknown to `partida console`): each line works and shows what the doc says."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "console.md").read_text("utf-8")
    block = doc.split("With `--threads`", 1)[1].split("```", 2)[1]
    typed = [line.split("→")[0].strip() for line in block.splitlines() if line.startswith("@")]
    shown = [line.split("→")[1].strip() for line in block.splitlines() if "→" in line]
    out = io.StringIO()
    url = f"sqlite+aiosqlite:///{tmp_path / 'threads.db'}"
    code = await run_console(
        url, tmp_path / "img", io.StringIO("\n".join(typed)), out, threads=True
    )
    text = out.getvalue()
    assert code == 0 and "⚠️" not in text, text
    assert not any(line.startswith("?") for line in text.splitlines()), text
    for said in shown:
        for part in said.split(" / "):
            assert part.rstrip("…").strip() in text, (part, text)


async def test_the_console_reads_spanish_as_discord_offers_it(tmp_path: Path) -> None:
    """`/ayuda`, `/help juego:`, option names with ñ and option values by their Spanish labels
    work in the console as they do on Discord, and `/wait` takes a compound duration."""
    script = "\n".join(
        [
            "@ana:es /ayuda juego:farkle",
            "@ana:es /help juego:zvv",
            "@ana:es /partida nueva juego:zvv tamaño:9",
            "@ana:es /partida cancelar",
            "@ana:es /fuse nueva dificultad:insano modo:relajado",
            "/wait 22h30m",
            "/wait 1d12h",
        ]
    )
    out = io.StringIO()
    url = f"sqlite+aiosqlite:///{tmp_path / 'es.db'}"
    assert await run_console(url, tmp_path / "img", io.StringIO(script), out) == 0
    text = out.getvalue()
    assert "Unknown command group" not in text and "⚠️" not in text, text
    assert "Todas las reglas: `/partida reglas juego:farkle`" in text, "/ayuda juego:farkle"
    assert "Todas las reglas: `/partida reglas juego:zvv`" in text, "/help juego:zvv"
    assert "Board size: 9" in text, "tamaño:9 is the size option"
    assert "Difficulty: Insane" in text, "insano is the insane difficulty"
    assert "Relaxed" in text, "relajado is the relaxed mode (its label: Relajado (sin reloj))"
    assert "(time passes: 22h30m)" in text and "(time passes: 1d12h)" in text


@pytest.mark.usefixtures("tiny")
async def test_the_console_looks_at_deadlines_only_when_one_may_be_due(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command that writes no deadline, before the soonest one is due, costs no look at the
    deadlines; a /wait past a deadline still plays it."""
    from bot.service import Service

    looks: list[int] = []
    run = Service.run_deadlines

    async def counted(self: Service, guild_id: int | None = None) -> Any:
        looks.append(1)
        return await run(self, guild_id)

    monkeypatch.setattr(Service, "run_deadlines", counted)
    text = await _play(
        tmp_path,
        "@alice /game mine\n@alice /game mine\n@alice /tiny new\n@bob /game join\n"
        "@alice /game settings deadline:10 reminder:0\n@alice /game start\n",
    )
    assert "The game has started." in text
    assert len(looks) == 1, "one first look; no command since wrote a deadline due yet"
    text = await _play(tmp_path, "/wait 11m\n", db="c.db")
    assert looks[1:] and "ran out of time" in text, "the default played"


async def test_input_that_is_not_utf8_stops_the_console_saying_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A script saved in Latin-1 (`partida console < notes.txt`): the console used to hang
    for ever, its reading thread dead on the UnicodeDecodeError; it plays the lines it could
    read (the text is decoded 8 KB at a time) and stops with exit code 2, saying why."""
    script = "@alice /game new badbones\n" + "# a comment\n" * 2000 + "@jos\xe9 /game join\n"
    stream = io.TextIOWrapper(io.BytesIO(script.encode("latin-1")), encoding="utf-8")
    out = io.StringIO()
    url = f"sqlite+aiosqlite:///{tmp_path / 'c.db'}"
    code = await asyncio.wait_for(run_console(url, tmp_path / "img", stream, out), 120)
    assert code == 2
    assert "You opened a game" in out.getvalue(), "the lines before were played"
    err = capsys.readouterr().err
    assert "cannot read the input after line" in err and "not UTF-8" in err, err


async def test_the_consoles_clock_leaves_the_discord_games_of_its_database_alone(
    tmp_path: Path,
) -> None:
    """``partida console`` run where the bot runs uses the bot's database (both default to
    DATABASE_URL, or partida.db here). Its ``/wait 25h`` moved its own clock and then ran every
    due deadline of the database: the Discord games' players were defaulted a day early, and
    their channels never told (the console printed the posts). It runs its own games' only."""
    from bot.service import Actor, Place, Service
    from bot.store import repository as repo

    url = f"sqlite+aiosqlite:///{tmp_path / 'partida.db'}"
    server = Place(1187654321098765432, 1087654321098765432)  # a Discord channel and server
    ana, ben = Actor(1287654321098765432, "Ana"), Actor(1287654321098765433, "Ben")
    bot = await Service.open(url, render=False)
    try:
        await bot.new_game(ana, server, "badbones", {})
        await bot.join(ben, server)
        assert (await bot.start(ana, server)).ok
        async with bot.sessions() as session:
            row = await repo.open_game(session, server.channel_id)
            assert row is not None
            game, version = row.id, row.version
            before = await repo.deadlines_of(session, game)
    finally:
        await bot.close()

    out = io.StringIO()
    script = "@alice /game new badbones\n@bob /game join\n@alice /game start\n/wait 25h\n"
    assert await run_console(url, tmp_path / "img", io.StringIO(script), out) == 0
    assert "computer" in out.getvalue().lower() or "⏰" in out.getvalue(), "its own game ran"
    assert "Ana" not in out.getvalue() and "Ben" not in out.getvalue()

    bot = await Service.open(url, render=False)
    try:
        async with bot.sessions() as session:
            after = await repo.game_by_id(session, game)
            assert after is not None and after.version == version, "the Discord game is as it was"
            assert (await repo.deadlines_of(session, game)).keys() == before.keys()
    finally:
        await bot.close()
