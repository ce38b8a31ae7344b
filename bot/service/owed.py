"""What a committed command owes its channels, as data a database keeps (``DeliveryRow.body``).

A move's public posts are recorded in the move's own transaction (``Service._run``), so a post
that Discord refused, or that the bot never sent because it stopped, is still owed after a
restart. What is kept is the post as the service planned it (:class:`~bot.service.draft.Post`):
its words as :class:`~bot.service.text.Text` parts, its buttons, and its picture as the
:class:`~bot.service.draft.RenderJob` that draws it (the public view at that move), not the
image itself: the picture is drawn again when the post is rebuilt after a restart.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from bot.service.draft import Post, RenderJob, ReplayJob
from bot.service.replies import Button, Select, Slot, ThreadPlan
from bot.service.text import Channel, Mention, Name, Part, Strong, Text, When


def dump(post: Post) -> dict[str, Any]:
    """``post`` as JSON-ready data (:func:`load` gives it back equal)."""
    data: dict[str, Any] = {"channel": post.channel_id, "text": _text(post.text)}
    if post.narration:
        data["narration"] = _text(post.narration)
    if post.mentions:
        data["mentions"] = list(post.mentions)
    if post.buttons:
        data["buttons"] = [asdict(b) for b in post.buttons]
    if post.selects:
        data["selects"] = [asdict(s) for s in post.selects]
    if post.picture is not None:
        data["picture"] = asdict(post.picture)
    if post.phase:
        data["phase"] = True
    if post.slot is not None:
        data["slot"] = asdict(post.slot)
    if post.edit:
        data["edit"] = True
    if post.edit_of is not None:
        data["edit_of"] = post.edit_of
    if post.thread is not None:
        data["thread"] = {"name": post.thread.name, "refused": _text(post.thread.refused)}
    if post.archive:
        data["archive"] = True
    if post.replay is not None:
        data["replay"] = asdict(post.replay)
    if post.dm is not None:
        data["dm"] = post.dm
        data["fallback"] = _text(post.fallback)
    return data


def load(data: dict[str, Any]) -> Post:
    thread = data.get("thread")
    replay = data.get("replay")
    return Post(
        int(data["channel"]),
        _untext(data["text"]),
        narration=_untext(data.get("narration", [])),
        mentions=tuple(int(m) for m in data.get("mentions", ())),
        buttons=tuple(Button(**b) for b in data.get("buttons", ())),
        selects=tuple(
            Select(**{**s, "options": tuple(tuple(o) for o in s["options"])})
            for s in data.get("selects", ())
        ),
        picture=RenderJob(**data["picture"]) if data.get("picture") else None,
        phase=bool(data.get("phase", False)),
        slot=Slot(**data["slot"]) if data.get("slot") else None,
        edit=bool(data.get("edit", False)),
        edit_of=data.get("edit_of"),
        thread=ThreadPlan(thread["name"], _untext(thread["refused"])) if thread else None,
        archive=bool(data.get("archive", False)),
        replay=(
            ReplayJob(**{**replay, "log": [(int(s), a, float(t)) for s, a, t in replay["log"]]})
            if replay
            else None
        ),
        dm=data.get("dm"),
        fallback=_untext(data.get("fallback", [])),
    )


def kind_of(post: Post) -> str:
    """The delivery's kind: ``post``, ``edit``, ``archive`` or ``dm``."""
    if post.dm is not None:
        return "dm"
    return "archive" if post.archive else "edit" if post.edit else "post"


# Each rich part is a one-key object; a plain string stays a string.
def _text(text: Text) -> list[Any]:
    return [_part(p) for p in text.parts]


def _part(part: Part) -> Any:
    if isinstance(part, str):
        return part
    if isinstance(part, Name):
        return {"name": part.text}
    if isinstance(part, Mention):
        return {"mention": [part.user_id, part.name]}
    if isinstance(part, When):
        return {"when": [part.at, part.style]}
    if isinstance(part, Strong):
        return {"strong": part.text}
    return {"channel": [part.channel_id, part.name]}


def _untext(data: list[Any]) -> Text:
    return Text(tuple(_unpart(p) for p in data))


def _unpart(data: Any) -> Part:
    if isinstance(data, str):
        return data
    if "name" in data:
        return Name(str(data["name"]))
    if "mention" in data:
        user_id, name = data["mention"]
        return Mention(int(user_id), str(name))
    if "when" in data:
        at, style = data["when"]
        return When(int(at), str(style))
    if "strong" in data:
        return Strong(str(data["strong"]))
    channel_id, name = data["channel"]
    return Channel(int(channel_id), str(name))
