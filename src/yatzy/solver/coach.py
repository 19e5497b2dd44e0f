"""The coach: every legal option in a position ranked by exact expected score and regret."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import accumulate, repeat
from operator import itemgetter
from typing import TYPE_CHECKING, TypeVar, overload

import numpy as np

from ..actions import Roll, Score
from ..dice import Dice
from ..errors import IllegalActionError, InvalidActionError
from ..game import Game
from ..i18n import _, ngettext
from ..rules import Ruleset
from ..rulesets.yahtzee import YahtzeeRuleset
from . import kernel, packed, ranking
from .playout import read_only
from .solve import Solution

T = TypeVar("T")


@dataclass(frozen=True)
class Position:
    """What the coach needs: filled boxes, capped upper total, aux, dice and rolls left."""

    filled: frozenset[str]
    upper: int
    dice: Dice
    rolls_left: int
    aux: int = 0
    """Saved rolls (Maxi, Osto), or 1 when the Yahtzee box holds 50."""
    yahtzee_box: int | None = None


class Option(tuple[Roll | Score, float, float, tuple[tuple[str, float], ...], int | None]):
    """One move with its exact value: ``Option((action, value, best, odds, points))``.

    A tuple made in one C call from one tuple of its fields, the best option's value one float
    shared by a whole ranking (the regret is worked out from it when asked); its fields read
    through ``itemgetter``, in C, half the time of a property written in Python (a named
    tuple's ``__new__`` is Python, ``tuple.__new__(Option, fields)`` a third slower than this)."""

    __slots__ = ()

    if TYPE_CHECKING:
        @property
        def action(self) -> Roll | Score: ...

        @property
        def value(self) -> float: ...

        @property
        def odds(self) -> tuple[tuple[str, float], ...]: ...

        @property
        def points(self) -> int | None: ...
    else:
        action = property(itemgetter(0), doc="The move itself: ``Roll((3, 3))`` keeps 3 3 and "
                          "rolls the rest, ``Score(\"one_pair\")``.")
        value = property(itemgetter(1), doc="Expected points still to come from here, this turn included.")
        odds = property(itemgetter(3), doc="For keeps: chance of making each box that may be filled "
                        "this turn by its end (in a forced game the next box only); () for scores.")
        points = property(itemgetter(4), doc="For scores: the points the box makes now (an extra "
                          "Yahtzee's bonus included); None for keeps.")

    @property
    def regret(self) -> float:
        """How much less than the best option it is worth (0 for the best)."""
        return self[2] - self[1]

    def __repr__(self) -> str:
        return (f"Option(action={self.action!r}, value={self.value!r}, regret={self.regret!r}, "
                f"odds={self.odds!r}, points={self.points!r})")

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"action": str(self.action), "value": round(self.value, 6),
                                "regret": round(self.regret, 6)}
        if self.points is not None:
            d["points"] = self.points
        if self.odds:
            d["odds"] = {k: round(v, 6) for k, v in self.odds}
        return d


# endless and stateless, shared: a ranking's zip ends when its actions do
_NO_ODDS = repeat(())


class Ranking(Sequence[Option]):
    """A position's options, best first, as :meth:`Coach.options` ranks them: a sequence of
    :class:`Option`, each made when it is read (indexed, sliced or iterated), from the ranking's
    (action, points) pairs, its values and its odds, which the query made.

    So a query makes a few objects, not one an option: a program that keeps many rankings (an
    analysis, research labels) keeps lists of numbers, and Python's garbage collector, which
    walks every object that may hold others again and again as they pile up, has next to nothing
    to walk (an ``Option`` list per query kept 20 of them a query and cost as much again as the
    query). Like python-chess's ``board.legal_moves``: a view to read, not a list to change.
    Equal to any sequence of the same options in the same order.
    """

    __slots__ = ("_pairs", "_values", "_odds")

    def __init__(self, pairs: Sequence[tuple[Roll | Score, int | None]], values: Sequence[float],
                 odds: Sequence[tuple[tuple[str, float], ...]] | None = None) -> None:
        self._pairs, self._values, self._odds = pairs, values, odds

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, i: int) -> Option: ...

    @overload
    def __getitem__(self, i: slice) -> list[Option]: ...

    def __getitem__(self, i: int | slice) -> Option | list[Option]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        v = self._values
        action, points = self._pairs[i]
        return Option((action, v[i], v[0], self._odds[i] if self._odds is not None else (), points))

    def __iter__(self) -> Iterator[Option]:
        v = self._values
        if not v:
            return iter(())
        actions, points = zip(*self._pairs, strict=True)
        return map(Option, zip(actions, v, repeat(v[0]), _NO_ODDS if self._odds is None else self._odds,
                               points))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Ranking({list(self)!r})"


class Coach:
    """Ranks options with a solved table; also the engine behind the optimal bot."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self.spec = solution.spec
        self.ids = list(self.spec.ruleset.category_ids)
        self._values = read_only(solution.values)
        self._tables = packed.pack(self.spec)
        self._width = int(self._tables[packed.H_WIDTH])
        self._n_cat = len(self.ids)
        self._cap = self.spec.bonus[1]
        self._bit = {c: 1 << i for i, c in enumerate(self.ids)}
        self._bit_of = self._bit.__getitem__  # bound once: a query sums a dozen
        self._upper_ids = frozenset(c for i, c in enumerate(self.ids) if self.spec.bonus[0][i])
        self._local = threading.local()
        # the points an option can make, by index; the kernels' -1 (a keep) is the last: None
        self._points: list[int | None] = [*range(int(self._tables[packed.H_MOST]) + 1), None]
        self._roll_index = {r: i for i, r in enumerate(self.spec.rolls)}
        keeps = self.spec.keeps[0]
        # every action a ranking can name, made once: keeps by index, then boxes
        self.actions: tuple[Roll | Score, ...] = (*(Roll(k) for k in keeps), *(Score(c) for c in self.ids))
        # what ranking.rank's ints index, for each roll: its keeps' and boxes' (action, points)
        self._items = ranking.roll_items(self._tables, self.actions)

    # ---- positions --------------------------------------------------------------------
    def position(self, filled: Iterable[str], dice: Iterable[int], rolls_left: int,
                 upper: int | None = None, aux: int | None = None, *,
                 saved: int | None = None, yahtzee_50: bool | None = None) -> Position:
        """A position as a player describes it, refused unless a game can reach it.

        ``rolls_left`` counts the rolls still allowed this turn; in saved-roll games
        (Maxi, Osto) ``saved`` is the bank, which adds to them (beyond the solver's bank
        cap the position is ranked as at the cap, as the optimal bot does). ``yahtzee_50``:
        the Yahtzee box holds 50 (yahtzee). ``aux`` is the table's own index instead of
        ``saved``/``yahtzee_50`` (saved rolls, already counted in ``rolls_left``, or 1 when
        the Yahtzee box holds 50). See :func:`check_position` for what is refused.
        """
        spec, rs = self.spec, self.spec.ruleset
        if aux is None:
            saved = saved or 0
            names, d = check_position(rs, filled, dice, rolls_left, upper, saved=saved,
                                      yahtzee_50=bool(yahtzee_50))
            if spec.mode == kernel.MODE_BANK:
                # the bank and this turn's rolls are one pool; past the solver's cap, rank as at the cap
                return Position(names, upper or 0, d, min(rolls_left + saved, spec.levels),
                                min(saved, spec.bank_cap))
            return Position(names, upper or 0, d, rolls_left, 1 if yahtzee_50 and spec.n_aux == 2 else 0)
        if saved is not None or yahtzee_50 is not None:
            raise TypeError("give aux, or saved and yahtzee_50, not both")
        # the table's own index: saved rolls (already in rolls_left) or the 50 in the Yahtzee box
        names = _check_filled(rs, filled)
        d = rs.check_dice(dice)
        _check_upper(rs, names, upper)
        if not 0 <= rolls_left <= spec.levels:
            raise InvalidActionError(_("rolls left must be 0 to {most} here, not {n}").format(
                most=spec.levels, n=rolls_left))
        if spec.mode == kernel.MODE_BANK:
            _check_saved(rs, aux)
            if aux > spec.bank_cap:
                raise InvalidActionError(_("saved rolls must be 0 to {most} here, not {n}").format(
                    most=spec.bank_cap, n=aux))
        elif aux not in (0, 1) or (aux == 1 and spec.n_aux != 2):
            raise InvalidActionError(
                _("aux is 1 when the Yahtzee box holds 50 in yahtzee, else 0; not {aux}").format(aux=aux))
        elif aux == 1:
            _check_yahtzee_50(rs, names)
        return Position(names, upper or 0, d, rolls_left, aux)

    def position_of(self, game: Game) -> Position:
        """The coach's view of the current player's position in a running game."""
        rs, st, p = self.spec.ruleset, game.state, game.player
        if st.dice is None:
            raise IllegalActionError(_("roll first: the coach ranks options for dice on the table"))
        upper = sum(v for c, v in p.card.items() if c in self._upper_ids)
        if rs.saved_rolls:
            aux = min(p.bank, self.spec.bank_cap)
            rolls_left = min(game.rolls_left, self.spec.levels)
        else:
            box = rs.yahtzee_box if isinstance(rs, YahtzeeRuleset) else None
            aux = 1 if self.spec.n_aux == 2 and box and p.card.get(box) == rs.by_id[box].max else 0
            rolls_left = game.rolls_left
        return Position(frozenset(p.card), upper, st.dice, rolls_left, aux)

    # ---- ranking ----------------------------------------------------------------------
    def _query(self, pos: Position) -> tuple[int, int, int, int, int]:
        """The kernels' view of a position: (mask, aux, capped upper total, rolls left, roll)."""
        return (sum(map(self._bit_of, pos.filled)), pos.aux, min(pos.upper, self._cap),
                pos.rolls_left, self._roll_index[pos.dice])

    def options(self, pos: Position, with_odds: bool = True) -> Ranking:
        """Every distinct keep (if rolls remain) and every box allowed, best first, as a
        :class:`Ranking` (a sequence of :class:`Option`, each made as it is read).

        Equal values keep a fixed order: keeps as ``dice.sub_multisets`` lists them, then
        boxes in card order. ``pos`` is trusted (make it with :meth:`position`, which checks).
        """
        m, left, r = sum(map(self._bit_of, pos.filled)), pos.rolls_left, self._roll_index[pos.dice]
        try:
            buf, ints, floats, codes = self._local.buffers
        except AttributeError:  # this thread's first query
            buf, ints, floats, codes = self._buffers()
        n = ranking.rank(self._tables, self._values, m, pos.aux, pos.upper, left, r, buf)
        if not n:  # (never: a position has a box to fill; itemgetter needs an index)
            return Ranking((), [])
        # each option's (action, points) pair picked from the roll's list in one C call, its
        # value from one list, the best value shared (each option's regret is worked out from it)
        pairs = itemgetter(*ints[:n].tolist())(self._items[r]) if n > 1 else [self._items[r][ints[0]]]
        values = floats[:n].tolist()
        if not (with_odds and left > 0):
            return Ranking(pairs, values)
        probs = np.empty(n * self._n_cat, dtype=np.float64)
        where = np.empty(n * self._n_cat, dtype=np.int64)
        counts = ranking.odds(self._tables, self._odds, m, left, codes, n, probs, where).tolist()
        ends = list(accumulate(counts))
        # each keep's (box, chance) pairs, made once (see _odds_pairs), a slice of them a keep
        chances = tuple(_pick(where[:ends[-1]].tolist(), self._odds_pairs))
        odds = list(map(chances.__getitem__, map(slice, [0, *ends[:-1]], ends)))
        return Ranking(pairs, values, odds)

    @cached_property
    def _odds(self) -> np.ndarray:
        """Each keep's chance of making each box (:func:`ranking.odds_table`), the same on
        every card: worked out once, on the first query with odds (bots never ask)."""
        return ranking.odds_table(self._tables)  # type: ignore[no-any-return]

    @cached_property
    def _odds_pairs(self) -> tuple[tuple[str, float], ...]:
        """Every (box, chance) pair :meth:`options` can show, made once, in the odds table's
        order (flat): a query with odds picks its pairs, making none (a pair a box, keep and
        rolls left; made on the first query with odds, which bots never ask)."""
        P = self._odds
        names = [*self.ids, *[""] * (P.shape[2] - len(self.ids))]  # the padding is never read
        return tuple(zip(names * (P.size // len(names)), P.ravel().tolist(), strict=True))

    def _buffers(self) -> tuple[np.ndarray, memoryview, memoryview, np.ndarray]:
        """This thread's buffer of :func:`ranking.rank` and its outputs' views (see
        :func:`ranking.outputs`; the pairs as memoryviews, which slice and make lists in half
        numpy's time), made on its first query (``self._local.buffers`` after): a query is
        microseconds."""
        buf = np.empty(ranking.buffer_size(self._tables), dtype=np.float64)
        ints, floats, codes = ranking.outputs(buf, self._tables)
        self._local.buffers = (buf, ints.data, floats.data, codes)
        return self._local.buffers  # type: ignore[no-any-return]

    def rank_many(self, positions: Sequence[Position]) -> Rankings:
        """Many positions ranked in one call, each exactly as :meth:`options` ranks it without odds
        (for analysis and research labels: no Python per option until one is asked for)."""
        Q = np.array([self._query(p) for p in positions], dtype=np.int64).reshape(-1, 5)
        shape = (len(Q), self._width)
        act, pts = np.empty(shape, dtype=np.int64), np.empty(shape, dtype=np.int64)
        val, reg = np.empty(shape, dtype=np.float64), np.empty(shape, dtype=np.float64)
        count = np.zeros(len(Q), dtype=np.int64)
        ranking.rank_many(self._tables, self._values, Q, act, pts, val, reg, count)
        return Rankings(self, act, pts, val, reg, count)

    def score_values(self, pos: Position) -> dict[str, float]:
        """Value of filling each allowed box now (its points plus the future after it), in card order."""
        boxes = {o.action.category: o.value for o in self.options(pos, with_odds=False)
                 if isinstance(o.action, Score)}
        return {c: boxes[c] for c in self.ids if c in boxes}

    def best(self, pos: Position) -> Option:
        return self.options(pos, with_odds=False)[0]


@dataclass(frozen=True)
class Rankings:
    """Positions ranked by :meth:`Coach.rank_many`: row i holds ``count[i]`` options, best first.

    ``action[i, j]`` indexes ``coach.actions`` (keeps, then boxes), ``points[i, j]`` is -1 for
    a keep; ``rankings[i]`` is position i's list of :class:`Option` (without odds).
    """

    coach: Coach
    action: np.ndarray
    points: np.ndarray
    value: np.ndarray
    regret: np.ndarray
    count: np.ndarray

    def __len__(self) -> int:
        return len(self.count)

    def __getitem__(self, i: int) -> Ranking:
        n, c = int(self.count[i]), self.coach
        actions = _pick(self.action[i, :n].tolist(), c.actions)
        pairs = list(zip(actions, _pick(self.points[i, :n].tolist(), c._points), strict=True))
        return Ranking(pairs, self.value[i, :n].tolist())

    def __iter__(self) -> Iterator[Ranking]:
        return (self[i] for i in range(len(self)))


def _pick(indices: list[int], items: Sequence[T]) -> Sequence[T]:
    """items[i] for each index, in one call (no Python loop)."""
    if len(indices) > 1:
        return itemgetter(*indices)(items)  # type: ignore[no-any-return]
    return [items[i] for i in indices]


def check_position(ruleset: Ruleset, filled: Iterable[str], dice: Iterable[int], rolls_left: int,
                   upper: int | None, *, saved: int = 0,
                   yahtzee_50: bool = False) -> tuple[frozenset[str], Dice]:
    """Refuse a position no game of ``ruleset`` can reach; its filled boxes and dice if fine.

    Needs no solved table, so a caller may check before solving. Refused, each with a
    message naming what is wrong: unknown boxes, a box named twice, every box filled, a
    forced game's boxes out of order, an upper total the filled upper boxes cannot make,
    rolls left outside 0..2, saved rolls outside saved-roll games (or past the game's
    bank cap), a Yahtzee box holding 50 outside yahtzee or before it is filled.
    """
    names = _check_filled(ruleset, filled)
    d = ruleset.check_dice(dice)
    _check_upper(ruleset, names, upper)
    _check_saved(ruleset, saved)
    if yahtzee_50:
        _check_yahtzee_50(ruleset, names)
    turn = ruleset.rolls_per_turn - 1
    if not 0 <= rolls_left <= turn:
        if ruleset.saved_rolls:
            why = _("rolls left this turn must be 0 to {most} (saved rolls are counted apart), not {n}")
        else:
            why = _("rolls left this turn must be 0 to {most}, not {n}")
        raise InvalidActionError(why.format(most=turn, n=rolls_left))
    return names, d


def _check_filled(rs: Ruleset, filled: Iterable[str]) -> frozenset[str]:
    """The filled boxes: known ids, none twice, a forced game's order kept, one still open."""
    listed = list(filled)
    for c in listed:
        if c not in rs.by_id:
            raise InvalidActionError(_("“{box}” is not a box of {rules}; its boxes are: {boxes}").format(
                box=c, rules=rs.name, boxes=", ".join(rs.category_ids)))
    names = frozenset(listed)
    if len(names) < len(listed):
        twice = next(c for i, c in enumerate(listed) if c in listed[:i])
        raise InvalidActionError(
            _("{box} is named twice among the filled boxes; a box is filled once").format(box=twice))
    if len(names) == len(rs.categories):
        raise IllegalActionError(_("every box is filled; the game is over"))
    if rs.order is not None:
        nxt = next(c for c in rs.order if c not in names)
        later = [c for c in rs.order[rs.order.index(nxt):] if c in names]
        if later:
            raise IllegalActionError(
                _("{rules} fills the boxes in order, {first} first: {filled} is filled but {next} is not, "
                  "so {next} comes next").format(rules=rs.name, first=rs.order[0], filled=later[0], next=nxt))
    return names


def _check_upper(rs: Ruleset, names: frozenset[str], upper: int | None) -> None:
    """The upper total must be one the filled upper boxes can make (0, f, ..., dice*f each)."""
    if upper is None or upper < 0:
        raise InvalidActionError(_("give the upper-section total so far (0 or more)"))
    boxes = [c for c in rs.categories if c.id in names and c.face is not None]
    reach = _upper_totals(tuple(c.face or 0 for c in boxes), rs.dice)
    if upper in reach:
        return
    if not boxes:
        raise InvalidActionError(
            _("the upper total is 0 while no upper box is filled, not {upper}").format(upper=upper))
    which = _and([c.id for c in boxes])
    if upper > max(reach):
        raise InvalidActionError(
            _("the upper total can be at most {most} with {boxes} filled (a box holds 0 to {dice} times "
              "its face), not {upper}").format(most=max(reach), boxes=which, dice=rs.dice, upper=upper))
    raise InvalidActionError(
        _("an upper total of {upper} cannot be made with {boxes} filled (a box holds 0 to {dice} times "
          "its face); the possible totals are {totals}").format(
            upper=upper, boxes=which, dice=rs.dice, totals=_ranges(sorted(reach))))


@cache
def _upper_totals(faces: tuple[int, ...], dice: int) -> frozenset[int]:
    """The totals upper boxes of these faces can make, each 0 to ``dice`` times its face (once
    per set of boxes: a coach checks every typed position)."""
    reach = {0}
    for f in faces:
        reach = {t + k * f for t in reach for k in range(dice + 1)}
    return frozenset(reach)


def _check_saved(rs: Ruleset, saved: int) -> None:
    """Saved rolls: none but in saved-roll games, never negative, within the game's cap."""
    if saved < 0:
        raise InvalidActionError(_("saved rolls cannot be negative, not {n}").format(n=saved))
    if saved and dict(rs.options).get("saved_rolls") is False:
        raise InvalidActionError(_("this maxi game has no saved rolls (option saved_rolls=false); "
                                   "only maxi with saved rolls and osto bank unused rolls"))
    if saved and not rs.saved_rolls:
        raise InvalidActionError(
            _("{rules} has no saved rolls; only maxi and osto bank unused rolls").format(rules=rs.name))
    if rs.bank_cap is not None and saved > rs.bank_cap:
        raise InvalidActionError(
            ngettext("this {rules} game's bank holds at most {n} saved roll (option bank_cap={n}), "
                     "not {saved}",
                     "this {rules} game's bank holds at most {n} saved rolls (option bank_cap={n}), "
                     "not {saved}",
                     rs.bank_cap).format(rules=rs.name, n=rs.bank_cap, saved=saved))


def _check_yahtzee_50(rs: Ruleset, names: frozenset[str]) -> None:
    """The Yahtzee box can hold 50 only in yahtzee, once it is filled."""
    if not isinstance(rs, YahtzeeRuleset):
        raise InvalidActionError(
            _("a Yahtzee box holding 50 matters only in yahtzee (extra Yahtzee bonus, jokers), "
              "not in {rules}").format(rules=rs.name))
    if rs.yahtzee_box not in names:
        raise InvalidActionError(
            _("the Yahtzee box can hold 50 only once it is filled; add yahtzee to the filled boxes"))


def filled_from_text(text: str) -> list[str]:
    """"ones,twos" -> ["ones", "twos"]; empty or "-" -> []."""
    return [t.strip() for t in text.split(",") if t.strip() and t.strip() != "-"]


def _and(words: list[str]) -> str:
    """["a"] -> "a"; ["a", "b", "c"] -> "a, b and c" (in the current language)."""
    if len(words) == 1:
        return words[0]
    return _("{items} and {last}").format(items=", ".join(words[:-1]), last=words[-1])


def _ranges(values: list[int]) -> str:
    """[0, 1, 2, 5, 7, 8] -> "0-2, 5, 7, 8": sorted whole numbers as runs."""
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)
