"""``/game undo``: a player takes back their own last step where the rules allow, and is told
why not elsewhere; with one player reached only by direct message and one in quiet hours.

The rule (``Game.undoable``, as at a table of friends): the step is the player's own and the
last one (nobody acted since), it revealed nothing random or hidden (no roll, no draw, no
simultaneous phase resolved) and did not end the game; FUSE's live mode takes nothing back."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.service import Actor, Place, Service
from bot.service.buttons import decode
from bot.service.replies import Outgoing
from bot.store import repository as repo
from rules.core import Rng, RulesError, get_game
from tests.conftest import ALICE, BOB, CAROL, Clock
from tests.support.commands import command_for
from tests.support.registered import generic_games

HERE = Place(700, 1)
PLAYERS = (ALICE, BOB, CAROL)
REASONS = {
    "That step revealed something random",
    "That step resolved the phase",
    "Someone has played since your last step",
    "Your last step was played for you",
    "You have no step in this game to take back",
    "That step ended the game",
    "A real-time round cannot be taken back",
}
STEPS = 120  # enough for every kind of step of each game to come up, and Alice's turns among them


async def _load(service: Service) -> tuple[Any, Any, int]:
    async with service.sessions() as session:
        row = await repo.open_game(session, HERE.channel_id)
        if row is None:
            return None, None, 0
        log = await repo.action_log(session, row.id)
        return row, row.state, len(log)


def _mentioned(posts: list[Outgoing], user: Actor) -> int:
    return sum(user.user_id in o.message.mentions for o in posts if o.dm is None)


# Options other than the defaults, by game: FUSE's relaxed mode has turns to take back.
OPTIONS: dict[str, dict[str, Any]] = {"fuse": {"mode": "relaxed"}}


@pytest.mark.parametrize("kind", generic_games())
async def test_a_whole_game_with_undo_a_dm_only_player_and_quiet_hours(
    service: Service,
    clock: Clock,
    kind: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    options = OPTIONS.get(kind, {})
    monkeypatch.setattr("bot.service.lobby.secrets.randbits", lambda bits: 2026)  # one game
    engine = get_game(kind)
    await service.me(BOB, HERE, notify="dm")
    now = dt.datetime.fromtimestamp(clock.now, dt.UTC)
    quiet = f"{now - dt.timedelta(hours=1):%H:%M}-{now + dt.timedelta(hours=12):%H:%M}"
    await service.me(CAROL, HERE, quiet=quiet)  # the whole game is in Carol's quiet hours
    await service.new_game(ALICE, HERE, kind, options)
    for player in PLAYERS[1:]:
        await service.join(player, HERE)
    await service.settings(ALICE, HERE, deadline_minutes=600, reminder_minutes=120)
    replies = [await service.start(ALICE, HERE)]
    deadline_posts: list[Outgoing] = []  # reminders and defaults: where a late player is pinged
    rng = Rng(7)
    undone, refused, edited_back, passing = 0, set(), 0, 0
    for _ in range(STEPS):
        row, state_data, logged = await _load(service)
        if row is None:
            break
        state = engine.load(state_data)
        pending = engine.pending(state)
        if not pending:
            deadline_posts += await service.run_deadlines()
            continue
        seat = rng.choice(sorted(pending))
        actor = next(p for p in PLAYERS if p.user_id == row.seats[seat].user_id)
        choices = [a for a in engine.legal_actions(state, seat) if engine.to_command(a)]
        command, args = command_for(engine, rng.choice(choices))
        reply = await service.act(actor, HERE, kind, command, dict(args))
        assert reply.ok, (command, args, reply.private and str(reply.private.text))
        replies.append(reply)
        if actor is not ALICE and rng.randint(0, 2):
            continue  # (now and then Alice tries to take back a step after another's)
        after, after_data, _ = await _load(service)
        if after is None:
            break  # that step ended the game
        # Whether the step passed the turn (the player is no longer awaited: Pig's hold).
        passed = seat not in engine.pending(engine.load(after_data))
        offered = [b for b in (reply.private.buttons if reply.private else ()) if "↩" in b.label]
        if actor is ALICE and offered:  # her confirmation's ↩: one click
            taken = await service.press(ALICE, HERE, decode(offered[0].custom_id))
            assert taken.ok, "the ↩ is offered only where the step can be taken back"
        else:
            taken = await service.undo(ALICE, HERE)
            assert not (actor is ALICE and taken.ok), "no ↩ where undo works: it must be offered"
        assert taken.private is not None
        said = str(taken.private.text)
        if taken.ok:
            undone += 1
            again, state_again, log_again = await _load(service)
            assert again is not None
            assert state_again == state_data and log_again == logged, "as before the step"
            # The channel's table is shown as it now stands, in one message: the table message
            # edited back (a turn's story says who took a step back; a phase message shows
            # the player awaited again), or, where the step had passed the turn, posted anew.
            [shown] = [o for o in taken.public if o.dm is None]
            told = "took back their last step" in str(shown.message.narration)
            assert told or shown.edit, shown
            edited_back += shown.edit
            passing += passed
            redo = await service.act(ALICE, HERE, kind, command, dict(args))  # and play on
            assert redo.ok
            replies.append(redo)
        else:
            reason = next((r for r in REASONS if r in said), None)
            assert reason is not None, said
            refused.add(reason)
            row_after, _, log_after = await _load(service)
            assert row_after is None or log_after >= logged, "a refusal changes nothing"
    assert undone >= 1, "some step of Alice's could be taken back"
    # (A game whose every step that can be taken back passes the turn, as Pig's and Nim's
    # do, has its table posted anew each time.)
    assert edited_back >= 1 or passing == undone, "the table message is edited back"
    assert refused, "and some could not, each with its reason"
    # The log is clean: the game rebuilt from it is the game as it stands.
    row, state_data, _ = await _load(service)
    if row is not None:
        assert await service.state_from_log(row.id) == state_data
    # Bob was never pinged in the channel, but told by direct message; Carol, in her quiet
    # hours all along, never pinged; Alice pinged as usual.
    posts = [o for r in replies for o in r.public] + deadline_posts
    assert _mentioned(posts, BOB) == 0
    assert len([o for o in posts if o.dm == BOB.user_id]) >= 1
    assert _mentioned(posts, CAROL) == 0
    assert _mentioned(posts, ALICE) >= 1


async def test_the_host_can_turn_undo_off(service: Service) -> None:
    await service.new_game(ALICE, HERE, "zvv", {})
    await service.join(BOB, HERE)
    await service.start(ALICE, HERE)
    assert not (await service.settings(BOB, HERE, undo=False)).ok, "only the host"
    assert (await service.settings(ALICE, HERE, undo=False)).ok
    refused = await service.undo(ALICE, HERE)
    assert not refused.ok and refused.private is not None
    assert "turned undo off" in str(refused.private.text)


def _first_step(game: str, kind: str, options: dict[str, Any], drew: Any) -> tuple[Any, ...]:
    """The first step of ``kind`` in a random game of ``game`` that ``drew(before, after)``
    says drew a card: the state before it, the seat, the action and the state after."""
    engine = get_game(game)
    for seed in range(200):
        state, rng = engine.new_game(2, options, seed), Rng(seed)
        for _ in range(600):
            pending = engine.pending(state)
            if not pending:
                break
            seat = rng.choice(sorted(pending))
            legal = engine.legal_actions(state, seat)
            wanted = [a for a in legal if a.kind == kind]
            action = wanted[0] if wanted else rng.choice(legal)
            before = engine.copy(state)
            state, _ = engine.apply(state, seat, action, 0.0)
            if wanted and drew(before, state):
                return before, seat, action, state
            if wanted:
                break
    raise AssertionError(f"no {kind} that only draws a card in 200 {game} games")


@pytest.mark.parametrize(
    ("game", "kind", "options", "deck"),
    [
        ("farkle", "draw", {}, "item_deck"),  # a rally's magic item, from the shuffled deck
        ("fuse", "take", {"mode": "relaxed"}, "deck"),  # the centre row refilled from the deck
    ],
)
def test_a_step_that_drew_a_card_from_a_shuffled_deck_cannot_be_taken_back(
    game: str, kind: str, options: dict[str, Any], deck: str
) -> None:
    """Play-test: Bob chose "Rally: draw an item", read "You drew: Tower Shield", and took the
    step back to double the roll instead: a card drawn from a deck shuffled at the start moves
    no random generator, and undo took it for a step that revealed nothing."""
    engine = get_game(game)

    def drew_only(b: Any, a: Any) -> bool:  # a card drawn, no die rolled
        return getattr(b, deck) != getattr(a, deck) and (
            engine.dump(b).get("rng") == engine.dump(a).get("rng")
        )

    before, seat, action, after = _first_step(game, kind, options, drew_only)
    with pytest.raises(RulesError) as refused:
        engine.undoable(before, seat, action, after)
    assert refused.value.key == "core.undo.random"
