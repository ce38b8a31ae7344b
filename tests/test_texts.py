"""Every text a registered game can show exists in English and Spanish (docs/i18n.md, "How keys
are checked").

A key is checked where it is reached: ``i18n.watching()`` collects every key ``i18n.t`` was
asked for in a language that lacks it. Each registered game is played through the service (no
Discord) from a seed, in each language, with its pictures drawn, its deadlines run, its rules,
topics, history and board read; each game's engine also plays random games over every seat
count and option, every event and prompt translated. Keys that play may never reach are
enumerated from the game's data (``tests/support/texts.py``): its declarations, the keys
written in its sources, and the key families its code builds with f-strings.
"""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path
from typing import Any

import pytest

import i18n
from bot.service import Actor, Outgoing, Place, Reply, Service
from bot.service.compose import pending_text
from bot.service.lobby_commands import listing
from bot.service.match import Match
from bot.service.narrate import event_text
from bot.service.text import Name, phrase
from bot.store import repository as repo
from i18n import LANGUAGES, catalogue, t, watching
from render import has_renderer
from rules.core import game_names, get_game
from rules.core.play import random_game
from tests.conftest import Clock
from tests.games.pig import PIG, TEXTS
from tests.support.fingerprint import option_sets
from tests.support.registered import generic_games, kept_games, registered
from tests.support.texts import (
    FAMILIES,
    PENDING_KINDS,
    bot_families,
    declared,
    family_keys,
    literal_keys,
    sources,
    told_patterns,
)

MOVES = 80  # moves through the service, per game and language
SEEDS = 1  # random engine games per seat count and option set
STEPS = 300  # steps of each (a prompt or event not reached by then is reached by another)

Misses = set[tuple[str, str]]


def absent(keys: set[str]) -> list[str]:
    """``keys`` that a language lacks, as ``lang:key``."""
    return sorted(f"{lang}:{k}" for lang in LANGUAGES for k in keys if k not in catalogue(lang))


def seen(reply: Reply) -> int:
    """Read everything a reply says (it is composed already; reading costs nothing more); how
    many pictures it carries (drawn: their texts were translated too)."""
    pictures = 0
    for message in [reply.private, *(o.message for o in reply.public)]:
        if message is not None:
            str(message.whole)
            for button in message.buttons:
                str(button.label)
            pictures += message.image is not None
    return pictures


def seen_all(posted: list[Outgoing]) -> None:
    for outgoing in posted:
        str(outgoing.message.whole)


async def played(game: str, lang: str, tmp_path: Path, seed: int, moves: int = MOVES) -> Misses:
    """The keys reached but missing while ``game`` is played through the service in ``lang``:
    random legal moves typed as commands, a look at the board and the status now and then,
    deadlines run out, and the rules, topics and history read."""
    engine = get_game(game)
    clock = Clock()
    rng = random.Random(seed)
    seats = max(engine.min_seats, min(2, engine.max_seats))
    players = [Actor(700 + i, f"P{i}", locale=lang) for i in range(seats)]
    here = Place(900, 10, lang)
    with watching() as misses:
        service = await Service.open(
            f"sqlite+aiosqlite:///{tmp_path / f'{game}-{lang}.db'}",
            clock=clock,
            render=True,
            computer_delay=0.0,
        )
        try:
            assert (await service.new_game(players[0], here, game, {})).ok
            for player in players[1:]:
                assert (await service.join(player, here)).ok
            pictures = seen(await service.start(players[0], here))
            for step in range(moves):
                async with service.sessions() as session:
                    row = await repo.open_game(session, here.channel_id)
                if row is None or row.state is None:
                    break
                match = Match.of(row)
                pending = engine.pending(match.state)
                if not pending:
                    break
                seat = rng.choice(sorted(pending))
                mapped = engine.to_command(rng.choice(engine.legal_actions(match.state, seat)))
                if mapped is not None:
                    pictures += seen(await service.act(players[seat], here, game, *mapped))
                if step % 10 == 3:
                    seen(await service.status(players[seat], here))
                    seen(await service.board(players[seat], here))
                if step == moves // 2:  # a long wait: reminders, then the defaults played
                    clock.now += 2 * 24 * 3600
                    seen_all(await service.run_deadlines())
            seen(await service.history(players[0], here))
            seen(await service.rules(players[0], here, game))
            seen(await service.help(players[0], here, game, listing))
            for topic in engine.pieces():
                seen(await service.rules(players[0], here, game, topic))
            assert pictures or not has_renderer(game), "the table was drawn"
        finally:
            await service.close()
    return set(misses)


def swept(game: str) -> Misses:
    """The keys reached but missing in each language by the engine's random games: every
    event told and every prompt asked, over every seat count and option set one away from the
    defaults. Each game is played once and told in every language (the same games would be
    played again for each)."""
    engine = get_game(game)
    with watching() as misses:
        for seats in range(engine.min_seats, engine.max_seats + 1):
            names = [Name(f"P{i}") for i in range(seats)]
            for options in option_sets(engine):
                for seed in range(SEEDS):
                    try:
                        state = engine.new_game(seats, options, seed)
                    except Exception:  # an option that does not fit this seat count
                        continue
                    asked: set[str] = set()
                    rng = random.Random(seed)
                    for _ in range(STEPS):
                        pending = engine.pending(state)
                        if not pending:
                            break
                        for item in pending.values():
                            if item.kind not in asked:
                                asked.add(item.kind)
                                for lang in LANGUAGES:
                                    pending_text(game, item, names, lang)
                        seat = rng.choice(sorted(pending))
                        action = rng.choice(engine.legal_actions(state, seat))
                        # In place: no earlier state of the game is looked at again.
                        for event in engine.play(state, seat, action, 0.0):
                            for lang in LANGUAGES:
                                event_text(event, names, lang)
                    result = engine.result(state)
                    if result is not None and result.summary is not None:
                        for lang in LANGUAGES:
                            event_text(result.summary, names, lang)
    return set(misses)


# ------------------------------------------------------------------------------ the tests


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", generic_games())
async def test_every_text_a_game_played_through_the_service_reaches_exists(
    game: str, lang: str, tmp_path: Path
) -> None:
    assert not sorted(await played(game, lang, tmp_path, seed=1))


@pytest.mark.parametrize("game", generic_games())
def test_every_event_and_prompt_of_random_games_has_a_text(game: str) -> None:
    assert not sorted(swept(game))


@pytest.mark.parametrize("game", generic_games())
def test_every_text_a_game_declares_exists(game: str) -> None:
    """Commands, parameters, steps, buttons, options and their values, pieces and topics."""
    assert not absent(declared(game))


@pytest.mark.parametrize("game", generic_games())
def test_every_key_written_in_a_games_sources_exists(game: str) -> None:
    assert not absent(literal_keys(game))


@pytest.mark.parametrize("game", generic_games())
def test_every_key_family_built_from_game_data_is_enumerated_and_exists(game: str) -> None:
    """A prompt, event or refusal whose key is an f-string is enumerated in FAMILIES, with
    the data it is built from; every key of every family exists."""
    unlisted = told_patterns(game) - set(FAMILIES)
    assert not unlisted, f"list these key families in tests/support/texts.py: {unlisted}"
    families = family_keys(game)
    assert not absent({key for keys in families.values() for key in keys})


@pytest.mark.parametrize("game", generic_games())
def test_every_pending_kind_has_a_prompt(game: str) -> None:
    """Pending kinds written where the ``Pending`` is made, and those computed from the state
    (which the game lists in PENDING_KINDS)."""
    written, computed = _pendings(game)
    if computed:
        assert game in PENDING_KINDS, f"{game} computes pending kinds: list them in texts.py"
    kinds = {f"{game}.pending.{kind}" for kind in written}
    kinds |= set(PENDING_KINDS[game]()) if game in PENDING_KINDS else set()
    assert kinds and not absent(kinds)


@pytest.mark.parametrize("game", game_names())
def test_a_spanish_text_names_each_option_as_a_spanish_player_types_it(game: str) -> None:
    """Play-test: the Spanish rules of Bad Bones said "(`heroic`: y limpia todo)", an option
    Discord offers Spanish players as `heroico`."""
    spanish = [text for key, text in catalogue("es").items() if key.startswith(f"{game}.")]
    for spec in get_game(game).option_specs:
        named = t(f"{game}.option_name.{spec.name}", "es")
        if named != spec.name:
            said = [text for text in spanish if re.search(rf"`{spec.name}\b", text)]
            assert not said, f"`{spec.name}` is `{named}` in Spanish: {said[0][:200]}"


def _pendings(game: str) -> tuple[set[str], bool]:
    """The pending kinds written as strings in ``Pending(…)`` calls, and whether any is not."""
    import ast

    written: set[str] = set()
    computed = False
    for path in sources(game):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Pending":
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    written.add(first.value)
                else:
                    computed = True
    return written, computed


def test_every_text_the_bot_builds_from_its_own_data_exists() -> None:
    assert not absent(bot_families())


# ---------------------------------------------------------------- the checks can fail


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Delete keys from the loaded catalogues for one test (put back after it)."""

    def remove(key: str, *langs: str) -> None:
        for lang in langs or LANGUAGES:
            monkeypatch.delitem(catalogue(lang), key)

    return remove


async def test_a_text_deleted_from_one_catalogue_fails_the_played_check(
    without: Any, tmp_path: Path
) -> None:
    game = game_names()[0]
    # The first prompt a table shows: the game's first pending kind.
    engine = get_game(game)
    state = engine.new_game(max(engine.min_seats, min(2, engine.max_seats)), {}, 1)
    kind = next(iter(engine.pending(state).values())).kind
    key = f"{game}.pending.{kind}"
    without(key, "es")
    assert (key, "es") in await played(game, "es", tmp_path, seed=1, moves=2)
    assert not await played(game, "en", tmp_path, seed=1, moves=2), "English still has it"


def test_a_text_deleted_from_both_catalogues_fails_the_static_checks(without: Any) -> None:
    game = game_names()[0]
    command = get_game(game).commands[0].name
    without(f"{game}.command_name.{command}")
    assert f"es:{game}.command_name.{command}" in absent(declared(game))
    some_event = min(k for k in literal_keys(game) if ".event." in k)
    without(some_event)
    assert f"en:{some_event}" in absent(literal_keys(game))
    family, keys = next(iter(family_keys(game).items()))
    one = min(keys)
    without(one)
    assert f"en:{one}" in absent(family_keys(game)[family])


def test_an_event_deleted_from_both_catalogues_fails_the_random_games_check(
    without: Any,
) -> None:
    game = game_names()[0]
    engine = get_game(game)
    _, _, events = random_game(engine, engine.min_seats, 1)
    key = events[0].key
    without(key)
    assert (key, "en") in swept(game)


async def test_a_small_game_passes_and_each_text_deleted_from_it_is_caught(
    tmp_path: Path,
) -> None:
    """Pig, a game of two buttons, played with its texts: nothing missing; without any one of
    them, in one language, the check names that very key (the issue's play-test deleted them
    all and every generic test still passed)."""
    with registered(PIG, TEXTS):
        assert not await played("pig", "es", tmp_path, seed=3, moves=30)
        assert not absent(declared("pig"))
        reached = {"pig.pending.turn", "pig.button.roll", "pig.event.rolled", "pig.name"}
        for n, key in enumerate(sorted(reached)):
            text = catalogue("es").pop(key)
            (tmp_path / str(n)).mkdir()
            try:
                misses = await played("pig", "es", tmp_path / str(n), seed=3, moves=30)
                missing_declared = absent(declared("pig"))
            finally:
                catalogue("es")[key] = text
            assert (key, "es") in misses or f"es:{key}" in missing_declared, key


@pytest.mark.parametrize("game", list(kept_games()))
def test_every_text_of_a_test_game_is_one_a_check_requires(game: str) -> None:
    """Each text in a test game's folder (Pig's, Nim's ``<lang>.toml``) is a key one of the
    checks above requires, in both languages: deleting any of them fails a test, and none is
    dead weight."""
    texts = kept_games()[game].TEXTS
    written, _ = _pendings(game)
    required = declared(game) | literal_keys(game) | {f"{game}.pending.{k}" for k in written}
    required |= {key for keys in family_keys(game).values() for key in keys}
    assert set(texts) == required
    assert all(set(by_lang) == set(LANGUAGES) for by_lang in texts.values())


# ---------------------------------------------------------------- production: the fallback


def test_a_missing_text_reads_as_english_or_as_words_never_as_its_key(without: Any) -> None:
    without("core.error.not_your_turn", "es")
    assert t("core.error.not_your_turn", "es") == t("core.error.not_your_turn", "en")
    assert t("pig.pending.turn", "es") == "Turn"
    assert t("pig.event.brawl_won", "en", seat="Ana") == "Brawl won"
    assert "pig." not in str(phrase("pig.pending.turn", "en"))


def test_a_missing_text_is_logged_once_per_key_and_language(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(i18n, "_logged", set())
    with caplog.at_level(logging.WARNING, logger="i18n"):
        for _ in range(3):
            t("pig.pending.turn", "es")
            t("pig.pending.turn", "en")
            t("core.error.not_your_turn", "es")  # (there: never logged)
    logged = [r.getMessage() for r in caplog.records if r.name == "i18n"]
    assert logged == [
        "message 'pig.pending.turn' is missing from the es catalogue",
        "message 'pig.pending.turn' is missing from the en catalogue",
    ]
    assert all(r.levelno == logging.WARNING for r in caplog.records if r.name == "i18n")


def test_the_log_of_missing_texts_is_bounded(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(i18n, "_logged", set())
    monkeypatch.setattr(i18n, "_LOGGED_AT_MOST", 5)
    with caplog.at_level(logging.WARNING, logger="i18n"), watching() as misses:
        for n in range(20):
            t(f"pig.pending.p{n}", "en")
    assert len([r for r in caplog.records if r.name == "i18n"]) == 5
    assert len(i18n._logged) == 5
    assert len(misses) == 20, "a watching test still hears of every miss"
