"""FUSE play-tests through the service (console reports, session 6): what the channel reads."""

from __future__ import annotations

from bot.service import Service
from tests.conftest import ALICE, BOB, HERE, Clock


def _said(outgoing: object) -> str:
    return "\n".join(str(o.message.whole) for o in getattr(outgoing, "public", outgoing))


async def _relaxed_game(service: Service) -> None:
    assert (await service.new_game(ALICE, HERE, "fuse", {"mode": "relaxed"})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.act(ALICE, HERE, "fuse", "draw", {})).ok


async def test_players_on_autopilot_are_not_told_of_private_news_fuse_has_none(
    service: Service, clock: Clock
) -> None:
    """Play-test: a relaxed game, both players away (`/wait 25h` twice). The computer played
    their seats, passing when it had nothing to place, and the channel read "🔒 alice: something
    only you may see happened" several times: FUSE hides nothing, and /game board showed
    nothing new (the line was the echo of the pass the computer chose)."""
    await _relaxed_game(service)
    said = ""
    for _ in range(2):
        clock.now += 25 * 3600
        said += _said(await service.run_deadlines())
        for _ in range(40):  # the computer's moves, a moment apart
            clock.now += 2
            said += _said(await service.run_deadlines())
    assert "Round 3" in said, "the computer played several rounds for the absent players"
    assert "🔒" not in said and "only you may see" not in said
