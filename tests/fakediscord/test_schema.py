"""The fake checks bodies and answers against Discord's own OpenAPI schemas, refuses as Discord
refuses, and keeps the committed subset equal to what the script makes of Discord's file."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord
from tests.fakediscord.schema import Problem, form_errors, generate, schemas

API = "/api/v10"


def test_the_committed_subset_is_what_the_script_writes() -> None:
    source = generate.find_source()
    if source is None:
        pytest.skip("no ../shared/discord/openapi.json here: the committed subset stands")
    document = json.loads(source.read_text(encoding="utf-8"))
    assert generate.SUBSET.read_text(encoding="utf-8") == generate.render(document), (
        "regenerate: python -m tests.fakediscord.schema.generate"
    )
    assert generate.LICENSE.read_bytes() == (source.parent / "LICENSE").read_bytes()


async def test_every_route_the_fake_serves_has_its_schema() -> None:
    async with FakeDiscord() as fake:
        assert fake._runner is not None
        routes = {
            (route.method, route.resource.canonical)
            for route in fake._runner.app.router.routes()
            if route.resource is not None and route.method not in ("HEAD", "*")
        }
    missing = []
    for method, canonical in sorted(routes):
        if canonical == "/gw":
            continue  # the gateway: no REST schema
        path = canonical.removeprefix(API)
        for placeholder in ("{app}", "{guild}", "{id}", "{channel}", "{message}", "{token}"):
            path = path.replace(placeholder, "1")
        if schemas().find(method, path) is None:
            missing.append(f"{method} {canonical}")
    assert not missing, f"add these to generate.OPERATIONS: {missing}"


def _request(method: str, path: str, body: Any) -> list[str]:
    operation = schemas().find(method, path)
    assert operation is not None, path
    return [str(problem) for problem in schemas().check_request(operation, body)]


def test_the_bound_of_an_integer_option_is_discords_2_53_minus_1() -> None:
    def tree(high: int) -> list[dict[str, Any]]:
        option = {"type": 4, "name": "game", "description": "d", "min_value": 1, "max_value": high}
        return [{"name": "game", "description": "Play", "type": 1, "options": [option]}]

    path = "/applications/1/guilds/2/commands"
    assert _request("PUT", path, tree(2**53 - 1)) == []
    assert _request("PUT", path, tree(2**53)) == [
        "0.options.0.max_value: int value should be less than or equal to 9007199254740991."
        " (NUMBER_TYPE_MAX)"
    ]


def test_discords_unwritten_allowances() -> None:
    """A snowflake as a JSON integer and a permission bitfield as a string both pass (Discord
    takes them, discord.py sends them); a snowflake that is no number does not."""
    assert _request("POST", "/users/@me/channels", {"recipient_id": 1234}) == []
    assert _request("POST", "/users/@me/channels", {"recipient_id": "1234"}) == []
    assert _request("POST", "/users/@me/channels", {"recipient_id": "me"})
    command = {"name": "game", "description": "Play", "default_member_permissions": "32"}
    assert _request("PUT", "/applications/1/commands", [command]) == []
    assert _request("PUT", "/applications/1/commands", [{**command, "name": "x" * 33}])


def test_a_union_names_the_field_of_the_branch_meant() -> None:
    """Components are unions told apart by ``type``: the error is the select's empty options,
    not "matches none of the allowed forms"."""
    select = {"type": 3, "custom_id": "pick", "options": []}
    body = {"type": 4, "data": {"components": [{"type": 1, "components": [select]}]}}
    assert _request("POST", "/interactions/1/tok/callback", body) == [
        "data.components.0.components.0.options: Must be 1 or more in length."
        " (BASE_TYPE_MIN_LENGTH)"
    ]


def test_form_errors_nest_as_discord_sends_them() -> None:
    problems = [
        Problem(("embeds", 0, "title"), "BASE_TYPE_MAX_LENGTH", "Must be 256 or fewer in length."),
        Problem(("embeds", 0, "description"), "BASE_TYPE_MAX_LENGTH", "Must be 4096…"),
    ]
    assert form_errors(problems) == {
        "embeds": {
            "0": {
                "title": {
                    "_errors": [
                        {
                            "code": "BASE_TYPE_MAX_LENGTH",
                            "message": "Must be 256 or fewer in length.",
                        }
                    ]
                },
                "description": {
                    "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 4096…"}]
                },
            }
        }
    }


async def test_a_body_against_the_schema_is_refused_as_discord_refuses_it() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{fake.port}{API}/channels/{fake.channel_id}/messages"
        body = {"content": "hi", "allowed_mentions": {"parse": []}}
        bad = {**body, "embeds": [{"description": "x" * 4097}]}
        async with http.post(url, json=bad) as response:
            assert response.status == 400
            answer = await response.json()
        assert answer == {
            "code": 50035,
            "message": "Invalid Form Body",
            "errors": {
                "embeds": {
                    "0": {
                        "description": {
                            "_errors": [
                                {
                                    "code": "BASE_TYPE_MAX_LENGTH",
                                    "message": "Must be 4096 or fewer in length.",
                                }
                            ]
                        }
                    }
                }
            },
        }
        assert not fake.posted, "a refused body changes nothing"
        assert fake.violations == [
            "POST /channels/{channel_id}/messages: embeds.0.description: Must be 4096 or fewer"
            " in length. (BASE_TYPE_MAX_LENGTH)"
        ]
        with pytest.raises(AssertionError, match="embeds.0.description"):
            fake.check()

        async with http.post(url, json=body) as response:
            assert response.status == 200
        assert len(fake.posted) == 1


async def test_a_multipart_payload_json_is_checked_too() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{fake.port}{API}/channels/{fake.channel_id}/messages"
        button = {"type": 2, "style": 1, "custom_id": "b", "label": "x" * 81}
        payload = {
            "content": "a picture",
            "allowed_mentions": {"parse": []},
            "attachments": [{"id": 0, "filename": "board.png"}],
            "components": [{"type": 1, "components": [button]}],
        }
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(payload))  # as discord.py sends it
        form.add_field("files[0]", b"\x89PNG", filename="board.png", content_type="image/png")
        async with http.post(url, data=form) as response:
            assert response.status == 400
            errors = (await response.json())["errors"]
        assert errors["components"]["0"]["components"]["0"]["label"]["_errors"][0] == {
            "code": "BASE_TYPE_MAX_LENGTH",
            "message": "Must be 80 or fewer in length.",
        }
        assert not fake.posted


def test_an_answer_unlike_discords_is_named() -> None:
    operation = schemas().find("POST", "/channels/1/messages/2/threads")
    assert operation is not None
    thread = {"id": "2", "type": 11, "name": "t"}
    assert schemas().check_response(operation, 200, thread) == [
        "POST /channels/{channel_id}/messages/{message_id}/threads: Discord never answers 200"
    ]
    problems = schemas().check_response(operation, 201, thread)
    assert (
        "POST /channels/{channel_id}/messages/{message_id}/threads 201: flags: This field"
        " is required (BASE_TYPE_REQUIRED)" in problems
    )
    error = {"code": 50035, "message": "Invalid Form Body", "errors": {"name": {"_errors": []}}}
    assert schemas().check_response(operation, 400, error) == []


def test_lengths_and_counts_are_the_schemas() -> None:
    """What limits.py left to the schema: counts of embeds, lengths of fields, select options,
    the bound of an integer option."""
    button = {"type": 2, "style": 1, "custom_id": "x" * 101, "label": "b"}
    options = [{"label": str(i), "value": str(i)} for i in range(26)]
    select = {"type": 3, "custom_id": "s", "options": options}
    bodies = {
        "embeds: Must be 10 or fewer": {"embeds": [{"description": "x"}] * 11},
        "embeds.0.title: Must be 256 or fewer": {"embeds": [{"title": "x" * 257}]},
        "components.0.components.0.custom_id: Must be 100 or fewer": {
            "components": [{"type": 1, "components": [button]}]
        },
        "components.0.components.0.options: Must be 25 or fewer": {
            "components": [{"type": 1, "components": [select]}]
        },
    }
    for start, body in bodies.items():
        [problem] = _request("PATCH", "/webhooks/1/tok/messages/@original", body)
        assert problem.startswith(start), (start, problem)


async def test_server_errors_and_pages_that_are_not_json_are_not_checked() -> None:
    """Discord's schemas describe the API's answers; a 5xx or Cloudflare's HTML page in front
    of it (faults a test may inject into the fake) is not one of them."""
    from aiohttp import web
    from aiohttp.test_utils import make_mocked_request

    from tests.fakediscord.schema import middleware

    unlike: list[str] = []
    checked: set[tuple[str, str, int]] = set()
    check = middleware([], unlike, checked)
    url = "/api/v10/channels/1"
    answers = {
        "503": web.Response(status=503, body=b"{}", content_type="application/json"),
        "page": web.Response(status=429, text="<html>banned</html>", content_type="text/html"),
        "bad": web.Response(status=404, body=b'{"oops": 1}', content_type="application/json"),
    }
    for name, answer in answers.items():

        async def handler(request: web.Request, answer: web.Response = answer) -> web.Response:
            return answer

        request = make_mocked_request("GET", url)
        await check(request, handler)
        assert (name == "bad") == bool(unlike), (name, unlike)
    assert checked == {("GET", "/channels/{channel_id}", 404)}


def test_a_thread_name_is_1_to_100_characters() -> None:
    path = "/channels/1/messages/2/threads"
    assert _request("POST", path, {"name": "x" * 100, "auto_archive_duration": 1440}) == []
    assert _request("POST", path, {"name": "x" * 101})
    assert _request("POST", path, {"name": ""})
    assert _request("POST", path, {"name": "game", "auto_archive_duration": 1000})


def test_rewrites_for_speed_keep_the_verdicts() -> None:
    """A oneOf of constants is the enum it means; a oneOf becomes anyOf (which stops at the
    first branch that fits) only where no value can fit two branches."""
    from tests.fakediscord.schema import _enums, _exclusive

    named = {"oneOf": [{"const": 1, "title": "A"}, {"const": 2, "title": "B"}]}
    assert _enums(named) == {"enum": [1, 2]}
    row = {"type": "object", "required": ["type"], "properties": {"type": {"enum": [1]}}}
    button = {"type": "object", "required": ["type"], "properties": {"type": {"enum": [2]}}}
    document = {"components": {"schemas": {"Row": row, "Button": button}}}
    refs = [{"$ref": "#/components/schemas/Row"}, {"$ref": "#/components/schemas/Button"}]
    cases = {
        "kinds": ({"oneOf": refs}, "anyOf"),
        "nullable": ({"oneOf": [{"type": "null"}, {"type": "integer"}]}, "anyOf"),
        "overlap": ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, "oneOf"),
        "same kind": ({"oneOf": [refs[0], refs[0]]}, "oneOf"),
        "null twice": ({"oneOf": [{"type": "null"}, {"type": ["string", "null"]}]}, "oneOf"),
    }
    for name, (schema, kept) in cases.items():
        assert list(_exclusive(document, schema)) == [kept], name
