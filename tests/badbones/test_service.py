"""Bad Bones through the service, as the channel and each player read it in the console."""

from __future__ import annotations

import io

import pytest

from bot.console import Console


def channel(text: str) -> str:
    """What the channel reads: the public posts and edits, without private answers and
    without the button labels (every tower is offered to everyone)."""
    blocks, keep = [], False
    for line in text.splitlines():
        if line.startswith("["):
            keep = not line.startswith("[→")
        if keep and "buttons (/press N)" not in line:
            blocks.append(line)
    return "\n".join(blocks)


async def test_the_towers_picked_stay_secret_until_every_hero_has_picked(
    console: tuple[Console, io.StringIO],
) -> None:
    con, out = console
    for line in (
        "@ana /game new badbones cooperative:true",
        "@beto /game join",
        "@cora /game join",
        "@ana /game addbot",
        "@ana /game start",  # the computer picks at once
        "@beto /badbones start square:D4",
        "@ana /badbones start square:B4",
    ):
        await con.line(line)
    before = channel(out.getvalue())
    assert "✅ 🤖 Normal 1 is ready." in before and "✅ beto is ready." in before
    assert "starts on the tower" not in before, "nobody's pick is told before the last one"
    assert "D4" not in before and "B4" not in before

    mark = len(out.getvalue())
    await con.line("@cora /badbones start square:D2")
    after = channel(out.getvalue()[mark:])
    for told in (
        "🤖 Normal 1's hero starts on the tower B2.",
        "beto's hero starts on the tower D4.",
        "ana's hero starts on the tower B4.",
        "cora's hero starts on the tower D2.",
        "Round 1 begins.",
    ):
        assert told in after


async def test_your_own_pick_is_on_your_board_and_nobody_elses(
    console: tuple[Console, io.StringIO],
) -> None:
    from bot.service.match import Match
    from bot.store import repository as repo
    from rules.badbones.actions import Start

    con, out = console
    for line in (
        "@ana /game new badbones cooperative:true",
        "@beto /game join",
        "@ana /game start",
        "@beto /badbones start square:D4",
    ):
        await con.line(line)
    async with con.service.sessions() as session:
        row = await repo.open_game(session, 1)
        assert row is not None
        match = Match.of(row)
    engine, state = match.engine, match.state
    assert engine.view(state, 1)["boards"][1]["hero"] == "D4"
    assert engine.view(state, 1)["my_submission"] == {"type": "start", "square": "D4"}
    assert engine.view(state, None)["boards"][1]["hero"] == "B2", "the public board: not yet"
    assert engine.view(state, 0)["boards"][1]["hero"] == "B2"
    refused = "@beto /badbones start square:B2"
    await con.line(refused)
    assert "You have picked your tower already" in out.getvalue()
    engine.check(state, 0, Start("B4"))  # ana has yet to pick hers: allowed (no RulesError)


async def test_a_standing_target_is_a_rival_never_your_own_seat(
    console: tuple[Console, io.StringIO],
) -> None:
    """beto is seat 2: "to the rival you choose" offers him seats 1 and 3, as the live
    question does, and says so in his language."""
    con, out = console
    for line in ("@ana /game new badbones", "@beto:es /game join", "@cora /game join"):
        await con.line(line)
    await con.line("@ana /game start")
    mark = len(out.getvalue())
    await con.line("@beto:es /badbones preferir eleccion:salida valor:2")
    said = out.getvalue()[mark:]
    assert "No puedes enviarte tus propios esqueletos: elige a un rival" in said
    assert "A partir de ahora" not in said
    mark = len(out.getvalue())
    await con.line("@beto:es /badbones preferir eleccion:salida valor:7")
    said = out.getvalue()[mark:]
    assert "«7» no es posible aquí" in said and "1, 3." in said and "2" not in said
    mark = len(out.getvalue())
    await con.line("@ana /badbones prefer choice:catapult value:1")
    assert "You cannot send your own skeletons to yourself" in out.getvalue()[mark:]
    mark = len(out.getvalue())
    await con.line("@beto:es /badbones preferir eleccion:salida valor:3")
    assert (
        "A partir de ahora, tu salida por arriba envía los esqueletos a cora."
        in out.getvalue()[mark:]
    )


async def test_a_spanish_player_reads_ways_and_ask_auto_in_spanish(
    console: tuple[Console, io.StringIO],
) -> None:
    """Play-test: `preferir eleccion:dragón valor:O` confirmed "dragón: W", and a refusal
    listed "ask, auto, N, E, S, W". Ana reads Spanish everywhere, the English player English."""
    con, out = console
    for line in ("@ana:es /game new badbones", "@beto /game join", "@ana:es /game start"):
        await con.line(line)
    mark = len(out.getvalue())
    await con.line("@ana:es /badbones preferir eleccion:dragón valor:O")
    assert "A partir de ahora, dragón: O." in out.getvalue()[mark:]
    mark = len(out.getvalue())
    await con.line("@ana:es /badbones preferir eleccion:dragón valor:X")
    assert "usa uno de preguntar, automático, N, E, S, O." in out.getvalue()[mark:]
    mark = len(out.getvalue())
    await con.line("@ana:es /badbones preferir eleccion:catapulta valor:automático")
    assert "la computadora decide por ti las preguntas de catapulta" in out.getvalue()[mark:]
    mark = len(out.getvalue())
    await con.line("@beto /badbones prefer choice:dragon value:X")
    assert "use one of ask, auto, N, E, S, W." in out.getvalue()[mark:]


def test_the_private_board_names_the_preferred_way_in_the_readers_language() -> None:
    from render.badbones import _pref_lines
    from rules.badbones import GAME
    from tests.badbones.helpers import position

    state = position("prefs dragon=W catapult=auto", "")
    view = GAME.view(state, 0)
    assert "dragón: O" in " ".join(_pref_lines(view, "es", 2000))
    assert "catapulta: automático" in " ".join(_pref_lines(view, "es", 2000))
    assert "dragon: W" in " ".join(_pref_lines(view, "en", 2000))


async def test_a_phase_3_weapon_question_reaches_its_owner_and_the_answer_replays(
    console: tuple[Console, io.StringIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    """D20: ana's hero on B2 kills B1's three at once in phase 3; her crossbow is asked for
    there, while C2's skeleton has not yet walked into her tower. The channel names the weapon
    and the command; her answer shoots it; the log replays to the stored game."""
    from bot.store import repository as repo
    from rules.badbones import GAME
    from rules.badbones.state import TRAP
    from tests.badbones.helpers import position

    def at_the_traps(seats: int, options: dict[str, object], seed: int) -> object:
        text = "weapon crossbow\nhero B2\nB1 S*3\nC2 S"
        return position(text, "", stage=TRAP, options={"advanced": True})

    monkeypatch.setattr(GAME, "setup", at_the_traps)
    con, out = console
    for line in ("@ana /game new badbones", "@beto:es /game join", "@ana /game start"):
        await con.line(line)
    await con.line("@ana /badbones nothing")
    mark = len(out.getvalue())
    await con.line("@beto:es /badbones nada")
    asked = channel(out.getvalue()[mark:])
    assert (
        "Question 1: your hero on B2 has just destroyed 3 skeletons at once: use your crossbow now,"
        " before the other skeletons move (`/badbones weapon target:…`: C2), or skip" in asked
    )
    mark = len(out.getvalue())
    await con.line("@ana /badbones weapon target:c2")
    said = out.getvalue()[mark:]
    assert "✅" in said.splitlines()[0]  # told to ana only: her answer is taken
    assert "ana's crossbow shoots a skeleton on C2." in channel(said)
    assert "tower" not in channel(said).lower(), "C2's skeleton never reached the tower"
    async with con.service.sessions() as session:
        row = await repo.open_game(session, 1)
        assert row is not None and row.state is not None
        assert row.state["boards"][0]["floors"] == 4
        assert await con.service.state_from_log(row.id) == row.state


async def test_a_question_button_that_is_not_the_pressers_answer_says_why_not_out_of_date(
    console: tuple[Console, io.StringIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Play-test: bob's catapult and cara's are asked at once ("at whose cemetery? 3, 1" and
    "1, 2"): one row of buttons 3, 1, 2. cara pressed "3", her question open, and read "That
    button belongs to an earlier phase or another game"; she is told her answers instead."""
    from rules.badbones import GAME
    from rules.badbones.state import TRAP
    from tests.badbones.helpers import position

    def at_the_traps(seats: int, options: dict[str, object], seed: int) -> object:
        return position("", "D2 catapult\nD1 S", "B2 catapult\nA2 E", stage=TRAP)

    monkeypatch.setattr(GAME, "setup", at_the_traps)
    con, out = console
    for line in ("@ana /game new badbones", "@bob /game join", "@cara /game join"):
        await con.line(line)
    await con.line("@ana /game start")
    for player in ("ana", "bob", "cara"):
        await con.line(f"@{player} /badbones nothing")
    asked = out.getvalue().splitlines()
    assert any("@bob: Question 1: your catapult on D2" in line for line in asked)
    row = next(line for line in reversed(asked) if "buttons (/press N)" in line)
    bobs = row.split("] 3 ")[0].split("[")[-1]  # the number of the button "3"
    mark = len(out.getvalue())
    await con.line(f"@cara /press {bobs}")
    said = out.getvalue()[mark:]
    assert "earlier phase" not in said, said
    assert "use one of 1, 2" in said and "✅" not in said, said
    await con.line(f"@bob /press {bobs}")
    assert "✅" in out.getvalue()[mark:], "bob's answer is taken"
