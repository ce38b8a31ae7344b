"""The test suite. Imported first, before any conftest or test module (pytest imports
``tests.conftest`` as part of this package), which is why this is where the bytecode caches
are turned back on.

Bytecode caches, even where the environment turns them off (``PYTHONDONTWRITEBYTECODE``, set
on our CI machines): without them every worker process rewrites the asserts of all ~150 test
modules and compiles them, and every bot a test starts compiles the bot, again: collection took
13 s of CPU a worker instead of 4.3 s (docs/testing.md, "How long"). The environment, without
the variable, is inherited by the workers (pytest-xdist) and the bots the tests start.
"""

import os
import sys

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
