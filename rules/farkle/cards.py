"""The companion and magic item cards (texts in the catalogue: ``farkle.companion.<key>``,
``farkle.item.<key>`` and their ``…_text``), and drawing a magic item (the cursed ones act when
drawn). All texts except Skree's and Bag of Holding's names are **house** rules (rules file,
sections 4 and 5)."""

from __future__ import annotations

from rules.core import Event
from rules.farkle.state import FarkleState

AMULET_LOSS = 250  # soldiers the Cursed Amulet takes

# The ten companions, one card each.
COMPANIONS: tuple[str, ...] = (
    "skree",
    "whisperer",
    "bodyguard",
    "pickpocket",
    "squire",
    "berserker",
    "quartermaster",
    "hunter",
    "engineer",
    "medic",
)

# The twenty magic item cards: kind -> copies.
ITEM_COPIES: dict[str, int] = {
    "bag": 1,
    "potion": 2 + 1,
    "repellent": 2,
    "horn": 2,
    "loaded": 2,
    "shield": 2,
    "poster": 2,
    "arrow": 1,
    "cloak": 1,
    "draught": 1,
    "amulet": 2,
    "mimic": 1,
}
ITEMS: tuple[str, ...] = tuple(k for k, n in ITEM_COPIES.items() for _ in range(n))
assert len(ITEMS) == 20

CURSED: frozenset[str] = frozenset({"amulet", "mimic"})
# Items a player plays with /farkle item; the others act by themselves (Bag of Holding, Tower
# Shield, Recruiting Poster) or when drawn (the cursed ones).
PLAYABLE: frozenset[str] = frozenset(
    {"potion", "repellent", "horn", "loaded", "arrow", "cloak", "draught"}
)


def draw_item(state: FarkleState, seat: int, into: list[str], ev: list[Event]) -> None:
    """Draw a magic item into ``into`` (a hand, or a run's face-down pile). Cursed items
    take effect at once and are discarded (D11: an empty deck reshuffles its discards)."""
    if not state.item_deck:
        state.item_deck, state.item_discard = state.item_discard, []
        state.rng.shuffle(state.item_deck)
        if state.item_deck:
            ev.append(Event("farkle.event.reshuffle_items"))
    if not state.item_deck:
        ev.append(Event("farkle.event.no_items", {"seat": seat}))
        return
    item = state.item_deck.pop()
    if item in CURSED:
        state.item_discard.append(item)
        _curse(state, seat, item, ev)
        return
    into.append(item)
    ev.append(Event("farkle.event.drew_item", {"seat": seat}))
    ev.append(Event("farkle.event.you_drew", {"item_key": f"farkle.item.{item}"}, to=seat))


def _curse(state: FarkleState, seat: int, item: str, ev: list[Event]) -> None:
    """A cursed item drawn: the Cursed Amulet takes soldiers, the Mimic the other items in hand
    (not the Bag of Holding, nor the ones set aside this turn)."""
    me = state.players[seat]
    if item == "amulet":
        lost = min(AMULET_LOSS, me.army)
        me.army -= lost
        ev.append(Event("farkle.event.amulet", {"seat": seat, "lost": lost}))
        return
    gone = [i for i in me.items if i != "bag"]
    me.items = [i for i in me.items if i == "bag"]
    state.item_discard += gone
    state.restrict.pop(seat, None)
    key = "farkle.event.mimic" if gone else "farkle.event.mimic_none"
    ev.append(Event(key, {"seat": seat, "count": len(gone)}))
