"""The coach over the web: one coach per ruleset for the whole server process, its table built
(or loaded from the disk cache) in a thread, never on the event loop, so no room waits for
another's table; the ranked moves of a seat's position; DOZZY's heuristic where no exact table
exists.

The first use of a ruleset builds its table: seconds for most, minutes for Maxi. Meanwhile a
question is answered ``preparing`` with the share built so far (or the build's place in the
queue of builds), and the answer follows when the table is ready (:func:`follow_up`). A build
joins the bots' build of the same table (:func:`yatzy.solver.tables.table`), goes through the
server's table budget (:mod:`yatzy.web.budget`: refused beyond it, in words) and waits its turn
there; a coach no room uses is let go when another table needs the memory.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from ..bots import DozzyBot
from ..errors import InvalidActionError
from ..game import Game
from ..i18n import _, language
from ..rules import Ruleset
from ..solver.coach import Coach, Option, Position
from ..solver.solve import Solution, solve
from ..solver.tables import table
from ..solver.target import TargetQuery, check_target, game_target
from .budget import Key, TableBudget, in_daemon, key_of
from .protocol import CoachAdvice, CoachOption, CoachRequest, Error
from .room import Grant, Refusal, Room

__all__ = ["COACHES", "Build", "Coaches", "advise", "follow_up"]


def shared_table(ruleset: Ruleset, progress: Callable[[int, int], None]) -> Solution:
    """The ruleset's table through the process's one build of it (joined if the bots' is under
    way), then read back from the disk cache: memory-mapped, so the build's copy in memory is
    not kept for as long as the coach is."""
    table(ruleset, lambda p: progress(p.done, p.total))
    return solve(ruleset)


@dataclass
class Build:
    """A table being built (or loaded) in a thread, and how far it has come."""

    key: Key
    future: concurrent.futures.Future[Coach] = field(default_factory=concurrent.futures.Future)
    done: int = 0
    total: int = 0
    place: int | None = None
    """Its place in the queue of builds (1: the next) while it waits for its turn."""

    def report(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    @property
    def progress(self) -> float:
        """The share built, 0..1 (0 until the first layer is done)."""
        return round(self.done / self.total, 4) if self.total else 0.0


class Coaches:
    """The coaches of one process, one per ruleset (with its house rules): each table built
    once, in a daemon thread, whoever asks first; a failed build may be tried again."""

    def __init__(self, solver: Callable[..., object] = shared_table,
                 budget: TableBudget | None = None) -> None:
        self._solve = solver
        self._lock = threading.Lock()
        self._coaches: dict[Key, Coach] = {}
        self._builds: dict[Key, Build] = {}
        self.budget = budget
        """The server's table budget (None: any table is built at once, as in a terminal)."""

    def ready(self, ruleset: Ruleset) -> Coach | None:
        coach = self._coaches.get(key_of(ruleset))
        if coach is not None and self.budget is not None:
            self.budget.hold(ruleset)
        return coach

    def forget(self, key: Key) -> None:
        """Let go of a coach (its table is no room's any more; it is loaded again if asked for)."""
        with self._lock:
            self._coaches.pop(key, None)

    def build(self, ruleset: Ruleset) -> Build:
        """The build of this ruleset's table, started if none is under way (in the event loop).

        :raises Refusal: the table is beyond the server's budget (in the current language).
        """
        key = key_of(ruleset)
        with self._lock:
            b = self._builds.get(key)
            if b is not None:
                return b
        if self.budget is not None:
            self.budget.admit(ruleset)
        with self._lock:
            b = self._builds[key] = Build(key)
            b.future.set_running_or_notify_cancel()  # a waiter's cancel never cancels the build
        asyncio.get_running_loop().create_task(self._run(ruleset, b))
        return b

    async def _run(self, ruleset: Ruleset, b: Build) -> None:
        def place(n: int) -> None:
            b.place = n

        def work() -> Coach:
            return Coach(self._solve(ruleset, progress=b.report))  # type: ignore[arg-type]

        try:
            if self.budget is None:
                coach = await in_daemon(work, f"yatzy-web-{ruleset.name}-table")
            else:
                async with self.budget.turn(ruleset, place):
                    b.place = None
                    coach = await in_daemon(work, f"yatzy-web-{ruleset.name}-table")
                self.budget.hold(ruleset)
        except BaseException as e:  # noqa: BLE001 - handed to whoever waits
            with self._lock:
                self._builds.pop(b.key, None)
            b.future.set_exception(e)
            if not isinstance(e, Exception):
                raise
            return
        with self._lock:
            self._coaches[b.key] = coach
            self._builds.pop(b.key, None)
        b.future.set_result(coach)

    async def get(self, ruleset: Ruleset, wait: float) -> Coach | Build:
        """The coach of ``ruleset``, waiting at most ``wait`` seconds for its table (the event
        loop goes on meanwhile); the build under way if it takes longer.

        :raises InvalidActionError: the ruleset is out of the solver's reach (DOZZY).
        :raises Refusal: its table is beyond the server's budget.
        """
        coach = self.ready(ruleset)
        if coach is not None:
            return coach
        b = self.build(ruleset)
        waiting = asyncio.wrap_future(b.future)
        try:
            return await asyncio.wait_for(asyncio.shield(waiting), wait)
        except TimeoutError:
            return b

    async def wait(self, ruleset: Ruleset) -> Coach:
        """The coach of ``ruleset`` once its table is built (the loop goes on meanwhile).

        :raises Refusal: its table is beyond the server's budget.
        """
        coach = self.ready(ruleset)
        if coach is not None:
            return coach
        return await asyncio.wrap_future(self.build(ruleset).future)


COACHES = Coaches()
"""The coaches of this process: shared by every room, the analysis and the app."""


def option_of(o: Option) -> CoachOption:
    """One of the coach's options as the protocol sends it (the values of ``Option.to_dict``)."""
    d = o.to_dict()
    return CoachOption(action=str(o.action), description=o.action.describe(), value=float(d["value"]),  # type: ignore[arg-type]
                       regret=float(d["regret"]), points=o.points,  # type: ignore[arg-type]
                       odds=dict(d.get("odds", {})))  # type: ignore[call-overload]


def _seat_to_coach(room: Room, grant: Grant) -> int:
    """The seat whose position the coach may rank for this token now (under the room's lock).

    :raises Refusal: a spectator, the game over, the coach off, or not this seat's turn.
    """
    g = room.game
    if grant.role == "spectator":
        raise Refusal("spectator", _("spectators watch; the coach is for the players"))
    if room.over:
        raise Refusal("game_over", _("the game is over: the analysis tells what each move cost"))
    if not room.settings.coach:
        raise Refusal("coach_off", _("the coach is off in this room while the game is played; "
                                     "the analysis is there after it"))
    current = g.state.current
    seat = grant.seat if grant.role == "seat" else current
    if seat != current or g.seats[current].is_bot or current in room.stand_ins:
        raise Refusal("not_your_turn", _("the coach helps with your own turn; it is {name}'s turn").format(
            name=g.seats[current].name))
    assert seat is not None
    return seat


async def advise(room: Room, grant: Grant, msg: CoachRequest, lang: str, wait: float = 1.0) -> CoachAdvice:
    """The coach's answer to a seat's question about its position now.

    :raises Refusal: as :func:`_seat_to_coach`, or no dice on the table yet (no_dice).
    """
    with language(lang):
        async with room.lock:
            seat = _seat_to_coach(room, grant)
            game, version = room.game, room.version
            if game.ruleset.uses_board:
                twin = game.clone()
            elif game.state.dice is None:
                raise Refusal("no_dice", _("roll first: the coach ranks the moves for the dice on the table"))
        if msg.target is not None and not game.ruleset.uses_board:
            try:
                await asyncio.to_thread(check_target, game.ruleset, msg.target)  # a spec: ms
            except InvalidActionError as e:
                raise Refusal("bad_target", str(e)) from e
        if game.ruleset.uses_board:
            move = await asyncio.to_thread(DozzyBot().act, twin)
            return CoachAdvice(
                id=msg.id, version=version, seat=seat, status="heuristic",
                options=[CoachOption(action=str(move), description=move.describe(), value=None, regret=None)],
                note=_("DOZZY has no exact table: its shared tile board is beyond the solver. "
                       "This is the DOZZY bot's rule of thumb."))
        got = await COACHES.get(game.ruleset, wait)
        if isinstance(got, Build):
            if got.place is not None:
                note = _("The {rules} table waits for its turn to be built (number {place} in the queue); "
                         "the answer follows when it is ready. Play on meanwhile.").format(
                    rules=_(game.ruleset.title), place=got.place)
            else:
                note = _("Building the {rules} table, once for this server; the answer follows "
                         "when it is ready. Play on meanwhile.").format(rules=_(game.ruleset.title))
            return CoachAdvice(id=msg.id, version=version, seat=seat, status="preparing",
                               progress=got.progress, place=got.place, note=note)
        async with room.lock:
            seat = _seat_to_coach(room, grant)
            if room.game.state.dice is None:
                raise Refusal("no_dice", _("roll first: the coach ranks the moves for the dice on the table"))
            position, version = got.position_of(room.game), room.version
            playing = room.game.clone() if msg.target is not None else None
        if playing is None:
            options = await asyncio.to_thread(got.options, position)
            return CoachAdvice(id=msg.id, version=version, seat=seat, status="ready",
                               options=[option_of(o) for o in options])
        return await _advise_target(got, playing, position, msg, version, seat)


async def _advise_target(got: Coach, twin: Game, position: Position, msg: CoachRequest, version: int,
                         seat: int) -> CoachAdvice:
    """The options ranked by their chance of ``msg.target`` (checked: ``TARGET_WORK`` at most,
    in a worker thread), or by expected score (of ``position``, ``twin``'s) with the solver's
    refusal in words."""
    assert msg.target is not None

    def work() -> TargetQuery | str:
        """In a worker thread, in the client's language (to_thread carries the context)."""
        try:
            return game_target(got, twin, msg.target)  # type: ignore[arg-type]
        except InvalidActionError as e:
            return str(e)

    found = await asyncio.to_thread(work)
    if isinstance(found, str):
        options = await asyncio.to_thread(got.options, position)
        return CoachAdvice(id=msg.id, version=version, seat=seat, status="ready", target=msg.target,
                           refused=found, options=[option_of(o) for o in options])
    return CoachAdvice(id=msg.id, version=version, seat=seat, status="ready", target=msg.target,
                       options=[option_of(t.option).model_copy(update={"chance": t.chance})
                                for t in found.options])


def follow_up(room: Room, grant: Grant, msg: CoachRequest, lang: str,
              send: Callable[[object], None]) -> asyncio.Task[None]:
    """After a ``preparing`` answer: wait for the table, then send the answer for the position
    then on the table (or the error that holds by then: the turn may have passed)."""

    async def run() -> None:
        async with room.lock:
            ruleset = room.game.ruleset
        with contextlib.suppress(Exception):
            await COACHES.wait(ruleset)
        try:
            send(await advise(room, grant, msg, lang, wait=5.0))
        except Refusal as r:
            send(Error(code=r.code, message=r.message, id=msg.id, version=room.version))

    return asyncio.get_running_loop().create_task(run())
