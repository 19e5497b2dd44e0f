"""What a game is made of, as values: the players' cards, the table, the turns of its log, a
correction of a finished turn, and the standings at the end. :class:`yatzy.game.Game`
changes them; everything else reads them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .actions import Action
from .dice import Dice

__all__ = ["Amendment", "GameState", "Outcome", "PlayerState", "Standing", "Termination", "Turn"]


@dataclass(frozen=True)
class Turn:
    """One turn in a game's log: ``log[start:stop]``, ending with the player's score."""

    player: int
    start: int
    stop: int


@dataclass(frozen=True)
class Amendment:
    """A finished turn of a scorekeeper game written again: the record of a correction."""

    turn: int
    """The turn's place among the game's turns (0 first)."""
    old: tuple[Action, ...]
    new: tuple[Action, ...]
    after_end: bool = False
    """Made once the game was over: the standings changed after the end."""


class Termination(Enum):
    """How a game ended."""

    COMPLETED = "completed"
    """Every player filled every box."""


@dataclass(frozen=True)
class Standing:
    """One player's place at the end: rank 1 is the best, tied totals share a rank."""

    player: int
    name: str
    total: int
    rank: int


@dataclass(frozen=True)
class Outcome:
    """The end of a game: why it ended, the standings best first, and the winner(s)."""

    termination: Termination
    standings: tuple[Standing, ...]
    winners: tuple[int, ...]
    """Indices of the players with the highest total (ties share the win)."""


@dataclass
class PlayerState:
    """One player's scorecard and bank."""

    name: str
    card: dict[str, int] = field(default_factory=dict)
    extra: int = 0
    """Points outside the boxes and section bonuses (Yahtzee bonuses)."""
    bank: int = 0
    """Saved rolls (Maxi, Osto)."""


@dataclass
class GameState:
    """Everything the rules need to decide what may happen next."""

    players: list[PlayerState]
    current: int = 0
    dice: Dice | None = None
    rolls_used: int = 0
    out: frozenset[int] = frozenset()
    """DOZZY: tiles that are out of play."""
