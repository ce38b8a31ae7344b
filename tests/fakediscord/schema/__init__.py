"""Discord's own request and response schemas, checked by the fake on every REST call.

``openapi.json`` here is the subset of Discord's published OpenAPI 3.1 description that the bot
and the fake use (written by :mod:`tests.fakediscord.schema.generate`; Discord's MIT licence in
``LICENSE``). OpenAPI 3.1 schemas are JSON Schema 2020-12, so ``jsonschema`` validates them as
they are, with two allowances Discord makes and its file does not say:

- a snowflake (``SnowflakeType``, a string of digits) may also be sent as a JSON integer, which
  discord.py does (``recipient_id``, ids in allowed mentions);
- an integer field of no declared size (permission bitfields, flags) may also be sent as a
  string of digits, as Discord documents bitfields and discord.py sends
  ``default_member_permissions``.

and where the documentation and the file disagree the documentation wins, as Discord says: an
error's ``code`` in a field's ``_errors`` is a string.

A body that fails is refused as Discord refuses it: HTTP 400, code 50035 "Invalid Form Body",
``errors`` naming the failing field as nested objects (list items by index) down to its
``_errors``. Responses are checked too (status code and body), so the fake answers as Discord's
response schemas say.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from aiohttp import web
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SUBSET = Path(__file__).with_name("openapi.json")
_BASE = "urn:discord-openapi"
_DIGITS = {"type": "string", "pattern": "^-?(0|[1-9][0-9]*)$"}
_VERDICTS = 2000  # bodies whose verdict is kept (a few megabytes)


@dataclass(frozen=True)
class Problem:
    """One failing field: where (keys and list indexes from the body's root), Discord's error
    code and message."""

    where: tuple[str | int, ...]
    code: str
    message: str

    def __str__(self) -> str:
        field = ".".join(str(part) for part in self.where) or "(body)"
        return f"{field}: {self.message} ({self.code})"


@dataclass(frozen=True)
class Operation:
    method: str  # upper case
    path: str  # Discord's template, e.g. /channels/{channel_id}/messages
    pattern: re.Pattern[str]
    request: Draft202012Validator | None  # None: the operation takes no body
    responses: dict[str, Draft202012Validator | None]  # "200", "4XX"… → body schema or None


class Schemas:
    """The operations of the subset, matched by method and request path."""

    def __init__(self, document: dict[str, Any]) -> None:
        document = _exclusive(document, _enums(document))
        strict = copy.deepcopy(document)
        # The file types an error's code as an integer; Discord's documentation (which wins, as
        # Discord says) shows a field's _errors with string codes ("BASE_TYPE_REQUIRED").
        strict["components"]["schemas"]["Error"]["properties"]["code"] = {
            "type": ["integer", "string"]
        }
        lenient = copy.deepcopy(document)
        lenient["components"]["schemas"] = {
            name: _lenient(schema, top=name)
            for name, schema in lenient["components"]["schemas"].items()
        }
        # Each operation's schemas go into the components under private names, so that one
        # registry resolves them and their "#/components/…" references alike.
        extra_strict: dict[str, Any] = {}
        extra_lenient: dict[str, Any] = {}
        plans: list[tuple[str, str, str | None, dict[str, str | None]]] = []
        for path, item in sorted(document["paths"].items()):
            for method, operation in sorted(item.items()):
                if method == "parameters":
                    continue
                key = f"{method}_{operation['operationId']}"
                request = None
                body = (operation.get("requestBody") or {}).get("content") or {}
                if "application/json" in body:
                    request = f"x-partida-{key}-request"
                    extra_lenient[request] = _lenient(body["application/json"]["schema"], "")
                responses: dict[str, str | None] = {}
                for status, response in operation["responses"].items():
                    if "$ref" in response:
                        response = _pointer(document, response["$ref"])
                    content = (response.get("content") or {}).get("application/json")
                    name = None
                    if content is not None:
                        name = f"x-partida-{key}-{status}"
                        extra_strict[name] = content["schema"]
                    responses[status] = name
                plans.append((method.upper(), path, request, responses))
        strict["components"]["schemas"].update(extra_strict)
        lenient["components"]["schemas"].update(extra_lenient)
        registry: Registry[Any] = Registry().with_resources(
            [
                (f"{_BASE}-strict", DRAFT202012.create_resource(strict)),
                (f"{_BASE}-lenient", DRAFT202012.create_resource(lenient)),
            ]
        )

        def validator(which: str, name: str | None) -> Draft202012Validator | None:
            if name is None:
                return None
            ref = {"$ref": f"{_BASE}-{which}#/components/schemas/{name}"}
            return Draft202012Validator(ref, registry=registry)

        self.operations = [
            Operation(
                method,
                path,
                _template(path),
                validator("lenient", request),
                {status: validator("strict", name) for status, name in responses.items()},
            )
            for method, path, request, responses in plans
        ]
        # Literal segments before placeholders: "@original" is not a message id.
        self.operations.sort(key=lambda op: op.path.count("{"))
        self._verdicts: dict[tuple[int, str], tuple[Problem, ...]] = {}

    def find(self, method: str, path: str) -> Operation | None:
        """The operation for ``method path`` (``path`` after ``/api/v10``), or None."""
        for operation in self.operations:
            if operation.method == method and operation.pattern.fullmatch(path):
                return operation
        return None

    def check_request(self, operation: Operation, body: Any) -> list[Problem]:
        """What Discord would refuse in ``body`` (empty: valid)."""
        if operation.request is None:
            return []
        return list(self._verdict(operation.request, body))

    def check_response(self, operation: Operation, status: int, body: Any) -> list[str]:
        """What in the fake's answer a Discord response would not be (empty: as Discord)."""
        code = str(status)
        if code not in operation.responses:
            code = f"{code[0]}XX"
        if code not in operation.responses:
            return [f"{operation.method} {operation.path}: Discord never answers {status}"]
        validator = operation.responses[code]
        if validator is None:
            return (
                []
                if body is None
                else [f"{operation.method} {operation.path}: {status} has a body"]
            )
        if body is None:
            return [f"{operation.method} {operation.path}: {status} without a JSON body"]
        return [
            f"{operation.method} {operation.path} {status}: {problem}"
            for problem in self._verdict(validator, body)
        ]

    def _verdict(self, validator: Draft202012Validator, body: Any) -> tuple[Problem, ...]:
        """``validator``'s problems with ``body``, remembered by the body's JSON text: a check
        depends on nothing else, and the same bodies come back in every test of a worker (the
        commands every bot syncs at its start, and the fake's answer: a fifth of a second of
        checking each)."""
        key = (id(validator), json.dumps(body, sort_keys=True))
        found = self._verdicts.get(key)
        if found is None:
            found = tuple(_problem(error) for error in _sorted(validator.iter_errors(body)))
            if len(self._verdicts) >= _VERDICTS:
                self._verdicts.clear()  # bodies seen once (ids, texts) would pile up
            self._verdicts[key] = found
        return found


@cache
def schemas() -> Schemas:
    """The committed subset, loaded once per process."""
    return Schemas(json.loads(SUBSET.read_text(encoding="utf-8")))


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def middleware(
    refused: list[str], unlike: list[str], checked: set[tuple[str, str, int]]
) -> Callable[..., Awaitable[Any]]:
    """An aiohttp middleware for the fake: a request body Discord's schema refuses is answered
    with Discord's 400 (code 50035) and described in ``refused``; a response of the fake that a
    Discord response would not be is described in ``unlike``; ``checked`` collects each
    (method, Discord's path, status) answered. Routes outside the subset pass unchecked."""

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        known = schemas()
        operation = known.find(request.method, request.path.removeprefix("/api/v10"))
        if operation is None:
            return await handler(request)
        if operation.request is not None:
            problems = known.check_request(operation, await _body(request))
            if problems:
                refused.extend(f"{operation.method} {operation.path}: {p}" for p in problems)
                answer = {"code": 50035, "message": "Invalid Form Body"}
                return _json({**answer, "errors": form_errors(problems)}, 400)
        response = await handler(request)
        raw = response.body if isinstance(response, web.Response) else None
        # The schemas describe the API's answers: not a 5xx, nor a page that is not JSON (what
        # Cloudflare sends in front of Discord), which a fault injected into the fake may be.
        if response.status < 500 and (not raw or response.content_type == "application/json"):
            body = json.loads(raw) if isinstance(raw, bytes | bytearray) and raw else None
            unlike.extend(known.check_response(operation, response.status, body))
            checked.add((operation.method, operation.path, response.status))
        return response

    return check


async def _body(request: web.Request) -> Any:
    """The JSON body, or a multipart request's ``payload_json`` (None: no body)."""
    if request.content_type.startswith("multipart/"):
        form = await request.post()  # cached: the handler reads the same form again
        return json.loads(str(form["payload_json"])) if "payload_json" in form else None
    if request.body_exists:
        return await request.json()  # cached likewise
    return None


def _json(data: Any, status: int) -> web.Response:
    # discord.py compares the whole Content-Type header: no "; charset=utf-8".
    headers = {"Content-Type": "application/json"}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=headers)


def form_errors(problems: list[Problem]) -> dict[str, Any]:
    """Discord's ``errors`` object: each failing field as nested keys (list items by their
    index, as a string) holding ``{"_errors": [{"code", "message"}]}``."""
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for part in problem.where:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return errors


def _pointer(document: dict[str, Any], ref: str) -> Any:
    node: Any = document
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def _template(path: str) -> re.Pattern[str]:
    parts = re.split(r"\{[^}]+\}", path)
    return re.compile("[^/]+".join(re.escape(part) for part in parts))


def _enums(node: Any) -> Any:
    """``node`` with each ``oneOf`` of plain constants (Discord's named enums, such as the
    component types) as the ``enum`` it means: the same values, checked at once instead of
    branch by branch (it made a message's check ten times slower)."""
    if isinstance(node, list):
        return [_enums(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _enums(value) for key, value in node.items()}
    branches = out.get("oneOf")
    plain = {"const", "title", "description"}
    if (
        isinstance(branches, list)
        and "enum" not in out
        and all(isinstance(b, dict) and "const" in b and b.keys() <= plain for b in branches)
    ):
        del out["oneOf"]
        out["enum"] = [branch["const"] for branch in branches]
    return out


def _exclusive(document: dict[str, Any], node: Any) -> Any:
    """``node`` with each ``oneOf`` whose branches cannot both match written as ``anyOf``: the
    same verdict, but a valid value stops at its branch instead of being tried against all of
    them (a message's components: every kind for every button)."""
    if isinstance(node, list):
        return [_exclusive(document, item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _exclusive(document, value) for key, value in node.items()}
    branches = out.get("oneOf")
    if isinstance(branches, list) and "anyOf" not in out and _disjoint(document, branches):
        out["anyOf"] = out.pop("oneOf")
    return out


def _disjoint(document: dict[str, Any], branches: list[Any]) -> bool:
    """Whether no value can match two of ``branches``: ``null`` beside a schema that takes no
    null, or objects that all require a ``type`` from enums that share no value."""
    targets = [
        _pointer(document, b["$ref"]) if isinstance(b, dict) and "$ref" in b else b
        for b in branches
    ]
    if not all(isinstance(t, dict) for t in targets):
        return False
    if len(targets) == 2 and {"type": "null"} in targets:
        other = targets[1 - targets.index({"type": "null"})]
        kinds = other.get("type")
        if kinds is not None:
            return "null" not in (kinds if isinstance(kinds, list) else [kinds])
        return "enum" in other and None not in other["enum"]
    seen: set[Any] = set()
    for target in targets:
        kind = (target.get("properties") or {}).get("type") or {}
        values = kind.get("enum")
        if "type" not in target.get("required", []) or not isinstance(values, list):
            return False
        if seen & set(values):
            return False
        seen |= set(values)
    return True


def _lenient(node: Any, top: str) -> Any:
    """``node`` with Discord's two unwritten allowances (snowflakes as integers, integers as
    strings of digits)."""
    if top == "SnowflakeType":
        return {"anyOf": [node, {"type": "integer", "minimum": 0}]}
    if isinstance(node, list):
        return [_lenient(item, "") for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _lenient(value, "") for key, value in node.items()}
    kinds = out.get("type")
    is_integer = kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds)
    # Only integers without a declared size: an int32 is a count or a kind, and an int64 sits
    # beside a string branch (a nonce) where a digit string would then match twice.
    if is_integer and not {"enum", "const", "format"} & out.keys():
        return {"anyOf": [out, _DIGITS]}
    return out


def _sorted(errors: Iterator[ValidationError]) -> list[ValidationError]:
    """The most telling error of each failing field, in the body's order."""
    found = [_deepest(error) for error in errors]
    return sorted(found, key=lambda error: [str(part) for part in error.absolute_path])


def _deepest(error: ValidationError) -> ValidationError:
    """The most specific of the errors that made ``error``: the deepest field."""
    return max(_leaves(error), key=lambda leaf: len(leaf.absolute_path))


def _leaves(error: ValidationError) -> list[ValidationError]:
    """Through anyOf/oneOf, the errors of the branch the value was meant for: not a branch of
    another JSON type, nor one whose ``type`` discriminator differs, and where no branch has a
    discriminator (autocomplete choices), the one whose fields all have the right types."""
    if not error.context or error.validator not in ("anyOf", "oneOf"):
        return [error]
    depth = len(error.absolute_path)
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    meant = []
    for errors in branches.values():
        wrong_type = any(e.validator == "type" and len(e.absolute_path) == depth for e in errors)
        wrong_kind = any(
            e.validator in ("enum", "const")
            and len(e.absolute_path) == depth + 1
            and e.absolute_path[-1] == "type"
            for e in errors
        )
        if not wrong_type and not wrong_kind:
            meant.append([leaf for e in errors for leaf in _leaves(e)])
    if len(meant) > 1:
        typed = [leaves for leaves in meant if not any(e.validator == "type" for e in leaves)]
        meant = typed or meant
    # Still several (an integer fits the integer and the number choices): the closest one.
    return min(meant, key=len) if meant else [error]


def _problem(error: ValidationError) -> Problem:
    where: tuple[str | int, ...] = tuple(error.absolute_path)
    keyword, limit = error.validator, error.validator_value
    if keyword == "required":
        missing = next((name for name in limit if name not in (error.instance or {})), str(limit))
        return Problem((*where, missing), "BASE_TYPE_REQUIRED", "This field is required")
    if keyword in ("maxLength", "maxItems", "maxProperties"):
        return Problem(where, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    if keyword in ("minLength", "minItems", "minProperties"):
        return Problem(where, "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length.")
    if keyword == "maximum":
        return Problem(
            where, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {limit}."
        )
    if keyword == "minimum":
        return Problem(
            where, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {limit}."
        )
    if keyword in ("enum", "const"):
        choices = limit if keyword == "enum" else [limit]
        return Problem(where, "BASE_TYPE_CHOICES", f"Value must be one of {tuple(choices)}.")
    if keyword == "type":
        return Problem(where, "BASE_TYPE_COERCE", f"Value {error.instance!r} is not {limit}.")
    if keyword == "pattern":
        return Problem(where, "STRING_TYPE_REGEX", f"String value did not match {limit}.")
    if keyword in ("anyOf", "oneOf"):
        return Problem(where, "UNION_TYPE_CHOICES", "Value matches none of the allowed forms.")
    return Problem(where, "BASE_TYPE_INVALID", error.message)
