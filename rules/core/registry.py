"""The registry of games: one :class:`Registration` per game, declared in the game's own folder.

A game package (``rules/<game>/``) registers itself when imported: its engine, its computer
players, its renderer, its catalogue and the answers the service asks of a game beyond the
engine API (how its table is shown, how it is rated against the game). :func:`get_game` and
:func:`registration` import every package under ``rules/`` on first use, so adding a game is
its folder and the one ``register(Registration(...))`` in it; nothing outside names it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core.errors import RulesError
from rules.core.game import Game

# The shared package under ``rules/``: every other package is a game.
CORE = "core"


def _no_round_timer(options: Mapping[str, Any]) -> float | None:
    return None


def _no_sitting(state: Any) -> int:
    return 0


def _anew_each_phase(state: Any, sitting: int | None) -> bool:
    return True


def _pings_at_posts(state: Any) -> bool:
    return False


def _nobody_next(state: Any) -> int | None:
    return None


def _not_against_the_game(options: Mapping[str, Any], seats: int) -> str | None:
    return None


@dataclass(frozen=True)
class Presentation:
    """How the service shows a game's table (``bot/service/live.py``), as the game answers it.

    The default is every game's but a real-time one: a new table message each phase, and in a
    turn-based game (``Game.turn`` names a player) one message per turn that its steps edit.

    ``edited``: every move edits the table message, turns or not (a real-time round, whose
    moves come seconds apart); a new message comes only where ``posts_anew`` says, given the
    state of the new phase and the ``sitting`` the message was posted at (a counter of the
    game's: posting anew when the team made progress pings whom it asks, once). ``narrated``:
    the lines of narration such a message keeps (the latest); ``None`` keeps a turn's all.
    ``round_timer``: the seconds, from the table's options, a seat has in a round the engine's
    own clock runs (its pending input has a deadline) before the computer plays for it;
    ``None``: no round timer. ``timer_said`` and ``deadline_said``: the catalogue keys of the
    line an edited message shows when the computer played for a seat at the round timer or the
    channel's deadline (``{seat}``); empty: the service's own words for a turn timed out.
    ``pings_once(state)``: whether, at this state, an edited table pings every player it asks
    once a sitting (a game played over hours, whose sitting is a round: FUSE relaxed): a new
    phase of the sitting that asks a player not pinged in it yet is posted anew, pinging only
    them; one asking only players pinged already edits the message. Otherwise (a real-time
    round, seconds long) a new phase the message goes on in edits it, pinging nobody. Such a
    sitting's message keeps a turn's narration at least (its whole story: ``narrated`` is
    for a real-time round's latest lines).
    ``plays_next(state)``: in a turn-based game, the seat whose turn follows the one in play
    (``None``: the game does not know it, or it ends). A turn's message posted to ask another
    player at once (a brawl's defender) also names and pings the player who plays next, and
    their turn then begins in that very message, an edit (``bot/service/live.py``).
    """

    edited: bool = False
    sitting: Callable[[Any], int] = _no_sitting
    posts_anew: Callable[[Any, int | None], bool] = _anew_each_phase
    narrated: int | None = None
    round_timer: Callable[[Mapping[str, Any]], float | None] = _no_round_timer
    timer_said: str = ""
    deadline_said: str = ""
    pings_once: Callable[[Any], bool] = _pings_at_posts
    plays_next: Callable[[Any], int | None] = _nobody_next


@dataclass(frozen=True)
class Registration:
    """Everything the rest of Partida knows about one game, in one place.

    ``policy`` and ``hard``: the modules of its computer players (``choose(game, state, seat,
    level, dice)``: ``policy`` plays ``easy`` and ``normal``, ``hard`` the level ``hard``; a game
    without ``hard`` plays it with ``policy``; without ``policy`` it has no computer players).
    ``renderer``: the module drawing its pictures (``render/__init__.py``; ``None``: played
    in text alone). Its texts are its catalogue, ``i18n/<lang>/<name>.toml``, whose keys begin
    with the game's name, as the engine's own keys do (:attr:`catalogue`). ``presentation``: see
    :class:`Presentation`. ``versus(options, seats)``: the variant the table plays against
    the game itself (a solo or cooperative game, rated as one team against the game's virtual
    player of that variant, ``bot/service/ratings.py``), or ``None``: the players play each
    other."""

    game: Game[Any]
    policy: str | None = None
    hard: str | None = None
    renderer: str | None = None
    presentation: Presentation = field(default_factory=Presentation)
    versus: Callable[[Mapping[str, Any], int], str | None] = _not_against_the_game

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def catalogue(self) -> str:
        """The name of the game's texts (``i18n/<lang>/<catalogue>.toml``) and the prefix of
        their keys: the game's name, which its engine's event and error keys begin with too."""
        return self.game.name


_games: dict[str, Registration] = {}
_loaded = False


def register(entry: Registration) -> Registration:
    """Add a game under its engine's ``name`` (called by each game package; tests register
    their own games for one test only, ``tests/support/registered.py``)."""
    found = _games.get(entry.name)
    if found is not None and type(found.game) is not type(entry.game):
        raise ValueError(f"game name taken: {entry.name}")
    _games[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    """Take a game out of the registry again (a test's own game, once the test is over), so
    that the registry lists the shipped games only."""
    _games.pop(name, None)


def _load_packages() -> None:
    """Import every game package under ``rules/`` (in the order of their names), each of
    which registers itself."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import rules

    for found in pkgutil.iter_modules(rules.__path__):
        if found.ispkg and found.name != CORE:
            importlib.import_module(f"rules.{found.name}")


def registration(name: str) -> Registration:
    """The registration of game ``name``; an unknown name is a RulesError for the user."""
    _load_packages()
    try:
        return _games[name]
    except KeyError:
        raise RulesError(
            "core.error.unknown_game", game=str(name)[:50], games=", ".join(_games)
        ) from None


def get_game(name: str) -> Game[Any]:
    """The engine registered as ``name``; an unknown name is a RulesError for the user."""
    return registration(name).game


def game_names() -> list[str]:
    """Every registered game, in registration order."""
    _load_packages()
    return list(_games)
