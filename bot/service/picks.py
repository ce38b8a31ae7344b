"""Moves chosen from menus, one step at a time (``Command.steps``): no move needs typing.

A command whose arguments are many (Zombies vs Vampires: a pawn, then a square in its reach;
Bad Bones: a trap, a square, a side) is offered as a chain of menus, each listing only the
values that still lead to a legal action:

- **the first step** goes under the phase message: a select menu when one player is asked and
  its values fit one menu (a pawn), else a button that opens it ("Build a wall…"), so players
  asked at once (a simultaneous trap phase) each see their own values;
- **each next step** is the answer to the pick, private to the picker (an ephemeral message on
  Discord, edited in place from then on): nothing is saved and the channel sees nothing until
  the last step makes the move. Picks live in the menus' ``custom_id`` alone
  (``bot.service.buttons.step_id``), so another player's pick changes nothing for the first,
  and a pick made after the game moved on is refused in words (the phase in the id is old).

More values than one menu holds (Discord: 25 options) are grouped: squares row then column, in
bands of at most 25 squares, in up to five menus; what still does not fit is typed,
and every step's message shows the exact command with an example from the legal moves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.service import buttons as button_ids
from bot.service import pieces
from bot.service.draft import Draft
from bot.service.errors import Refusal
from bot.service.match import Match
from bot.service.replies import Button, Select
from bot.service.shown import show, show_args
from bot.service.text import Strong, Text, phrase
from i18n import catalogue, language_for, t
from rules.core import Command, CommandArgs, RulesError

MAX_OPTIONS = 25  # Discord: options of one select menu
MAX_MENUS = 5  # Discord: rows of one message, a menu each
MAX_PLACEHOLDER = 150
_SQUARE = re.compile(r"^([A-Z]+)(\d+)$")


@dataclass(frozen=True)
class Step:
    """The next thing to choose: ``param`` among ``values`` (canonical, the engine's order)."""

    param: str
    values: tuple[str, ...]


def stepped(match: Match, command: str) -> Command | None:
    """``command``'s spec when it is chosen from menus."""
    return next((c for c in match.engine.commands if c.name == command and c.steps), None)


def next_step(match: Match, seat: int, spec: Command, made: CommandArgs) -> Step | None:
    """The first step not made yet that has values to offer (None: the command is complete).
    A step with nothing to offer is not asked (a wall of length 1 runs in no direction)."""
    for param in spec.steps:
        if param in made:
            continue
        found = match.engine.suggestions(match.state, seat, spec.name, param, made)
        if found:
            return Step(param, tuple(dict.fromkeys(found)))
    return None


def leads_somewhere(match: Match, seat: int, spec: Command, made: CommandArgs) -> bool:
    """Whether the steps ``made`` are each among the values their menus offer ``seat`` now
    (the same question the menus were made from, so a square that names a wall from its
    other end is as good as the one ``to_command`` writes), and something is left to do."""
    if spec.name not in legal_commands(match, seat):
        return False  # (an engine's menus may list values outside their phase)
    so_far: CommandArgs = {}
    for param in spec.steps:
        if param not in made:
            continue
        offered = match.engine.suggestions(match.state, seat, spec.name, param, so_far)
        if str(made[param]).upper() not in {str(v).upper() for v in offered}:
            return False
        so_far[param] = made[param]
    return set(made) <= set(so_far) and bool(made or next_step(match, seat, spec, made))


def legal_commands(match: Match, seat: int) -> set[str]:
    """The commands of ``seat``'s legal actions now."""
    engine = match.engine
    return {
        mapped[0]
        for action in engine.legal_actions(match.state, seat)
        if (mapped := engine.to_command(action)) is not None
    }


# ----------------------------------------------------------------- under the phase message


def controls(
    match: Match, seats: Sequence[int], lang: str, *, private: bool = False
) -> tuple[tuple[Button, ...], tuple[Select, ...]]:
    """The first step of every command chosen from menus that one of ``seats`` may make now:
    its menu when one seat is asked and its values fit one menu, else a button that opens it.
    ``private``: for one player's eyes (their board), with the commands whose use tells what
    they hold (``Command.hidden``)."""
    engine, row = match.engine, match.row
    specs = [c for c in engine.commands if c.steps and (private or not c.hidden)]
    if not specs:
        return (), ()
    able: dict[str, list[int]] = {}
    for seat in seats:
        legal = legal_commands(match, seat)
        for spec in specs:
            if spec.name in legal:
                able.setdefault(spec.name, []).append(seat)
    opened: list[Button] = []
    menus: list[Select] = []
    for spec in specs:
        users = able.get(spec.name, [])
        if not users:
            continue
        step = next_step(match, users[0], spec, {}) if len(users) == 1 else None
        if step is not None and len(step.values) <= MAX_OPTIONS:
            asked = prompt(match, spec.name, {}, step, lang)
            menu = _menus(match, spec, {}, step, lang, asked, private=False)
            if len(menu) == 1:
                menus.append(menu[0])
                continue
        custom_id = button_ids.step_id(row.id, row.phase, spec.name, {}, None)
        if custom_id is not None:
            label = t(f"{row.kind}.open.{spec.name}", lang)
            opened.append(Button(label[:80], custom_id, style="primary"))
    return tuple(opened), tuple(menus)


# ----------------------------------------------------------------- a step, privately


def chooser(
    match: Match, seat: int, spec: Command, made: CommandArgs, step: Step, lang: str
) -> Draft:
    """The private answer to a pick: what was chosen so far, the menus of the next step, and
    the command to type for what the menus do not hold."""
    draft = Draft(picked=True)
    asked = prompt(match, spec.name, made, step, lang)
    menus = _menus(match, spec, made, step, lang, asked, private=True)
    shown = sum(len(m.options) for m in menus)
    draft.say(Text.of(Strong(asked)))
    if shown < len(step.values):
        draft.say(phrase("lobby.pick.more", lang, shown=shown, count=len(step.values)))
    example = typed(match, seat, spec, {**made, step.param: step.values[0]}, lang)
    draft.say(phrase("lobby.pick.typed", lang, command=example))
    draft.private_selects = menus
    return draft


def prompt(match: Match, command: str, made: CommandArgs, step: Step, lang: str) -> str:
    """What a step asks ("C3 to which square?"), with the steps made shown in ``lang``."""
    kind = match.kind
    return t(f"{kind}.step.{command}_{step.param}", lang, **show_args(kind, made, lang))


def _menus(
    match: Match,
    spec: Command,
    made: CommandArgs,
    step: Step,
    lang: str,
    asked: str,
    *,
    private: bool,
) -> tuple[Select, ...]:
    """The menus of one step: one when its values fit, else squares in bands of rows (row
    then column) or the values in order, 25 a menu, at most five menus. ``private``: in the
    picker's own answer, which the next pick replaces."""
    row = match.row
    groups: list[tuple[str, list[str]]]
    if len(step.values) <= MAX_OPTIONS:
        groups = [("", list(step.values))]
    elif all(_SQUARE.match(v) for v in step.values):
        groups = _bands(list(step.values), lang)
    else:
        chunks = [step.values[i : i + MAX_OPTIONS] for i in range(0, len(step.values), MAX_OPTIONS)]
        groups = [("", list(chunk)) for chunk in chunks]
    out: list[Select] = []
    for number, (band, values) in enumerate(groups[:MAX_MENUS]):
        custom_id = button_ids.step_id(
            row.id, row.phase, spec.name, made, step.param, number if private else None
        )
        if custom_id is None:
            continue
        options = tuple((v, _label(match, spec.name, step.param, v, lang)) for v in values)
        details = tuple(pieces.detail(row.kind, spec.name, step.param, v, lang) for v in values)
        placeholder = f"{asked} · {band}" if band else asked
        out.append(
            Select(
                placeholder[:MAX_PLACEHOLDER],
                custom_id,
                options,
                1,
                1,
                details if any(details) else (),
            )
        )
    return tuple(out)


def _label(match: Match, command: str, param: str, value: str, lang: str) -> str:
    """A value as a menu shows it: a piece by its name (and price), else as ``lang`` names it."""
    topic = pieces.param_topic(match.kind, command, param)
    item = pieces.piece(match.kind, topic, value) if topic else None
    said = (
        pieces.name(match.kind, item, lang)
        if item is not None
        else str(show(match.kind, param, value, lang))
    )
    if any(c.isdigit() for c in said.split(" ", 1)[0]):
        return pieces.within(said)  # a code as the table writes it (Farkle's die "a5")
    return pieces.within(said[:1].upper() + said[1:])  # "Wall, 3 coins", as a menu reads


def _bands(squares: list[str], lang: str) -> list[tuple[str, list[str]]]:
    """Squares row then column, cut into as few menus as hold them, of even size (an 11×11
    board's 121 squares: five menus of 25 or fewer). Each is named by its first and last
    squares ("A1–C3"), which tell where on the board it lies."""

    def place(square: str) -> tuple[int, int, str]:
        found = _SQUARE.match(square)
        assert found is not None
        return int(found[2]), len(found[1]), found[1]

    ordered = sorted(squares, key=place)
    count = -(-len(ordered) // MAX_OPTIONS)
    size = -(-len(ordered) // count)
    chunks = [ordered[i : i + size] for i in range(0, len(ordered), size)]
    return [(t("lobby.pick.band", lang, first=c[0], last=c[-1]), c) for c in chunks]


# ----------------------------------------------------------------- typing it instead


def typed(match: Match, seat: int, spec: Command, made: CommandArgs, lang: str) -> str:
    """The exact command for a legal move of ``seat`` that starts with ``made`` (each step
    left filled with its first value), as ``lang`` types it: "/zvv move pawn:C3 to:E5"
    ("/zvv mover peon:C3 destino:E5")."""
    filled = dict(made)
    for param in spec.steps:
        if param not in filled:
            found = match.engine.suggestions(match.state, seat, spec.name, param, filled)
            if found:
                filled[param] = found[0]
    return written(match.kind, spec.name, filled, lang)


def command_name(kind: str, command: str, lang: str) -> str:
    """The name ``lang``'s client shows for ``kind``'s ``command`` (the command itself if it has
    none, e.g. a word typed that is no command)."""
    return str(catalogue(language_for(lang)).get(f"{kind}.command_name.{command}", command))


def written(kind: str, command: str, args: CommandArgs, lang: str) -> str:
    """``/<game> <command> name:value …`` with the names and values ``lang``'s client shows."""
    known = catalogue(language_for(lang))
    name = command_name(kind, command, lang)
    shown = show_args(kind, args, lang)
    words = [
        f"{known.get(f'{kind}.param_name.{param}', param)}:{value}"
        for param, value in shown.items()
    ]
    return "`" + " ".join([f"/{kind}", name, *words]) + "`"


def refused(match: Match, seat: int, command: str, made: CommandArgs) -> Exception:
    """Why the steps ``made`` lead to no legal action of ``seat``: the engine's own reason
    (not your turn, that pawn cannot move), else the plain one."""
    try:
        match.engine.parse(command, made, match.state, seat)
    except RulesError as error:
        return error
    return Refusal("lobby.error.stale_pick")
