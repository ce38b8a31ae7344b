"""Ratings: moved once when a game ends, as openskill itself computes them; leaderboards and
stats per server; cancelled and abandoned games do not count; a rebuild gives the same."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import func, select

from bot.service import Actor, Place, Reply, Service
from bot.service.buttons import decode
from bot.service.ratings import NEW, Seated, opponent, player_key, ranks, rate
from bot.store import ratings as store
from bot.store.models import RatedGameRow, RatingRow
from tests.conftest import ALICE, BOB, CAROL, HERE, MOD, Clock
from tests.support.replies import private

DAVE = Actor(4, "Dave")
ELSEWHERE = Place(200, 20)  # another server


async def play(
    service: Service,
    players: Sequence[Actor],
    bids: Sequence[int],
    takes: Sequence[bool],
    place: Place = HERE,
) -> Reply:
    """One round of the tiny game: everyone bids (the highest unique bid scores it), then each
    in turn takes a point or passes. Returns the last move's reply (the closing message)."""
    assert (await service.new_game(players[0], place, "tiny", {"rounds": 1})).ok
    for p in players[1:]:
        assert (await service.join(p, place)).ok
    assert (await service.start(players[0], place)).ok
    for p, amount in zip(players, bids, strict=True):
        assert (await service.act(p, place, "tiny", "bid", {"amount": amount})).ok
    last = None
    for p, take in zip(players, takes, strict=True):
        last = await service.act(p, place, "tiny", "take" if take else "pass", {})
        assert last.ok, private(last)
    assert last is not None
    return last


def scores_of(bids: Sequence[int], takes: Sequence[bool]) -> list[int]:
    unique = [b for b in bids if list(bids).count(b) == 1]
    best = max(unique) if unique else None
    return [(b if b == best else 0) + (1 if t else 0) for b, t in zip(bids, takes, strict=True)]


async def standings(service: Service, guild: int) -> dict[str, tuple[float, float, int, int]]:
    async with service.sessions() as session:
        rows = (
            await session.execute(select(RatingRow).where(RatingRow.guild_id == guild))
        ).scalars()
        return {r.player: (round(r.mu, 9), round(r.sigma, 9), r.games, r.wins) for r in rows}


GAMES = [
    ((ALICE, BOB), (3, 1), (False, False)),  # Alice 3, Bob 0
    ((ALICE, BOB, CAROL), (2, 2, 1), (False, True, True)),  # Carol 2, Bob 1, Alice 0
    ((BOB, CAROL, DAVE), (3, 1, 2), (False, False, True)),  # Bob 3, Dave 1, Carol 0
    ((DAVE, ALICE), (1, 1), (True, True)),  # a draw: 1-1
]


async def test_ratings_match_openskills_own_computation(service: Service) -> None:
    """Several games, two to three players, a tie and a draw: each player's mu and sigma are
    what openskill's Plackett-Luce gives when told the same results as scores."""
    model = PlackettLuce()
    expected: dict[str, PlackettLuceRating] = {}
    for players, bids, takes in GAMES:
        await play(service, players, bids, takes)
        keys = [f"u:{p.user_id}" for p in players]
        teams = [[expected.get(k) or model.rating()] for k in keys]
        rated = model.rate(teams, scores=[float(s) for s in scores_of(bids, takes)])
        expected.update({k: team[0] for k, team in zip(keys, rated, strict=True)})
    got = await standings(service, HERE.guild_id or 0)
    assert set(got) == set(expected)
    for key, rating in expected.items():
        assert got[key][0] == pytest.approx(rating.mu, abs=1e-9)
        assert got[key][1] == pytest.approx(rating.sigma, abs=1e-9)
    assert got["u:1"][2:] == (3, 2), "Alice: three games; won one, and the draw (a shared top)"


async def test_the_closing_message_tells_the_rating_change(service: Service) -> None:
    final = await play(service, (ALICE, BOB), (3, 1), (False, False))
    (closing,) = [o.message for o in final.public if "Winner" in o.message.whole]
    said = str(closing.narration)
    assert "Ratings:" in said and "Alice" in said and "(+" in said and "(−" in said


async def test_a_game_is_rated_once_per_server(service: Service) -> None:
    await play(service, (ALICE, BOB), (3, 1), (False, False))
    await play(service, (ALICE, BOB), (1, 3), (False, False), place=ELSEWHERE)
    here = await standings(service, HERE.guild_id or 0)
    there = await standings(service, ELSEWHERE.guild_id or 0)
    assert here["u:1"][0] > here["u:2"][0], "Alice won here"
    assert there["u:1"][0] < there["u:2"][0], "Bob won there: another server, other ratings"
    async with service.sessions() as session:
        count = (await session.execute(select(func.count()).select_from(RatedGameRow))).scalar()
    assert count == 2


async def test_cancelled_and_abandoned_games_do_not_count(service: Service, clock: Clock) -> None:
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 1})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.act(ALICE, HERE, "tiny", "bid", {"amount": 3})).ok
    assert (await service.cancel(ALICE, HERE)).ok
    assert await standings(service, HERE.guild_id or 0) == {}, "a cancelled game"
    # Everyone leaves: the computer plays the game out, and nobody is rated for it.
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 1})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.leave(ALICE, HERE)).ok
    assert (await service.leave(BOB, HERE)).ok
    for _ in range(4):
        clock.now += service.computer_delay
        await service.run_deadlines()
    # (Asked by someone else: a command of Alice's or Bob's would take their seat back.)
    assert "no game" in private(await service.status(MOD, HERE)).lower(), "it did finish"
    assert await standings(service, HERE.guild_id or 0) == {}, "an abandoned game"


async def test_a_single_seat_competitive_game_is_not_rated(service: Service) -> None:
    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 1})).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.act(ALICE, HERE, "tiny", "bid", {"amount": 2})).ok
    assert (await service.act(ALICE, HERE, "tiny", "take", {})).ok
    assert await standings(service, HERE.guild_id or 0) == {}


async def test_rebuild_rates_every_finished_game_again_in_order(service: Service) -> None:
    for players, bids, takes in GAMES:
        await play(service, players, bids, takes)
    live = await standings(service, HERE.guild_id or 0)
    assert await service.rebuild_ratings() == len(GAMES)
    assert await standings(service, HERE.guild_id or 0) == live
    assert await service.rebuild_ratings() == len(GAMES), "again: the same, not twice over"
    assert await standings(service, HERE.guild_id or 0) == live


async def test_leaderboard_pages_with_buttons(service: Service) -> None:
    people = [Actor(100 + i, f"Player{i:02d}") for i in range(12)]
    for four in (people[0:4], people[4:8], people[8:12]):
        await play(service, four, (3, 2, 1, 1), (False, False, False, False))
    first = await service.leaderboard(ALICE, HERE, "tiny")
    text = private(first)
    assert "page 1)" in text
    assert text.count("\n") >= 10 and "12." not in text
    assert "Player00" in text.split("\n")[1] or "Player04" in text.split("\n")[1]
    assert first.private is not None
    (forward,) = first.private.buttons
    pressed = decode(forward.custom_id)
    assert pressed is not None and pressed.args["page"] == "2"
    assert pressed.args["after"] in {f"u:{p.user_id}" for p in people}, "the page's last player"
    second = await service.press(ALICE, HERE, decode(forward.custom_id))
    text = private(second)
    listed = [line for line in text.split("\n") if ". Player" in line]
    assert "page 2)" in text and len(listed) == 2, (
        "the last two of twelve (their places: tests/test_pages.py)"
    )
    assert second.private is not None
    assert [b.label for b in second.private.buttons] == ["◀ Previous"]
    spanish = private(await service.leaderboard(CAROL, HERE, "tiny", page=9))
    assert "página 2)" in spanish, "past the end: the last page, in the reader's language"
    refused = await service.leaderboard(ALICE, HERE, "chess")
    assert not refused.ok and "tiny" in private(refused)
    other = private(await service.leaderboard(ALICE, ELSEWHERE, "tiny"))
    assert "Nobody" in other, "another server's leaderboard is its own"


async def test_stats_per_game_and_favourite(service: Service) -> None:
    for players, bids, takes in GAMES:
        await play(service, players, bids, takes)
    mine = private(await service.stats(BOB, HERE))
    assert "Bob: played 3, won 1" in mine and "Favourite game" in mine
    assert "best score 3" in mine and "μ" in mine and "σ" in mine and "#" in mine
    theirs = private(await service.stats(ALICE, HERE, user_id=CAROL.user_id))
    assert "Carol: played 2, won 1" in theirs
    nobody = private(await service.stats(ALICE, HERE, user_id=999, name="Zed"))
    assert "Zed" in nobody and "not finished a rated game" in nobody


async def test_stats_names_the_player_as_at_their_last_rated_game(service: Service) -> None:
    """Renamed since their favourite game's last rating: the stats say the newer name."""

    def standing(kind: str, name: str, games: int, at: float) -> RatingRow:
        return RatingRow(
            guild_id=HERE.guild_id,
            kind=kind,
            player=player_key(BOB.user_id),
            name=name,
            mu=25.0,
            sigma=8.0,
            games=games,
            wins=0,
            updated_at=at,
        )

    async with service.sessions() as session, session.begin():
        session.add_all(
            [standing("zvv", "Bobby", 9, 100.0), standing("farkle", "Roberto", 1, 200.0)]
        )
    mine = private(await service.stats(BOB, HERE))
    assert mine.startswith("Roberto: played 10") and "Bobby" not in mine
    assert "Favourite game: Zombies vs Vampires" in mine


def test_cooperative_tables_play_against_the_game() -> None:
    """FUSE and cooperative Bad Bones: the table is one team, the game (per variant) the
    other; openskill's own two-team computation."""
    assert opponent("fuse", {"difficulty": "hard"}, 3) == "game:fuse:hard"
    assert opponent("badbones", {"cooperative": True, "heroic": True}, 4) == (
        "game:badbones:coop-heroic"
    )
    assert opponent("badbones", {}, 1) == "game:badbones:solo"
    assert opponent("badbones", {}, 3) is None and opponent("zvv", {}, 2) is None
    seats = [Seated(0, "u:1", "Ann", True, 40), Seated(1, "u:2", "Ben", True, 40)]
    new = rate(seats, "game:fuse:standard", {})
    model = PlackettLuce()
    team, game = model.rate([[model.rating(), model.rating()], [model.rating()]], ranks=[0, 1])
    assert new["u:1"].mu == pytest.approx(team[0].mu) and new["u:2"].mu == pytest.approx(team[1].mu)
    assert new["game:fuse:standard"].mu == pytest.approx(game[0].mu) and game[0].mu < NEW.mu
    lost = rate([Seated(0, "u:1", "Ann", False, 5)], "game:fuse:standard", {})
    assert lost["u:1"].mu < NEW.mu < lost["game:fuse:standard"].mu


def test_ranks_winners_first_then_by_score_and_computers_per_level() -> None:
    seats = [
        Seated(0, "u:1", "A", False, 5),
        Seated(1, "u:2", "B", True, 9),
        Seated(2, "cpu:hard", "C", False, 7),
        Seated(3, "u:4", "D", False, 5),
    ]
    assert ranks(seats) == [2, 0, 1, 2]
    assert player_key(7) == "u:7" and player_key(7, "hard") == "cpu:hard"


@pytest.mark.parametrize("rated_before", [True, False], ids=["rated-before", "first-games"])
async def test_two_games_ending_at_once_on_one_server_both_count(
    service: Service, monkeypatch: pytest.MonkeyPatch, rated_before: bool
) -> None:
    """Two channels of one server, each game's last move at the same moment: the second
    rating update starts from the first one's result, never from the rating both read (the
    rows are held a while after they are read, so the two transactions surely overlap)."""
    if rated_before:
        await play(service, (ALICE, BOB), (3, 1), (False, False))  # rows to update
    read = store.load

    async def held(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.05)  # both games get here
        rows = await read(*args, **kwargs)
        await asyncio.sleep(0.2)  # and the first holds its rows while the second asks
        return rows

    there = Place(HERE.channel_id + 1, HERE.guild_id)
    for place in (HERE, there):
        assert (await service.new_game(ALICE, place, "tiny", {"rounds": 1})).ok
        assert (await service.join(BOB, place)).ok
        assert (await service.start(ALICE, place)).ok
        assert (await service.act(ALICE, place, "tiny", "bid", {"amount": 3})).ok
        assert (await service.act(BOB, place, "tiny", "bid", {"amount": 1})).ok
        assert (await service.act(ALICE, place, "tiny", "pass", {})).ok
    monkeypatch.setattr(store, "load", held)
    last = await asyncio.gather(
        *(service.act(BOB, place, "tiny", "pass", {}) for place in (HERE, there))
    )
    assert all(reply.ok for reply in last)
    rows = await standings(service, HERE.guild_id or 0)
    games = 3 if rated_before else 2
    assert rows["u:1"][2:] == (games, games) and rows["u:2"][2:] == (games, 0), "every game"
    model = PlackettLuce()
    alice, bob = model.rating(), model.rating()
    for _ in range(games):
        [alice], [bob] = model.rate([[alice], [bob]], ranks=[0, 1])
    assert rows["u:1"][:2] == (round(alice.mu, 9), round(alice.sigma, 9)), "won one after one"


def test_spanish_calls_the_rating_valoracion_and_the_computer_la_computadora() -> None:
    # A Spanish player read "La puntuación es μ − 3σ" beside "mejor puntuación 2.800" (a game's
    # score), and "Ordenador (normal)" where every other text says "la computadora".
    from bot.service.standings import who
    from bot.service.text import Text
    from i18n import catalogue

    def computer(player: str, lang: str) -> str:
        shown = who(player, "", lang)
        assert isinstance(shown, Text), "a computer is named in the catalogue's words"
        return shown.plain()

    es = catalogue("es")
    # a name that heads a leaderboard line ("3. La computadora (Normal)"): a capital
    assert computer("cpu:normal", "es") == "La computadora (Normal)"
    assert computer("cpu:easy", "es") == "La computadora (Fácil)", "the level as seated"
    assert computer("cpu:easy", "en") == "Computer (Easy)"
    assert es["ratings.leaderboard.legend"].startswith("La valoración es μ − 3σ")
    assert es["ratings.changes"].startswith("Valoraciones:")
    assert "mejor puntuación" in es["ratings.stats.best"], "a game's own score stays puntuación"
    rating_texts = {k: v for k, v in es.items() if k.startswith("ratings.")}
    rating_texts.pop("ratings.stats.best")
    for key, text in rating_texts.items():
        assert "puntua" not in text.lower().replace("ú", "u"), key
    for key, text in es.items():
        assert "ordenador" not in text.lower(), key


def test_the_game_a_table_plays_against_is_named_in_the_readers_words() -> None:
    # A Spanish table that lost a FUSE game with the hard cards read "El juego (FUSE,
    # standard-hard) 0,0 (+0,1)" in its closing message: the variant's key, in English.
    from bot.service.ratings import Change, Standing
    from bot.service.standings import changes_text
    from i18n import LANGUAGES, catalogue
    from rules.core import game_names, get_game, registration
    from tests.support.fingerprint import option_sets

    bomb = Change(None, "game:fuse:standard-hard", "", NEW, Standing(26.0, 8.0))
    closing = changes_text([bomb], "es").plain()
    assert closing.startswith("Valoraciones: El juego (FUSE, estándar, cartas difíciles) ")
    skeletons = Change(None, "game:badbones:coop-heroic", "", NEW, Standing(24.0, 8.0))
    assert "The game (Bad Bones, cooperative, heroic)" in changes_text([skeletons], "en").plain()
    # Every variant any table can play against has words in every language.
    for kind in game_names():
        engine = get_game(kind)
        for options in option_sets(engine):
            for seats in range(engine.min_seats, engine.max_seats + 1):
                variant = registration(kind).versus(options, seats)
                for part in (variant or "").split("-") if variant else ():
                    for lang in LANGUAGES:
                        assert f"{kind}.versus.{part}" in catalogue(lang), (kind, part, lang)
