"""What a server spends on solver tables: the variants it prepares ahead, and a budget for the
others (disk, memory, builds at once, builds per hour), with a queue for the builds let in.

Every house-rule variant has a table of its own (``bonus_threshold`` alone takes 1–105; one
Maxi table is 1.78 GB and minutes of both cores). The operator names the variants a server
prepares (``yatzy serve --prepare``): built or loaded in the background at start, and free to
use. Any other variant whose table is not stored yet is let in only within the budget, its
cost estimated before the build (:func:`yatzy.solver.cost.table_cost`); beyond it, a
:class:`~yatzy.web.room.Refusal` in the player's language names what is allowed (the prepared
variants, the bots that need no table). A build let in waits for its turn (``at_once`` builds
run together) and its room is told its place in the queue. Tables no room uses are let go,
least recently used first, when a new one needs the memory (docs/security.md, "Table builds").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from functools import partial
from typing import TypeVar

from ..bots import BOT_SPECS, level_name, needs_table
from ..errors import YatzyError
from ..i18n import _, ngettext
from ..narration import duration_text, size_text
from ..registry import get_ruleset, parse_options
from ..rules import Ruleset
from ..solver.cost import TableCost, table_cost
from ..solver.tables import Clock, TableProgress, table
from ..views import and_list
from .room import Refusal, Room
from .table_limits import BudgetLimits

__all__ = ["HOUR", "BudgetLimits", "Key", "TableBudget", "in_daemon", "key_of", "parse_variant",
           "tables_in_use", "variant_name"]

log = logging.getLogger(__name__)

Key = tuple[str, tuple[tuple[str, object], ...]]
"""A variant: its ruleset's name and every option (the key of its table in this process)."""

HOUR = 3600.0
MB = 1_000_000
T = TypeVar("T")


def key_of(ruleset: Ruleset) -> Key:
    return ruleset.name, tuple(ruleset.options)


def parse_variant(text: str) -> Ruleset:
    """A variant as ``yatzy serve --prepare`` names it: a ruleset, or a ruleset and its house
    rules as ``yatzy solve`` takes them (``maxi:saved_rolls=false,bonus_threshold=80``).

    :raises YatzyError: an unknown ruleset or option.
    """
    name, _sep, options = text.partition(":")
    pairs = [p for p in options.split(",") if p.strip()]
    return get_ruleset(name, **parse_options(pairs))


def variant_name(ruleset: Ruleset) -> str:
    """A variant as a player reads it: "Maxi-Yatzy", "Yatzy (bonus_threshold=50)"."""
    defaults = dict(get_ruleset(ruleset.name).options)
    changed = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in ruleset.options
               if defaults.get(k) != v]
    title = _(ruleset.title)
    return f"{title} ({', '.join(changed)})" if changed else title


def tables_in_use(rooms: Iterable[Room]) -> set[Key]:
    """The variants whose tables the held rooms use: a bot (or a stand-in) playing from one, or
    the coach on while the game is played."""
    used = set()
    for room in rooms:
        g = room.game
        levels = [s.level or "" for s in g.seats if s.is_bot] + list(room.stand_ins.values())
        if any(needs_table(level, g.ruleset) for level in levels) or (room.settings.coach and not room.over):
            used.add(key_of(g.ruleset))
    return used


async def in_daemon(work: Callable[[], T], name: str) -> T:
    """``work`` done in a daemon thread of its own (a build may take minutes: it must neither
    hold one of the event loop's few worker threads nor keep a stopping server alive)."""
    future: concurrent.futures.Future[T] = concurrent.futures.Future()
    future.set_running_or_notify_cancel()  # a waiter who leaves cancels nothing: the work ends

    def run() -> None:
        try:
            future.set_result(work())
        except BaseException as e:  # noqa: BLE001 - handed to the waiter
            future.set_exception(e)

    threading.Thread(target=run, daemon=True, name=name).start()
    return await asyncio.wrap_future(future)


class TableBudget:
    """The tables of one server process: the prepared variants, the budget for the others, the
    queue of builds, and the tables held in memory (least recently used first)."""

    def __init__(self, limits: BudgetLimits | None = None, prepared: Iterable[Ruleset] = (), *,
                 clock: Clock = time.monotonic,
                 cost: Callable[[Ruleset], TableCost | None] = table_cost) -> None:
        self.limits = limits or BudgetLimits()
        self.prepared: dict[Key, Ruleset] = {key_of(r): r for r in prepared}
        self.clock = clock
        self.cost = cost
        self.in_use: Callable[[], set[Key]] = set
        """The variants the rooms use now (:func:`tables_in_use` of the app's rooms)."""
        self.on_let_go: list[Callable[[Key], None]] = []
        """Called with a variant whose table is let go (the coaches forget theirs)."""
        self.admitted: dict[Key, int] = {}
        """Variants let in since the start, with their tables' bytes (on disk once built)."""
        self.let_in: deque[float] = deque()
        """When each build of the last hour was let in."""
        self.held: OrderedDict[Key, int] = OrderedDict()
        """Tables of unprepared variants held in memory (or being built), bytes each, the most
        recently used last."""
        self.queue: list[Key] = []
        """Builds waiting for their turn, the next first."""
        self.running: dict[Key, int] = {}
        """Builds under way, with how many wait for each."""
        self.waiting: dict[Key, int] = {}
        """How many wait for each build in the queue."""
        self._changed: asyncio.Event | None = None

    # -- what is allowed ---------------------------------------------------------------------
    def free(self, ruleset: Ruleset) -> bool:
        """A variant that costs nothing more: prepared, let in before, stored already, or one
        without a table (DOZZY)."""
        key = key_of(ruleset)
        if key in self.prepared or key in self.admitted:
            return True
        cost = self.cost(ruleset)
        return cost is None or cost.stored

    def admit(self, ruleset: Ruleset) -> None:
        """Let a variant's table in (or find it free), counting it against the budget; in the
        current language.

        :raises Refusal: ``table_budget`` (its table is bigger than the disk or the memory
            left), ``too_many_builds`` (the builds of this hour are used up): each naming
            what is allowed.
        """
        if self.free(ruleset):
            return
        cost = self.cost(ruleset)
        assert cost is not None
        limits, key = self.limits, key_of(ruleset)
        disk = int(limits.disk_mb * MB)
        disk_left = max(0, disk - sum(self.admitted.values()))
        if cost.size > disk_left:
            raise Refusal("table_budget", " ".join((_(
                "This server builds no table that big any more: the {rules} table needs {size} of "
                "disk, and {left} of the {budget} it may use for new tables is left.").format(
                rules=variant_name(ruleset), size=size_text(cost.size), left=size_text(disk_left),
                budget=size_text(disk)), self.allowed())))
        memory = int(limits.memory_mb * MB)
        memory_left = memory - self._make_room(memory - cost.size)
        if cost.size > memory_left:
            raise Refusal("table_budget", " ".join((_(
                "This server holds no more tables now: the {rules} table needs {size} of memory, and "
                "{left} of the {budget} it may use for new tables is free.").format(
                rules=variant_name(ruleset), size=size_text(cost.size), left=size_text(max(0, memory_left)),
                budget=size_text(memory)), self.allowed())))
        now = self.clock()
        while self.let_in and now - self.let_in[0] >= HOUR:
            self.let_in.popleft()
        if len(self.let_in) >= limits.per_hour:
            wait = HOUR - (now - self.let_in[0])
            raise Refusal("too_many_builds", " ".join((ngettext(
                "This server builds at most {n} new table an hour, and this hour's is taken: "
                "try the {rules} table again in {time}.",
                "This server builds at most {n} new tables an hour, and this hour's are taken: "
                "try the {rules} table again in {time}.", limits.per_hour).format(
                n=limits.per_hour, rules=variant_name(ruleset), time=duration_text(wait)), self.allowed())))
        self.let_in.append(now)
        self.admitted[key] = cost.size
        self.held[key] = cost.size
        log.info("table of %s %s let in: %.1f MB, about %.0f s to build", ruleset.name,
                 dict(ruleset.options), cost.size / MB, cost.seconds)

    def allowed(self) -> str:
        """What a refused room may use instead, in the current language."""
        prepared = and_list([variant_name(r) for r in self.prepared.values()]) or _("none")
        bots = and_list([level_name(b.name) for b in BOT_SPECS if b.needs == "nothing"])
        return _("Ready on this server: {variants}. Bots that need no table: {bots}.").format(
            variants=prepared, bots=bots)

    # -- memory ------------------------------------------------------------------------------
    def hold(self, ruleset: Ruleset) -> None:
        """A table is used now (made a coach or a bot): the most recently used of those held."""
        key = key_of(ruleset)
        if key in self.prepared:
            return
        if key not in self.held:
            cost = self.cost(ruleset)
            self.held[key] = 0 if cost is None else cost.size
        self.held.move_to_end(key)

    def _make_room(self, most: int) -> int:
        """Let go of tables no room uses, least recently used first, until at most ``most``
        bytes are held (or none is left to let go); returns the bytes held then."""
        used = self.in_use() | set(self.queue) | set(self.running)
        for key in list(self.held):
            if sum(self.held.values()) <= most:
                break
            if key not in used:
                del self.held[key]
                for forget in self.on_let_go:
                    forget(key)
                log.info("table of %s let go (no room uses it)", key[0])
        return sum(self.held.values())

    # -- the queue ---------------------------------------------------------------------------
    def place(self, ruleset: Ruleset) -> int | None:
        """The place of the variant's build in the queue (1: the next), None if not waiting."""
        key = key_of(ruleset)
        return self.queue.index(key) + 1 if key in self.queue else None

    def _wake(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    def _change(self) -> Awaitable[bool]:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed.wait()

    def _may_start(self, key: Key) -> bool:
        """The next in the queue, and a build fewer under way than may run at once."""
        return self.queue[0] == key and len(self.running) < self.limits.at_once

    @asynccontextmanager
    async def turn(self, ruleset: Ruleset, tell: Callable[[int], None] | None = None) -> AsyncIterator[None]:
        """Wait until the variant's table may be built (at once if it is stored, or its build is
        under way: joined), telling ``tell`` its place in the queue as it changes; the build
        runs within, and the next in the queue starts when everyone waiting for it has left."""
        key = key_of(ruleset)
        cost = self.cost(ruleset)
        if key not in self.running and (cost is None or cost.stored):
            yield
            return
        if key not in self.running:
            if key not in self.queue:
                self.queue.append(key)
            self.waiting[key] = self.waiting.get(key, 0) + 1
            told = None
            try:
                while key in self.queue and not self._may_start(key):
                    place = self.queue.index(key) + 1
                    if tell is not None and place != told:
                        tell(place)
                        told = place
                    await self._change()
                if key in self.queue:  # its turn: this waiter starts it, the others join
                    self.queue.remove(key)
                    self.running[key] = 0
                    self._wake()
            finally:
                self.waiting[key] -= 1
                if not self.waiting[key]:
                    del self.waiting[key]
                    if key in self.queue:  # everybody left before its turn
                        self.queue.remove(key)
                        self._wake()
        self.running[key] = self.running.get(key, 0) + 1
        try:
            yield
        finally:
            self.running[key] -= 1
            if not self.running[key]:
                del self.running[key]
                self._wake()

    # -- prepared ahead ----------------------------------------------------------------------
    async def prepare(self) -> None:
        """Build (or load) every prepared variant's table in turn, in the background, its
        progress in the server log (each tenth of it, with the time left)."""
        for ruleset in self.prepared.values():
            name = variant_name(ruleset)
            logged: list[int] = []

            def progress(p: TableProgress, name: str = name, logged: list[int] = logged) -> None:
                tenth = 10 * p.done // p.total if p.total else 0
                if not logged or tenth > logged[-1]:
                    logged.append(tenth)
                    left = "" if p.seconds_left is None else f", about {p.seconds_left:.0f} s left"
                    log.info("preparing the %s table: %d%% built%s", name, 10 * tenth, left)

            t0 = self.clock()
            log.info("preparing the %s table", name)
            try:
                async with self.turn(ruleset):
                    await in_daemon(partial(table, ruleset, progress), f"yatzy-prepare-{ruleset.name}")
            except (YatzyError, OSError) as e:
                log.error("the %s table could not be prepared: %s", name, e)
                continue
            except Exception:  # a bug: said, and the next one is prepared all the same
                log.exception("the %s table could not be prepared", name)
                continue
            log.info("the %s table is ready (%.1f s)", name, self.clock() - t0)
