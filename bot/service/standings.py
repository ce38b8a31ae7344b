"""What the ratings read like: the closing message's changes, ``/game leaderboard`` (one page,
buttons to the others) and ``/game stats``. Read-only; words in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from bot.service import buttons as button_ids
from bot.service.errors import Refusal
from bot.service.narrate import plain_name
from bot.service.ratings import NO_GUILD, Change, Standing
from bot.service.replies import Button
from bot.service.text import Name, Strong, Text, join, lines, phrase
from bot.store import ratings as store
from bot.store.models import RatingRow
from i18n import has, t
from rules.core import CommandArgs, RulesError, game_names, get_game

PAGE = 10
LEADERBOARD = "leaderboard"  # the page buttons' command (buttons.view_id)


def number(value: float, lang: str, *, signed: bool = False) -> str:
    """A rating as the language writes it, one decimal: 12.3 / 12,3 (signed: +1.2, −0.8)."""
    text = f"{abs(value) if signed else value:.1f}"
    if lang == "es":
        text = text.replace(".", ",")
    if signed:
        text = ("−" if value < 0 else "+") + text
    return text.replace("-", "−")


def who(player: str, name: str, lang: str) -> Name | Text:
    """A rated player's name: a person's as shown on the server, a computer's level, or the
    game itself (a cooperative or solo game's opponent)."""
    if player.startswith("cpu:"):
        level = player[4:]
        # The level as the seats name it ("Fácil"), when the catalogue knows it.
        shown = phrase(f"bots.level.{level}", lang) if has(f"bots.level.{level}") else level
        return phrase("ratings.computer", lang, level=shown)
    if player.startswith("game:"):
        kind, _, variant = player[5:].partition(":")
        return phrase(
            "ratings.the_game",
            lang,
            game=phrase(f"{kind}.name", lang),
            variant=variant_words(kind, variant, lang),
        )
    return Name(plain_name(name))  # a name never rated comes as Discord gives it


def variant_words(kind: str, variant: str, lang: str) -> str:
    """The variant a table played against the game, in words: the registration's ``versus``
    key (``standard-hard``, ``coop-heroic``) a part at a time, each ``<game>.versus.<part>``
    ("estándar, cartas difíciles"); a part the catalogue lacks as it is."""
    keys = {part: f"{kind}.versus.{part}" for part in variant.split("-")}
    return ", ".join(t(key, lang) if has(key) else part for part, key in keys.items())


def changes_text(changes: Sequence[Change], lang: str) -> Text:
    """The closing message's line: each player's new rating and how far it moved."""
    parts = [
        phrase(
            "ratings.change",
            lang,
            player=who(c.player, c.name, lang),
            rating=number(c.after.ordinal, lang),
            delta=number(c.delta, lang, signed=True),
        )
        for c in changes
    ]
    return phrase("ratings.changes", lang, changes=join(parts, " · "))


def game_kind(game: str) -> str:
    """A game the leaderboard knows, or the refusal naming the games."""
    try:
        return get_game(str(game)).name
    except RulesError:
        raise Refusal("ratings.error.game", games=", ".join(game_names())) from None


async def leaderboard(
    session: AsyncSession,
    guild: int | None,
    game: str,
    page: int,
    lang: str,
    *,
    after: str | None = None,
    before: str | None = None,
) -> tuple[Text, tuple[Button, ...]]:
    """One page: the page ``page``, or the one after player ``after`` or before ``before``
    (numbered ``page``). The buttons carry the page's number and its edge player, so a page
    costs the same whatever the number of players; nothing counts them all (``store.leaderboard``),
    except for a page asked for past the end, which is the last one."""
    kind = game_kind(game)
    server = guild or NO_GUILD
    rows, page, more = await _rows(session, server, kind, max(1, int(page)), after, before)
    title = phrase("ratings.leaderboard.title", lang, game=phrase(f"{kind}.name", lang), page=page)
    if not rows:
        return lines([title, phrase("ratings.leaderboard.empty", lang)]), ()
    said: list[Text] = [title]
    places = await _places(session, server, kind, rows, (page - 1) * PAGE + 1)
    for place, row in zip(places, rows, strict=True):
        said.append(_line(place, row, lang))
    said.append(phrase("ratings.leaderboard.legend", lang))
    return lines(said), _page_buttons(kind, page, rows, more, lang)


async def _rows(
    session: AsyncSession, server: int, kind: str, page: int, after: str | None, before: str | None
) -> tuple[list[RatingRow], int, bool]:
    """The page's players, its number, and whether a next page follows."""
    if after is not None:
        rows = list(await store.leaderboard(session, server, kind, PAGE + 1, after=after))
        if rows:
            return rows[:PAGE], max(2, page), len(rows) > PAGE
    elif before is not None:
        rows = list(await store.leaderboard(session, server, kind, PAGE + 1, before=before))
        if len(rows) > PAGE:  # a better page still before this one
            return rows[1:], max(2, page), True
        page = 1  # the top: the first page, read afresh
    # By number: a button of an older version, or a player gone from the board meanwhile.
    rows = list(await store.leaderboard(session, server, kind, PAGE + 1, offset=(page - 1) * PAGE))
    if not rows and page > 1:  # past the end: the last page
        page = max(1, -(-(await store.count_listed(session, server, kind)) // PAGE))
        rows = list(
            await store.leaderboard(session, server, kind, PAGE + 1, offset=(page - 1) * PAGE)
        )
    return rows[:PAGE], page, len(rows) > PAGE


async def _places(
    session: AsyncSession, server: int, kind: str, rows: Sequence[RatingRow], first: int
) -> list[int]:
    """Each row's place as ``/game stats`` says it: 1 + the players rated above, so that equal
    ratings share a place (1, 2, 2, 4). Only the page's first row may tie with the page before
    it: its place is counted as the stats count it (within ``store.PLACES``; beyond, its place in
    the list); each other row is either tied with the one above it or placed by its position."""
    places: list[int] = []
    above: float | None = None
    for i, row in enumerate(rows):
        ordinal = Standing(row.mu, row.sigma).ordinal
        if i == 0 and first > 1:
            places.append(await store.place_of(session, server, kind, ordinal) or first)
        elif ordinal == above:
            places.append(places[-1])
        else:
            places.append(first + i)
        above = ordinal
    return places


def _line(place: int, row: RatingRow, lang: str) -> Text:
    standing = Standing(row.mu, row.sigma)
    return phrase(
        "ratings.leaderboard.line",
        lang,
        place=place,
        player=who(row.player, row.name, lang),
        rating=Strong(number(standing.ordinal, lang)),
        mu=number(row.mu, lang),
        sigma=number(row.sigma, lang),
        games=row.games,
        wins=row.wins,
    )


def _page_buttons(
    kind: str, page: int, rows: Sequence[RatingRow], more: bool, lang: str
) -> tuple[Button, ...]:
    out = []
    if page > 1:
        args: CommandArgs = {"game": kind, "page": page - 1, "before": rows[0].player}
        out.append(
            Button(
                str(phrase("ratings.leaderboard.previous", lang)),
                button_ids.view_id(LEADERBOARD, args),
            )
        )
    if more:
        args = {"game": kind, "page": page + 1, "after": rows[-1].player}
        out.append(
            Button(
                str(phrase("ratings.leaderboard.next", lang)), button_ids.view_id(LEADERBOARD, args)
            )
        )
    return tuple(out)


async def stats(
    session: AsyncSession, guild: int | None, player: str, name: str, lang: str
) -> Text:
    """``/game stats``: games played and won, best score, rating ± uncertainty, per game, and
    the favourite game (the one played most on this server)."""
    server = guild or NO_GUILD
    rows = await store.of_player(session, server, player)
    # The name at their last rated game of any game (rows[0] is the one played most).
    latest = max(rows, key=lambda r: r.updated_at).name if rows else name
    shown = who(player, latest, lang)
    if not rows:
        return phrase("ratings.stats.none", lang, player=shown)
    played = sum(r.games for r in rows)
    won = sum(r.wins for r in rows)
    said: list[Text] = [
        phrase(
            "ratings.stats.title",
            lang,
            player=shown,
            games=played,
            wins=won,
            favourite=phrase(f"{rows[0].kind}.name", lang),
        )
    ]
    for row in rows:
        standing = Standing(row.mu, row.sigma)
        # Beyond ``store.PLACES`` the place is said as "1000+" (it would need a count over the
        # server's players).
        place = await store.place_of(session, server, row.kind, standing.ordinal)
        best = (
            phrase("ratings.stats.best", lang, score=row.best_score)
            if row.best_score is not None
            else Text.of("")
        )
        said.append(
            phrase(
                "ratings.stats.line",
                lang,
                game=phrase(f"{row.kind}.name", lang),
                rating=Strong(number(standing.ordinal, lang)),
                mu=number(row.mu, lang),
                sigma=number(row.sigma, lang),
                place=place if place is not None else f"{store.PLACES}+",
                games=row.games,
                wins=row.wins,
                best=best,
            )
        )
    return lines(said)
