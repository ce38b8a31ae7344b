"""The read-only commands: what a user may look at without changing anything (autocomplete,
rules and help, their open games, a channel's history, leaderboards and stats, a game's
state rebuilt from its log). None takes a channel's lock or a transaction that writes, so none waits
behind a move. Each is a function of the service's state (:class:`~bot.service.runner.Runner`:
the sessions, the clock and the users' chosen languages), and a method of
:class:`~bot.service.service.Service` under the same name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import metrics
from bot.service import guide, moves, pieces, ratings, shown, standings
from bot.service import history as past
from bot.service.errors import Refusal
from bot.service.fairuse import LOOK
from bot.service.replies import Actor, Message, Place, Reply
from bot.service.runner import Runner
from bot.service.text import Text, lines, phrase
from bot.store import repository as repo
from bot.store.models import LOBBY
from i18n import language_for
from rules.core import CommandArgs, RulesError, get_game


async def suggest(
    service: Runner,
    actor: Actor,
    place: Place,
    game: str,
    command: str,
    param: str,
    args: CommandArgs,
    typed: str = "",
) -> list[str]:
    """Autocomplete values (at most 25) from the actor's legal actions. Read-only. A value
    that names a piece is a :class:`~bot.service.pieces.Offered`: its label says what the
    piece does ("Barricade — …"), the value submitted stays the name."""
    async with service.sessions() as session:
        row = await repo.open_game(session, place.channel_id)
        if row is None:  # typed in the channel: its one game in a thread, if one
            threaded = await repo.open_games_in_threads(session, place.channel_id)
            row = threaded[0] if len(threaded) == 1 else None
        lang = await service.language_of(session, actor)
    values = moves.suggest(row, actor, game, command, param, args)
    # Offered as the reader names them ("Dado cargado", "O"); typed in either language.
    needle = str(typed or "").strip().upper()
    said = [(v, str(shown.show(game, param, v, lang))) for v in values]
    offered: list[str] = [
        pieces.offered(game, command, param, v, name, lang)
        for v, name in said
        if needle in v.upper() or needle in name.upper()
    ]
    return offered[:25]


@metrics.read("rules")
async def rules(
    service: Runner, actor: Actor, place: Place, game: str, topic: str | None = None
) -> Reply:
    """``/game rules game:<g>``: the game's rules, ending with the topics it describes
    piece by piece; with ``topic:``, that topic's pieces, each in one line."""
    lang = language_for(actor.locale)
    if not str(game or "").strip():  # no game named: say which there are
        async with service.sessions() as session:
            lang = await service.language_of(session, actor)
        return Reply(private=Message(guide.which_rules(lang)))
    try:
        engine = get_game(str(game))
    except RulesError as err:
        return service.refusal(err, lang)
    async with service.sessions() as session:
        lang = await service.language_of(session, actor)
    if str(topic or "").strip():
        try:
            head, said = pieces.topic_text(engine.name, str(topic).strip(), lang)
        except Refusal as refusal:
            return service.refusal(refusal, lang)
        return Reply(private=Message(head, narration=said))
    text = phrase(engine.rules_text_key(), lang)
    more = pieces.topics_line(engine.name, lang)
    return Reply(private=Message(text if more is None else lines([text, more])))


@metrics.read("help")
async def help(
    service: Runner, actor: Actor, place: Place, game: str | None, listing: Callable[[str], Text]
) -> Reply:
    """``/help`` (general) or ``/help game:<game>``: private, in the reader's language.
    ``listing``: the lobby's commands in a language, handed over by the lobby's list
    itself (``lobby_commands.listing``), which calls this: the list types its calls
    against the service, so the service does not import it back."""
    async with service.sessions() as session:
        lang = await service.language_of(session, actor)
    if not game:
        return Reply(private=Message(guide.general_help(lang, listing(lang))))
    try:
        get_game(str(game))
    except RulesError as err:
        return service.refusal(err, lang)
    return Reply(private=Message(guide.game_help(str(game), lang)))


@metrics.read("mine")
async def mine(service: Runner, actor: Actor, place: Place) -> Reply:
    """``/game mine``: the user's open games in this server, with links to their channels."""
    async with service.sessions() as session:
        lang = await service.language_of(session, actor)
        rows = await repo.open_games_of(session, actor.user_id, place.guild_id)
    return Reply(private=Message(guide.mine(rows, lang)))


def welcome(service: Runner, lang: str) -> Message:
    """What the bot says once when it joins a server (in the server's language)."""
    return Message(guide.welcome(lang))


@metrics.read("history")
async def history(
    service: Runner,
    actor: Actor,
    place: Place,
    page: int = 1,
    *,
    after: int | None = None,
    before: int | None = None,
) -> Reply:
    """The channel's finished games, newest first, a page at a time (``history.PAGE``),
    each with a Replay button, and buttons to the pages around it (which carry the game
    they continue from: ``after``, ``before``; see ``bot.service.history``)."""
    if refused := await service.over_budget(LOOK, actor, place):
        return refused
    async with service.sessions() as session:
        lang = await service.language_of(session, actor)
        head, said, found = await past.page(
            session, place.channel_id, page_number(page), lang, after=after, before=before
        )
    return Reply(private=Message(head, narration=said, buttons=found))


@metrics.read("leaderboard")
async def leaderboard(
    service: Runner,
    actor: Actor,
    place: Place,
    game: str,
    page: int = 1,
    *,
    after: str | None = None,
    before: str | None = None,
) -> Reply:
    """One page of a game's leaderboard on this server, with buttons to the pages around
    it (which carry the player they continue from: ``after``, ``before``)."""
    if refused := await service.over_budget(LOOK, actor, place):
        return refused
    async with service.sessions() as session:
        lang = await service.language_of(session, actor)
        try:
            text, pages = await standings.leaderboard(
                session,
                place.guild_id,
                game,
                page_number(page),
                lang,
                after=after,
                before=before,
            )
        except Refusal as refusal:
            return service.refusal(refusal, lang)
    return Reply(private=Message(text, buttons=pages))


@metrics.read("stats")
async def stats(
    service: Runner, actor: Actor, place: Place, user_id: int | None = None, name: str | None = None
) -> Reply:
    """A player's games, wins, best scores and ratings on this server (default: yours).
    ``name``: the other player's name as the adapter knows it, for one never rated here."""
    async with service.sessions() as session:
        lang = await service.language_of(session, actor)
        player = ratings.player_key(actor.user_id if user_id is None else int(user_id))
        if user_id in (None, actor.user_id):
            name = actor.display_name
        text = await standings.stats(session, place.guild_id, player, name or "?", lang)
    return Reply(private=Message(text))


async def state_from_log(service: Runner, game_id: int) -> dict[str, Any] | None:
    """Rebuild a game's state from its seed and action log (crash checks, audits)."""
    async with service.sessions() as session:
        row = await repo.game_by_id(session, game_id)
        if row is None or row.status == LOBBY:
            return None
        engine = get_game(row.kind)
        state = engine.new_game(len(row.seats), row.options, row.seed)
        for entry in await repo.action_log(session, game_id):
            state, _ = engine.apply(
                state, entry.seat, engine.action_from_json(entry.action), entry.at
            )
        return engine.dump(state)


def game_number(value: Any) -> int | None:
    """A game id from a page button (None: none, or not a number a game can have: a forged
    button's number past the database's integers would raise there)."""
    try:
        number = int(str(value)) if value is not None else None
    except ValueError:
        return None
    return number if number is not None and 0 < number < 2**62 else None


def player_of(value: Any) -> str | None:
    """A rated player's key from a page button (None: none)."""
    return str(value)[:64] if value is not None else None


def page_number(value: Any) -> int:
    """A page number from a button or a command; anything else is the first page."""
    try:
        return max(1, min(int(str(value)), 10**6))
    except (TypeError, ValueError):
        return 1
