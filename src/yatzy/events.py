"""What happens in a game, as data: the events a :class:`~yatzy.session.Session` reports.

Every change comes back as an event (to the caller and to subscribers), so a front end shows
moves without diffing states; a web server sends them to its clients (:meth:`Event.to_dict`,
:func:`event_from_dict`). Events carry no words (:mod:`yatzy.narration` tells them) and never
the dice seed or the RNG state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .views import StandingView, plain

__all__ = ["EVENTS", "Amended", "Event", "GameOver", "RollOff", "Rolled", "Scored", "TilesMoved",
           "TilesRestored", "TurnPassed", "Undone", "event_from_dict"]


@dataclass(frozen=True)
class Event:
    """Something that happened. ``seq`` counts the session's events from 1; ``version`` is the
    game's :attr:`~yatzy.game.Game.version` right after it (a view of that version shows it)."""

    kind: ClassVar[str] = "event"
    seq: int
    version: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **plain(self)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)


@dataclass(frozen=True)
class RollOff(Event):
    """Who starts: every player rolled one die, and those tied for the highest rolled again."""

    kind: ClassVar[str] = "roll_off"
    rounds: tuple[tuple[tuple[int, int], ...], ...]
    """Each round as (player, die) pairs."""
    first: int


@dataclass(frozen=True)
class Rolled(Event):
    kind: ClassVar[str] = "rolled"
    player: int
    kept: tuple[int, ...]
    rolled: tuple[int, ...]
    """The new dice (sorted); ``kept`` plus these are the dice on the table."""
    dice: tuple[int, ...]
    rolls_left: int
    """Normal rolls left this turn."""
    bank: int
    """Saved rolls still usable this turn (Maxi, Osto)."""
    roll: int
    """Which roll of the turn this was: 1 for the first."""


@dataclass(frozen=True)
class Scored(Event):
    kind: ClassVar[str] = "scored"
    player: int
    box: str
    number: int
    """The box's fixed number on the card."""
    points: int
    yahtzee_bonus: int
    """Points of an extra Yahtzee earned with this score (0 if none)."""
    total: int
    bank: int
    """The player's saved rolls after this score (Maxi, Osto)."""


@dataclass(frozen=True)
class TilesMoved(Event):
    """DOZZY, after every score: the tiles it sent out and those that came back."""

    kind: ClassVar[str] = "tiles_moved"
    player: int
    tiles_out: tuple[int, ...]
    tiles_back: tuple[int, ...]
    board_out: tuple[int, ...]
    """Every tile out of play now."""


@dataclass(frozen=True)
class TilesRestored(Event):
    """DOZZY, before a turn's first roll: tiles brought back into play."""

    kind: ClassVar[str] = "tiles_restored"
    player: int
    tiles: tuple[int, ...]
    board_out: tuple[int, ...]


@dataclass(frozen=True)
class TurnPassed(Event):
    kind: ClassVar[str] = "turn_passed"
    player: int
    """Whose turn it is now."""
    round: int


@dataclass(frozen=True)
class Undone(Event):
    kind: ClassVar[str] = "undone"
    player: int
    """Whose move was taken back (and whose turn it is again)."""
    action: str
    """The move taken back, in the action notation."""
    box: str | None
    """A score taken back: its box (None for a tile return)."""
    number: int | None
    """A score taken back: the box's fixed number."""


@dataclass(frozen=True)
class Amended(Event):
    """A finished turn of a scorekeeper game was written again (a correction)."""

    kind: ClassVar[str] = "amended"
    player: int
    turn: int
    """The turn's place among the game's turns (0 first)."""
    round: int
    """The player's round that was corrected (1 first)."""
    old: tuple[str, ...]
    """The turn as it was, in the action notation."""
    new: tuple[str, ...]
    totals: tuple[int, ...]
    """Every player's total after the correction."""
    after_end: bool = False
    """The game was over: a correction of its standings after the end."""


@dataclass(frozen=True)
class GameOver(Event):
    kind: ClassVar[str] = "game_over"
    termination: str
    standings: tuple[StandingView, ...]
    winners: tuple[int, ...]


EVENTS: dict[str, type[Event]] = {cls.kind: cls for cls in (
    RollOff, Rolled, Scored, TilesMoved, TilesRestored, TurnPassed, Undone, Amended, GameOver)}
"""Every kind of event by its ``kind``."""


def _tuples(v: Any) -> Any:
    """A JSON list as a tuple, nested lists too (a module function: a nested one that calls
    itself is a reference cycle, garbage only the collector frees, one per event read)."""
    return tuple(map(_tuples, v)) if isinstance(v, list) else v


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event :meth:`Event.to_dict` wrote (a web server's copy): the same event back.

    :raises KeyError: an unknown kind or a field missing; :raises TypeError: a field too many.
    """
    cls = EVENTS[data["kind"]]
    fields_ = {k: _tuples(v) for k, v in data.items() if k != "kind"}
    if cls is GameOver:
        fields_["standings"] = tuple(StandingView(**s) for s in data["standings"])
    return cls(**fields_)
