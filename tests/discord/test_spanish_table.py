"""A Spanish table: a Spanish server and Spanish players see no English option, choice,
direction, die or item in what the bot sends (the lobby, the phase messages, their buttons and
private answers)."""

from __future__ import annotations

import re

import pytest

from bot.service.shown import _names
from rules import game_names, get_game
from tests.discord.conftest import Bots
from tests.discord.test_games import latest_with_components
from tests.fakediscord import FakeDiscord

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


@pytest.mark.parametrize("game", game_names())
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
    for _ in range(STEPS):
        phase = latest_with_components(fake)
        if phase is None:
            break
        awaited = [by_id[u] for u in phase.allowed_mentions.get("users", []) if u in by_id]
        label = next(iter(phase.buttons))
        answers.append(await (await fake.click((awaited or players)[0], phase, label)).result())
        await fake.idle()
    said = [s.content for s in [*fake.in_channel(), *answers]]
    labels = [label for s in fake.in_channel() for label in s.buttons]
    assert labels, "the phase messages had buttons"
    problems = {text: leftovers(text, words) for text in said + labels}
    assert not {t: p for t, p in problems.items() if p}, problems
