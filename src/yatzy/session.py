"""One game for any front end: bots move when asked, people act, every change is an event.

A :class:`Session` holds a :class:`~yatzy.game.Game` and the bots of its bot seats. A front
end asks :meth:`Session.waiting_for` whose input it needs, sends a person's move with
:meth:`Session.act`, lets bots play at its own pace with :meth:`Session.step` or
:meth:`Session.advance`, and draws :meth:`Session.view`. Everything that happens comes back
as events (and goes to subscribers), so a front end shows moves without diffing states.
Events (:mod:`yatzy.events`) are data, without words: :mod:`yatzy.narration` tells them.

The engine alone changes the game; the session only decides who may move and reports.
No event carries the dice seed or the RNG state.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from .actions import parse_action
from .bots import BOTS, Player, bot_spec, make_bot, needs_table
from .errors import IllegalActionError, InvalidActionError, YatzyError
from .events import (
    Amended,
    Event,
    GameOver,
    Rolled,
    RollOff,
    Scored,
    TilesMoved,
    TilesRestored,
    TurnPassed,
    Undone,
)
from .game import Action, Game, Outcome, Restore, Roll
from .i18n import _, check_language, language
from .solver.tables import Clock, Estimate, table
from .views import (
    GameView,
    OutcomeView,
    game_view,
    last_move,
    outcome_view,
)

__all__ = ["DEFAULT_SAVE", "Preparing", "SaveError", "Session"]


DEFAULT_SAVE = "yatzy-game.json"
"""The file a game is saved to when the player names none (every front end's default)."""


class SaveError(YatzyError):
    """The game could not be written to disk; the game itself is unchanged."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path, self.reason = path, reason
        """Where the game was to go, and why it could not (the system's words)."""
        super().__init__(_("could not save the game to {path}: {reason}; the game goes on").format(
            path=path, reason=reason))


@dataclass(frozen=True)
class Preparing:
    """What :meth:`Session.prepare` is doing, for a front end's progress bar (in words:
    :func:`yatzy.narration.preparing_text`)."""

    stage: Literal["loading", "building", "ready"]
    """loading: looking for a stored table; building: solving it (``done`` of ``total``)."""
    ruleset: str
    levels: tuple[str, ...]
    """The bot levels that play by the table."""
    done: int = 0
    total: int | None = None
    seconds_left: float | None = None
    """building: the time left, from the rate measured so far (None until there is one)."""
    seats: tuple[int, ...] = ()
    """The bot seats that wait for the table (every other seat plays meanwhile)."""
    place: int | None = None
    """loading: a server's build waits for its turn, this its place in the queue (1: the next)."""


Subscriber = Callable[[Event], None]


def _building(report: Callable[[Preparing], None], stage: Preparing,
              estimate: Estimate) -> Callable[[int, int], None]:
    """A build's (done, total) told to ``report`` as ``stage`` with the time left."""
    return lambda done, total: report(replace(stage, done=done, total=total,
                                              seconds_left=estimate.update(done, total)))


# ---- the session --------------------------------------------------------------------------

class Session:
    """Runs one game for a front end: whose input is needed, bot moves, events, views, saves.

    Everything it does speaks the session's language: errors, names, progress.
    """

    def __init__(self, game: Game, *, lang: str = "en", bots: Mapping[int, Player] | None = None,
                 bot_seed: int | None = None) -> None:
        """``bots`` may supply the player of some bot seats; the others are made from the seat's
        level (seeded with ``bot_seed`` plus the seat index, if given) when first needed.

        :raises InvalidActionError: an unknown language or bot level, or a bot given for a
            seat that is not a bot's.
        """
        self.game = game
        self.lang = check_language(lang)
        self.bot_seed = bot_seed
        self._bots: dict[int, Player] = {}
        with language(self.lang):
            for i, bot in (bots or {}).items():
                if not 0 <= i < len(game.seats) or not game.seats[i].is_bot:
                    raise InvalidActionError(
                        _("a bot was given for seat {seat}, which is not a bot's seat; bot seats: {seats}")
                        .format(seat=i, seats=", ".join(map(str, self.bot_seats)) or _("none")))
                self._bots[i] = bot
            for i in self.bot_seats:
                level = game.seats[i].level or ""
                if i not in self._bots and level.strip().lower() not in BOTS:
                    raise InvalidActionError(
                        _("seat {seat} ({name}) is a bot of unknown level “{level}”; "
                          "the levels are: {levels}").format(
                            seat=i, name=game.seats[i].name, level=level, levels=", ".join(BOTS)))
        self._subscribers: list[Subscriber] = []
        self._seq = 0
        self._started = False
        self._preparing = False
        """A :meth:`prepare` is under way: the seats that wait for its table do not move."""

    @property
    def bot_seats(self) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.game.seats) if s.is_bot)

    # -- before play ---------------------------------------------------------------------
    def table_seats(self) -> tuple[int, ...]:
        """The bot seats that play from the solver's table and have no bot yet: they wait for
        :meth:`prepare` (every other seat can move at once)."""
        g = self.game
        return tuple(i for i in self.bot_seats
                     if i not in self._bots and needs_table(g.seats[i].level or "", g.ruleset))

    def bot_ready(self, seat: int) -> bool:
        """Whether the bot of ``seat`` can move now, with no table to wait for. While
        :meth:`prepare` is under way, :meth:`step` plays nothing for a seat that is not."""
        return seat not in self.table_seats()

    def prepare(self, progress: Callable[[Preparing], None] | None = None, *,
                clock: Clock = time.monotonic) -> None:
        """Make every bot: at once those that need no table, then the solver's table for the
        others (loaded if stored, else built once, and shared with anyone in the process who
        waits for it), reported to ``progress`` with the time left as it goes, then theirs.

        A ``progress`` that raises :class:`yatzy.solver.tables.Stopped` leaves the build: the
        seats that need the table keep waiting (:meth:`bot_ready`), the others play.
        """
        g = self.game
        with language(self.lang):
            for i in self.bot_seats:
                if self.bot_ready(i):
                    self._bot(i)
            seats = self.table_seats()
            if not seats:
                return
            levels = tuple(sorted({(g.seats[i].level or "").strip().lower() for i in seats}))
            name = g.ruleset.name
            report = progress or (lambda _: None)
            self._preparing = True
            try:
                report(Preparing("loading", name, levels, seats=seats))
                table(g.ruleset, lambda p: report(Preparing("building", name, levels, p.done, p.total,
                                                            p.seconds_left, seats)), clock=clock)
                for spec in filter(None, (bot_spec(level) for level in levels)):
                    if spec.prepare is not None:  # what the bot builds beyond the table (the win bot's)
                        stage = Preparing("building", name, levels, seats=seats)
                        spec.prepare(g.ruleset, _building(report, stage, Estimate(clock)))
                for i in self.table_seats():  # a seat changed meanwhile needs the table no more
                    self._bot(i)
            finally:
                self._preparing = False
            report(Preparing("ready", name, levels, seats=seats))

    def change_bot(self, seat: int, level: str) -> None:
        """Seat another bot at a bot's seat (say one that needs no table while the table of the
        one chosen is being built); the seat's name stays, the save records the new level.

        :raises InvalidActionError: ``seat`` is not a bot's, or ``level`` is unknown.
        """
        g = self.game
        with language(self.lang):
            if seat not in self.bot_seats:
                raise InvalidActionError(
                    _("seat {seat} is not a bot's seat; bot seats: {seats}").format(
                        seat=seat, seats=", ".join(map(str, self.bot_seats)) or _("none")))
            code = level.strip().lower()
            if code not in BOTS:
                make_bot(code, g.ruleset)  # refuses it, naming the levels
            seats = list(g.seats)
            seats[seat] = replace(seats[seat], level=code)
            g.seats = tuple(seats)
            self._bots.pop(seat, None)
            if self.bot_ready(seat):
                self._bot(seat)

    def _bot(self, seat: int) -> Player:
        if seat not in self._bots:
            level = self.game.seats[seat].level or ""
            seed = None if self.bot_seed is None else self.bot_seed + seat
            if needs_table(level, self.game.ruleset):
                table(self.game.ruleset)  # joins a build under way rather than solving it twice
            self._bots[seat] = make_bot(level, self.game.ruleset, seed)
        return self._bots[seat]

    # -- events --------------------------------------------------------------------------
    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Send every event to ``callback`` as it happens; returns a function that stops it."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    @property
    def seq(self) -> int:
        """The number of events sent so far (the ``seq`` of the last one)."""
        return self._seq

    def _emit(self, events: list[Event]) -> list[Event]:
        for event in events:
            for callback in list(self._subscribers):
                callback(event)
        return events

    def _next(self) -> tuple[int, int]:
        self._seq += 1
        return self._seq, self.game.version

    def start(self) -> list[Event]:
        """The opening events, once: the roll-off, if this game began with one. Every move
        calls this first, so a front end needs it only to show the roll-off before play."""
        if self._started:
            return []
        self._started = True
        g = self.game
        if not g.roll_offs or g.log:
            return []
        rounds = tuple(tuple(sorted(r.items())) for r in g.roll_offs)
        with language(self.lang):
            return self._emit([RollOff(*self._next(), rounds, g.first)])

    # -- whose move ----------------------------------------------------------------------
    def waiting_for(self) -> int | None:
        """The seat a person must act for now; None on a bot's turn or once the game is over."""
        g = self.game
        if g.is_over or g.seats[g.state.current].is_bot:
            return None
        return g.state.current

    def step(self) -> list[Event]:
        """Play exactly one bot action, if it is a bot's turn (else nothing happens)."""
        opening = self.start()
        g = self.game
        if g.is_over or not g.seats[g.state.current].is_bot:
            return opening
        if self._preparing and not self.bot_ready(g.state.current):
            return opening  # its table is on its way: it waits, alone
        with language(self.lang):
            return opening + self._play(self._bot(g.state.current).act(g))

    def advance(self, pace: float = 0, sleep: Callable[[float], Any] = time.sleep) -> list[Event]:
        """Play bot actions until a person must act, a bot waits for the table :meth:`prepare`
        is getting, or the game ends, waiting ``pace`` seconds between two actions."""
        events = self.start()
        first = True
        while not self.game.is_over and self.waiting_for() is None and not (
                self._preparing and not self.bot_ready(self.game.state.current)):
            if pace > 0 and not first:
                sleep(pace)
            events += self.step()
            first = False
        return events

    def act(self, action: Action | str, seat: int | None = None) -> list[Event]:
        """A person's move, as an action or in the action notation (``k 335``, ``s chance``).

        :raises IllegalActionError: the game is over, it is a bot's turn, ``seat`` is not the
            seat whose turn it is, or the rules forbid the move now (the engine's words).
        :raises InvalidActionError: the text is not an action, a roll names its own dice, or
            a scorekeeper game's roll has none. Nothing changes when it raises.
        """
        with language(self.lang):
            g = self.game
            if g.is_over:
                raise IllegalActionError(_("the game is over; no more moves"))
            current = g.seats[g.state.current]
            if current.is_bot:
                raise IllegalActionError(
                    _("it is {name}'s turn, a bot's; a person may move on their own turn only").format(
                        name=current.name))
            if seat is not None and seat != g.state.current:
                raise IllegalActionError(_("it is {name}'s turn (seat {current}), not seat {seat}'s").format(
                    name=current.name, current=g.state.current, seat=seat))
            if isinstance(action, str):
                action = parse_action(action)
            if isinstance(action, Roll) and action.result is not None and g.dice_from == "server":
                raise InvalidActionError(
                    _("a person's roll names the dice to keep; the game throws the rest"))
            opening = self.start()
            return opening + self._play(action)

    def undo(self) -> list[Event]:
        """Take back a person's last move (a score or a tile return) before the next roll.

        :raises IllegalActionError: nothing to undo, the last move was a roll, or a bot made it.
        """
        with language(self.lang):
            g = self.game
            last = last_move(g)
            if last is None:
                raise IllegalActionError(_("nothing to undo yet"))
            if last.kind == "roll" and g.dice_from == "server":
                raise IllegalActionError(_("a roll cannot be undone: its dice have been seen"))
            if not last.undoable:
                raise IllegalActionError(_("{name} moved last: a bot's move cannot be undone").format(
                    name=g.seats[last.player].name))
            g.undo()
            box = None if last.number is None else g.ruleset.category_ids[last.number - 1]
            return self._emit([Undone(*self._next(), last.player, last.action, box, last.number)])

    def amend(self, turn: int, actions: Sequence[Action | str]) -> list[Event]:
        """Correct a finished turn of a scorekeeper game (see :meth:`Game.amend`); the
        actions may be written in the action notation.

        :raises IllegalActionError, InvalidActionError: as :meth:`Game.amend`; nothing changes.
        """
        with language(self.lang):
            g = self.game
            parsed = [parse_action(a) if isinstance(a, str) else a for a in actions]
            done = g.amend(turn, parsed)
            t = g.turns()[turn]
            rnd = sum(1 for u in g.turns()[:turn] if u.player == t.player) + 1
            return self._emit([Amended(*self._next(), t.player, turn, rnd, tuple(map(str, done.old)),
                                       tuple(map(str, done.new)), tuple(g.totals()), done.after_end)])

    def _play(self, action: Action) -> list[Event]:
        """Apply a move through the engine and describe what it did."""
        g = self.game
        player, out_before = g.state.current, g.state.out
        extra_before = g.player.extra
        g.play(action)
        done = g.log[-1]
        p = g.state.players[player]
        events: list[Event] = []
        if isinstance(done, Roll):
            assert g.state.dice is not None and done.result is not None
            normal, saved = g.rolls_split()
            events.append(Rolled(*self._next(), player, tuple(done.keep), tuple(sorted(done.result)),
                                 g.state.dice, normal, saved, g.state.rolls_used))
        elif isinstance(done, Restore):
            events.append(TilesRestored(*self._next(), player, tuple(sorted(done.tiles)),
                                        tuple(sorted(g.state.out))))
        else:
            box = g.ruleset.category(done.category).id
            events.append(Scored(*self._next(), player, box, g.ruleset.category_ids.index(box) + 1,
                                 p.card[box], p.extra - extra_before, g.total(player), p.bank))
            if g.ruleset.uses_board:
                out_after = g.state.out
                events.append(TilesMoved(*self._next(), player, tuple(sorted(out_after - out_before)),
                                         tuple(sorted(out_before - out_after)), tuple(sorted(out_after))))
            outcome = g.outcome()
            if outcome is not None:
                events.append(self._game_over(outcome))
            else:
                events.append(TurnPassed(*self._next(), g.state.current, g.round_number))
        return self._emit(events)

    def _game_over(self, outcome: Outcome) -> GameOver:
        o: OutcomeView = outcome_view(outcome)
        return GameOver(*self._next(), o.termination, o.standings, o.winners)

    # -- views and saves ---------------------------------------------------------------------
    def view(self, viewer: int | None = None, lang: str | None = None) -> GameView:
        """The game as ``viewer`` (a seat, or None for the table) may see it, in ``lang`` or
        the session's language, after the event numbered :attr:`seq`."""
        return game_view(self.game, viewer, lang or self.lang, self._seq)

    def outcome(self) -> Outcome | None:
        return self.game.outcome()

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the game (with its seed: a local save) to ``path`` through a temporary file
        and an atomic rename, so a failed save leaves no half-written file.

        :raises SaveError: the file could not be written; the game goes on unchanged.
        """
        target = Path(path).expanduser()
        text = self.game.to_json()
        tmp: str | None = None
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, target)
        except OSError as e:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            with language(self.lang):
                raise SaveError(target, e.strerror or _("the write failed")) from None
        return target
