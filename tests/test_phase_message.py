"""The public message of a phase: who is pinged, and the buttons every awaited player shares."""

from __future__ import annotations

from bot.discord.markup import markdown
from bot.service import Service
from bot.service.compose import offered_buttons
from bot.service.table import Table
from bot.store.models import GameRow, SeatRow
from rules.badbones import GAME
from rules.badbones.state import TRAP
from tests.badbones.helpers import position, trap_phase
from tests.conftest import ALICE, BOB, HERE


def _row(*names: str) -> GameRow:
    row = GameRow(id=7, channel_id=1, kind="badbones", phase="3.skeletons.1", host_id=1, seed=1)
    row.seats = [
        SeatRow(seat=i, user_id=100 + i, display_name=name, locale="en")
        for i, name in enumerate(names)
    ]
    return row


async def test_players_asked_different_questions_see_whose_button_is_whose(
    service: Service,
) -> None:
    # Alice's dragon repels a skeleton (which way?); Bob's skeleton leaves through the top
    # forest (to whose cemetery?): two questions, one row of buttons.
    state = position("C5 dragon\nC4 S", "B1 N", "floors 2", "", stage=TRAP)
    state, _ = trap_phase(state)
    pending = GAME.pending(state)
    assert {p.kind for p in pending.values()} == {"choose_dragon", "choose_top"}
    row = _row("Ana_Banana", "Bob", "Chen", "Dora")
    table = Table(row, GAME, state)
    labels = [b.label for b in offered_buttons(table, sorted(pending), "en", pending)]
    assert "Ana_Banana: W" in labels and "Ana_Banana: E" in labels  # as typed: no markdown
    assert "Bob: 3" in labels and "Bob: 4" in labels
    assert all(label.startswith(("Ana_Banana: ", "Bob: ")) for label in labels)


async def test_players_asked_the_same_thing_share_unnamed_buttons(service: Service) -> None:
    state = position("C5 dragon\nC4 S", "C5 dragon\nC4 S", stage=TRAP)
    state, _ = trap_phase(state)
    pending = GAME.pending(state)
    assert set(pending) == {0, 1} and {p.kind for p in pending.values()} == {"choose_dragon"}
    row = _row("Ana", "Bob")
    table = Table(row, GAME, state)
    labels = [b.label for b in offered_buttons(table, sorted(pending), "en", pending)]
    assert labels and not any(":" in label for label in labels)


async def test_the_team_is_pinged_once_for_the_market_not_at_every_purchase(
    service: Service,
) -> None:
    options = {"cooperative": True, "advanced": True}  # the advanced game opens the Market
    assert (await service.new_game(ALICE, HERE, "badbones", options)).ok
    assert (await service.join(BOB, HERE)).ok
    opened = await service.start(ALICE, HERE)
    market = opened.public[0]  # then the lobby message, edited: the game began
    assert "Market" in market.message.whole
    assert set(market.message.mentions) == {ALICE.user_id, BOB.user_id}
    bought = await service.act(ALICE, HERE, "badbones", "buy", {"item": "barricade"})
    (purchase,) = bought.public
    shown = markdown(purchase.message.whole)
    assert "barricade" in shown and f"<@{BOB.user_id}>" in shown
    assert purchase.message.mentions == (), "still awaited for the same thing: named, not pinged"
    await service.act(ALICE, HERE, "badbones", "pass", {})
    closed = await service.act(BOB, HERE, "badbones", "pass", {})
    (towers,) = closed.public
    assert "tower" in towers.message.whole
    assert set(towers.message.mentions) == {ALICE.user_id, BOB.user_id}, "a new question pings"
