"""The advanced game's Market, before round 1 (rulebook "Advanced Version", "How the Market works").

Each player has 20 coins. A random first player buys one item (or passes), then the rest in turn
clockwise, and so on; after the last player the order reverses (snake order), until everyone has
passed. Clockwise is to each player's left (D14): with seats in join order around the table and
the left neighbour the previous seat (D4), clockwise from seat ``f`` is ``f, f-1, f-2, …``. A pass is final (house: play by chat would otherwise ask idle players again and again),
and a player who can afford nothing left passes automatically. One weapon per player; one card
of each weapon. Every player also has one free treasure (D2).

Cooperative + advanced: one purse of 12 coins per player for the team, and no turns: anyone
buys for the shared supply (a weapon goes to its buyer) until everyone has passed.

``state.market`` is ``{"stock": {item: n}, "coins": [per seat, or one purse], "first": seat,
"turn": k, "passed": [seats], "last": [seat, item] | None}``; ``turn`` counts positions in the
snake order.
"""

from __future__ import annotations

from rules.badbones.state import HERO, MARKET, START, BadBonesState
from rules.badbones.traps import COOP_MARKET_COINS, MARKET_COINS, WEAPONS, market_stock, price
from rules.core import Event, Rng, RulesError


def open_market(state: BadBonesState) -> None:
    rng = Rng(state.rng)
    first = rng.below(state.seats)
    state.rng = rng.state
    coins = [COOP_MARKET_COINS * state.seats] if state.coop else [MARKET_COINS] * state.seats
    state.market = {
        "stock": market_stock(state.seats),
        "coins": coins,
        "first": first,
        "turn": 0,
        "passed": [],
        "last": None,
    }
    state.stage = MARKET
    _auto_pass(state)


def coins(state: BadBonesState, seat: int) -> int:
    assert state.market is not None
    purse = state.market["coins"]
    return int(purse[0] if state.coop else purse[seat])


def affordable(state: BadBonesState, seat: int) -> list[str]:
    """Items ``seat`` may buy now, in the data table's order (traps, then weapons)."""
    market = state.market
    if market is None:
        return []
    money = coins(state, seat)
    has_weapon = bool(state.boards[seat].weapon)
    return [
        item
        for item, left in market["stock"].items()
        if left > 0 and price(item) <= money and not (item in WEAPONS and has_weapon)
    ]


def turn_seat(state: BadBonesState, k: int) -> int:
    assert state.market is not None
    seats = state.seats
    lap, idx = divmod(k, seats)
    first = int(state.market["first"])
    # Even laps clockwise (D14: to the left, the previous seat), odd laps back the other way
    # starting with the lap's last player.
    return (first - idx) % seats if lap % 2 == 0 else (first - (seats - 1 - idx)) % seats


def buyers(state: BadBonesState) -> list[int]:
    """Who may act now: the seat whose turn it is (everyone not passed, cooperative)."""
    market = state.market
    if state.stage != MARKET or market is None:
        return []
    passed = set(market["passed"])
    if state.coop:
        return [s for s in range(state.seats) if s not in passed]
    return [turn_seat(state, int(market["turn"]))]


def check_buy(state: BadBonesState, seat: int, item: str) -> None:
    market = state.market
    assert market is not None
    item_key = _item_key(item)
    if item not in market["stock"]:
        raise RulesError("badbones.error.not_sold", item_key=item_key)
    if seat not in buyers(state):
        raise RulesError("badbones.error.not_your_market_turn")
    if market["stock"][item] <= 0:
        raise RulesError("badbones.error.sold_out", item_key=item_key)
    if item in WEAPONS and state.boards[seat].weapon:
        raise RulesError(
            "badbones.error.second_weapon",
            weapon_key=_item_key(state.boards[seat].weapon),
        )
    if price(item) > coins(state, seat):
        raise RulesError(
            "badbones.error.cannot_afford",
            item_key=item_key,
            price=price(item),
            coins=coins(state, seat),
        )


def buy(state: BadBonesState, seat: int, item: str) -> list[Event]:
    market = state.market
    assert market is not None
    market["stock"][item] -= 1
    market["coins"][0 if state.coop else seat] -= price(item)
    if item in WEAPONS:
        state.boards[seat].weapon = item
    else:
        state.supply_of(seat).append(item)
    market["last"] = [seat, item]
    events = [
        Event(
            "badbones.event.bought",
            {
                "seat": seat,
                "item_key": _item_key(item),
                "price": price(item),
                "coins": coins(state, seat),
            },
        )
    ]
    return events + _next(state)


def pass_(state: BadBonesState, seat: int) -> list[Event]:
    market = state.market
    assert market is not None
    market["passed"].append(seat)
    return [Event("badbones.event.market_passed", {"seat": seat})] + _next(state)


def _auto_pass(state: BadBonesState) -> list[int]:
    market = state.market
    assert market is not None
    auto = [s for s in range(state.seats) if s not in market["passed"] and not affordable(state, s)]
    market["passed"].extend(auto)
    return auto


def _next(state: BadBonesState) -> list[Event]:
    market = state.market
    assert market is not None
    _auto_pass(state)
    if len(market["passed"]) >= state.seats:
        return close_market(state)
    if not state.coop:
        passed = set(market["passed"])
        k = int(market["turn"]) + 1
        while turn_seat(state, k) in passed:
            k += 1
        market["turn"] = k
    return []


def close_market(state: BadBonesState) -> list[Event]:
    state.market = None
    if state.coop:
        state.stage = START  # the heroes pick their towers after the shopping
        return [Event("badbones.event.market_closed", {})]
    state.stage = HERO
    return [Event("badbones.event.market_closed", {}), Event("badbones.event.round", {"round": 1})]


def _item_key(item: str) -> str:
    return f"badbones.{'weapon' if item in WEAPONS else 'trap'}.{item}"


def item_key(item: str) -> str:
    return _item_key(item)
