"""Can this process use its database? Each way it cannot, said in one sentence an admin can act on.

At start (``partida run``, ``partida migrate``) a database the bot cannot open, reach or write
stops it with ``database error: <sentence>`` and exit code 3 (``bot.cli``); ``partida doctor``
prints the same sentences. SQLite's file is tried for real, as this process's user: the file
(and its ``-wal``/``-shm`` companions) opened for writing, and a file created and removed in its
folder (SQLite creates ``-wal`` and ``-shm`` there), so an owner, a mode, a read-only mount or an
immutable file all show. A server that is not up yet (refused, starting, too busy) is waited for
at start, up to ``DATABASE_WAIT`` seconds (:func:`transient`).
"""

from __future__ import annotations

import errno
import os
import re
import socket
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy.engine import make_url

# Shown with every sentence about an owner: the usual cause is a backup restored as root (the
# backup is 0600 by design: it holds every player's hidden cards).
OWNERSHIP = "(a backup restored as root is the usual cause)"


def user_name(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return str(uid)


def _me() -> str:
    uid = os.geteuid()
    return f"{user_name(uid)} (uid {uid})"


def _owner(path: Path) -> str:
    info = path.stat()
    return f"{user_name(info.st_uid)} (uid {info.st_uid}, mode {stat.S_IMODE(info.st_mode):04o})"


def _chown(paths: str) -> str:
    uid = os.geteuid()
    return f"`chown {user_name(uid)}: {paths}` as root"


def sqlite_access(path: Path) -> str | None:
    """What keeps this process from reading and writing the SQLite database at ``path``
    (``None``: nothing). A missing file is fine if its folder is writable: it is created."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return (
            f"the folder {folder} of the database does not exist: create it for the bot's user "
            f"{_me()}, or set DATABASE_URL to where the database is"
        )
    for each in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            with open(each, "r+b"):
                pass
        except FileNotFoundError:
            continue
        except IsADirectoryError:
            return f"{each} is a folder, not a database file: fix the path in DATABASE_URL"
        except OSError as error:
            if error.errno not in (errno.EACCES, errno.EPERM):
                return (
                    f"the database file {each} cannot be written ({error.strerror}): a "
                    "read-only disk or mount? Put the database where the bot can write"
                )
            mine = each.stat().st_uid == os.geteuid()
            return (
                f"Partida, running as {_me()}, cannot write the database file {each} "
                f"({error.strerror}); it belongs to {_owner(each)}: "
                + (
                    f"`chmod u+rw {path}*` (or `chattr -i` if it is immutable)"
                    if mine
                    else f"{_chown(f'{path}*')} {OWNERSHIP}"
                )
            )
    try:
        handle, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=folder)
    except OSError as error:
        where = f"{folder} ({error.strerror}; it belongs to {_owner(folder)})"
        return (
            f"Partida, running as {_me()}, cannot create files in the database's folder "
            f"{where}, which SQLite needs for {path.name}-wal and {path.name}-shm: "
            + (
                f"{_chown(str(folder))} (or give it write permission for that user)"
                if error.errno in (errno.EACCES, errno.EPERM)
                else "put the database on a writable disk"
            )
        )
    os.close(handle)
    os.unlink(probe)
    return None


# asyncpg's ``connect()`` given a keyword it does not know: a URL parameter of libpq's.
_UNKNOWN_PARAMETER = re.compile(r"connect\(\) got an unexpected keyword argument '(\w+)'")


def _chain(error: BaseException) -> Iterator[BaseException]:
    """``error`` and what it wraps: SQLAlchemy's ``orig``, then the causes and contexts."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [error]
    while todo:
        each = todo.pop(0)
        if each is None or id(each) in seen:
            continue
        seen.add(id(each))
        yield each
        todo.extend([getattr(each, "orig", None), each.__cause__, each.__context__])


def _asyncpg(error: BaseException, *names: str) -> bool:
    return type(error).__module__.startswith("asyncpg") and type(error).__name__ in names


# Errors of a server that is not (yet) taking connections: worth waiting for at start.
_NOT_UP = ("CannotConnectNowError", "TooManyConnectionsError", "ConnectionDoesNotExistError")


def transient(error: BaseException) -> bool:
    """The server is not up yet, or not reachable for now: refused, reset or timed out, a host
    name not resolvable *for now* (Docker's DNS before the container starts), starting up."""
    for each in _chain(error):
        if isinstance(each, socket.gaierror):
            return each.errno == socket.EAI_AGAIN
        if isinstance(each, ConnectionError | TimeoutError) or _asyncpg(each, *_NOT_UP):
            return True
        if isinstance(each, OSError) and "connect call failed" in str(each).lower():
            return True  # asyncio's one error for every address of a host (IPv6 and IPv4)
    return False


def describe(error: BaseException, url: str) -> str | None:
    """The sentence for a database this process cannot use (``None``: not such a failure)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = parsed.database or ""
        if path and path != ":memory:":
            found = sqlite_access(Path(path))
            if found is not None:
                return found
        for each in _chain(error):
            text = str(each).lower()
            if type(each).__name__ == "OperationalError" and (
                "unable to open" in text or "readonly" in text or "disk i/o" in text
            ):
                return f"the database {path} cannot be opened for writing ({each})"
        return None
    server = f"{parsed.host or 'localhost'}:{parsed.port or 5432}"
    user, name = parsed.username or "?", parsed.database or "?"
    for each in _chain(error):
        unknown = _UNKNOWN_PARAMETER.search(str(each)) if isinstance(each, TypeError) else None
        if unknown is not None:  # a libpq parameter in the URL, which asyncpg does not take
            return (
                f"DATABASE_URL's parameter ?{unknown[1]}= is not one the PostgreSQL driver "
                "(asyncpg) takes: remove it from the URL (TLS is ?ssl=require, or libpq's "
                "?sslmode=require)"
            )
        if isinstance(each, socket.gaierror):
            return (
                f"the database server's name {parsed.host!r} is not known ({each.strerror}): "
                "check the host in DATABASE_URL"
            )
        if _asyncpg(each, "InvalidPasswordError", "InvalidAuthorizationSpecificationError"):
            return (
                f"the database server at {server} refused user {user!r} ({each}): check the user "
                "and password in DATABASE_URL (a password with @ : / # % or spaces must be "
                "URL-encoded there, or given as DATABASE_PASSWORD: docs/operations.md)"
            )
        if _asyncpg(each, "InvalidCatalogNameError"):
            return (
                f"the database server at {server} has no database {name!r} ({each}): create it "
                f"(`createdb -O {user} {name}`) or fix the name in DATABASE_URL"
            )
        if _asyncpg(each, "InsufficientPrivilegeError", "ReadOnlySQLTransactionError"):
            return (
                f"user {user!r} may not write the database {name!r} at {server} ({each}): make "
                "it the owner of the database (or point DATABASE_URL at the primary, not a "
                "read-only replica)"
            )
        if isinstance(each, OSError) or _asyncpg(each, *_NOT_UP):
            reason = str(each).splitlines()[0] if str(each) else type(each).__name__
            return (
                f"cannot reach the database server at {server} ({reason}): is PostgreSQL "
                "running there, and are DATABASE_URL's host and port right?"
            )
    return None


def mixed_owners(path: Path) -> str | None:
    """The database's files belong to someone other than its folder's owner (``None``: they
    agree). Seen by ``partida doctor`` even when run as root, who can write them all: the
    folder (systemd's StateDirectory, Docker's volume) belongs to the bot's user, so a file of
    another owner there is a restore or a copy done as another user, which the bot cannot use."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        owner = folder.stat().st_uid
    except OSError:
        return None
    strangers = []
    for each in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            if each.stat().st_uid != owner:
                strangers.append(f"{each.name} belongs to {_owner(each)}")
        except FileNotFoundError:
            continue
    if not strangers:
        return None
    return (
        f"in {folder}, which belongs to {user_name(owner)} (the bot's user, if it runs there), "
        f"{', '.join(strangers)} {OWNERSHIP}: `chown {user_name(owner)}: {path}*` as root"
    )
