"""Buttons and selects that keep working after a restart.

The service writes everything a click needs into the ``custom_id``
(``pt:<game id>:<phase token>:<command>:<args>``), so no view has to be kept in memory: one
:class:`discord.ui.DynamicItem` class matches every such id, for buttons and selects alike, and
decodes the click once into a typed :class:`~bot.service.buttons.Press` and hands it to the bot,
which passes it to ``service.press`` (the service checks the seat and whether the phase has
moved on; nothing there reads the id again).
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.service import buttons

TEMPLATE = buttons.OURS  # the id format is bot.service.buttons' alone


class PressHandler(Protocol):
    async def on_game_item(
        self, interaction: discord.Interaction[Any], press: buttons.Press | None, custom_id: str
    ) -> None: ...


class GameItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """A game button or select; ``item`` is the underlying button or select."""

    def __init__(self, item: discord.ui.Item[Any], *, row: int | None = None) -> None:
        super().__init__(item, row=row)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameItem:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py only logs exceptions raised here (the user would see "This interaction
        # failed"), so the bot's handler catches everything and answers.
        values = list(self.item.values) if isinstance(self.item, discord.ui.Select) else None
        press = buttons.decode(self.custom_id, values)  # None: ours, but malformed
        handler: PressHandler = interaction.client
        await handler.on_game_item(interaction, press, self.custom_id)
