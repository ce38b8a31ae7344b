"""The public message of a phase: who is pinged, and the buttons every awaited player shares."""

from __future__ import annotations

import pytest

from bot.discord.markup import markdown
from bot.service import Service
from bot.service.compose import offered_buttons
from bot.service.match import Match
from bot.service.text import Text
from bot.store.models import GameRow, SeatRow
from rules.badbones import GAME
from rules.badbones.state import TRAP
from tests.badbones.helpers import position, trap_phase
from tests.conftest import ALICE, BOB, HERE, Clock
from tests.support.replies import said

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database


def _row(*names: str) -> GameRow:
    row = GameRow(
        id=7, channel_id=1, kind="badbones", phase="3.skeletons.1", host_id=1, seed=1, settings={}
    )
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
    assert {p.kind for p in pending.values()} == {"choose_dragon_from", "choose_top"}
    row = _row("Ana_Banana", "Bob", "Chen", "Dora")
    match = Match(row, GAME, state)
    labels = [b.label for b in offered_buttons(match, sorted(pending), "en", pending)]
    assert "Ana_Banana: W" in labels and "Ana_Banana: E" in labels  # as typed: no markdown
    assert "Bob: 3" in labels and "Bob: 4" in labels
    assert all(label.startswith(("Ana_Banana: ", "Bob: ")) for label in labels)


async def test_players_asked_the_same_thing_share_unnamed_buttons(service: Service) -> None:
    state = position("C5 dragon\nC4 S", "C5 dragon\nC4 S", stage=TRAP)
    state, _ = trap_phase(state)
    pending = GAME.pending(state)
    assert set(pending) == {0, 1} and {p.kind for p in pending.values()} == {"choose_dragon_from"}
    row = _row("Ana", "Bob")
    match = Match(row, GAME, state)
    labels = [b.label for b in offered_buttons(match, sorted(pending), "en", pending)]
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


async def test_a_player_who_left_is_neither_waited_for_nor_told_of_private_news(
    service: Service, clock: Clock
) -> None:
    """Bob left during phase 1 of Bad Bones. The table must not wait for him (the computer
    plays his seat, a moment later, quietly) nor read "🔒 Bob: something only you may see
    happened" each time the computer plays one of his moves."""
    from bot.service import Actor

    carol = Actor(3, "Carol")
    assert (await service.new_game(ALICE, HERE, "badbones", {})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.join(carol, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.leave(BOB, HERE)).ok
    moved = await service.act(ALICE, HERE, "badbones", "move", {"direction": "N"})
    assert moved.ok
    ready = said(moved)
    assert "✅ Alice is ready" in ready and "⏳ @Carol" in ready
    assert "@Bob" not in ready and "⏳ Bob: the computer plays in a moment" in ready
    clock.now += 2  # the computer's short delay
    played = said(await service.run_deadlines())  # Bob's hero move, by the computer
    assert "ran out of time" not in played and "🔒" not in played
    phase2 = said(await service.act(carol, HERE, "badbones", "move", {"direction": "N"}))
    assert "⏳ @Alice" in phase2 and "⏳ @Carol" in phase2
    assert "@Bob" not in phase2, "nobody waits for a seat that left"
    clock.now += 2
    assert "🔒" not in said(await service.run_deadlines())


async def test_private_news_names_only_the_player_it_happened_to(service: Service) -> None:
    """Two players get private news at once: each line names one of them ("only you")."""
    import pytest

    from rules.core import Event
    from tests.support.tiny import TINY

    assert (await service.new_game(ALICE, HERE, "tiny", {"rounds": 2})).ok
    from bot.service import Actor

    carol = Actor(3, "Carol")
    assert (await service.join(BOB, HERE)).ok
    assert (await service.join(carol, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    patch = pytest.MonkeyPatch()
    real = TINY.resolve

    def resolve(state, seat, action, now):
        secret = [Event("tiny.event.secret", {"card": "ace"}, to=s) for s in (1, 2)]
        return [*real(state, seat, action, now), *secret]

    patch.setattr(TINY, "resolve", resolve)
    reply = await service.act(ALICE, HERE, "tiny", "bid", {"amount": 2})
    patch.undo()
    text = said(reply)
    assert "🔒 Bob: something only you may see happened" in text
    assert "🔒 Carol: something only you may see happened" in text
    assert "🔒 Bob, Carol" not in text and "ace" not in text


def test_the_dragons_question_comes_with_the_board_at_that_moment() -> None:
    """Play-test: Bob's "nothing" ends phase 2; Ana's dragon on C2 asks which way the skeleton
    from C1 flees. The channel's message names that skeleton and its default, and its picture
    shows it standing on the dragon — not on C1, where it was before the skeletons moved."""
    from bot.service.compose import move_draft
    from rules.badbones.actions import Nothing

    state = position("C2 dragon\nC1 S", "B3 S", stage=TRAP)
    state, _ = GAME.apply(state, 0, Nothing())
    match = Match(_row("Ana", "Bob"), GAME, state)
    before = GAME.snapshot(state)
    events = GAME.resolve(state, 1, Nothing(), 0.0)
    after = GAME.snapshot(state)
    match.row.phase = after.phase
    draft = move_draft(match, before, after, 1, events, "en", "en", by_default=False, draws=True)
    (post,) = draft.public
    said = str(post.text)
    assert "the pink skeleton coming from C1 (facing S)" in said and "(default N)" in said
    assert post.picture is not None
    skeletons = post.picture.view["boards"][0]["skeletons"]
    assert [(s["square"], s["facing"]) for s in skeletons] == [("C2", "S")]


def test_a_player_out_of_time_is_not_waited_for_again_in_the_same_turn() -> None:
    """Play-test: Ana's dragon landed on two skeletons and she was away. Her first answer was
    played by default, and the channel read "⏳ @Ana: which way does it flee?" although her
    turn's deadline was spent and the second answer was played by default a moment later.
    Only Bob, still answering his own dragon, is waited for."""
    from bot.service.compose import move_draft
    from rules.badbones.actions import Place

    state = position("C2 S*2", "C2 S", stage=TRAP)
    dragon = Place("dragon", "C2")
    state, _ = trap_phase(state, {0: dragon, 1: dragon})
    assert set(GAME.pending(state)) == {0, 1}
    match = Match(_row("Ana", "Bob"), GAME, state)
    before = GAME.snapshot(state)
    default = before.pending[0].default
    events = GAME.resolve(state, 0, default, 0.0)
    after = GAME.snapshot(state)
    assert set(after.pending) == {0, 1} and after.turn == before.turn
    match.row.phase = after.phase
    draft = move_draft(
        match, before, after, 0, events, "en", "en", by_default=True, draws=True, rest_of_turn=True
    )
    (post,) = draft.public
    said = str(Text.of(post.text, "\n", post.narration))
    assert "Ana ran out of time" in said
    assert "🔒" not in said, "the default answer's echo is no news"
    assert "⏳ @Bob: Question 1: your dragon lands on C2" in said
    assert "🤖 chose N for Ana: the pink skeleton from under the dragon flees" in said
    assert "⏳ @Ana" not in said and 100 not in post.mentions


async def test_a_timed_out_hero_move_is_not_announced_as_private_news(
    service: Service, clock: Clock
) -> None:
    """Play-test: "⌛ Bob ran out of time" was followed by "🔒 Bob: something only you may see
    happened" — the echo of the hero move the bot chose for him, nothing he did not know."""
    assert (await service.new_game(ALICE, HERE, "badbones", {})).ok
    assert (await service.join(BOB, HERE)).ok
    assert (await service.start(ALICE, HERE)).ok
    assert (await service.act(ALICE, HERE, "badbones", "move", {"direction": "N"})).ok
    clock.now += 25 * 3600
    text = said(await service.run_deadlines())
    assert "Bob ran out of time" in text and "🔒" not in text


# ---------------------------------------------------------------- FUSE by chat (play-test)


def _fuse_row(*names: str) -> GameRow:
    row = GameRow(
        id=8, channel_id=1, kind="fuse", phase="1.choose.1", host_id=1, seed=1, settings={}
    )
    row.seats = [
        SeatRow(seat=i, user_id=100 + i, display_name=name, locale="en")
        for i, name in enumerate(names)
    ]
    return row


async def test_fuse_return_buttons_say_whose_die_goes_back(service: Service) -> None:
    from rules.fuse import FUSE
    from rules.fuse.game import Pass
    from tests.fuse.support import position

    # The red fuse card resolves: Ana chooses between two red dice, Bea between two of hers.
    state = position(
        2,
        [["1-09", "1-07"], ["1-06", "1-01"]],
        roll=["K6", "Y2", "B5", "G4"],
        placed={"1-09": ["R6", None, None], "1-07": ["R2", None, None], "1-06": ["R1", "R4", None]},
        deck=["2-01", "2-02"],
    )
    state.queue.append("F-R")
    state.fuses.append("F-R")
    for seat in (0, 1):
        state, _ = FUSE.apply(state, seat, Pass(), 1_000.0)
    pending = FUSE.pending(state)
    assert state.stage == "return" and set(pending) == {0, 1}
    match = Match(_fuse_row("Ana", "Bea"), FUSE, state)
    labels = [b.label for b in offered_buttons(match, sorted(pending), "en", pending)]
    assert "Ana: Return 1-09 · slot 1" in labels and "Bea: Return 1-06 · slot 2" in labels
    assert all(label.startswith(("Ana: ", "Bea: ")) for label in labels)


async def test_fuse_claim_buttons_follow_the_order_of_the_round(service: Service) -> None:
    from rules.fuse import FUSE
    from tests.fuse.support import position

    # Ana's one card (black or 1-3) takes the green 2 and the black 1, not the red 4, which
    # only Bea can use: the buttons still read like the round's message, R4, G2, K1
    state = position(2, [["2-03"], ["1-01", "1-09"]], roll=["R4", "G2", "K1"])
    assert [args["die"] for _, args in FUSE.buttons(state, 0) if args] == ["G2", "K1"]
    pending = FUSE.pending(state)
    match = Match(_fuse_row("Ana", "Bea"), FUSE, state)
    labels = [b.label for b in offered_buttons(match, sorted(pending), "en", pending)]
    claims = [label for label in labels if label.startswith("🎲")]
    order = {die: i for i, die in enumerate(("R4", "G2", "K1"))}
    assert claims == sorted(claims, key=lambda label: order[label.split()[-1]])


async def test_when_the_fuse_clock_runs_out_the_bomb_goes_off_nobody_ran_out_of_time(
    service: Service,
) -> None:
    from bot.service.compose import move_draft
    from rules.fuse import FUSE
    from tests.fuse.support import position

    state = position(2, [["2-03", "1-07"], ["1-01", "1-09"]], roll=["R4", "G2", "K1"])
    before = FUSE.snapshot(state)
    deadline = before.pending[0].deadline
    assert deadline is not None  # the bomb's clock
    # the deadline passes: the service plays Ana's default, and the bomb goes off
    events = FUSE.play(state, 0, before.pending[0].default, deadline + 1)
    after = FUSE.snapshot(state)
    assert after.over
    match = Match(_fuse_row("Ana", "Bea"), FUSE, state)
    draft = move_draft(match, before, after, 0, events, "en", "en", by_default=True, draws=False)
    said = " ".join(f"{post.text} {post.narration}" for post in draft.public)
    assert "bomb went off" in said and "ran out of time" not in said


def test_a_spanish_table_reads_the_dragons_ways_in_spanish() -> None:
    """Play-test: "¿hacia dónde huye? N, E, W, S" while the buttons said "O". The question, its
    default, the way the skeleton faces and the buttons all name west "O"."""
    from bot.service.compose import move_draft
    from rules.badbones.actions import Nothing

    state = position("C2 dragon\nD2 W", "B3 S", stage=TRAP)  # walks west onto the dragon
    state, _ = GAME.apply(state, 0, Nothing())
    match = Match(_row("Ana", "Bob"), GAME, state)
    before = GAME.snapshot(state)
    events = GAME.resolve(state, 1, Nothing(), 0.0)
    after = GAME.snapshot(state)
    match.row.phase = after.phase
    assert "W" in state.questions[0]["options"]
    draft = move_draft(match, before, after, 1, events, "es", "es", by_default=False, draws=True)
    (post,) = draft.public
    said = str(post.text)
    assert "(mirando al O)" in said, said
    assert "¿hacia dónde huye? N, E, O" in said and ", W" not in said
    labels = [b.label for b in offered_buttons(match, [0], "es", after.pending)]
    assert "O" in labels and "W" not in labels


def test_the_closing_message_names_two_winners_in_the_plural() -> None:
    from bot.service.compose import phase_post
    from rules.core.spec import Result, Snapshot

    match = Match(_row("Alice", "Bob", "Chen"), GAME, GAME.new_game(3, {}, 1))
    over = Snapshot("over", "over", "over", {}, True, Result((0, 1)))
    alone = Snapshot("over", "over", "over", {}, True, Result((2,)))

    def reads(snap: Snapshot, lang: str) -> str:
        return markdown(phase_post(match, snap, [], lang, draw=False).text)

    assert "🏆 Winners: Alice, Bob" in reads(over, "en")
    assert "🏆 Winner: Chen" in reads(alone, "en")
    assert "🏆 Ganan: Alice, Bob" in reads(over, "es")


def test_hero_move_buttons_keep_compass_order_whoever_is_asked_first() -> None:
    """Bob's hero cannot go north (top row), Chen's can: the shared row of buttons still reads
    N, NE, E… clockwise, not Bob's directions first and Chen's "N" at the end, so a direction's
    button stays in its place from round to round."""
    state = position("hero C1", "hero C5")
    match = Match(_row("Bob", "Chen"), GAME, state)
    labels = [b.label for b in offered_buttons(match, [0, 1], "en", GAME.pending(state))]
    compass = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    shown = [label for label in labels if label in compass]
    assert shown == [d for d in compass if d in shown] and "N" in shown, labels
    assert shown[0] == "N"
