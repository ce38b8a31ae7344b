"""Messages as structure: a catalogue text filled with names, mentions and times stays parts,
so no adapter has to parse markup back out of a string."""

from bot.discord.markup import markdown
from bot.service.text import Mention, Name, Strong, Text, When, join, phrase


def test_a_name_stays_a_name_whatever_it_contains() -> None:
    odd = Name("**Bob**_\x1a0\x1a_<@1>")
    text = phrase("lobby.table.started", "en", game="Tiny", players=odd)
    assert odd in text.parts  # not re-read as emphasis, a placeholder or a mention
    assert "<@1>" not in markdown(text) and "‹@\u200b1›" in markdown(text)


def test_emphasis_in_the_catalogue_becomes_strong() -> None:
    text = phrase("lobby.table.started", "en", game="Zombies", players=Name("Ana"))
    assert Strong("Zombies") in text.parts
    assert "**Zombies**" in markdown(text) and "**" not in str(text)


def test_discord_and_the_plain_rendering_differ_only_in_markup() -> None:
    text = Text.of("⏳ ", Mention(7, "Ana_B"), " until ", When(1_800_000_000))
    assert markdown(text) == "⏳ <@7> until <t:1800000000:R>"
    assert str(text) == "⏳ @Ana_B until 2027-01-15 08:00 UTC"
    assert text.plain(lambda w: "(soon)") == "⏳ @Ana_B until (soon)"


def test_a_list_of_names_is_joined_as_parts() -> None:
    names = join([Name("a_b"), Name("c")])
    assert names.parts == (Name("a_b"), ", ", Name("c"))
    assert markdown(names) == "a\\_b, c"
