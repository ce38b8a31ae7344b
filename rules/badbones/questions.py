"""What a phase-3 question (D5) says, and how its answer is told to the table.

A question (``state.questions[seat]``, raised by ``Resolver._choose``) names the skeleton it is
about: its model (symbol and chief kind), the square it is on or leaves from, where it came from
and, for a catapult or a hearse, what it carries off. ``number`` counts the owner's decisions
in this phase, so a second question of the same kind (two skeletons leaving through the top
forest) never reads as a repeat.

Every answer is told to the table: ``chose_<kind>`` when the owner answered, and
``chose_<kind>_computer`` ("🤖 chose … for …") when the computer did, for an owner who said
"always decide for me" (preference ``auto``), or for an absent seat or one on autopilot (the
service words such a move's events with their ``_computer`` variant).
"""

from __future__ import annotations

from typing import Any

from rules.badbones import weapons
from rules.core import Event


def kind(q: dict[str, Any], coop: bool) -> str:
    """The question's kind (its ``badbones.pending`` key)."""
    choice = q["choice"]
    if choice == "top" and coop:
        return "choose_top_coop"  # the cooperative "top" forest is the bottom one
    if choice == "dragon" and "from" in q:
        # Which skeleton flees, in words: one walking in from a square or the forest, or one
        # the dragon landed on.
        return "choose_dragon_landing" if q["from"] == "landing" else "choose_dragon_from"
    return f"choose_{choice}"


def skeleton_args(q: dict[str, Any]) -> dict[str, Any]:
    """The skeleton a question is about, in words: its symbol, what it is (a skeleton or a
    chief), the square (the trap's, or the one it leaves from) and where it came from."""
    args: dict[str, Any] = {"square": q.get("square") or "?"}
    if "model" in q:
        args["symbol_key"] = f"badbones.symbol.{q['model'].split('.')[0]}"
        args["skeleton_key"] = (
            f"badbones.chief.{q['chief']}" if q.get("chief") else "badbones.skeleton"
        )
    origin = q.get("from")
    if origin in ("forest", "landing"):
        args["origin_key"] = f"badbones.from_{origin}"
    elif origin:
        args["origin"] = origin
    else:  # a question saved before questions said where the skeleton came from
        args["origin"] = args["square"]
    return args


def pending_args(q: dict[str, Any]) -> dict[str, Any]:
    """The arguments of the question's ``badbones.pending`` text."""
    number = int(q.get("index", 0)) + 1
    if q["choice"] == "weapon":
        # Answered by ``weapon target:… to:…`` (or ``skip``): the targets it may take now.
        targets = [weapons.from_answer(o)[0] for o in q["options"] if o != weapons.SKIP]
        return {
            "number": number,
            "square": q["square"],
            "count": q["kills"],
            "weapon_key": f"badbones.weapon.{q['weapon']}",
            "targets": ", ".join(dict.fromkeys(targets)),
        }
    args: dict[str, Any] = {
        **skeleton_args(q),
        "number": number,
        # Named as the parameter "answer" is, so a direction reads in the reader's language
        # (bot/service/shown.py): "answers" the options, "answer" the default.
        "answers": ", ".join(q["options"]),
        "answer": q["default"],
    }
    if "seats" in q:
        args["seats"] = list(q["seats"])
        args["default_seat"] = int(q["default"]) - 1
    if "facing" in q:
        args["direction"] = q["facing"]
    return args


def told(seat: int, q: dict[str, Any], value: str, coop: bool, *, computer: bool) -> Event:
    """The table hears how ``seat``'s question ``q`` was answered (``value``)."""
    name = kind(q, coop).removeprefix("choose_")
    name = "dragon" if name.startswith("dragon") else name
    args: dict[str, Any] = {**skeleton_args(q), "seat": seat}
    if "seats" in q:
        args["to_seat"] = int(value) - 1
    else:
        args["answer"] = value
    return Event(f"badbones.event.chose_{name}" + ("_computer" if computer else ""), args)
