"""A migrated SQLite database for a test, copied from one migrated once per worker.

Migrating an empty file to head costs about 70 ms of CPU (Alembic runs every revision); a copy
of a file already at head costs a millisecond, and ``Service.open`` still runs its upgrade (at
head: a check of the revision, 15 ms) and its write probe on it, as at every start. Each test
still gets its own file. The migrations themselves are tested from an empty database
(``tests/test_migrations.py``, ``tests/reliability/test_migrations_both.py``), and tests that
need an empty or damaged file make their own.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.store.database import upgrade_sync


def migrated_template(folder: Path) -> Path:
    """A SQLite file migrated to head in ``folder`` (once per worker: the ``migrated``
    session fixture of ``tests/conftest.py``). Alembic runs its own event loop: call it outside
    one."""
    template = folder / "template.db"
    upgrade_sync(f"sqlite+aiosqlite:///{template}")
    leftovers = [p.name for p in folder.iterdir() if p != template]
    assert not leftovers, f"the template left {leftovers} beside it: copy them too"
    return template


def copy_migrated(template: Path, path: Path) -> str:
    """``template`` copied to ``path`` (which must not exist yet); its URL."""
    assert not path.exists(), path
    shutil.copyfile(template, path)
    return f"sqlite+aiosqlite:///{path}"
