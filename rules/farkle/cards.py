"""The companion and magic item cards (texts in the catalogue: ``farkle.companion.<key>``,
``farkle.item.<key>`` and their ``…_text``). All texts except Skree's and Bag of Holding's names
are **house** rules (rules file, sections 4 and 5)."""

from __future__ import annotations

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
