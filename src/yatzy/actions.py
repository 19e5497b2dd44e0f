"""Actions as values with one text notation, the way a chess library writes its moves.

=================  =====================================================
``r``              roll (the first roll of a turn throws every die)
``k 335``          keep 3 3 5 and roll the rest
``k 335 = 46``     the same with the dice it threw (a log, or dice typed at a table)
``s two_pairs``    fill a box
``s n3 4 5``       DOZZY: fill a box and bring tiles 4 and 5 back
``s n3 -``         DOZZY: fill a box and bring no tile back
``b 11 12``        DOZZY, before the first roll: bring tiles 11 and 12 back
=================  =====================================================

``parse_action(text)`` reads any of them (long verbs too: ``roll``, ``keep``, ``score``,
``back``), ``str(action)`` writes them, and ``repr`` round-trips through ``eval``. The line
game, the coach, the CLI and the web protocol all use this one notation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .dice import Dice, parse
from .errors import InvalidActionError
from .i18n import N_, _
from .names import category_name

_VERBS = {
    "r": "roll", "roll": "roll",
    "k": "keep", "keep": "keep",
    "s": "score", "score": "score",
    "b": "back", "back": "back", "restore": "back",
}
NOTATION_HELP = N_("r (roll), k 335 (keep 3 3 5, roll the rest), s two_pairs (score), b 11 12 (tiles back)")


def _split(text: str, verbs: tuple[str, ...]) -> list[str]:
    if not isinstance(text, str):
        raise InvalidActionError(_("an action is text such as r, k 335 or s chance"))
    words = text.strip().split()
    if not words or _VERBS.get(words[0].lower()) not in verbs:
        raise InvalidActionError(_("“{text}” is not an action; write {notation}").format(
            text=text.strip(), notation=_(NOTATION_HELP)))
    return words[1:]


def parse_tiles(text: str) -> tuple[int, ...]:
    """Tile numbers as the notation writes them after a box or ``b``: ``8 10`` or ``8,10``
    (DOZZY; a question that asks for tiles takes the same answer).

    :raises InvalidActionError: a word that is not a tile 1..12, named.
    """
    return _tiles(text.split(), text)


def _tiles(words: list[str], text: str) -> tuple[int, ...]:
    tiles: list[int] = []
    for w in (w for part in words for w in part.split(",") if w):
        if not w.isdigit() or not 1 <= int(w) <= 12:
            raise InvalidActionError(
                _("“{text}”: tiles are numbered 1 to 12, not “{tile}”").format(text=text.strip(), tile=w))
        tiles.append(int(w))
    return tuple(tiles)


@dataclass(frozen=True)
class Roll:
    """Keep ``keep`` and roll the rest. ``result`` holds the new dice once rolled."""

    keep: Dice = ()
    result: Dice | None = None
    player: int | None = None

    @classmethod
    def parse(cls, text: str) -> Roll:
        """``r`` or ``k 335`` (also ``roll``, ``keep 3 3 5``); with the dice thrown after
        ``=`` (``r = 13356``, ``k 335 = 46``) as a scorekeeper game types them and a log
        writes them.

        :raises InvalidActionError: not a roll, or a die is not a face 1..6.
        """
        head, sep, thrown = text.partition("=")
        args = _split(head, ("roll", "keep"))
        verb = _VERBS[head.split()[0].lower()]
        result = None
        if sep:
            if not thrown.strip():
                raise InvalidActionError(
                    _("“{text}”: write the dice thrown after =, e.g. k 335 = 46").format(text=text.strip()))
            result = parse(thrown)
        if verb == "roll":
            if args:
                raise InvalidActionError(
                    _("“{text}”: to keep dice write k 335, not r 335").format(text=text.strip()))
            return cls((), result)
        if not args:
            raise InvalidActionError(_("name the dice to keep, e.g. k 335 (r rolls them all)"))
        return cls(parse("".join(args)), result)

    def __str__(self) -> str:
        return _roll_text(self.keep, self.result)

    def describe(self) -> str:
        """The move in words, in the current language: "keep 3 3 5", "roll every die"."""
        if not self.keep:
            return _("roll every die")
        return _("keep {dice}").format(dice=" ".join(map(str, self.keep)))


@cache
def _roll_text(keep: Dice, result: Dice | None) -> str:
    """A roll in the notation, written once per keep and result (every view lists the keeps)."""
    move = "k " + "".join(map(str, keep)) if keep else "r"
    return move if result is None else f"{move} = {''.join(map(str, result))}"


@dataclass(frozen=True)
class Score:
    """Fill a box; in DOZZY ``returns`` picks which tiles come back (None: the only choice)."""

    category: str
    returns: tuple[int, ...] | None = None
    player: int | None = None

    @classmethod
    def parse(cls, text: str) -> Score:
        """``s two_pairs``, ``s n3 4 5``, ``s n3 -`` (also ``score two_pairs``).

        :raises InvalidActionError: not a score, no box named, or a tile that is not 1..12.
        """
        args = _split(text, ("score",))
        if not args:
            raise InvalidActionError(_("name the box to fill, e.g. s chance"))
        rest = args[1:]
        if rest == ["-"]:
            return cls(args[0].lower(), ())
        return cls(args[0].lower(), _tiles(rest, text) if rest else None)

    def describe(self) -> str:
        """The move in words, in the current language: "score Two Pairs"."""
        return _("score {box}").format(box=category_name(self.category))

    def __str__(self) -> str:
        if self.returns is None:
            return f"s {self.category}"
        return f"s {self.category} " + (" ".join(map(str, self.returns)) or "-")


@dataclass(frozen=True)
class Restore:
    """DOZZY, before the first roll of a turn with 4+ tiles out: bring these tiles back."""

    tiles: tuple[int, ...]
    player: int | None = None

    @classmethod
    def parse(cls, text: str) -> Restore:
        """``b 11 12`` (also ``back 11 12``).

        :raises InvalidActionError: not a return, no tile named, or a tile that is not 1..12.
        """
        args = _split(text, ("back",))
        if not args:
            raise InvalidActionError(_("name the tiles to bring back, e.g. b 11 12"))
        return cls(_tiles(args, text))

    def __str__(self) -> str:
        return "b " + " ".join(map(str, self.tiles))

    def describe(self) -> str:
        """The move in words, in the current language: "bring back tiles 11 12"."""
        return _("bring back tiles {tiles}").format(tiles=" ".join(map(str, self.tiles)))


Action = Roll | Score | Restore


def parse_action(text: str) -> Action:
    """Any action in the notation above.

    :raises InvalidActionError: the text is not an action, naming what is allowed.
    """
    _split(text, ("roll", "keep", "score", "back"))
    verb = _VERBS[text.split()[0].lower()]
    if verb in ("roll", "keep"):
        return Roll.parse(text)
    if verb == "score":
        return Score.parse(text)
    return Restore.parse(text)
