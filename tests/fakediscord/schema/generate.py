"""Write the subset of Discord's OpenAPI description that the fake Discord validates against.

Discord publishes its HTTP API as an OpenAPI 3.1 file (github.com/discord/discord-api-spec, MIT).
The fake needs only the operations the bot and the fake use; this script copies exactly those
(as Discord wrote them, request and response schemas included) and every component they refer
to, sorted, so the committed subset changes only when Discord's file does. Run it after updating
the source file::

    python -m tests.fakediscord.schema.generate [path/to/openapi.json]

(default: ``../shared/discord/openapi.json`` beside the repository). It writes ``openapi.json``
and Discord's ``LICENSE`` into this folder.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
# ../shared beside the repository (a git worktree under wt/ looks one level further up).
SOURCES = (
    REPO.parent / "shared" / "discord" / "openapi.json",
    REPO.parent.parent / "shared" / "discord" / "openapi.json",
)
SUBSET = HERE / "openapi.json"
LICENSE = HERE / "LICENSE"

# (path, method): every REST operation the bot sends and the fake serves (tests/fakediscord/
# server.py), plus the deletes the bot may send. Add one here when the bot starts using it.
OPERATIONS: tuple[tuple[str, str], ...] = (
    ("/users/@me", "get"),
    ("/users/@me/channels", "post"),
    ("/applications/@me", "get"),
    ("/oauth2/applications/@me", "get"),
    ("/gateway", "get"),
    ("/gateway/bot", "get"),
    ("/applications/{application_id}/commands", "get"),
    ("/applications/{application_id}/commands", "put"),
    ("/applications/{application_id}/guilds/{guild_id}/commands", "get"),
    ("/applications/{application_id}/guilds/{guild_id}/commands", "put"),
    ("/interactions/{interaction_id}/{interaction_token}/callback", "post"),
    ("/webhooks/{webhook_id}/{webhook_token}", "post"),
    ("/webhooks/{webhook_id}/{webhook_token}/messages/@original", "patch"),
    ("/webhooks/{webhook_id}/{webhook_token}/messages/@original", "delete"),
    ("/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", "patch"),
    ("/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", "delete"),
    ("/channels/{channel_id}", "get"),
    ("/channels/{channel_id}", "patch"),
    ("/channels/{channel_id}/messages", "post"),
    ("/channels/{channel_id}/messages/{message_id}", "patch"),
    ("/channels/{channel_id}/messages/{message_id}", "delete"),
    ("/channels/{channel_id}/messages/{message_id}/threads", "post"),
)


def _refs(node: Any) -> set[str]:
    """Every ``$ref`` target in ``node``."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                found.add(value)
            else:
                found |= _refs(value)
    elif isinstance(node, list):
        for item in node:
            found |= _refs(item)
    return found


def _lookup(document: dict[str, Any], ref: str) -> Any:
    if not ref.startswith("#/"):
        raise ValueError(f"only local references are expected, not {ref}")
    node: Any = document
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def subset(document: dict[str, Any]) -> dict[str, Any]:
    """The operations in OPERATIONS with their path-level parameters, and every component they
    reach (``#/components/<kind>/<name>``), transitively."""
    paths: dict[str, dict[str, Any]] = {}
    for path, method in OPERATIONS:
        item = document["paths"][path]
        kept = paths.setdefault(path, {k: v for k, v in item.items() if k == "parameters"})
        kept[method] = item[method]
    components: dict[str, dict[str, Any]] = {}
    pending = sorted(_refs(paths))
    seen: set[str] = set()
    while pending:
        ref = pending.pop()
        if ref in seen:
            continue
        seen.add(ref)
        _, kind, name = ref[2:].split("/", 2)
        target = _lookup(document, ref)
        components.setdefault(kind, {})[name] = target
        pending.extend(sorted(_refs(target) - seen))
    return {
        "openapi": document["openapi"],
        "info": document["info"],
        "externalDocs": document.get("externalDocs", {}),
        "x-partida": (
            "A subset of Discord's openapi.json (MIT, LICENSE beside this file), written by "
            "python -m tests.fakediscord.schema.generate; do not edit by hand."
        ),
        "paths": paths,
        "components": components,
    }


def render(document: dict[str, Any]) -> str:
    """The subset as committed: sorted keys, one indent, a final newline (deterministic)."""
    return json.dumps(subset(document), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def find_source() -> Path | None:
    """Discord's openapi.json where the project's shared folder keeps it, or None."""
    return next((path for path in SOURCES if path.exists()), None)


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else find_source()
    if source is None or not source.exists():
        print(
            f"no {source or SOURCES[0]}: pass the path of Discord's openapi.json", file=sys.stderr
        )
        return 2
    document = json.loads(source.read_text(encoding="utf-8"))
    SUBSET.write_text(render(document), encoding="utf-8")
    shutil.copyfile(source.parent / "LICENSE", LICENSE)
    print(f"wrote {SUBSET} ({len(subset(document)['components'].get('schemas', {}))} schemas)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
