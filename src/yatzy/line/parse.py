"""A typed line of the line game as an action (the notation of :mod:`yatzy.actions`, with
boxes also by their fixed number: ``s 6``) or a :class:`Command`."""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action, parse_action
from ..errors import InvalidActionError
from ..i18n import _
from ..session import DEFAULT_SAVE
from ..views import GameView


@dataclass(frozen=True)
class Command:
    """A typed line that is not an action."""

    verb: str
    """go (an empty line), help, card, boxes (s alone), coach, target, warn, history, undo, save,
    quit or unknown."""
    arg: str = ""
    """The word typed; save: the file name; target: what follows t (empty: none)."""


COMMANDS = {"u": "undo", "undo": "undo", "card": "card", "c": "coach", "coach": "coach", "w": "warn",
            "warn": "warn", "history": "history", "h": "help", "help": "help", "?": "help", "q": "quit",
            "quit": "quit", "exit": "quit"}
ACTION_VERBS = ("r", "roll", "k", "keep", "s", "score", "b", "back", "restore")


def parse_line(line: str, view: GameView) -> Action | Command:
    """A typed line as an action or a command; InvalidActionError if the action is malformed.
    A box may be named by its fixed number on the view's card: ``s 6``."""
    words = line.split()
    if not words:
        return Command("go")
    verb = words[0].lower()
    if verb == "save":
        return Command("save", line.split(None, 1)[1].strip() if words[1:] else DEFAULT_SAVE)
    if verb in ("t", "target"):
        return Command("target", line.split(None, 1)[1].strip() if words[1:] else "")
    if verb in COMMANDS or verb not in ACTION_VERBS:
        return Command(COMMANDS.get(verb, "unknown"), words[0])
    if verb in ("s", "score"):
        if not words[1:]:
            return Command("boxes", words[0])
        boxes = view.players[0].boxes
        key = str(int(words[1])) if words[1].isdigit() else words[1].lower()
        found = next((b for b in boxes if key in (str(b.number), b.id)), None)
        if found is None and words[1].isdigit():
            raise InvalidActionError(_("there is no box {n}: the boxes are numbered 1 to {last}").format(
                n=int(words[1]), last=len(boxes)))
        if found is None:
            raise InvalidActionError(
                _("there is no box “{word}”: write its number from the list, e.g. s 3").format(word=words[1]))
        if view.board is None and words[2:]:
            raise InvalidActionError(_("this game has no tiles: write just s {n}").format(n=found.number))
        words[1] = found.id
    return parse_action(" ".join(words))

