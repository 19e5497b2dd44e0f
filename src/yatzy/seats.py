"""Seats: who plays each place at the table, a person or a bot with its level.

A seat is data, saved with the game; a player's name never encodes it. The core only
checks the shape: which bot levels exist is the bots layer's business.

A name is plain text a person typed, and it is decided here, once, what it may be: at most
:data:`NAME_MAX` characters, none of them a control character (C0, C1, DEL: ESC would start a
terminal escape, a newline would break a line of a report) or a bidirectional embedding,
override or isolate (U+202A–U+202E, U+2066–U+2069, which reorder the text after them). A new
seat with such a name is refused in the player's language; a stored game written before this
rule loads with its names cleaned (:func:`clean_name`) rather than being refused. Markup
(``[bold]``, ``<b>``) is allowed and shown literally: every front end writes a name as text.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Literal

from .errors import InvalidActionError
from .i18n import _, ngettext

Kind = Literal["person", "bot"]

NAME_MAX = 40
"""The longest name, in characters (the web API's limit too)."""

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _forbidden(ch: str) -> bool:
    """A control character, a line or paragraph separator, or a bidi embedding/override/isolate."""
    return unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in _BIDI_CONTROLS


def check_name(name: str) -> None:
    """Refuse a name a person may not type: empty, too long, or with a forbidden character.

    :raises InvalidActionError: in the player's language, naming what is allowed.
    """
    if not name.strip():
        raise InvalidActionError(_("every seat needs a name"))
    if len(name) > NAME_MAX:
        raise InvalidActionError(ngettext("a name has at most {max} characters; this one has {n}",
                                          "a name has at most {max} characters; this one has {n}",
                                          len(name)).format(max=NAME_MAX, n=len(name)))
    bad = next((ch for ch in name if _forbidden(ch)), None)
    if bad is not None:
        raise InvalidActionError(
            _("a name is plain text: no control characters or text-direction marks ({code})").format(
                code=f"U+{ord(bad):04X}"))


def clean_name(name: str) -> str:
    """A stored name made one :func:`check_name` accepts: forbidden characters dropped, cut to
    :data:`NAME_MAX` characters (the last one "…"); "?" if nothing is left."""
    kept = "".join(ch for ch in name if not _forbidden(ch)).strip()
    if len(kept) > NAME_MAX:
        kept = kept[: NAME_MAX - 1].rstrip() + "…"
    return kept or "?"


@dataclass(frozen=True)
class Seat:
    """A name plus a kind: a person, or a bot playing at ``level``."""

    name: str
    kind: Kind = "person"
    level: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise InvalidActionError(_("every seat needs a name"))
        check_name(self.name)
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
    def stored(cls, name: object, kind: Kind = "person", level: str | None = None) -> Seat:
        """A seat from a stored game: its name cleaned (:func:`clean_name`), not refused, so a
        game saved before names were checked still loads; an empty name is still an error."""
        if isinstance(name, str) and name.strip():
            name = clean_name(name)
        return cls(name, kind, level)  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, d: object) -> Seat:
        if isinstance(d, str):
            return cls.stored(d)
        if not isinstance(d, dict):
            raise InvalidActionError(_("a saved seat is a name or an object with name and kind"))
        return cls.stored(d.get("name", ""), d.get("kind", "person"), d.get("level"))


def parse_seats(text: str) -> list[Seat]:
    """"Ann,Bo,bot:casual" -> seats; InvalidActionError if there are none."""
    seats = [Seat.parse(part) for part in text.split(",") if part.strip()]
    if not seats:
        raise InvalidActionError(_("name at least one player, e.g. --players \"Ann,bot:casual\""))
    return seats
