"""The competitive Market at the table (advanced game): the buyers take turns, one purchase or
pass each, and the channel gets one message for the whole Market, edited by each purchase. A
buyer is pinged the first time their turn comes (a new message at the bottom of the channel,
which pings them alone); their later turns in the same Market edit it, pinging nobody."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.service import Place, Service
from bot.service.narrate import event_text
from bot.service.text import Name
from bot.store import repository as repo
from rules.badbones import GAME
from rules.badbones.actions import Buy, Pass
from rules.badbones.market import item_key
from rules.core import Event
from tests.conftest import ALICE, BOB, CAROL
from tests.support.commands import command_for

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database

HERE = Place(700, 1)
PLAYERS = (ALICE, BOB, CAROL)


@pytest.fixture(autouse=True)
def _seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.service.lobby.secrets.randbits", lambda bits: 11)


async def test_the_market_is_one_message_and_pings_each_buyer_once(service: Service) -> None:
    await service.new_game(ALICE, HERE, "badbones", {"advanced": True})
    for player in PLAYERS[1:]:
        await service.join(player, HERE)
    start = await service.start(ALICE, HERE)
    posts = [o for o in start.public if o.dm is None and not o.edit]
    pings: Counter[int] = Counter(m for o in posts for m in o.message.mentions)
    edits, turns = 0, 0
    by_user = {p.user_id: p for p in PLAYERS}
    for _ in range(60):
        async with service.sessions() as session:
            row = await repo.open_game(session, HERE.channel_id)
        assert row is not None and row.state is not None
        state = GAME.load(row.state)
        if state.stage != "market":
            break
        [buyer] = GAME.pending(state)
        seat = next(s for s in row.seats if s.seat == buyer)
        buys = [a for a in GAME.legal_actions(state, buyer) if isinstance(a, Buy)]
        # Each buys the cheapest item while the purse allows, then passes.
        action = min(buys, key=lambda a: a.item) if buys and turns < 6 else Pass()
        command, args = command_for(GAME, action)
        reply = await service.act(by_user[seat.user_id], HERE, "badbones", command, dict(args))
        assert reply.ok, reply.private and str(reply.private.text)
        turns += 1
        public = [o for o in reply.public if o.dm is None]
        if GAME.load((await _row(service)).state).stage != "market":
            break  # the Market is over: the next phase is posted as usual
        new = [o for o in public if not o.edit]
        posts += new
        pings.update(m for o in new for m in o.message.mentions)
        edits += sum(o.edit for o in public)
    assert turns >= 4, "each buyer had a turn, and one came back for a second"
    assert max(pings.values()) == 1, f"a buyer pinged twice in one Market: {pings}"
    assert len(posts) <= len(PLAYERS), "a message for each buyer's first turn at most"
    assert edits >= turns - len(PLAYERS), "the other purchases edit the Market's message"


async def _row(service: Service):
    async with service.sessions() as session:
        return await repo.open_game(session, HERE.channel_id)


def test_a_purchase_reads_as_english_whatever_the_item() -> None:
    """Play-test: "cara buys a ice wand for 6 coins": "a" before a vowel; "the" reads right for every item."""
    bought = {"seat": 0, "item_key": item_key("icewand"), "price": 6, "coins": 14}
    said = str(event_text(Event("badbones.event.bought", bought), [Name("Cara")], "en"))
    assert said == "Cara buys the ice wand for 6 coins (14 left).", said
