"""Seats: who plays each place at the table, a person or a bot with its level.

A seat is data, saved with the game; a player's name never encodes it. The core only
checks the shape: which bot levels exist is the bots layer's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .errors import InvalidActionError
from .i18n import _

Kind = Literal["person", "bot"]


@dataclass(frozen=True)
class Seat:
    """A name plus a kind: a person, or a bot playing at ``level``."""

    name: str
    kind: Kind = "person"
    level: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidActionError(_("every seat needs a name"))
        if self.kind not in ("person", "bot"):
            raise InvalidActionError(_("a seat is a person or a bot, not “{kind}”").format(kind=self.kind))
        if (self.kind == "bot") != bool(self.level):
            raise InvalidActionError(_("a bot seat has a level and a person's seat has none"))

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    @classmethod
    def bot(cls, level: str, name: str | None = None) -> Seat:
        return cls(name or f"{level.capitalize()} bot", "bot", level)

    @classmethod
    def parse(cls, text: str) -> Seat:
        """``Ann`` is a person; ``bot:optimal`` (or ``bot:optimal:Robo``) is a bot."""
        text = text.strip()
        if text.lower().startswith("bot:"):
            level, _, name = text[4:].partition(":")
            return cls.bot(level.strip().lower(), name.strip() or None)
        return cls(text)

    def __str__(self) -> str:
        return f"bot:{self.level}:{self.name}" if self.is_bot else self.name

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.level:
            d["level"] = self.level
        return d

    @classmethod
    def from_dict(cls, d: object) -> Seat:
        if isinstance(d, str):
            return cls(d)
        if not isinstance(d, dict):
            raise InvalidActionError(_("a saved seat is a name or an object with name and kind"))
        return cls(d.get("name", ""), d.get("kind", "person"), d.get("level"))


def parse_seats(text: str) -> list[Seat]:
    """"Ann,Bo,bot:casual" -> seats; InvalidActionError if there are none."""
    seats = [Seat.parse(part) for part in text.split(",") if part.strip()]
    if not seats:
        raise InvalidActionError(_("name at least one player, e.g. --players \"Ann,bot:casual\""))
    return seats
