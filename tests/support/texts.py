"""Which catalogue keys a registered game can reach, for the generic texts test
(tests/test_texts.py, docs/i18n.md "How keys are checked").

Three sources, each read from the game rather than listed by hand:

- :func:`declared`: the keys the bot builds from a game's declarations (its name, rules, commands,
  parameters, steps, buttons, options and their values, pieces and topics);
- :func:`literal_keys`: every string in the game's rules and renderer that is a whole key of the
  game (``"zvv.event.wall_die"``);
- :func:`family_keys`: keys the code builds with an f-string from game data
  (``f"badbones.event.weapon_used_{weapon}"``). Each such family found in the sources must be
  listed in :data:`FAMILIES` with the data it is built from; a new family fails the test until
  it is, so a missing text of it cannot hide behind a random game that never reached it.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from rules.core import get_game, registration

ROOT = Path(__file__).resolve().parents[2]
# The key families of an engine's messages: what a player reads as a prompt, an event or a
# refusal. Every f-string of these in a game's sources must have its data in FAMILIES.
TOLD = ("event", "pending", "error")


def declared(game: str) -> set[str]:
    """The keys the bot reads for ``game``'s declarations (bot/service, bot/discord)."""
    engine = get_game(game)
    keys = {f"{game}.name", f"{game}.rules"}
    for command in engine.commands:
        keys |= {f"{game}.command.{command.name}", f"{game}.command_name.{command.name}"}
        if command.button:
            keys.add(f"{game}.button.{command.name}")
        if command.steps:
            keys.add(f"{game}.open.{command.name}")
            keys |= {f"{game}.step.{command.name}_{param}" for param in command.steps}
        for param in command.params:
            keys |= {f"{game}.param.{param.name}", f"{game}.param_name.{param.name}"}
    for spec in engine.option_specs:
        keys |= {f"{game}.option.{spec.name}", f"{game}.option_name.{spec.name}"}
        keys.add(f"{game}.option_label.{spec.name}")
        keys |= {f"{game}.option_value.{spec.name}.{value}" for value in spec.choices}
    for topic, pieces in engine.pieces().items():
        keys |= {f"{game}.topic.{topic}", f"{game}.topic_head.{topic}"}
        keys |= {key for piece in pieces for key in (piece.name, piece.text)}
        if any(piece.cost is not None for piece in pieces):
            keys.add(f"{game}.topic_cost")
    return keys


def sources(game: str) -> list[Path]:
    """The game's rules package and its renderer, where its registration has them
    (``rules/<game>/`` and ``render/<game>.py`` for a shipped game, its own folder for a test
    game)."""
    entry = registration(game)
    package = type(entry.game).__module__.rpartition(".")[0]
    found = sorted(Path(_origin(package)).parent.rglob("*.py"))
    renderer = Path(_origin(entry.renderer)) if entry.renderer else None
    return [*found, renderer] if renderer is not None and renderer not in found else found


def _origin(module: str) -> str:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None, module
    return spec.origin


@cache
def _strings(game: str) -> tuple[frozenset[str], frozenset[str]]:
    """The game's whole keys written as strings, and its f-string key patterns (each
    placeholder written ``{}``)."""
    whole: set[str] = set()
    patterns: set[str] = set()
    prefix = f"{game}."
    for path in sources(game):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                pattern = "".join(
                    str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values
                )
                if pattern.startswith(prefix):
                    patterns.add(pattern)
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in inner
                and _is_key(node.value, prefix)
            ):
                whole.add(node.value)
    return frozenset(whole), frozenset(patterns)


def _is_key(text: str, prefix: str) -> bool:
    """``zvv.event.wall_die`` is a key; ``zvv.`` (a prefix) and ``zvv.png`` are not."""
    parts = text.split(".")
    return (
        text.startswith(prefix)
        and len(parts) >= 3
        and all(p and (p.replace("_", "").isalnum()) for p in parts)
    )


def literal_keys(game: str) -> set[str]:
    """Every whole key of ``game`` written in its rules and renderer, other than section
    prefixes that code completes (``"zvv.event."`` is not one: it ends in a dot)."""
    return set(_strings(game)[0])


def told_patterns(game: str) -> set[str]:
    """The f-string patterns of ``game``'s prompts, events and refusals."""
    return {p for p in _strings(game)[1] if p.split(".")[1] in TOLD}


def family_keys(game: str) -> dict[str, set[str]]:
    """Every key of each family of FAMILIES that belongs to ``game``."""
    return {
        pattern: set(keys()) for pattern, keys in FAMILIES.items() if pattern.startswith(f"{game}.")
    }


def _each(pattern: str, *values: Iterable[Any]) -> Callable[[], Iterator[str]]:
    """The keys of a one-placeholder ``pattern`` for each of ``values`` (read when called)."""

    def keys() -> Iterator[str]:
        for group in values:
            for value in group:
                yield pattern.replace("{}", str(value))

    return keys


def _badbones_questions() -> Iterator[str]:
    from rules.badbones.choices import CHOICES

    names = {"dragon_from", "dragon_landing", "top_coop", "weapon", *CHOICES}
    return (f"choose_{name}" for name in names)


def _badbones_told() -> Iterator[str]:
    """``questions.told``: a question's answer, as the table hears it (the dragon's kinds
    share one text), by a person or by the computer (a weapon's question is answered by the
    weapon itself: ``weapon_used_…``)."""
    from rules.badbones.choices import CHOICES

    for name in {"top_coop", *CHOICES}:
        for who in ("", "_computer"):
            yield f"badbones.event.chose_{name}{who}"


def _badbones_submitted() -> Iterator[str]:
    from rules.badbones.actions import SUBMISSIONS

    for action in SUBMISSIONS:
        yield f"badbones.event.submitted_{action.kind}"
    yield "badbones.event.submitted_place_wall"


def _fuse_pendings() -> Iterator[str]:
    yield from ("fuse.pending.start", "fuse.pending.take", "fuse.pending.place")
    yield from ("fuse.pending.claim",)
    yield from (f"fuse.pending.return_{what}" for what in ("die", "colour", "number"))


def _fuse_resolves() -> Iterator[str]:
    # (a fuse card asks for a colour or a number: ``_match_args`` of one letter or digit)
    for what in ("colour", "number"):
        yield f"fuse.event.fuse_card_{what}"
        yield f"fuse.event.fuse_resolves_{what}"
        yield f"fuse.event.fuse_resolves_{what}_none"


def _lazy(module: str, name: str) -> Callable[[], Iterable[Any]]:
    def read() -> Iterable[Any]:
        return getattr(__import__(module, fromlist=[name]), name)

    return read


def _from(pattern: str, module: str, name: str) -> Callable[[], Iterator[str]]:
    return lambda: _each(pattern, _lazy(module, name)())()


# What ``skeletons`` says became of a trap (``changes``: its third part).
_TRAP_CHANGES = ("passed", "sabotaged", "destroyed", "blasted", "damaged", "stolen")

# Each key family the code builds from game data, with that data. The key is the f-string's
# pattern as written in the sources (placeholders as ``{}``); the value yields the family's
# every key. Families of bot/ (pending kinds, buttons, options …) come from ``declared`` and
# from play; a game's own f-strings of prompts, events and refusals must all be here.
FAMILIES: dict[str, Callable[[], Iterable[str]]] = {
    # Bad Bones
    "badbones.pending.choose_{}": lambda: (f"badbones.pending.{k}" for k in _badbones_questions()),
    # The private board's open question (render/badbones.py), by ``questions.kind``.
    "badbones.pending.{}": lambda: (f"badbones.pending.{k}" for k in _badbones_questions()),
    "badbones.event.chose_{}": _badbones_told,
    "badbones.event.coop_{}": _each("badbones.event.coop_{}", ("won", "lost")),
    "badbones.event.solo_{}": _each("badbones.event.solo_{}", ("won", "lost")),
    "badbones.event.submitted_{}": _badbones_submitted,
    "badbones.event.trap_{}": _each("badbones.event.trap_{}", _TRAP_CHANGES),
    "badbones.event.weapon_used_{}": _from(
        "badbones.event.weapon_used_{}", "rules.badbones.weapons", "WEAPONS"
    ),
    # FUSE
    "fuse.error.{}_order": _each("fuse.error.{}_order", ("pyramid", "stack")),
    "fuse.event.fuse_card_{}": _fuse_resolves,
    "fuse.event.fuse_resolves_{}{}": _fuse_resolves,
    "fuse.event.lost_{}": _each("fuse.event.lost_{}", ("clock", "rounds", "bag")),
    # Zombies vs Vampires
    "zvv.error.{}": _each("zvv.error.{}", ("chose_build", "nothing_to_remove")),
    "zvv.event.{}": _each("zvv.event.{}", ("no_supply", "no_place")),
    # Words built from game data and passed to those texts (``*_key`` arguments) or drawn
    "badbones.stage.{}": _each(
        "badbones.stage.{}",
        ("hero", "trap", "landing", "skeletons", "market", "start", "weapon", "over"),
    ),
    "badbones.trap.{}": lambda: _chain(
        _from("badbones.trap.{}", "rules.badbones.traps", "BASIC_TRAPS")(),
        _from("badbones.trap.{}", "rules.badbones.traps", "ADVANCED_TRAPS")(),
    ),
    "badbones.weapon.{}": _from("badbones.weapon.{}", "rules.badbones.traps", "WEAPONS"),
    "badbones.chief.{}": _from("badbones.chief.{}", "rules.badbones.state", "CHIEF_KINDS"),
    "badbones.colour.{}": lambda: _chain(
        _from("badbones.colour.{}", "rules.badbones.traps", "COLOURS")(),
        _from("badbones.colour.{}", "rules.badbones.traps", "ORIENTATIONS")(),
    ),
    "badbones.symbol.{}": _from("badbones.symbol.{}", "rules.badbones.board", "SYMBOLS"),
    "badbones.from_{}": _each("badbones.from_{}", ("forest", "landing")),
    "badbones.picture.{}": _each("badbones.picture.{}", ("supply", "supply_shared")),
    "badbones.render.coop_{}": _each("badbones.render.coop_{}", ("won", "lost")),
    "badbones.render.solo_{}": _each("badbones.render.solo_{}", ("won", "lost")),
    "farkle.now.{}": _from("farkle.now.{}", "rules.farkle.state", "STAGES"),
    "farkle.rescue.{}": _each("farkle.rescue.{}", ("both", "companion", "item", "none")),
    "farkle.companion.{}": _from("farkle.companion.{}", "rules.farkle.cards", "COMPANIONS"),
    "farkle.item.{}": _from("farkle.item.{}", "rules.farkle.cards", "ITEMS"),
    "fuse.colour.{}": _from("fuse.colour.{}", "rules.fuse.cards", "COLOURS"),
    "fuse.difficulty.{}": _from("fuse.difficulty.{}", "rules.fuse.modes", "DIFFICULTIES"),
    "fuse.label.resolving_{}": _each("fuse.label.resolving_{}", ("die", "colour", "number")),
    "zvv.face.{}": _from("zvv.face.{}", "rules.zvv.rolls", "FACES"),
    "zvv.side.{}": _from("zvv.side.{}", "rules.zvv.board", "SIDES"),
}


def _chain(*groups: Iterable[str]) -> Iterator[str]:
    for group in groups:
        yield from group


# Pending kinds computed from the state rather than written where the ``Pending`` is made.
PENDING_KINDS: dict[str, Callable[[], Iterable[str]]] = {
    "badbones": lambda: (f"badbones.pending.{k}" for k in _badbones_questions()),
    "farkle": _from("farkle.pending.{}", "rules.farkle.state", "STAGES"),
    "fuse": _fuse_pendings,
    "zvv": _each(
        "zvv.pending.{}", ("roll", "move", "split", "split_more", "plusminus", "build", "pass")
    ),
}


def bot_families() -> set[str]:
    """The keys bot/ builds with f-strings from its own data rather than a game's: computer
    levels, notification choices, languages, on/off choices, the lobby's buttons and statuses,
    permissions named to an admin, why the computer took a seat (bot/service/computer.py,
    compose.py, reach.py; bot/discord/commands.py, perms.py)."""
    from bot.discord.perms import ARCHIVED, needed
    from bot.service.reach import NOTIFY
    from bot.store.models import OPEN_STATUSES
    from i18n import LANGUAGES
    from rules.core.policy import LEVELS

    keys = {f"bots.level.{level}" for level in LEVELS}
    keys |= {f"me.notify.{n}" for n in NOTIFY}
    keys |= {f"discord.language.{code}" for code in ("auto", *LANGUAGES)}
    keys |= {f"discord.choice.{v}" for v in ("on", "off")}
    keys |= {f"lobby.table.{command}" for command in ("join", "leave", "start")}
    keys |= {f"lobby.status.{status}" for status in OPEN_STATUSES}
    keys |= {f"bots.autopilot.{why}" for why in ("missed", "left")}  # (``to_autopilot``'s)
    keys |= {
        f"discord.permission.{name}"
        for thread in (True, False)
        for name in needed(thread=thread)
        if name != ARCHIVED
    }
    return keys
