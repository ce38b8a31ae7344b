"""What a player is told when they set a standing answer (``/badbones prefer``), through the
service: a rival's seat is named, in the player's language."""

from __future__ import annotations

import pytest

from bot.service import Service
from tests.conftest import ALICE, CAROL, HERE
from tests.test_sealed_choices import private, three_at_the_table

# What it proves does not depend on the database: SQLite only (tests/conftest.py).
pytestmark = pytest.mark.any_database


async def test_a_standing_catapult_target_is_confirmed_by_the_rivals_name(
    service: Service,
) -> None:
    await three_at_the_table(service)
    said_en = await service.act(
        ALICE, HERE, "badbones", "prefer", {"choice": "catapult", "value": "2"}
    )
    assert "your catapult sends skeletons to Bob." in private(said_en), "not 'catapult: 2'"
    said_es = await service.act(
        CAROL, HERE, "badbones", "prefer", {"choice": "catapult", "value": "1"}
    )
    assert "tu catapulta envía los esqueletos a Alice." in private(said_es)
