"""The pictures: valid PNGs of a sane size, drawn from the views (the looking is done by eye)."""

from __future__ import annotations

import io
from typing import Any

from rules.badbones import GAME
from rules.badbones.actions import Move, Nothing, Place
from rules.badbones.state import TRAP
from rules.core.play import random_game
from tests.badbones.helpers import position

PNG = b"\x89PNG\r\n\x1a\n"
NAMES = ["Alice", "Bob", "Carla", "Dmitri", "Eve", "Faustina"]


def test_table_and_board_render_as_png() -> None:
    from render.badbones import render_board, render_table

    for seats in (1, 2, 6):
        state, _, _ = random_game(GAME, seats, 11)
        for lang in ("en", "es"):
            png = render_table(GAME.view(state, None), NAMES[:seats], lang)
            assert png.startswith(PNG) and 5_000 < len(png) < 400_000
    state = position("C2 S*3\nforest red.top", "B2 wall/~\nhero D4", stage=TRAP)
    state, _ = GAME.apply(state, 0, Place("dragon", "C2"))
    state, _ = GAME.apply(state, 1, Nothing())
    png = render_board(GAME.view(state, 0), NAMES[:2], "en")
    assert png.startswith(PNG) and len(png) < 400_000
    assert render_table(GAME.view(state, None), ["", ""], "es").startswith(PNG)


def test_table_never_shows_a_hidden_submission() -> None:
    from render.badbones import render_table

    state = GAME.new_game(2, {}, 1)
    before = render_table(GAME.view(state, None), NAMES[:2], "en")
    moved, _ = GAME.apply(state, 0, Move("N"))
    after = render_table(GAME.view(moved, None), NAMES[:2], "en")
    # Only the "ready" mark may differ: the hero has not moved in the public picture.
    assert GAME.view(moved, None)["boards"] == GAME.view(state, None)["boards"]
    assert before != after


def test_crowded_square_still_renders() -> None:
    from render.badbones import render_board

    crowded = "B2 pink.top:N yellow.top:E red.top:S blue.top:W green.top:N pink.left:E*3"
    state = position(crowded, "")
    png = render_board(GAME.view(state, 0), NAMES[:2], "en")
    assert png.startswith(PNG)


def test_variants_render_as_png() -> None:
    from render.badbones import render_board, render_table
    from rules.badbones.actions import Buy

    state = position(
        "weapon crossbow\nA2 barricade\nB2 bomb~\nC1 bomb\nD1 hearse\nE2 labyrinth:black\n"
        "A4 labyrinth:white\nB4 portal~\nE5 spring\nD2 red.top:S@artificer\nA3 S^\n"
        "E4 S@saboteur N@instructor E W S@spectral\nforest red.top@necromancer",
        "hero none\nC5 S@nice",
        options={"advanced": True, "chiefs": True},
    )
    for seat in (None, 0, 1):
        png = (render_table if seat is None else render_board)(
            GAME.view(state, seat), NAMES[:2], "es"
        )
        assert png.startswith(PNG) and len(png) < 400_000
    market = GAME.new_game(3, {"advanced": True}, 2)
    seat = next(iter(GAME.pending(market)))
    market, _ = GAME.apply(market, seat, Buy("dragon"))
    assert render_table(GAME.view(market, None), NAMES[:3], "en").startswith(PNG)
    assert render_board(GAME.view(market, seat), NAMES[:3], "en").startswith(PNG)
    coop = GAME.new_game(4, {"advanced": True, "cooperative": True, "chiefs": True}, 2)
    assert render_table(GAME.view(coop, None), NAMES[:4], "en").startswith(PNG)
    coop = position(
        "ruins B2\nhero D4", "", options={"cooperative": True, "pool": ["wall"], "capital": 1}
    )
    assert render_table(GAME.view(coop, None), NAMES[:2], "en").startswith(PNG)
    state, _, _ = random_game(GAME, 3, 4, {"advanced": True, "cooperative": True, "chiefs": True})
    assert render_table(GAME.view(state, None), NAMES[:3], "en").startswith(PNG)


def test_a_long_supply_never_runs_over_the_cemetery() -> None:
    from render.badbones import supply_layout

    for count in range(0, 30):
        for room in (120, 200, 252, 300, 420):
            tile, step = supply_layout(count, room)
            if count:
                assert 28 <= tile <= 40 and step >= 8
                assert (count - 1) * step + tile <= room or step == 8
    assert supply_layout(6, 400) == (40, 46), "room enough: the usual look"


def test_the_board_lists_only_the_preferences_that_can_matter() -> None:
    from render.badbones import relevant_prefs, render_board

    solo = GAME.view(GAME.new_game(1, {}, 2), 0)
    assert relevant_prefs(solo) == ["dragon"]
    basic = GAME.view(GAME.new_game(3, {}, 2), 0)
    assert relevant_prefs(basic) == ["catapult", "dragon", "top"]
    everything = GAME.view(GAME.new_game(3, {"advanced": True, "chiefs": True}, 2), 0)
    assert relevant_prefs(everything) == ["catapult", "dragon", "hearse", "instructor", "top"]
    for lang in ("en", "es"):
        assert render_board(everything, NAMES[:3], lang).startswith(PNG)


def test_a_long_title_shrinks_before_it_is_cut() -> None:
    from PIL import Image

    from render.badbones import _fitted_title
    from render.common import Draw, text_width

    draw = Draw(Image.new("RGB", (1, 1)))
    title = "Bad Bones · Round 3 of 3 · Move your hero"
    text, size = _fitted_title(draw, title, 676)
    assert text.endswith("Move your hero") and text_width(draw, text, size, True) <= 676
    assert _fitted_title(draw, title, 2000) == (title, 30)


def test_the_boards_notes_are_wrapped_not_cut() -> None:
    import io

    from PIL import Image

    from render.badbones import render_board

    state = position("", "", stage=TRAP)
    plain = render_board(GAME.view(state, 0), NAMES[:2], "es")
    state, _ = GAME.apply(state, 0, Place("catapult", "B2"))
    saved = render_board(GAME.view(state, 0), NAMES[:2], "es")
    height = Image.open(io.BytesIO(saved)).height
    assert height > Image.open(io.BytesIO(plain)).height, "the wrapped note needs more room"


def test_market_card_names_fit_without_being_cut() -> None:
    from PIL import Image

    from i18n import t
    from render.badbones import MARKET_CELL, card_lines
    from render.common import Draw, text_width
    from rules.badbones.traps import TRAPS, WEAPONS

    draw = Draw(Image.new("RGB", (1, 1)))
    room = MARKET_CELL[0] - 20  # what a Market card leaves for its name
    for lang in ("en", "es"):
        for weapon in WEAPONS:
            lines, size = card_lines(draw, t(f"badbones.weapon.{weapon}", lang), room, 2)
            assert len(lines) <= 2 and all(text_width(draw, x, size, True) <= room for x in lines)
        for trap in TRAPS:
            lines, size = card_lines(draw, t(f"badbones.trap.{trap}", lang), room, 1)
            assert len(lines) == 1 and text_width(draw, lines[0], size, True) <= room


# ------------------------------------------------------------------ found in play


def test_the_table_has_a_key_to_the_traps_the_supply_row_and_the_marks() -> None:
    # new players asked which tile was the dragon, what the tiles under a board
    # were, and what ○ and ✓ meant.
    from render.badbones import _legend_items

    state, _, _ = random_game(GAME, 3, 11)
    view = GAME.view(state, None)
    view = {**view, "stage": "trap"}
    for lang, words in (
        ("en", ["✓ ready", "○ still to choose", "dragon", "catapult", "treasure", "wall"]),
        ("es", ["✓ listo", "○ aún elige", "dragón", "catapulta", "tesoro", "muro"]),
    ):
        labels = [label for _, label in _legend_items(view, lang)]
        for word in words:
            assert word in labels, (lang, word, labels)
        assert any("place" in s or "colocar" in s for s in labels), labels  # the supply row


def test_six_players_boards_sit_two_a_row_for_a_phone() -> None:
    # with six players, crowded squares could not be read on a phone: three boards a
    # row left each a third of the preview's 400 px. Two a row, like four players.
    from render.badbones import table_image

    six, _, _ = random_game(GAME, 6, 11)
    four, _, _ = random_game(GAME, 4, 11)
    big = table_image(GAME.view(six, None), NAMES, "en")
    square = table_image(GAME.view(four, None), NAMES[:4], "en")
    assert big.width == square.width < 1000  # two boards a row
    assert big.height > big.width * 1.8  # three rows of boards


def test_the_red_symbol_is_an_open_triangle_pointing_up_not_an_arrowhead() -> None:
    # a red skeleton's filled ▼ read as one more "walk down" arrow on the board.
    from PIL import Image

    from render.badbones import SYMBOL_COLOURS, draw_symbol
    from render.common import Draw

    image = Image.new("RGB", (100, 100), (0, 0, 0))
    draw_symbol(Draw(image), "red", 50, 50, 40, SYMBOL_COLOURS["red"])
    inked = [[image.getpixel((x, y)) != (0, 0, 0) for x in range(100)] for y in range(100)]
    rows = [y for y in range(100) if any(inked[y])]
    top, bottom = rows[0], rows[-1]
    assert sum(inked[top + 4]) < sum(inked[bottom - 4])  # narrow at the top: the apex is up
    assert not inked[45][50]  # open inside, above the dot: no filled arrowhead


def test_the_cooperative_strip_shows_capital_and_shared_supply_apart() -> None:
    """The play-tester's picture: "Capital" and "Shared supply" printed on top of each other
    and the supply's walls over the capital's houses. Now every label, house and tile has its
    own place inside the strip, for every table size, in both languages, public and private."""
    import io

    from PIL import Image

    from render.badbones import coop_boxes, render_board, render_table
    from rules.badbones.actions import Start

    def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    for seats in range(2, 7):
        state = GAME.new_game(seats, {"cooperative": True}, 3)
        for s in range(seats):
            state, _ = GAME.apply(state, s, Start("B2"))
        assert len(state.pool) == 3 * seats + 1  # a full supply: the longest strip
        for lang in ("en", "es"):
            for view, png in (
                (GAME.view(state, None), render_table(GAME.view(state, None), NAMES, lang)),
                (GAME.view(state, 0), render_board(GAME.view(state, 0), NAMES, lang)),
            ):
                width = Image.open(io.BytesIO(png)).width
                boxes = coop_boxes(view, lang, width)
                things = boxes["labels"] + boxes["houses"] + boxes["tiles"]
                assert len(boxes["houses"]) == seats and len(boxes["tiles"]) == len(state.pool)
                (left, top, right, bottom) = boxes["panel"][0]
                for k, a in enumerate(things):
                    assert left < a[0] and a[2] < right and top < a[1] and a[3] < bottom, a
                    assert not any(overlap(a, b) for b in things[k + 1 :]), (seats, lang, a)


def test_every_weapon_name_is_drawn_whole_on_the_six_player_table(monkeypatch: Any) -> None:
    """A board's weapon has a footer line of its own: "two-handed sword" (and the longest
    Spanish names) read whole, not "two-handed s…", on the narrowest panels, beside full
    supplies."""
    import render.badbones as picture
    from i18n import t
    from rules.badbones.traps import WEAPONS

    shortened: list[str] = []
    real = picture.fit_text

    def recording(draw: Any, text: str, *args: Any, **kwargs: Any) -> str:
        out = real(draw, text, *args, **kwargs)
        if out != text:
            shortened.append(text)
        return out

    monkeypatch.setattr(picture, "fit_text", recording)
    view = GAME.view(GAME.new_game(6, {"advanced": True}, 3), None)
    names = sorted(WEAPONS)
    for lang in ("en", "es"):
        for start in range(0, len(names), 6):
            for k, board in enumerate(view["boards"]):
                board["weapon"] = names[(start + k) % len(names)]
                board["supply"] = ["wall", "catapult", "dragon", "treasure", "spring", "bomb"]
            picture.table_image(view, [f"Player{s}" for s in range(6)], lang)
        weapons = {"⚔ " + t(f"badbones.weapon.{w}", lang) for w in names}
        assert not weapons & set(shortened), weapons & set(shortened)


def test_the_cooperative_legend_speaks_of_the_shared_supply() -> None:
    from render.badbones import _legend_items

    coop = GAME.view(GAME.new_game(3, {"cooperative": True}, 1), None)
    said = " ".join(label for _, label in _legend_items(coop, "en"))
    assert "shared supply" in said and "under each board" not in said
    alone = GAME.view(GAME.new_game(3, {}, 1), None)
    assert "under each board" in " ".join(label for _, label in _legend_items(alone, "en"))


def test_the_legend_names_the_chiefs_signs_on_the_table() -> None:
    """A chief on a board or waiting in a forest puts its sign and name in the picture's key;
    a table without chiefs shows none (and nothing orange in the key)."""
    from PIL import Image

    from render.badbones import CHIEF, CHIEF_ORANGE, _legend_height, _legend_items, render_table

    state = position(
        "E4 S@saboteur N\nforest red.top@necromancer",
        "C5 S@nice",
        options={"advanced": True, "chiefs": True},
    )
    view = GAME.view(state, None)
    chiefs = [(w, label) for w, label in _legend_items(view, "es") if w.startswith(CHIEF)]
    assert chiefs == [
        (CHIEF + "necromancer", "jefe nigromante"),
        (CHIEF + "nice", "jefe amable"),
        (CHIEF + "saboteur", "jefe saboteador"),
    ]
    plain = GAME.view(position("E4 S", "", options={"chiefs": True}), None)
    assert not [w for w, _ in _legend_items(plain, "en") if w.startswith(CHIEF)]

    def orange_in_key(view: dict[str, Any]) -> int:
        img = Image.open(io.BytesIO(render_table(view, NAMES[:2], "en"))).convert("RGB")
        key = _legend_height(_legend_items(view, "en"), img.width)
        data = img.crop((0, img.height - key, img.width, img.height)).tobytes()
        # (the picture's palette shifts colours a little: count the pixels near the orange)
        return sum(
            1
            for px in zip(data[0::3], data[1::3], data[2::3], strict=True)
            if all(abs(a - b) < 40 for a, b in zip(px, CHIEF_ORANGE, strict=True))
        )

    assert orange_in_key(view) > 1000, "the chiefs' tokens are drawn in the key"
    assert orange_in_key(plain) < 100, "no chief, no token"


def test_the_boards_open_question_reads_as_the_channel_asks_it() -> None:
    """Play-test: a private board at a question read "Question {number}: the {symbol}
    {skeleton} on B1 leaves your board through the top forest: … default {default_seat})":
    every kind of question is worded on the board as in the channel, in either language."""
    from render.badbones import _note_lines
    from tests.badbones.helpers import trap_phase

    state = position(
        "weapon crossbow\nhero B4\nB3 S*3\nA1 S",
        "C2 dragon\nC1 S",
        "B2 catapult\nA2 E",
        stage=TRAP,
        options={"advanced": True},
    )
    state, _ = trap_phase(state)
    asked = GAME.pending(state)
    assert set(asked) == {0, 1, 2}
    expected = {
        (
            "en",
            0,
        ): "Question 1: your hero on B4 has just destroyed 3 skeletons at once: use your crossbow",
        ("en", 1): "Question 1: your dragon on C2 repels the pink skeleton coming from C1",
        ("en", 2): "Question 1: your catapult on B2 throws the pink skeleton coming from A2",
        ("es", 2): "Pregunta 1: tu catapulta en B2 lanza al esqueleto (de los rosas) que llega",
    }
    for (lang, seat), start in expected.items():
        [line] = _note_lines(GAME.view(state, seat), {}, NAMES[:3], lang)
        assert "{" not in line and line.startswith(start), line
    [line] = _note_lines(GAME.view(state, 2), {}, NAMES[:3], "en")
    assert line.endswith("1, 2 (Alice, Bob; default Alice)"), line
