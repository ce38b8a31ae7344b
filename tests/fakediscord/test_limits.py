"""The fake's limit checks catch what Discord refuses (so a passing e2e test means something)."""

from __future__ import annotations

from tests.fakediscord import limits


def command(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {"name": "game", "description": "Play", "type": 1, "options": []}
    base.update(changes)
    return base


def test_a_good_command_passes() -> None:
    option = {"type": 3, "name": "dirección", "description": "Where", "required": True}
    assert limits.check_commands([command(options=[option])]) == []


def test_names() -> None:
    assert limits.check_name("Game", "x"), "uppercase"
    assert limits.check_name("new game", "x"), "space"
    assert limits.check_name("a" * 33, "x"), "too long"
    assert limits.check_name("", "x")
    assert not limits.check_name("élan-1_x", "x")
    assert not limits.check_name("खेल", "x"), "Devanagari"


def test_descriptions_options_and_choices() -> None:
    assert limits.check_commands([command(description="")])
    assert limits.check_commands([command(description="x" * 101)])
    many = [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]
    assert limits.check_commands([command(options=many)])
    choices = [{"name": str(i), "value": str(i)} for i in range(26)]
    assert limits.check_commands(
        [command(options=[{"type": 3, "name": "o", "description": "d", "choices": choices}])]
    )
    late = [
        {"type": 3, "name": "a", "description": "d"},
        {"type": 3, "name": "b", "description": "d", "required": True},
    ]
    assert limits.check_commands([command(options=late)]), "required after optional"
    assert limits.check_commands([command(name_localizations={"es-ES": "Juego"})])
    assert limits.check_commands([command(name_localizations={"es": "juego"})]), "unknown locale"
    assert limits.check_commands([command(), command()]), "duplicate"


def test_messages() -> None:
    ok = {"content": "hi", "allowed_mentions": {"parse": []}}
    assert limits.check_message(ok, [], "m") == []
    assert limits.check_message({**ok, "content": "x" * 2001}, [], "m")
    assert limits.check_message({"content": "hi @everyone"}, [], "m"), "no allowed_mentions"
    assert limits.check_message({**ok, "allowed_mentions": {"parse": ["everyone"]}}, [], "m")
    assert limits.check_message(ok, [("big.png", 10 * 1024 * 1024 + 1)], "m")
    embeds = [{"description": "x" * 4000}, {"description": "y" * 2001}]
    assert limits.check_message({**ok, "embeds": embeds}, [], "m")
    assert limits.check_message({"allowed_mentions": {"parse": []}}, [], "m"), "empty"


def test_components() -> None:
    def button(i: int, custom_id: str | None = None) -> dict[str, object]:
        return {"type": 2, "style": 2, "label": f"b{i}", "custom_id": custom_id or f"id{i}"}

    def message(rows: list[list[dict[str, object]]]) -> dict[str, object]:
        return {
            "content": "x",
            "allowed_mentions": {"parse": []},
            "components": [{"type": 1, "components": row} for row in rows],
        }

    assert limits.check_message(message([[button(i) for i in range(5)]]), [], "m") == []
    assert limits.check_message(message([[button(i) for i in range(6)]]), [], "m")
    assert limits.check_message(message([[button(i)] for i in range(6)]), [], "m")
    assert limits.check_message(message([[button(0, "same"), button(1, "same")]]), [], "m")
    options = [{"label": str(i), "value": str(i)} for i in range(3)]
    select = {"type": 3, "custom_id": "s", "options": options, "min_values": 1, "max_values": 4}
    assert limits.check_message(message([[select]]), [], "m"), "max_values over the options"


def test_autocomplete() -> None:
    assert limits.check_autocomplete([{"name": "a", "value": "a"}]) == []
    assert limits.check_autocomplete([{"name": str(i), "value": str(i)} for i in range(26)])
