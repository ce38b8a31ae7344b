"""Bytes a finished game costs on SQLite, with its log kept one row per move (as before) and
compacted (one zlib row, bot/store/logs.py), and what other compressors would give.

Run: ``python -m bench storage``, or ``python -m bench.bench_storage [--games N]`` (default
10,000). Each way, an empty database (migrated, VACUUMed) is grown by ``bench/grow.py`` (real
games played by the computer players, copied), its ratings are rebuilt (so the ratings and
their per-game marks are counted too), and the file is checkpointed and VACUUMed: the growth
of the file divided by the games is the figure. Per table, SQLite's ``dbstat`` says where the
bytes are. Target (issue 30): at most 8 KB per finished game.
"""

from __future__ import annotations

import argparse
import asyncio
import bz2
import json
import lzma
import sqlite3
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path

from sqlalchemy.ext.asyncio import async_sessionmaker

from bench import grow
from bot.service import ratings
from bot.store.database import create_engine, upgrade

GAMES = 10_000
TARGET = 8 * 1024


def size(path: Path) -> int:
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db = sqlite3.connect(path)
    db.execute("VACUUM")
    db.close()
    return path.stat().st_size


def tables(path: Path, games: int) -> str:
    db = sqlite3.connect(path)
    try:
        rows = db.execute(
            "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
        ).fetchall()
    except sqlite3.OperationalError:  # a SQLite built without dbstat
        return "  (no dbstat in this SQLite)"
    finally:
        db.close()
    return "\n".join(
        f"  {name:32} {total / games:8.0f} B" for name, total in rows if total / games >= 20
    )


async def grown(folder: Path, games: int, made: list[grow.Template], compacted: bool) -> float:
    path = folder / f"{'compacted' if compacted else 'rows'}.db"
    url = f"sqlite+aiosqlite:///{path}"
    await upgrade(url)
    empty = size(path)
    engine = create_engine(url)
    await grow.grow(engine, games, made, compacted=compacted)
    await ratings.rebuild(async_sessionmaker(engine, expire_on_commit=False))
    await engine.dispose()
    per_game = (size(path) - empty) / games
    label = "one compacted row per game" if compacted else "one row per move (before)"
    print(f"log as {label}: {per_game:,.0f} B per finished game")
    print(tables(path, games))
    return per_game


def compressors(made: list[grow.Template]) -> None:
    """The templates' logs, as bot/store/logs.py writes them, through each compressor."""
    texts = [
        json.dumps(
            [[2 + i, s, a, grow.START + at, int(d)] for i, (s, a, at, d) in enumerate(t.log)],
            separators=(",", ":"),
        ).encode()
        for t in made
    ]
    raw = sum(len(t) for t in texts)
    ways: dict[str, Callable[[bytes], bytes]] = {
        "zlib 6": lambda b: zlib.compress(b, 6),
        "zlib 9 (used)": lambda b: zlib.compress(b, 9),
        "bz2 9": lambda b: bz2.compress(b, 9),
        "lzma": lambda b: lzma.compress(b, preset=6),
    }
    print(f"a game's log as JSON: {raw / len(texts):,.0f} B on average; compressed:")
    for name, way in ways.items():
        packed = sum(len(way(t)) for t in texts)
        print(f"  {name:14} {packed / len(texts):6,.0f} B ({packed / raw:.1%})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_storage")
    parser.add_argument("--games", type=int, default=GAMES)
    args = parser.parse_args(argv if argv is not None else [])
    made = grow.templates()
    print(f"{len(made)} real games copied, {args.games} finished games each way")
    with tempfile.TemporaryDirectory() as folder:
        before = asyncio.run(grown(Path(folder), args.games, made, compacted=False))
        after = asyncio.run(grown(Path(folder), args.games, made, compacted=True))
    compressors(made)
    verdict = "PASS" if after <= TARGET else "FAIL"
    print(
        f"{verdict}: {after:,.0f} B per finished game (target <= {TARGET:,} B; "
        f"{before / after:.1f}x smaller than one row per move)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
