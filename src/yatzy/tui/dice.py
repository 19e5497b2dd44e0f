"""The dice on the play screen: where each die lies, which are held, and a roll's tumble.

The engine keeps the dice as a multiset; this row keeps them in slots (:mod:`yatzy.dice_slots`),
so a held die stays where it fell, under the same key, over the rolls of a turn. A roll tumbles
the dice it threw for a moment (never the held ones) unless the player turned it off (m) or
the terminal asks for no animation (``TEXTUAL_ANIMATIONS=none``); a Yatzy flashes the row.
"""

from __future__ import annotations

import random

from textual.app import ComposeResult
from textual.containers import Grid
from textual.timer import Timer

from ..dice_slots import held_slots, place
from ..events import Event, Rolled, Scored, TilesRestored, TurnPassed, Undone
from .widgets import Die

TUMBLE = 0.4
"""Seconds a roll's dice tumble before they show their faces."""
FRAME = 0.07
"""Seconds between two faces of a tumble."""
FLASH = 1.5
"""Seconds a Yatzy lights the dice up."""


class DiceRow(Grid):
    """The dice, each a :class:`Die` with its key; ``slots`` the faces as they lie (None before
    a turn's first roll is seen), ``held`` the slots the player holds (or a bot kept)."""

    def __init__(self, count: int) -> None:
        super().__init__(id="dice")
        self.count = count
        self.slots: tuple[int, ...] | None = None
        self.held: frozenset[int] = frozenset()
        self.rolling: frozenset[int] = frozenset()
        """The slots tumbling now (empty when the dice lie still)."""
        self.faces: tuple[int, ...] | None = None
        self.word = ""
        self._frames: Timer | None = None
        self._end: Timer | None = None
        self._random = random.Random()  # the tumble's faces only: never the game's dice

    def compose(self) -> ComposeResult:
        for i in range(self.count):
            yield Die(i)

    # ---- what happened ----------------------------------------------------------------
    def heard(self, e: Event, tumble: float = 0, yatzy: bool = False) -> None:
        """A move: a roll lays its dice out (tumbling ``tumble`` seconds); whatever ends the
        turn's rolls or brings its dice back releases the held ones; a ``yatzy`` lights them up."""
        if isinstance(e, Rolled):
            self.rolled(e, tumble)
        elif isinstance(e, Scored | Undone | TurnPassed | TilesRestored):
            self.release()
        if yatzy:
            self.flash()

    def rolled(self, e: Rolled, tumble: float) -> None:
        """A roll: the kept dice stay in their slots, the new ones fill the others and tumble
        for ``tumble`` seconds (0: none)."""
        before = self.slots if e.roll > 1 else None
        self.held = held_slots(before, e.kept, self.held)
        self.slots = place(e.dice, before, self.held)
        self.settle()
        if tumble > 0 and self.app.animation_level != "none":
            self.rolling = frozenset(range(len(e.dice))) - self.held
            self._frames = self.set_interval(FRAME, self.paint)
            self._end = self.set_timer(tumble, self.settle)

    def release(self) -> None:
        """The turn's dice are gone or back as they were: nothing held."""
        self.held = frozenset()
        self.settle()

    def toggle(self, index: int) -> None:
        self.held ^= {index}
        self.settle()

    def kept(self) -> tuple[int, ...]:
        """The faces held, for the roll that keeps them."""
        faces = self.faces or ()
        return tuple(sorted(faces[i] for i in self.held if i < len(faces)))

    def settle(self) -> None:
        """The tumble ends: the dice show their faces."""
        for timer in (self._frames, self._end):
            if timer is not None:
                timer.stop()
        self._frames = self._end = None
        if self.rolling:
            self.rolling = frozenset()
            self.paint()

    def flash(self) -> None:
        """A Yatzy: the dice light up for a moment."""
        self.add_class("-yatzy")
        self.set_timer(FLASH, lambda: self.remove_class("-yatzy"))

    # ---- drawing ------------------------------------------------------------------------
    def show(self, dice: tuple[int, ...] | None, word: str) -> None:
        """The view's dice (a multiset) in their slots; ``word`` marks a held die."""
        self.faces = None if dice is None else place(dice, self.slots, range(len(dice)))
        if self.faces is not None and self.faces != self.slots:
            self.slots, self.held = self.faces, frozenset()  # dice this row did not see fall (a game loaded)
        self.word = word
        self.paint()

    def paint(self) -> None:
        for i, die in enumerate(self.query(Die)):
            face = self.faces[i] if self.faces is not None and i < len(self.faces) else None
            rolling = i in self.rolling and face is not None
            if rolling:
                face = self._random.randint(1, 6)
            die.show(face, i in self.held and face is not None, self.word, rolling)
