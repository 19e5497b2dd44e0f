"""The save file of a game: its ruleset, seats, seed and action log as JSON, apart from the
engine (as python-chess keeps PGN apart from ``Board``). A save *is* the log: loading one
replays it through :meth:`yatzy.game.Game.replay`, checking every roll against the seed."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, Restore, Roll, Score
from .errors import InvalidActionError
from .i18n import _
from .registry import get_ruleset
from .rules import Ruleset
from .seats import Seat
from .state import Amendment

__all__ = ["SAVE_FORMAT", "Save", "action_from_dict", "action_to_dict", "read", "write"]

SAVE_FORMAT = 2
"""Version 2 saves seats (name and kind) and the roll-off; version 1 files still load."""


@dataclass(frozen=True)
class Save:
    """A save file read and checked field by field (its log not yet replayed)."""

    ruleset: Ruleset
    seats: tuple[Seat, ...]
    seed: int
    log: tuple[Action, ...]
    roll_off: bool
    first: int | None
    dice_from: str
    amendments: tuple[Amendment, ...]


def write(ruleset: Ruleset, seats: Sequence[Seat], seed: int, log: Sequence[Action], *, roll_off: bool,
          first: int | None, dice_from: str, amendments: Sequence[Amendment]) -> dict[str, Any]:
    """The save file of a game with these parts (see :meth:`yatzy.game.Game.to_dict`)."""
    return {
        "format": SAVE_FORMAT,
        "rules": ruleset.name,
        "options": dict(ruleset.options),
        "seats": [s.to_dict() for s in seats],
        "roll_off": roll_off,
        "first": first,
        "seed": seed,
        "dice_from": dice_from,
        "log": [action_to_dict(a) for a in log],
        "amendments": [_amendment_dict(a) for a in amendments],
    }


def _amendment_dict(a: Amendment) -> dict[str, Any]:
    """A correction in the save; ``after_end`` only when true (a save without corrections made
    after the end is as it always was, and older readers skip the key)."""
    written: dict[str, Any] = {"turn": a.turn, "old": [action_to_dict(x) for x in a.old],
                               "new": [action_to_dict(x) for x in a.new]}
    if a.after_end:
        written["after_end"] = True
    return written


def read(data: object) -> Save:
    """A save file (format 1 or 2) checked field by field.

    :raises InvalidActionError: not a saved game of a known format, a field missing or of the
        wrong type, an unknown ruleset or option, a malformed action or amendment.
    """
    if not isinstance(data, dict):
        raise InvalidActionError(_("a saved game is a JSON object"))
    if "format" not in data:
        raise InvalidActionError(_("this file has no save format number; it is not a saved game"))
    version = data["format"]
    if version not in (1, SAVE_FORMAT):
        raise InvalidActionError(
            _("this saved game has format {version}; this version reads formats 1 and {current}")
            .format(version=version, current=SAVE_FORMAT)
        )
    people = "players" if version == 1 else "seats"
    missing = [k for k in ("rules", people, "seed", "log") if k not in data]
    if missing:
        raise InvalidActionError(_("the saved game has no “{field}” field").format(field=missing[0]))
    seed, log = data["seed"], data["log"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidActionError(_("the saved game's seed must be a whole number"))
    if not isinstance(data[people], list) or not isinstance(log, list):
        raise InvalidActionError(_("the saved game's {field} and log must be lists").format(field=people))
    seats = [_seat_v1(n) for n in data[people]] if version == 1 else [
        Seat.from_dict(d) for d in data[people]]
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise InvalidActionError(_("the saved game's options must be an object"))
    ruleset = get_ruleset(str(data["rules"]), **options)
    amendments = data.get("amendments", [])
    if not isinstance(amendments, list):
        raise InvalidActionError(_("the saved game's amendments must be a list"))
    actions = tuple(action_from_dict(a) for a in log)
    return Save(ruleset, tuple(seats), seed, actions, bool(data.get("roll_off", False)), data.get("first"),
                data.get("dice_from", "server"), tuple(_amendment(a) for a in amendments))


def _amendment(a: Any) -> Amendment:
    try:
        return Amendment(int(a["turn"]), tuple(map(action_from_dict, a["old"])),
                         tuple(map(action_from_dict, a["new"])), after_end=a.get("after_end") is True)
    except (KeyError, TypeError, ValueError):
        raise InvalidActionError(_("a malformed amendment in the saved game: {amendment}").format(
            amendment=json.dumps(a))) from None


def _seat_v1(name: object) -> Seat:
    """Version 1 saves wrote a bot's seat into its name: "greedy (bot)"."""
    if not isinstance(name, str):
        raise InvalidActionError(_("the saved game's players must be names"))
    if name.endswith(" (bot)"):
        return Seat.bot(name[: -len(" (bot)")].strip().lower())
    return Seat.stored(name)


def action_to_dict(a: Action) -> dict[str, Any]:
    if isinstance(a, Roll):
        return {"roll": {"keep": list(a.keep), "result": list(a.result or ())}}
    if isinstance(a, Score):
        d: dict[str, Any] = {"category": a.category}
        if a.returns is not None:
            d["returns"] = list(a.returns)
        return {"score": d}
    return {"restore": {"tiles": list(a.tiles)}}


def action_from_dict(d: object) -> Action:
    """One logged action from its JSON form; InvalidActionError if it is malformed."""
    if not isinstance(d, dict):
        raise InvalidActionError(_("each logged action is a JSON object"))
    try:
        if "roll" in d:
            return Roll(tuple(d["roll"]["keep"]), tuple(d["roll"]["result"]))
        if "score" in d:
            r = d["score"].get("returns")
            return Score(d["score"]["category"], None if r is None else tuple(r))
        if "restore" in d:
            return Restore(tuple(d["restore"]["tiles"]))
    except (KeyError, TypeError, AttributeError):
        raise InvalidActionError(
            _("malformed action in the saved game: {action}").format(action=json.dumps(d))) from None
    raise InvalidActionError(
        _("unknown action in the saved game: {action}; expected roll, score or restore").format(
            action=json.dumps(d))
    )
