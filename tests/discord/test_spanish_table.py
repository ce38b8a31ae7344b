"""A Spanish table: a Spanish server and Spanish players see no English option, choice,
direction, die or item in what the bot sends (the lobby, the phase messages, their buttons and
private answers)."""

from __future__ import annotations

import re

import pytest

from bot.service.shown import _names
from rules import get_game
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord
from tests.fakediscord.server import Sent
from tests.support.registered import generic_games

STEPS = 6


def english_only(game: str) -> set[str]:
    """The English names of every named parameter value that Spanish names otherwise."""
    engine = get_game(game)
    out: set[str] = set()
    for param in {p.name for c in engine.commands for p in c.params}:
        for value, names in _names(game, param).items():
            if names.get("es") not in (None, names.get("en", value)):
                out |= {value, names.get("en", value)}
    return out


def leftovers(text: str, words: set[str]) -> list[str]:
    found = [w for w in words if re.search(rf"(?<![\w/]){re.escape(w)}(?![\w/])", text)]
    return found + [w for w in ("True", "False", "=") if w in text]


@pytest.mark.usefixtures("quick_windows")
@pytest.mark.parametrize("game", generic_games())
async def test_a_spanish_table_reads_spanish(bots: Bots, game: str) -> None:
    fake: FakeDiscord = bots.fake
    fake.guild_locale = "es-ES"
    await bots.start()
    engine = get_game(game)
    seats = max(engine.min_seats, min(2, engine.max_seats))
    players = [fake.add_user(600 + i, f"Jugador{i}", locale="es-ES") for i in range(seats)]
    by_id = {p.id: p for p in players}
    # ZvV rolls for a player by itself (autoroll): without it, its Roll button is read too.
    options = {"autoroll": False} if game == "zvv" else {}
    answers = [await (await fake.slash(players[0], f"{game} new", **options)).result()]
    for player in players[1:]:
        answers.append(await (await fake.slash(player, "game join")).result())
    answers.append(await (await fake.slash(players[0], "game start")).result())
    await fake.idle()
    # (A game whose values read the same in both languages, or that has no parameters, has
    # no such words: its table is still read for Python's True, False and key=value.)
    words = english_only(game)
    seen: list[Sent] = []  # every state of the phase messages, its buttons and menus
    for _ in range(STEPS):
        phase = next((s for s in reversed(fake.in_channel()) if s.components), None)
        if phase is None:
            break
        seen.append(phase)
        awaited = [by_id[u] for u in phase.allowed_mentions.get("users", []) if u in by_id]
        player = (awaited or players)[0]
        if phase.buttons:
            exchange = await fake.click(player, phase, next(iter(phase.buttons)))
        else:  # a move chosen from a menu under the phase message (move-buttons)
            menu = phase.selects[0]
            values = [o["value"] for o in menu["options"][: max(1, menu.get("min_values", 1))]]
            exchange = await fake.choose(player, phase, menu["custom_id"], values)
        answers.append(await exchange.result())
        await fake.idle()
    shown = [*seen, *fake.in_channel(), *answers]
    said = [s.content for s in shown]
    labels = [label for s in shown for label in s.buttons] + [
        text
        for s in shown
        for menu in s.selects
        for text in [menu.get("placeholder", ""), *(o["label"] for o in menu["options"])]
    ]
    # (A game of typed commands only has no buttons nor menus to read: its messages still are.)
    offered = any(c.button or c.select or c.steps for c in engine.commands)
    assert labels or not offered, "the phase messages had buttons or menus"
    problems = {text: leftovers(text, words) for text in said + labels}
    assert not {t: p for t, p in problems.items() if p}, problems
