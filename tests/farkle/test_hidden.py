"""Magic items are hidden: only their holder's view and private events name them."""

from __future__ import annotations

import json

from rules.core import visible_to
from rules.farkle import GAME
from rules.farkle.actions import Draw, Keep, Recruit, Stop
from rules.farkle.cards import ITEMS
from tests.farkle.support import give, new, play, rig, stack


def _names_an_item(data: object) -> bool:
    text = json.dumps(data)
    return any(f'"{item}"' in text or f"farkle.item.{item}" in text for item in set(ITEMS))


def test_public_view_shows_only_how_many_items() -> None:
    s = new()
    give(s, 0, "potion")
    give(s, 1, "bag", "cloak")
    public = GAME.view(s, None)
    assert [p["items"] for p in public["players"]] == [1, 2, 0]
    assert not _names_an_item(public)
    assert GAME.view(s, 1)["my_items"] == ["bag", "cloak"]
    assert not _names_an_item({k: v for k, v in GAME.view(s, 1).items() if k != "my_items"})


def test_a_drawn_item_is_told_only_to_its_drawer() -> None:
    s = new()
    stack(s, "horn")
    rig(s, ([1, 2, 3, 4, 6, 6], "rally"))
    play(s, 0, Recruit())
    play(s, 0, Keep("a1"))
    events = play(s, 0, Draw())
    assert not _names_an_item([e.to_json() for e in visible_to(events, None)])
    assert _names_an_item([e.to_json() for e in visible_to(events, 0)])
    assert not _names_an_item([e.to_json() for e in visible_to(events, 1)])
    events = play(s, 0, Stop())
    assert not _names_an_item([e.to_json() for e in visible_to(events, None)])
    assert not _names_an_item(GAME.view(s, None))


def test_item_autocomplete_lists_only_your_own_playable_items() -> None:
    s = new()
    give(s, 0, "potion", "bag")
    give(s, 1, "horn")
    rig(s, ([1, 2, 3, 4, 6, 6], "blank"))
    play(s, 0, Recruit())
    assert GAME.suggestions(s, 0, "item", "item", {}) == ["potion"]
    assert GAME.suggestions(s, 1, "item", "item", {}) == []
    assert all(cmd != "item" for cmd, _ in GAME.buttons(s, 0))
