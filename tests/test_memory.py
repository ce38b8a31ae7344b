"""The service's per-process tables do not grow with the channels and users it has served
(bot/service/memory.py): a channel's lock lives while it is used, languages are kept for the
most recent users only."""

from __future__ import annotations

import asyncio
import gc

from bot.service import Actor, Place, Service
from bot.service.lobby_commands import listing
from bot.service.memory import LANGUAGE_TTL, ChannelLocks, RecentLanguages
from tests.conftest import Clock


async def test_the_channel_locks_do_not_grow_after_many_games(service: Service) -> None:
    """Forty games in forty channels, each opened, joined, started and cancelled: no lock is
    left once their commands are answered."""
    for n in range(40):
        place = Place(5000 + n, 10)
        host, guest = Actor(7000 + 2 * n, "Host"), Actor(7001 + 2 * n, "Guest")
        assert (await service.new_game(host, place, "tiny", {"rounds": 1})).ok
        assert (await service.join(guest, place)).ok
        assert (await service.start(host, place)).ok
        assert (await service.cancel(host, place)).ok
    gc.collect()
    assert len(service.locks) == 0
    assert len(service.languages) == 80, "every user seen is still within the bound"


async def test_a_channels_lock_is_one_while_used_and_gone_after() -> None:
    locks = ChannelLocks()
    order: list[str] = []
    first_in = asyncio.Event()

    async def command(name: str) -> None:
        async with locks[1]:
            order.append(f"{name} in")
            first_in.set()
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            order.append(f"{name} out")

    one = asyncio.create_task(command("one"))
    await first_in.wait()
    assert len(locks) == 1 and locks[1].locked()
    await asyncio.gather(one, command("two"))
    assert order == ["one in", "one out", "two in", "two out"], "one at a time"
    gc.collect()
    assert len(locks) == 0


def test_languages_keep_the_users_read_last_within_the_bound() -> None:
    languages = RecentLanguages(kept=3)
    for user in (1, 2, 3):
        languages[user] = ("es", 0.0)
    languages[1] = ("es", 1.0)  # 1 is read again: now the latest
    languages[4] = (None, 1.0)
    assert len(languages) == 3
    assert languages.get(2) is None, "the earliest read went first"
    assert languages.get(1) is not None and languages.get(3) is not None


def test_languages_past_their_trust_are_not_kept() -> None:
    """A choice older than LANGUAGE_TTL is read again at the user's next command anyway, so the
    table holds the last minute's users, not every user served since the bot started."""
    languages = RecentLanguages(kept=1000)
    for user in range(100):
        languages[user] = ("es", float(user))  # a user a second
    assert len(languages) == LANGUAGE_TTL, "the users of the last minute"
    assert languages.get(99) == ("es", 99.0)
    assert languages.get(99 - int(LANGUAGE_TTL)) is None, "read a minute ago: dropped"
    languages[100] = ("en", 100.0 + LANGUAGE_TTL)  # after a quiet minute
    assert len(languages) == 1


async def test_languages_stay_few_however_many_users_the_bot_has_served(
    service: Service, clock: Clock
) -> None:
    """Ninety users, one new player every twenty seconds (half an hour of a quiet server): the
    service keeps the languages of the last minute's users only."""
    for n in range(90):
        clock.now += 20
        await service.help(Actor(500 + n, f"U{n}"), Place(1, 10), None, listing)
    assert len(service.languages) == 3


async def test_a_user_dropped_from_the_languages_still_reads_their_choice(
    service: Service,
) -> None:
    service.languages.kept = 5
    spanish = Actor(1, "Ana", locale="en-US")
    assert (await service.language(spanish, Place(1, 10), "es")).ok
    for n in range(20):
        await service.help(Actor(100 + n, f"U{n}"), Place(1, 10), None, listing)
    assert len(service.languages) == 5
    assert service.languages.get(spanish.user_id) is None
    reply = await service.help(spanish, Place(1, 10), None, listing)
    assert reply.private is not None
    english = await service.help(Actor(2, "Bo", locale="en-US"), Place(1, 10), None, listing)
    assert english.private is not None
    assert str(reply.private.text) != str(english.private.text), "read again: Spanish"
