"""Every piece described, through the real discord.py client and the fake Discord: the
``topic`` option of ``/game rules`` and a piece's one line in autocomplete."""

from __future__ import annotations

from i18n import catalogue
from tests.discord.conftest import Bots
from tests.fakediscord import FakeDiscord


async def test_rules_topic_lists_the_pieces_in_the_readers_language(
    fake: FakeDiscord, bots: Bots
) -> None:
    await bots.start()
    alice = fake.add_user(101, "Alice")
    beto = fake.add_user(102, "Beto", "es-ES")
    en, es = catalogue("en"), catalogue("es")

    offered = await fake.autocomplete(alice, "game rules", "topic", game="farkle")
    assert offered == [
        {"name": "items", "value": "items"},
        {"name": "companions", "value": "companions"},
    ]
    spanish = await fake.autocomplete(beto, "game rules", "topic", game="badbones", typed="arm")
    assert spanish == [{"name": "armas", "value": "weapons"}]

    weapons = await (
        await fake.slash(alice, "game rules", game="badbones", topic="weapons")
    ).result()
    assert weapons.ephemeral
    assert "Weapons" in weapons.text and en["badbones.weapon_text.icewand"] in weapons.text
    armas = await (await fake.slash(beto, "game rules", game="badbones", topic="armas")).result()
    assert es["badbones.weapon_text.icewand"] in armas.text
    caras = await (await fake.slash(beto, "game rules", game="zvv", topic="faces")).result()
    assert es["zvv.face_text.build"] in caras.text

    whole = await (await fake.slash(alice, "game rules", game="fuse")).result()
    assert "topic:<topic>" in whole.text and "`cards`" in whole.text, "the topics are named"
    refused = await (await fake.slash(alice, "game rules", game="fuse", topic="dice")).result()
    assert refused.ephemeral and "⚠️" in refused.text and "`cards`" in refused.text
    await fake.idle()
    assert fake.in_channel() == [], "all of it private: nothing posted"


async def test_a_trap_is_offered_with_what_it_does(fake: FakeDiscord, bots: Bots) -> None:
    await bots.start()
    beto = fake.add_user(102, "Beto", "es-ES")
    await (await fake.slash(beto, "badbones new")).result()
    await (await fake.slash(beto, "game start")).result()
    moved = await (await fake.slash(beto, "badbones move", direction="N")).result()
    assert "⚠️" not in moved.text
    await fake.idle()

    offered = await fake.autocomplete(beto, "badbones place", "trap")
    by_value = {c["value"]: c["name"] for c in offered}
    assert by_value["muro"].startswith("muro — Un espejo en diagonal")
    assert by_value["catapulta"] == "catapulta — " + catalogue("es")["badbones.trap_text.catapult"]
    assert all(len(c["name"]) <= 100 for c in offered)
    square = (await fake.autocomplete(beto, "badbones place", "square", trap="muro"))[0]
    assert square["name"] == square["value"], "a square is no piece: offered as it is"

    placed = await (
        await fake.slash(
            beto,
            "badbones place",
            trap="muro",
            square=square["value"],
            orientation="\\",
        )
    ).result()
    assert "⚠️" not in placed.text, "the value submitted is the name, as before"
