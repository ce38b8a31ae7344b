"""A table that keeps quiet: whole games of every title and variant through the fake Discord
(tests/fakediscord), played by random legal moves, and what the channel got for them.

Per game and variant, two runs, the players choosing as the normal computer level would:

- **patient**: three players (one in solo games), each waiting out the edit delay, up to
  three of them answering at once (their clicks race, on the table as each saw it). Printed
  per turn (the engine's ``turn_key``: a player's turn; a phase in Bad Bones; a round in
  FUSE): posts, pictures (posts and edits that bring one) and pings; the most pings one
  player got in one turn; per round too for Bad Bones and FUSE; the calls Discord's global
  rate limit counts (channel posts and edits: an interaction's own answer is not counted),
  pictures drawn as the bot draws them;
  and the buttons refused as stale when several answered at once.
- **quick**: two players who answer as soon as the bot has answered, with a computer seat
  (the bot's own delay, 1.5 s): the most posts in any 5 s in the channel.

Targets (PASS/FAIL): at most 1.2 posts a turn and 1 ping per player a turn (Bad Bones: a
phase), no stale-button refusal with three answering at once, at most 5 posts in any 5 s.

``python -m bench table`` (environment: ``BENCH_TABLE_GAMES`` = games, default all four).
Some rows only: ``python -m bench table --only=badbones`` (a game's variants), or
``--only=fuse:relaxed,badbones:chiefs`` (a game's variants whose label holds the words after the
colon); ``--only`` takes ``=``, since a bare game name after ``table`` runs that game's own bench.
"""

from __future__ import annotations

import asyncio
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from bench.bench_rest import one
from rules.core import get_game
from tests.fakediscord.table import Counts

POSTS_PER_TURN = 1.2
PINGS_PER_PLAYER = 1
MOST_IN_5S = 5

# Every title and variant, bounded so that random play ends: (game, label, options, seats).
VARIANTS: tuple[tuple[str, str, dict[str, Any], int], ...] = (
    ("badbones", "competitive", {}, 3),
    ("badbones", "advanced, chiefs", {"advanced": True, "chiefs": True}, 3),
    ("badbones", "cooperative", {"cooperative": True}, 3),
    ("badbones", "solo", {"solo_rounds": 4}, 1),
    ("farkle", "standard", {}, 3),
    ("farkle", "legend 5", {"legend": "5"}, 3),
    ("fuse", "relaxed", {"mode": "relaxed", "rounds": 6}, 3),
    ("fuse", "live", {"mode": "live", "rounds": 6}, 3),
    ("fuse", "solo", {"mode": "relaxed", "rounds": 6}, 1),
    ("zvv", "standard", {"size": 9, "round_limit": 12}, 2),
    ("zvv", "4 players, bonus roll", {"round_limit": 8, "extra_roll": "bonus"}, 4),
)
# The players choose as the normal computer does (random legal moves are not how people play:
# they declare a Farkle brawl two turns in three, and each brawl asks a second player).
LEVEL = "normal"
GAMES = os.environ.get("BENCH_TABLE_GAMES", "badbones farkle fuse zvv").split()


def chosen(only: str | None) -> list[tuple[str, str, dict[str, Any], int]]:
    """The variants to play: those of ``BENCH_TABLE_GAMES``, or those ``only`` names
    (``game`` or ``game:words of its label``, comma-separated)."""
    if not only:
        return [v for v in VARIANTS if v[0] in GAMES]
    wanted = [part.strip().partition(":") for part in only.split(",") if part.strip()]
    picked = [
        v
        for v in VARIANTS
        if any(v[0] == game and words.strip() in v[1] for game, _, words in wanted)
    ]
    if not picked:
        raise SystemExit(f"--only={only}: no such variant ({', '.join(_labels())})")
    return picked


def _labels() -> list[str]:
    return [f"{game}:{label}" for game, label, _, _ in VARIANTS]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def report(game: str, label: str, patient: Counts, quick: Counts | None) -> list[bool]:
    """Print one variant's figures; returns its targets met or not."""
    unit = "phase" if game == "badbones" else "round" if game == "fuse" else "turn"
    posts = patient.per_turn(patient.game_posts)
    print(
        f"{game:8s} {label:22s} {patient.moves:4d} moves, {patient.turns:4d} {unit}s · a {unit}: "
        f"posts {posts:.2f}, pictures {patient.per_turn(patient.pictures):.2f}, "
        f"pings {patient.per_turn(patient.game_pings):.2f}, "
        f"counted calls {patient.per_turn(patient.game_counted):.2f} · "
        f"most pings to one player in one {unit}: {patient.most_pings}",
        flush=True,
    )
    if patient.rounds:
        rounds = patient.rounds
        print(
            f"{'':31s} a round ({rounds}): posts {patient.game_posts / rounds:.2f}, "
            f"pictures {patient.pictures / rounds:.2f}, pings {patient.game_pings / rounds:.2f}",
            flush=True,
        )
    oks = [posts <= POSTS_PER_TURN, patient.most_pings <= PINGS_PER_PLAYER, patient.stale == 0]
    said = (
        f"{'':31s} {verdict(oks[0])} ≤ {POSTS_PER_TURN} posts a {unit} · "
        f"{verdict(oks[1])} ≤ {PINGS_PER_PLAYER} ping per player a {unit} · "
        f"{verdict(oks[2])} stale-button refusals {patient.stale} "
        f"({patient.together} moves sent together)"
    )
    if quick is not None:
        oks.append(quick.most_in_5s <= MOST_IN_5S)
        said += (
            f" · {verdict(oks[-1])} most posts in 5 s (quick, a computer seat): {quick.most_in_5s}"
        )
    print(said, flush=True)
    return oks


async def run(variants: list[tuple[str, str, dict[str, Any], int]]) -> None:
    logging.disable(logging.WARNING)
    results: list[bool] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for game, label, options, seats in variants:
            patient = await one(
                game,
                True,
                folder,
                seats=seats,
                options=options,
                together=3,
                seed=5,
                level=LEVEL,
                render=True,
            )
            quick = None
            if seats > 1 and get_game(game).max_seats >= 3:
                quick = await one(
                    game,
                    False,
                    folder,
                    seats=2,
                    options=options,
                    computers=1,
                    seed=7,
                    level=LEVEL,
                    render=True,
                )
            results += report(game, label, patient, quick)
    print(f"targets met: {sum(results)} of {len(results)}", flush=True)


def main(argv: list[str] | None = None) -> None:
    only: str | None = None
    for word in argv or []:
        if word.startswith("--only="):
            only = word.removeprefix("--only=")
        else:
            raise SystemExit(f"bench table: unknown option {word} (--only=game[:label],…)")
    asyncio.run(run(chosen(only)))
