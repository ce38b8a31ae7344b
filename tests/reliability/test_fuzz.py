"""Hypothesis throws hostile input at every command of every game, through the service.

Each example is one command from a random user: a game command (from the game's own
``commands`` spec) with arguments that are sometimes legal and mostly not (wrong types, huge
strings, unicode and control characters, negative and enormous numbers, unknown parameters), a
button press (stale ids from earlier phases, ids of other games, mangled and garbage ids), an
autocomplete query, or a lobby command with another user's id. For every one:

- nothing escapes (the service returns a reply) and nothing is logged as an internal error;
- a refusal (``reply.ok is False``) leaves the game's rows exactly as they were;
- a refusal's text is a translated message (not a bare ``foo.error.bar`` key, no unfilled
  ``{arg}``), and its key exists in English and in Spanish.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import Actor, Place, Reply, Service
from bot.service.buttons import button_id, decode
from bot.store import repository as repo
from rules.core import get_game
from tests.reliability.common import (
    LoopService,
    check_key,
    check_refusal_text,
    game_params,
    loop_service,
    snapshot,
)
from tests.reliability.driver import GameSpec, actor_for, pick, seat_count, setup_games
from tests.support.commands import command_for
from tests.support.spies import refusal_keys

CHANNEL = 10
PLACE = Place(CHANNEL, 1)
EXAMPLES = 80

WEIRD = [
    "",
    " ",
    "-1",
    "0",
    "999999999999999999999999",
    "1e309",
    "NaN",
    "A1",
    "a1",
    "N",
    "🙂",
    "<@123>",
    "@everyone",
    "\x00",
    "\u202e",
    "{seat}",
    "%s",
    "x" * 5000,
    "🙂" * 3000,
    "a b c d e f g",
    "pt:1:00000000:bid:amount=1",
]

hostile_value = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=40),
    st.text(max_size=3).map(lambda s: s * 2000),
    st.booleans(),
    st.none(),
    st.floats(),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.sampled_from(WEIRD),
    st.sampled_from([float("inf"), float("-inf"), float("nan"), -0.0, 2**63, -(2**63) - 1]),
)


class Fuzzer:
    """One game in one channel, restarted whenever it ends; remembers every button it saw."""

    def __init__(self, svc: LoopService, kind: str) -> None:
        self.svc = svc
        self.service: Service = svc.service
        self.kind = kind
        self.seats = seat_count(kind)
        self.game_id = 0
        self.buttons: list[str] = []
        self.refusal_keys = refusal_keys(self.service)
        self.restart()

    def restart(self) -> None:
        async def go() -> None:
            async with self.service.sessions() as session:
                row = await repo.open_game(session, CHANNEL)
            if row is not None:
                await self.service.cancel(actor_for(CHANNEL, 0), PLACE)
            ids = await setup_games(self.service, [GameSpec(self.kind, self.seats, CHANNEL)])
            self.game_id = ids[CHANNEL]
            # Play a few legal moves so that earlier phases leave stale buttons behind.
            for _ in range(6):
                if not await self.legal_move():
                    break

        self.svc.run(go())

    async def state(self) -> tuple[Any, Any] | None:
        async with self.service.sessions() as session:
            row = await repo.game_by_id(session, self.game_id)
        if row is None or row.status != "active" or row.state is None:
            return None
        engine = get_game(self.kind)
        return engine, engine.load(row.state)

    async def legal_move(self) -> bool:
        import random

        current = await self.state()
        if current is None:
            return False
        engine, state = current
        chosen = pick(engine, state, random.Random(len(self.buttons)))
        if chosen is None:
            return False
        seat, action = chosen
        command, args = command_for(engine, action)
        reply = await self.service.act(actor_for(CHANNEL, seat), PLACE, self.kind, command, args)
        self.remember(reply)
        return reply.ok

    def remember(self, reply: Reply) -> None:
        messages = [o.message for o in reply.public]
        if reply.private is not None:
            messages.append(reply.private)
        for message in messages:
            self.buttons += [b.custom_id for b in message.buttons]
            self.buttons += [s.custom_id for s in message.selects]
        del self.buttons[:-200]


def mostly(usual: st.SearchStrategy[Any], other: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``usual`` four times in five. (``one_of`` with a strategy listed twice does not weigh it
    twice.)"""
    # (0 is what Hypothesis draws most often, and shrinks to: the usual case.)
    return st.integers(0, 9).flatmap(lambda i: other if i == 9 else usual)


def actors(seats: int) -> st.SearchStrategy[Actor]:
    seated = st.integers(0, seats - 1).map(lambda s: actor_for(CHANNEL, s))
    # Mostly a seated player, so that most hostile commands get as far as the engine's parsing.
    return mostly(
        seated,
        st.one_of(
            st.just(Actor(77, "Stranger")),  # a spectator
            st.just(Actor(actor_for(CHANNEL, 0).user_id, "Same id, other server")),
            st.builds(
                Actor,
                st.integers(-(2**63), 2**63 - 1),
                st.text(max_size=60),
                st.sampled_from(["en", "es-ES", "es-419", "xx", "", "🙂"]),
                st.booleans(),
            ),
        ),
    )


places = mostly(
    st.just(PLACE),
    st.one_of(
        st.just(Place(CHANNEL, 999, "es-ES")),  # the same channel id seen from another guild
        st.builds(
            Place, st.integers(-(2**63), 2**63 - 1), st.none() | st.integers(), st.text(max_size=6)
        ),
    ),
)


def mangled_ids(fuzzer: Fuzzer) -> st.SearchStrategy[str]:
    # An index into the ids seen so far (at most 200 are kept), not ``sampled_from`` them: that
    # list grows between examples, and a strategy whose shape follows it makes Hypothesis fail
    # the test (FlakyStrategyDefinition) when it meets a choice sequence it tried before.
    known = st.integers(0, 199).map(
        lambda i: fuzzer.buttons[i % len(fuzzer.buttons)] if fuzzer.buttons else "pt:1:0:bid:"
    )
    return st.one_of(
        known,
        known.map(lambda b: b[:-1]),
        known.map(lambda b: b.replace(":", "::", 1)),
        known.map(lambda b: b + "&x=1"),
        st.builds(
            lambda game, phase, cmd, arg: button_id(game, phase, cmd, {"x": arg}) or "pt:",
            st.integers(0, 10**12),
            st.text(max_size=8),
            st.sampled_from([c.name for c in get_game(fuzzer.kind).commands] or ["x"]),
            st.text(max_size=20),
        ),
        st.text(max_size=120),
        st.sampled_from(WEIRD),
    )


@pytest.mark.parametrize("kind", game_params())
def test_hostile_commands_change_nothing_and_answer_in_words(
    kind: str,
    tmp_path: Path,
    database_url: str,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On SQLite and PostgreSQL; most typed commands reach the engine's parsing (a seated
    player, in the game's channel), where the hostile values are really tried."""
    caplog.set_level(logging.WARNING, logger="partida")
    engine = get_game(kind)
    acts: list[int] = []
    parsed: list[int] = []
    real_parse = engine.parse

    def counted_parse(*args: Any, **kwargs: Any) -> Any:
        parsed.append(1)
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(engine, "parse", counted_parse)
    with loop_service(tmp_path, url=database_url) as svc:
        fuzzer = Fuzzer(svc, kind)
        specs = {c.name: c for c in engine.commands}

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
            database=None,
        )
        @given(data=st.data())
        def one(data: st.DataObject) -> None:
            if svc.run(fuzzer.state()) is None:
                fuzzer.restart()
            actor = data.draw(actors(fuzzer.seats), "actor")
            place = data.draw(places, "place")
            what = data.draw(
                st.sampled_from(["act", "act", "act", "press", "suggest", "lobby", "legal"]),
                "what",
            )
            before = svc.run(snapshot(fuzzer.service, fuzzer.game_id))
            reply: Reply | None = None
            if what == "act":
                command = data.draw(
                    st.sampled_from(sorted(specs)) | st.text(max_size=40) | st.sampled_from(WEIRD),
                    "command",
                )
                params = [p.name for p in specs[command].params] if command in specs else []
                args: dict[Any, Any] = {}
                for name in params:
                    if data.draw(st.booleans(), f"has {name}"):
                        args[name] = data.draw(hostile_value, name)
                if data.draw(st.integers(0, 4), "extra") == 0:
                    args[data.draw(st.text(max_size=10), "extra name")] = data.draw(hostile_value)
                game = data.draw(
                    mostly(
                        st.sampled_from([kind, None]), st.sampled_from(["tiny", "nope", "🙂" * 50])
                    ),
                    "game",
                )
                acts.append(1)
                reply = svc.run(fuzzer.service.act(actor, place, game, command, args))
            elif what == "press":
                custom_id = data.draw(mangled_ids(fuzzer), "custom_id")
                values = data.draw(
                    st.none()
                    | st.lists(st.text(max_size=30) | st.sampled_from(WEIRD), max_size=30),
                    "values",
                )
                reply = svc.run(fuzzer.service.press(actor, place, decode(custom_id, values)))
            elif what == "suggest":
                command = data.draw(st.sampled_from(sorted(specs) or ["x"]) | st.text(max_size=10))
                param = data.draw(st.text(max_size=10) | st.sampled_from(["amount", "direction"]))
                typed = data.draw(st.text(max_size=200) | st.sampled_from(WEIRD))
                values = svc.run(
                    fuzzer.service.suggest(actor, place, kind, command, param, {}, typed)
                )
                assert isinstance(values, list) and len(values) <= 25
                assert all(isinstance(v, str) for v in values)
            elif what == "lobby":
                call = data.draw(
                    st.sampled_from(["kick", "settings", "join", "start", "leave", "new"])
                )
                if call == "new":
                    # Options for a new game: the game's own names with hostile values, and
                    # unknown names; here (refused: a game exists) or in a free channel.
                    names = [o.name for o in engine.option_specs]
                    options = data.draw(
                        st.dictionaries(
                            st.sampled_from(names or ["x"]) | st.text(max_size=12),
                            hostile_value,
                            max_size=4,
                        ),
                        "options",
                    )
                    where = data.draw(st.sampled_from([PLACE, Place(CHANNEL + 1, 1)]), "where")
                    game = data.draw(st.sampled_from([kind, "tiny", "nope", ""]), "new game")
                    reply = svc.run(fuzzer.service.new_game(actor, where, game, options))
                    if reply.ok:
                        svc.run(fuzzer.service.cancel(actor, where))
                elif call == "kick":
                    target = data.draw(
                        st.integers(0, fuzzer.seats - 1).map(
                            lambda s: actor_for(CHANNEL, s).user_id
                        )
                        | st.integers(-(2**70), 2**70)
                        | st.sampled_from(["abc", "", None]),
                        "target",
                    )
                    # target: any value a raw request could carry, a number or not
                    reply = svc.run(fuzzer.service.kick(actor, place, target))  # type: ignore[arg-type]
                elif call == "settings":
                    reply = svc.run(
                        fuzzer.service.settings(
                            actor, place, data.draw(hostile_value), data.draw(hostile_value)
                        )
                    )
                else:
                    reply = svc.run(getattr(fuzzer.service, call)(actor, place))
            else:
                svc.run(fuzzer.legal_move())
            if reply is None:
                return
            fuzzer.remember(reply)
            if not reply.ok:
                body = check_refusal_text(reply)
                assert "went wrong on our side" not in body, (
                    f"internal error: {caplog.text[-3000:]}"
                )
                assert reply.public == [], "a refusal says nothing in public"
                after = svc.run(snapshot(fuzzer.service, fuzzer.game_id))
                assert after == before, "a refused command changed the game"

        one()
        assert fuzzer.refusal_keys, "no input was refused at all?"
        assert len(parsed) >= len(acts) / 2, f"{len(parsed)} of {len(acts)} typed commands parsed"
        for key in set(fuzzer.refusal_keys):
            check_key(key)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, caplog.text[-3000:]


HOSTILE_OPTION_VALUES: list[Any] = [
    float("inf"),
    float("-inf"),
    float("nan"),
    1e300,
    -(2**70),
    2**70,
    "",
    "🙂" * 500,
    None,
    [1],
    {"a": 1},
    "1e309",
    "\x00",
]


@pytest.mark.parametrize("kind", game_params())
async def test_every_option_with_hostile_values_is_refused_in_words(
    kind: str, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``/game new`` with each of the game's options set to each hostile value, and with an
    unknown option: refused with a translated message, and no game is opened."""
    caplog.set_level(logging.WARNING, logger="partida")
    service = await Service.open(database_url, render=False)
    try:
        engine = get_game(kind)
        keys = refusal_keys(service)
        cases: list[dict[str, Any]] = [{"no_such_option": 1}]
        for spec in engine.option_specs:
            for value in HOSTILE_OPTION_VALUES:
                if spec.type == "bool" and value in ("", None):
                    continue
                cases.append({spec.name: value})
        for options in cases:
            reply = await service.new_game(Actor(1, "Host"), PLACE, kind, options)
            if reply.ok:  # a value the option accepts (e.g. a huge number clamped): fine
                assert (await service.cancel(Actor(1, "Host"), PLACE)).ok
                continue
            body = check_refusal_text(reply)
            assert "went wrong on our side" not in body, f"{options}: {caplog.text[-2000:]}"
            async with service.sessions() as session:
                assert await repo.open_game(session, CHANNEL) is None
        for key in set(keys):
            check_key(key)
    finally:
        await service.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[-3000:]


@pytest.mark.parametrize("kind", game_params())
async def test_every_command_parameter_with_hostile_values(
    kind: str, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Each parameter of each command, typed by a pending seat with each hostile value (the
    others left out): accepted, or refused in words; never an internal error."""
    caplog.set_level(logging.WARNING, logger="partida")
    service = await Service.open(database_url, render=False)
    try:
        engine = get_game(kind)
        ids = await setup_games(service, [GameSpec(kind, seat_count(kind), CHANNEL)])
        for command in engine.commands:
            for param in command.params or (None,):
                for value in [*HOSTILE_OPTION_VALUES, "-1", "0", "999999"]:
                    async with service.sessions() as session:
                        row = await repo.game_by_id(session, ids[CHANNEL])
                    assert row is not None
                    if row.status != "active" or row.state is None:
                        return
                    seat = min(engine.pending(engine.load(row.state)))
                    args = {} if param is None else {param.name: value}
                    reply = await service.act(
                        actor_for(CHANNEL, seat), PLACE, kind, command.name, args
                    )
                    if not reply.ok:
                        body = check_refusal_text(reply)
                        assert "went wrong on our side" not in body, (
                            f"{command.name} {args}: {caplog.text[-2000:]}"
                        )
    finally:
        await service.close()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[-3000:]
