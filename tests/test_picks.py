"""Moves chosen from menus (``bot/service/picks.py``), from positions alone: every step offers
exactly the values that still lead to a legal action, and every menu and button fits Discord's
limits in both languages, on the largest boards too."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.layout import view
from bot.service import buttons as button_ids
from bot.service import picks
from bot.service.match import Match
from bot.service.replies import Button, Message, Select
from bot.service.text import Text
from bot.store.models import GameRow, SeatRow
from i18n import LANGUAGES
from rules.core import get_game
from rules.core.game import Game
from rules.core.rng import Rng
from tests.fakediscord import limits

CASES = [  # (game, options, seats, positions)
    ("zvv", {"size": 9}, 2, 120),
    ("zvv", {"size": 15}, 4, 120),
    ("badbones", {"advanced": True}, 3, 120),
    ("badbones", {"advanced": True, "cooperative": True, "chiefs": True}, 2, 120),
    ("farkle", {}, 3, 600),  # items are seldom playable
]


def _positions(name: str, options: dict[str, Any], seats: int, count: int) -> list[Any]:
    game = get_game(name)
    out: list[Any] = []
    seed = 5
    while len(out) < count:  # game after game
        rng = Rng(seed)
        state = game.new_game(seats, options, seed)
        now = 1_000_000.0
        while not game.is_over(state) and len(out) < count:
            out.append(game.copy(state))
            seat = rng.choice(sorted(game.pending(state)))
            game.play(state, seat, rng.choice(game.legal_actions(state, seat)), now)
            now += 1.0
        seed += 1
    return out


def _table(game: Game[Any], state: Any) -> Match:
    row = GameRow(id=123456, channel_id=1, kind=game.name, phase=game.phase(state), host_id=1)
    row.seats = [
        SeatRow(seat=i, user_id=100 + i, display_name=f"Player {i}", locale="en")
        for i in range(len(game.pending(state)) + 6)
    ]
    return Match(row, game, state)


def _fits(selects: tuple[Select, ...], buttons: tuple[Any, ...] = ()) -> None:
    """What Discord would refuse of these components, as the fake checks them."""
    made = view(Message(Text(), selects=selects, buttons=buttons))
    rows = made.to_components() if made is not None else []
    problems = limits._components(rows, "picks")
    for select in selects:
        problems += [f"placeholder {select.placeholder!r}"] if len(select.placeholder) > 150 else []
        problems += [f"label {label!r}" for _, label in select.options if len(label) > 100]
        problems += [f"description {d!r}" for d in select.descriptions if len(d) > 100]
    assert not problems, problems


def _firsts(match: Match, seat: int, command: str, made: dict[str, Any], param: str) -> set[str]:
    """``param``'s values among ``seat``'s legal actions that start with ``made``."""
    out = set()
    for action in match.engine.legal_actions(match.state, seat):
        mapped = match.engine.to_command(action)
        if mapped is None or mapped[0] != command or param not in mapped[1]:
            continue
        if all(str(mapped[1].get(k)).upper() == str(v).upper() for k, v in made.items()):
            out.add(str(mapped[1][param]))
    return out


@pytest.mark.parametrize(("name", "options", "seats", "count"), CASES)
def test_every_step_offers_exactly_the_legal_values_within_discords_limits(
    name: str, options: dict[str, Any], seats: int, count: int
) -> None:
    game = get_game(name)
    hidden = {c.name for c in game.commands if c.hidden}
    walked = 0
    for state in _positions(name, options, seats, count):
        match = _table(game, state)
        pending = sorted(game.pending(state))
        for lang in LANGUAGES:
            opened, menus = picks.controls(match, pending, lang)
            _fits(menus, opened)
            assert all(len(b.label) <= 80 for b in opened)
            # What a hidden hand allows is never offered under a public message.
            shown_controls: tuple[Button | Select, ...] = (*opened, *menus)
            shown = {p.command for c in shown_controls if (p := button_ids.decode(c.custom_id))}
            assert not shown & hidden, (game.phase(state), shown)
        for seat in pending:
            mine = picks.controls(match, [seat], "en", private=True)
            mine_controls: tuple[Button | Select, ...] = (*mine[0], *mine[1])
            offered = {p.command for c in mine_controls if (p := button_ids.decode(c.custom_id))}
            assert offered & hidden == picks.legal_commands(match, seat) & hidden
        for seat in pending:
            legal = picks.legal_commands(match, seat)
            for spec in (c for c in game.commands if c.steps):
                made: dict[str, Any] = {}
                if spec.name not in legal:
                    assert not picks.leads_somewhere(match, seat, spec, made)
                    continue
                step = picks.next_step(match, seat, spec, made)
                while step is not None:
                    # Every legal move can be made (a wall may also be named from a square
                    # its canonical name does not use), and nothing else is offered.
                    assert set(step.values) >= _firsts(match, seat, spec.name, made, step.param)
                    for value in step.values[:: max(1, len(step.values) // 4)]:
                        assert picks.leads_somewhere(match, seat, spec, {**made, step.param: value})
                    for lang in LANGUAGES:
                        draft = picks.chooser(match, seat, spec, made, step, lang)
                        _fits(draft.private_selects)
                        offered = {v for m in draft.private_selects for v, _ in m.options}
                        if offered != set(step.values):  # more than five menus hold: typed
                            assert len(step.values) > 5 * 25 - 25
                            assert "/" in str(draft.private[-1])
                        for menu in draft.private_selects:
                            clicked = button_ids.decode(menu.custom_id, [menu.options[0][0]])
                            assert clicked is not None and clicked.command == spec.name
                            assert {k: v for k, v in clicked.args.items() if k != step.param} == {
                                k: str(v) for k, v in made.items()
                            }
                    made[step.param] = step.values[-1]
                    walked += 1
                    step = picks.next_step(match, seat, spec, made)
                if made:
                    assert picks.leads_somewhere(match, seat, spec, made)
                    game.parse(spec.name, made, state, seat)  # the last step makes a legal move
                else:
                    assert not picks.leads_somewhere(match, seat, spec, made)
    assert walked > 20


def test_squares_are_grouped_row_then_column_in_even_menus() -> None:
    squares = [f"{c}{r}" for r in range(1, 12) for c in "ABCDEFGHIJK"]  # 121
    bands = picks._bands(list(reversed(squares)), "en")
    assert [len(b) for _, b in bands] == [25, 25, 25, 25, 21]
    assert [s for _, b in bands for s in b] == squares, "row then column"
    assert bands[0][0] == "A1–C3"


def test_a_die_is_offered_as_the_table_writes_it() -> None:
    # Play-test: the Loaded Die's menu offered "A5", "C4" where the table and the typed command
    # say "a5", "c4" (a menu capitalised every label, as for "Wall, 3 coins").
    from rules.farkle.actions import Recruit
    from tests.farkle.support import give, new, play, rig

    state = new(armies=[1000, 1000, 0])
    give(state, 0, "loaded")
    rig(state, ([2, 3, 4, 6, 6, 2], "blank"))
    play(state, 0, Recruit())
    game = get_game("farkle")
    match = _table(game, state)
    (spec,) = [c for c in game.commands if c.steps == ("item", "die")]
    made: dict[str, Any] = {"item": "loaded"}
    step = picks.next_step(match, 0, spec, made)
    assert step is not None and step.param == "die"
    draft = picks.chooser(match, 0, spec, made, step, "en")
    labels = [label for menu in draft.private_selects for _, label in menu.options]
    assert labels and all(label[0].islower() for label in labels), labels
