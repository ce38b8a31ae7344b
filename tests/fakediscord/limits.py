"""Discord's documented limits, checked on every payload the bot sends to the fake.

Sources (developer documentation): Application Commands ("Application Command Naming",
"Registering a Command": 25 options, 25 choices, 100-character descriptions, 4,000 characters in
all), Message resource ("Create Message": 2,000 characters of content, 10 embeds, 6,000 characters
of embed text), Components (5 action rows, 5 buttons a row, custom_id ≤ 100, labels ≤ 80, 25
select options), Receiving and Responding ("3 seconds" to respond, autocomplete ≤ 25 choices),
Uploading Files (10 MiB without boosts).

Each check returns a list of human-readable violations (empty when all is well). What Discord's
own schema says (lengths, counts and bounds of each field; :mod:`tests.fakediscord.schema`) is
checked there, before these; here are the rules it does not express, and those where Discord's
documentation is stricter than its schema (2,000 characters of content, not 4,000).
"""

from __future__ import annotations

import unicodedata
from typing import Any

MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_CHARS = 4000
MAX_GLOBAL_COMMANDS = 100
MAX_CONTENT = 2000
MAX_EMBED_TOTAL = 6000
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_ATTACHMENT = 10 * 1024 * 1024
MAX_ATTACHMENTS = 10
RESPONSE_WINDOW = 3.0

# Discord's locales (the keys allowed in name_localizations / description_localizations).
LOCALES = {
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
}  # fmt: skip

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)


def _name_char(ch: str) -> bool:
    """``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]`` one character at a time (Python's ``re`` has
    no ``\\p``): letters, numbers, ``-``, ``_``, and the Devanagari and Thai blocks."""
    if ch in "-_":
        return True
    if unicodedata.category(ch)[0] in "LN":
        return True
    return "\u0900" <= ch <= "\u097f" or "\u0e00" <= ch <= "\u0e7f"


def check_name(name: Any, where: str) -> list[str]:
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        return [f"{where}: name {name!r} must be 1–{MAX_NAME} characters"]
    if not all(_name_char(ch) for ch in name):
        return [f"{where}: name {name!r} does not match Discord's name pattern"]
    if name != name.lower():
        return [f"{where}: name {name!r} must be lowercase"]
    return []


def check_description(text: Any, where: str) -> list[str]:
    if not isinstance(text, str) or not 1 <= len(text) <= MAX_DESCRIPTION:
        return [f"{where}: description {text!r} must be 1–{MAX_DESCRIPTION} characters"]
    return []


def _localizations(obj: dict[str, Any], where: str) -> list[str]:
    out: list[str] = []
    for field, check in (
        ("name_localizations", check_name),
        ("description_localizations", check_description),
    ):
        for locale, value in (obj.get(field) or {}).items():
            if locale not in LOCALES:
                out.append(f"{where}: unknown locale {locale!r} in {field}")
            out += check(value, f"{where} [{locale}]")
    return out


def _chars(obj: dict[str, Any]) -> int:
    """Characters counted toward the 4,000 limit: names, descriptions, choice names and values
    (the longest localization of each counts)."""
    total = max(
        [len(obj.get("name", ""))]
        + [len(v) for v in (obj.get("name_localizations") or {}).values()]
    )
    total += max(
        [len(obj.get("description", ""))]
        + [len(v) for v in (obj.get("description_localizations") or {}).values()]
    )
    for choice in obj.get("choices") or []:
        total += max(
            [len(choice["name"])]
            + [len(v) for v in (choice.get("name_localizations") or {}).values()]
        )
        total += len(str(choice["value"]))
    for option in obj.get("options") or []:
        total += _chars(option)
    return total


def check_command(command: dict[str, Any]) -> list[str]:
    """One application command as sent by a bulk overwrite (chat input commands only)."""
    where = f"/{command.get('name')}"
    out = check_name(command.get("name"), where) + _localizations(command, where)
    if command.get("type", 1) == 1:
        out += check_description(command.get("description"), where)
        out += _options(command.get("options") or [], where, depth=0)
        chars = _chars(command)
        if chars > MAX_COMMAND_CHARS:
            out.append(f"{where}: {chars} characters in all (at most {MAX_COMMAND_CHARS})")
    return out


def _options(options: list[dict[str, Any]], where: str, depth: int) -> list[str]:
    out: list[str] = []
    if len(options) > MAX_OPTIONS:
        out.append(f"{where}: {len(options)} options (at most {MAX_OPTIONS})")
    names = [o.get("name") for o in options]
    if len(set(names)) != len(names):
        out.append(f"{where}: duplicate option names {names}")
    kinds = {o.get("type") for o in options}
    if kinds & {SUB_COMMAND, SUB_COMMAND_GROUP} and kinds - {SUB_COMMAND, SUB_COMMAND_GROUP}:
        out.append(f"{where}: subcommands mixed with plain options")
    seen_optional = False
    for option in options:
        here = f"{where} {option.get('name')}"
        out += check_name(option.get("name"), here) + check_description(
            option.get("description"), here
        )
        out += _localizations(option, here)
        kind = option.get("type")
        if kind == SUB_COMMAND_GROUP:
            if depth != 0:
                out.append(f"{here}: a subcommand group may only sit at the top level")
            if any(o.get("type") != SUB_COMMAND for o in option.get("options") or []):
                out.append(f"{here}: a subcommand group holds only subcommands")
            out += _options(option.get("options") or [], here, depth + 1)
        elif kind == SUB_COMMAND:
            out += _options(option.get("options") or [], here, depth + 1)
        else:
            if option.get("required"):
                if seen_optional:
                    out.append(f"{here}: required options must come before optional ones")
            else:
                seen_optional = True
            choices = option.get("choices") or []
            if len(choices) > MAX_CHOICES:
                out.append(f"{here}: {len(choices)} choices (at most {MAX_CHOICES})")
            if choices and option.get("autocomplete"):
                out.append(f"{here}: choices and autocomplete together")
            for choice in choices:
                out += _choice(choice, kind, here)
            # min_value/max_value: Discord's schema bounds them (±(2**53 - 1)).
    return out


def _choice(choice: dict[str, Any], kind: Any, where: str) -> list[str]:
    out: list[str] = []
    name = choice.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        out.append(f"{where}: choice name {name!r} must be 1–100 characters")
    for locale, value in (choice.get("name_localizations") or {}).items():
        if locale not in LOCALES or not 1 <= len(value) <= 100:
            out.append(f"{where}: bad choice localization {locale!r}: {value!r}")
    value = choice.get("value")
    if kind == STRING and (not isinstance(value, str) or not 1 <= len(value) <= 100):
        out.append(f"{where}: string choice value {value!r} must be 1–100 characters")
    if kind == INTEGER and (not isinstance(value, int) or isinstance(value, bool)):
        out.append(f"{where}: integer choice value {value!r} is not an integer")
    return out


def check_commands(commands: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    if len(commands) > MAX_GLOBAL_COMMANDS:
        out.append(f"{len(commands)} commands (at most {MAX_GLOBAL_COMMANDS})")
    names = [(c.get("type", 1), c.get("name")) for c in commands]
    if len(set(names)) != len(names):
        out.append(f"duplicate command names {names}")
    for command in commands:
        out += check_command(command)
    return out


def check_autocomplete(choices: Any) -> list[str]:
    if not isinstance(choices, list):
        return ["autocomplete result without choices"]
    out = (
        [f"autocomplete: {len(choices)} results (at most {MAX_CHOICES})"]
        if len(choices) > MAX_CHOICES
        else []
    )
    for choice in choices:
        out += _choice(
            choice, STRING if isinstance(choice.get("value"), str) else INTEGER, "autocomplete"
        )
    return out


def check_message(
    payload: dict[str, Any], files: list[tuple[str, int]], where: str, *, edit: bool = False
) -> list[str]:
    """A message create or edit (channel message, interaction response, followup)."""
    out: list[str] = []
    content = payload.get("content")
    if content is not None and len(content) > MAX_CONTENT:
        out.append(f"{where}: content has {len(content)} characters (at most {MAX_CONTENT})")
    # The number of embeds and the length of each field: Discord's schema checks them.
    embeds = payload.get("embeds") or []
    total = sum(_embed_chars(e) for e in embeds)
    if total > MAX_EMBED_TOTAL:
        out.append(f"{where}: embeds hold {total} characters (at most {MAX_EMBED_TOTAL})")
    out += _components(payload.get("components") or [], where)
    if len(files) > MAX_ATTACHMENTS:
        out.append(f"{where}: {len(files)} attachments (at most {MAX_ATTACHMENTS})")
    for filename, size in files:
        if size > MAX_ATTACHMENT:
            out.append(
                f"{where}: attachment {filename} has {size} bytes (at most {MAX_ATTACHMENT})"
            )
    if not edit and not (
        content or embeds or files or payload.get("components") or payload.get("sticker_ids")
    ):
        out.append(f"{where}: empty message")
    mentions = payload.get("allowed_mentions")
    if content and "@" in content or not edit:
        if mentions is None:
            out.append(
                f"{where}: no allowed_mentions (Discord would then ping every mention in the text)"
            )
        elif {"everyone", "roles"} & set(mentions.get("parse") or []) or mentions.get("roles"):
            out.append(f"{where}: allowed_mentions lets @everyone or roles be pinged: {mentions}")
    return out


def _embed_chars(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "") + len(
        (embed.get("author") or {}).get("name") or ""
    )
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def _components(rows: list[dict[str, Any]], where: str) -> list[str]:
    out: list[str] = []
    if len(rows) > MAX_ROWS:
        out.append(f"{where}: {len(rows)} action rows (at most {MAX_ROWS})")
    ids: list[str] = []
    for row in rows:
        if row.get("type") != 1:
            out.append(
                f"{where}: top-level component of type {row.get('type')} is not an action row"
            )
            continue
        items = row.get("components") or []
        kinds = {c.get("type") for c in items}
        if kinds == {2}:
            if not 1 <= len(items) <= MAX_ROW_BUTTONS:
                out.append(f"{where}: a row holds {len(items)} buttons (1–{MAX_ROW_BUTTONS})")
        elif len(items) != 1:
            out.append(f"{where}: a select menu must be alone in its row")
        for item in items:
            custom_id = item.get("custom_id")
            if item.get("type") == 2 and item.get("style") == 5:
                continue  # link buttons have a url, no custom_id
            # Lengths (custom_id, label, placeholder, options): Discord's schema checks them;
            # that a button other than a link has a custom_id, the schema does not say.
            if not isinstance(custom_id, str):
                out.append(f"{where}: a component without a custom_id")
            else:
                ids.append(custom_id)
            if item.get("type") == 2:
                if not item.get("label") and not item.get("emoji"):
                    out.append(f"{where}: a button needs a label or an emoji")
            elif item.get("type") == 3:
                options = item.get("options") or []
                low, high = item.get("min_values", 1), item.get("max_values", 1)
                if not (0 <= low <= high <= min(25, max(1, len(options)))):
                    out.append(
                        f"{where}: select min/max values {low}/{high} do not fit {len(options)} options"
                    )
    if len(set(ids)) != len(ids):
        out.append(f"{where}: duplicate custom_ids in one message")
    return out
