"""Games that live in tests only (they never ship): each is a folder laid out as a shipped game
is (docs/adding-a-game.md), and one line in ``tests/support/registered.py`` (``TEST_GAMES``)
makes every generic test take it."""
