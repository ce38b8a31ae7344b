"""A fake Discord (REST + gateway on loopback) for end-to-end tests of the Discord adapter."""

from tests.fakediscord.server import Exchange, FakeDiscord, FakeUser, Sent

__all__ = ["Exchange", "FakeDiscord", "FakeUser", "Sent"]
