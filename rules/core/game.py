"""The one engine API every game implements.

Random play, property tests, benchmarks, the service and every adapter use only these names, so
they stay stable. A game subclasses :class:`Game` and fills in the abstract methods; the base
class gives it the shared parts (option checking, copy-on-apply, reading typed commands and
buttons into actions for the game's one ``check``, the command mapping used by autocomplete
and buttons).

Contract (see docs/engine.md):

- ``new_game(num_seats, options, seed)`` → state
- ``pending(state)`` → ``{seat: Pending}``: who owes input now (several seats in a simultaneous
  phase; empty when the game is over)
- ``legal_actions(state, seat)`` → every legal action for that seat now (finite; it includes
  changing a simultaneous submission while the phase has not resolved)
- ``apply(state, seat, action, now=0.0)`` → ``(new_state, events)``; raises ``RulesError`` on an
  illegal action and leaves ``state`` untouched. ``play`` is the same in place; both are
  ``check`` (is it legal? the specific ``RulesError`` if not) then ``resolve`` (what happens).
  ``check`` is the one legality: typed commands and buttons reach it through ``parse``
  (``read`` decodes the words into an action, then ``check``), so a refusal reads the same
  whichever way the move came; the service then only resolves. ``now`` is the service's clock
  (seconds since the epoch); engines never read the wall clock themselves, so replaying a log
  with its times gives the same game.
- ``is_over(state)``, ``result(state)``
- ``dump(state)`` → JSON-compatible dict; ``load(data)`` → state (lossless round trip)
- ``view(state, seat)`` → JSON-compatible dict of what that seat may see (``None``: the channel)
- ``phase(state)`` → a short token that changes whenever the phase changes (stale buttons)
- ``picture_key(state)`` → when it changes, the channel gets a new picture (default: the phase)
- ``turn_key(state)`` → the steps of one turn share one deadline (default: the picture key)
- ``turn(state)`` → the unit the table's messages follow: whose turn, which turn, who else must
  look now (default: the phase, for simultaneous games)
- ``snapshot(state)`` → all of the above that a move's replies and deadlines need, asked once
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

from rules.core.actions import Action, ActionCodec, Withdraw
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.core.spec import (
    Command,
    CommandArgs,
    OptionSpec,
    Pending,
    Piece,
    Result,
    Snapshot,
    Turn,
    command_key,
)

S = TypeVar("S")


class Game(ABC, Generic[S]):
    """Base class of every game engine. Instances are stateless; the state is passed in."""

    name: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    commands: ClassVar[tuple[Command, ...]] = ()
    action_types: ClassVar[tuple[type[Action], ...]] = ()

    def __init__(self) -> None:
        self.codec = ActionCodec((*self.action_types, Withdraw))

    # ----------------------------------------------------------------- the engine API

    def new_game(self, num_seats: int, options: Mapping[str, Any] | None, seed: int) -> S:
        if not self.min_seats <= num_seats <= self.max_seats:
            raise RulesError(
                "core.error.seat_count", min=self.min_seats, max=self.max_seats, given=num_seats
            )
        return self.setup(num_seats, self.check_options(options or {}, num_seats), seed)

    @abstractmethod
    def setup(self, num_seats: int, options: dict[str, Any], seed: int) -> S:
        """Create the state of a new game (options already checked and completed)."""

    @abstractmethod
    def pending(self, state: S) -> dict[int, Pending]: ...

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[Action]: ...

    def apply(self, state: S, seat: int, action: Action, now: float = 0.0) -> tuple[S, list[Event]]:
        """Apply on a copy, so that a refusal half-way leaves the caller's state untouched."""
        new = self.copy(state)
        events = self.play(new, seat, action, now)
        return new, events

    def play(self, state: S, seat: int, action: Action, now: float) -> list[Event]:
        """Validate and apply ``action`` in place (``state`` is a private copy)."""
        if isinstance(action, Withdraw):
            return self.take_back(state, seat)
        self.check(state, seat, action)
        return self.resolve(state, seat, action, now)

    def check(self, state: S, seat: int, action: Action) -> None:
        """Raise the specific ``RulesError`` if ``seat`` may not take ``action`` now: the one
        place a game decides legality, reached by ``apply``, ``play`` and ``parse`` (typed
        commands and buttons) alike. Every action of ``legal_actions`` passes it; the reason
        for any other names what is wrong (a trap on a tower, nothing to hold), not only that
        something is. The default accepts everything, for a game still being written."""

    @abstractmethod
    def resolve(self, state: S, seat: int, action: Action, now: float) -> list[Event]:
        """Apply an action already found legal (by ``check``, through ``play`` or ``parse``),
        in place."""

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def result(self, state: S) -> Result | None: ...

    @abstractmethod
    def dump(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def load(self, data: dict[str, Any]) -> S: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def phase(self, state: S) -> str: ...

    def picture_key(self, state: S) -> str:
        """The channel gets a new picture of the table when this changes (and text alone on the
        other phase changes). The default draws every phase; a game whose turn has several
        steps (roll, then move) returns a per-turn or per-round key, so that the channel sees
        one picture per turn rather than one per click."""
        return self.phase(state)

    def turn_key(self, state: S) -> str:
        """While this stays the same, a seat asked again keeps the deadline its turn started
        with: roll → move → second step is one turn, not three deadlines. The default is the
        picture key (one picture per turn); a game whose pictures come more often than its
        turns (a purchase at the Market) returns a coarser key."""
        return self.picture_key(state)

    def turn(self, state: S) -> Turn:
        """The unit of the table's messages: a turn-based game names the turn (its number)
        and whose it is, and any other player who must look now (a brawl's defender); each
        step of the turn then edits the turn's message in place, and a new message (with a
        ping) comes only when the turn passes or another player is asked. The default is the
        phase, nobody's turn alone: a simultaneous game posts each phase, as everyone acts."""
        return Turn(self.phase(state))

    def automatic(self, state: S, seat: int) -> Action | None:
        """A step of ``seat`` with no decision in it (a roll that only follows from pressing
        Roll), which the service plays at once for the player when the game's options say so;
        ``None``: the seat decides. The service logs it like any move, so replays stay exact."""
        return None

    def clocked(self, state: S) -> bool:
        """Whether the rules keep a clock of their own in this game (FUSE live's bomb), read off
        the times passed to :meth:`apply`: the service cannot hold or shift it as it shifts
        its own deadlines. The default: a game with none."""
        return False

    def sealed(self, state: S, seat: int) -> bool:
        """Whether ``seat`` holds a sealed choice now: made, not yet revealed, shown in that
        seat's own view only (Bad Bones' hidden submissions). The default: a game with none."""
        return False

    def withdraw(self, state: S, seat: int) -> list[Event]:
        """Forget ``seat``'s sealed choice, in place, as if it had never been made (it owes the
        phase a choice again). Only called when :meth:`sealed` says there is one."""
        raise NotImplementedError(f"{self.name} declares no sealed choices")

    def take_back(self, state: S, seat: int) -> list[Event]:
        """Play :class:`Withdraw`: refused when there is nothing sealed to take back."""
        if not self.sealed(state, seat):
            raise RulesError("core.error.nothing_sealed")
        return self.withdraw(state, seat)

    def undoable(self, before: S, seat: int, action: Action, after: S) -> None:
        """Whether ``seat`` may take back ``action``, which took the game from ``before`` to
        ``after`` (``/game undo``); raises :class:`RulesError` with the reason if not. The
        service checks the rest (the step is the seat's own and the last one: nobody acted
        since). The rule, as at a table of friends: a step may be taken back when it revealed
        nothing random or hidden — no die rolled, no card or tile drawn (the game's random
        generator did not move), no simultaneous phase resolved (sealed choices shown) — and
        did not end the game. A game whose steps reveal something else says so here."""
        if self.is_over(after):
            raise RulesError("core.undo.over")
        if self.dump(before).get("rng") != self.dump(after).get("rng"):
            raise RulesError("core.undo.random")
        others = (s for s in range(self.max_seats) if s != seat)
        if self.phase(before) != self.phase(after) and any(self.sealed(before, s) for s in others):
            raise RulesError("core.undo.revealed")

    def snapshot(self, state: S) -> Snapshot:
        """What the table is like now, for everything after a move (replies, pings, buttons,
        deadlines, pictures): each question asked of the engine once."""
        over = self.is_over(state)
        return Snapshot(
            phase=self.phase(state),
            picture_key=self.picture_key(state),
            turn=self.turn_key(state),
            pending={} if over else self.pending(state),
            over=over,
            result=self.result(state) if over else None,
            unit=self.turn(state),
        )

    def copy(self, state: S) -> S:
        """A deep copy. Games with a faster copy than a JSON round trip override this."""
        return self.load(self.dump(state))

    # ----------------------------------------------------------------- options

    def check_options(self, options: Mapping[str, Any], num_seats: int) -> dict[str, Any]:
        """Complete ``options`` with defaults and check every value; a bad one is a RulesError."""
        specs = {o.name: o for o in self.option_specs}
        for name in options:
            if name not in specs:
                raise RulesError("core.error.unknown_option", option=str(name)[:50])
        checked: dict[str, Any] = {}
        for spec in self.option_specs:
            value = options.get(spec.name, spec.default)
            checked[spec.name] = _check_option(self.name, spec, value)
        return checked

    def announced_options(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """Options the lobby names even at their default, because players must know them
        before they start (FUSE live's round timer); the others are named only when changed."""
        return ()

    def is_news(self, event: Event) -> bool:
        """Whether a private event tells its reader something new (an item drawn), rather
        than echo back the reader's own move ("you will move N"). The channel hears that a
        player has news (never what it is) only for news: an echo of a move the service
        played by default tells the table nothing the timeout line has not."""
        return True

    def seat_range(self, options: Mapping[str, Any]) -> tuple[int, int]:
        """The fewest and most seats a game with these (checked) options takes; games whose
        options narrow it (a cooperative game needs a team) override this."""
        return self.min_seats, self.max_seats

    # ----------------------------------------------------------------- commands

    def parse(self, command: str, args: CommandArgs, state: S, seat: int) -> Action:
        """Turn a typed command or a pressed button into the action it names, if it is legal
        now; if not, refuse it with the reason :meth:`check` gives, the very words ``apply``
        would say for that action.

        Two steps: :meth:`read` decodes the command into an action (only its words: a
        square that does not exist, a number that is not one), then :meth:`check` decides
        whether it is legal. A game changes the first step by overriding ``read``, never the
        second; it overrides ``parse`` itself only to restate the player's own words in a
        refusal (and says so in a docstring).
        """
        if command not in {c.name for c in self.commands}:
            raise RulesError("core.error.unknown_command", command=command[:50])
        action = self.read(command, {k: v for k, v in args.items() if v is not None}, state, seat)
        self.check(state, seat, action)
        return action

    def read(self, command: str, args: CommandArgs, state: S, seat: int) -> Action:
        """The action ``command`` with ``args`` names, legal or not: decoding only (legality is
        :meth:`check`'s). A refusal here is about the words (a missing or malformed argument).

        The default: the legal action whose ``to_command`` is the same command and arguments
        (compared as text, case-insensitively), which also puts the action in its canonical
        form; else the action of the command's name built from the arguments (each ``int``
        parameter read as a number if it is one), for ``check`` to say what is wrong with it.
        A game overrides it where the words need more reading (squares written many ways, a
        seat numbered from 1, words in either language: those come from the catalogue,
        ``i18n.synonyms(game, family)``, never from a table in the engine).
        """
        found = self.listed(command, args, state, seat)
        if found is not None:
            return found
        types = {p.name: p.type for c in self.commands if c.name == command for p in c.params}
        fields: dict[str, Any] = {}
        for name, value in args.items():
            text = value.strip() if isinstance(value, str) else value
            fields[name] = _as_number(text) if types.get(name) == "int" else text
        try:
            return self.codec.from_json({**fields, "type": command})
        except RulesError:
            raise RulesError("core.error.illegal", command=command[:50]) from None

    def listed(self, command: str, args: CommandArgs, state: S, seat: int) -> Action | None:
        """The legal action of ``seat`` whose ``to_command`` is ``command`` with ``args``
        (compared as text, case-insensitively); ``None`` if there is none."""
        wanted = command_key(command, args)
        for action in self.legal_actions(state, seat):
            mapped = self.to_command(action)
            if mapped is not None and command_key(*mapped) == wanted:
                return action
        return None

    def to_command(self, action: Action) -> tuple[str, CommandArgs] | None:
        """The command and arguments a user would type for ``action`` (``None``: no command,
        e.g. an internal action). Used for autocomplete, buttons and ``parse``."""
        return None

    def suggestions(
        self, state: S, seat: int, command: str, param: str, args: CommandArgs
    ) -> list[str]:
        """Values of ``param`` that lead to a legal action given the arguments already filled
        in (autocomplete). Derived from ``legal_actions``; order kept, duplicates removed."""
        filled = {k: str(v).upper() for k, v in args.items() if k != param and v not in (None, "")}
        seen: dict[str, None] = {}
        for action in self.legal_actions(state, seat):
            mapped = self.to_command(action)
            if mapped is None or mapped[0] != command or param not in mapped[1]:
                continue
            their = mapped[1]
            if all(str(their.get(k, "")).upper() == v for k, v in filled.items()):
                seen.setdefault(str(their[param]), None)
        return list(seen)

    def button_candidates(self, state: S, seat: int) -> list[Action]:
        """Legal actions among which every one offered as a button is: by default all of them.
        An engine whose phase has many legal actions of typed commands only (Bad Bones' trap
        stage: a hundred placements beside its one button) lists fewer, which spares each
        phase message the whole list; ``tests/test_buttons.py`` checks it keeps every button."""
        return self.legal_actions(state, seat)

    def buttons(self, state: S, seat: int) -> list[tuple[str, CommandArgs]]:
        """The legal actions offered as buttons to ``seat`` (commands marked ``button``)."""
        names = {c.name for c in self.commands if c.button}
        out: list[tuple[str, CommandArgs]] = []
        for action in self.button_candidates(state, seat):
            mapped = self.to_command(action)
            if mapped is not None and mapped[0] in names and mapped not in out:
                out.append(mapped)
        return out

    def button_rank(self, state: S, command: str, args: CommandArgs) -> int:
        """Where a button goes among those of its command (stable: 0 keeps the order the seats'
        buttons were met in). FUSE ranks claims by the round's dice, as the message lists them."""
        return 0

    # ----------------------------------------------------------------- helpers

    def action_from_json(self, data: Any) -> Action:
        return self.codec.from_json(data)

    def rules_text_key(self) -> str:
        """Catalogue key of the ``/game rules`` help for this game."""
        return f"{self.name}.rules"

    def pieces(self) -> dict[str, tuple[Piece, ...]]:
        """The game's pieces by topic (``traps``, ``items``…), in the order ``/game rules
        topic:`` lists them; every one has a one-line description in the catalogue."""
        return {}


def _as_number(value: str | int | bool) -> str | int | bool:
    """A typed ``int`` argument as a number when it is one (a button's arguments come back as
    text); anything else as it came, for ``check`` to refuse with its reason."""
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return value
    return value


def bad_option(game: str, spec: OptionSpec, value: Any, allowed: str | None = None) -> RulesError:
    """The refusal of ``value`` for the option ``spec`` of ``game``: the option named as the
    reader types it (``tamaño``), and what it takes (by default, its type's range)."""
    if allowed is None and spec.type == "bool":
        allowed = "true, false"
    elif allowed is None and spec.type == "int":
        allowed = f"{spec.min if spec.min is not None else '…'}–{spec.max if spec.max is not None else '…'}"
    elif allowed is None:
        allowed = ", ".join(spec.choices)
    return RulesError(
        "core.error.bad_option",
        option_key=f"{game}.option_name.{spec.name}",
        value=str(value)[:50],
        allowed=allowed,
    )


def _check_option(game: str, spec: OptionSpec, value: Any) -> Any:
    bad = bad_option(game, spec, value)
    if spec.type == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"true", "yes", "on", "1", "si", "sí"}:
            return True
        if isinstance(value, str) and value.lower() in {"false", "no", "off", "0"}:
            return False
        raise bad
    if spec.type == "int":
        if isinstance(value, bool):
            raise bad
        try:
            number = int(value)
        except (TypeError, ValueError, OverflowError):  # OverflowError: int(float("inf"))
            raise bad from None
        if (spec.min is not None and number < spec.min) or (
            spec.max is not None and number > spec.max
        ):
            raise bad
        return number
    text = str(value).strip().lower()
    if text not in spec.choices:
        raise bad
    return text
