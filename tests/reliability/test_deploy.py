"""The files in deploy/ parse and say what docs/operations.md promises.

Docker and systemd are not available where the tests run, so these read the files: the unit's
sections and keys, the Dockerfile's instructions (and that what it copies exists), the compose
file's services. What they check is what a clean stop needs: SIGTERM to the bot alone, and
more time before SIGKILL than the bot's own grace for commands in flight.
"""

from __future__ import annotations

import configparser
import json
import re
from pathlib import Path

import yaml

from bot.discord.client import STOP_GRACE

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def seconds(value: str) -> float:
    match = re.fullmatch(r"(\d+)(s|m)?", str(value).strip())
    assert match, f"not a duration: {value!r}"
    return int(match[1]) * (60 if match[2] == "m" else 1)


def test_the_systemd_unit() -> None:
    unit = configparser.ConfigParser(strict=True, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
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
    assert service["EnvironmentFile"].startswith("/etc/")
    assert service["WorkingDirectory"] == "/var/lib/" + service["StateDirectory"]
    assert "network-online.target" in unit["Unit"]["After"]
    assert unit["Install"]["WantedBy"] == "multi-user.target"


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
    assert words["USER"] not in ("root", "0")
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
    found = re.fullmatch(r"postgresql://(\w+):\$\{POSTGRES_PASSWORD[^}]*\}@db:5432/(\w+)", url)
    assert found and found[1] == env["POSTGRES_USER"] and found[2] == env["POSTGRES_DB"]
    assert env["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD")
    assert bot["environment"]["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")
    assert any(v.endswith(":/var/lib/postgresql/data") for v in db["volumes"])
    assert set(compose["volumes"]) == {"pgdata"}
    example = (DEPLOY / "env.example").read_text()
    assert "DISCORD_TOKEN=" in example and "POSTGRES_PASSWORD=" in example
