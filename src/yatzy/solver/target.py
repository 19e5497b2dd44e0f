"""Playing to reach a target: each option's chance of ending the game at or above t points
under the policy that maximises that chance (Verhoeff's and Holderied's "reach a threshold").

Exact, by the end game's recursion (:mod:`.endgame`) with a step utility: util[g] is 1 once g,
the points gained from here (upper bonus and extra Yahtzee bonuses included), reaches the
points still needed. It runs over every state the position can reach, so only where those
states times their point columns fit ``TARGET_WORK`` (about 2 µs of CPU each: 2 s at the
limit, docs/performance.md); before that a position is refused, naming what is allowed.
A table over every state of a ruleset is not built: for Scandinavian Yatzy it would be
2^15 cards × 64 upper totals × ~375 points to come, 3 GB in float32 and about half an hour of
CPU; Yahtzee's extra bonuses make it wider still.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

import numpy as np

from ..actions import Roll
from ..errors import InvalidActionError
from ..game import Game
from ..i18n import _, ngettext, number
from ..rules import Ruleset
from .coach import Coach, Option, Position
from .endgame import Endgame, after_box, solve_endgame, width_of, work
from .kernel import MODE_YAHTZEE
from .spec import SolverSpec

TARGET_WORK = 1_000_000
"""Largest end game (reachable states × point columns) a target query solves: 2 s of CPU."""
TARGET_MASKS = 512
"""Most reachable cards (sets of filled boxes) counted exactly before a position is refused
(counting more takes longer than the query it would allow)."""


class TargetOption(NamedTuple):
    """One option with its chance of reaching the target under the target's best play."""

    option: Option
    chance: float

    def to_dict(self) -> dict[str, object]:
        return {**self.option.to_dict(), "chance": self.chance}


@dataclass(frozen=True)
class TargetQuery:
    """What the query solved: the points still needed and its size."""

    need: int
    work: int
    options: list[TargetOption]


def most_points(spec: SolverSpec) -> int:
    """The most a whole game can score: every box at its best, the upper bonus and (Yahtzee)
    an extra bonus with every box."""
    box_max = spec.score.max(axis=1)
    if spec.mode == MODE_YAHTZEE:
        box_max = np.maximum(box_max, spec.yahtzee[1].max(axis=(0, 1)))
    return int(box_max.sum()) + spec.bonus[2] + int(spec.yahtzee[3]) * (spec.n_cat - 1)


def _masks(spec: SolverSpec, mask: int, limit: int) -> int:
    """How many cards the game can reach from ``mask`` (itself included), counted to limit + 1."""
    seen, frontier = {mask}, [mask]
    while frontier and len(seen) <= limit:
        m = frontier.pop()
        opn = int(spec.open_bits[m])
        for c in range(spec.n_cat):
            if opn >> c & 1 and m | 1 << c not in seen:
                seen.add(m | 1 << c)
                frontier.append(m | 1 << c)
    return len(seen)


@lru_cache(maxsize=64)
def size(spec: SolverSpec, mask: int, aux: int, upper: int) -> int | None:
    """The end game's states × columns from this turn-start state, or None when its cards
    alone are past ``TARGET_MASKS`` (too big to count quickly). Kept for the last positions
    asked: a query is checked before its table is loaded and again as it is solved."""
    if _masks(spec, mask, TARGET_MASKS) > TARGET_MASKS:
        return None
    return work(spec, mask, aux, upper)


@cache
def open_allowed(spec: SolverSpec) -> int:
    """Open boxes a position may typically have: the most k with the card's last k boxes open
    (nothing else scored, upper total 0) within the limits."""
    best = 0
    for k in range(1, spec.n_cat + 1):
        mask = spec.full_mask & ~(((1 << k) - 1) << (spec.n_cat - k))
        work = size(spec, mask, 0, 0)
        if work is None or work > TARGET_WORK:
            break
        best = k
    return best


def check_target_rules(rs: Ruleset) -> None:
    """Refuse the saved-roll games (their bank is not in the end game's states), before any work.

    :raises InvalidActionError: Maxi or Osto with saved rolls.
    """
    if rs.saved_rolls:
        raise InvalidActionError(_("playing to a target is not worked out for games with saved rolls "
                                   "({rules})").format(rules=rs.name))


def check_target(rs: Ruleset, target: object) -> int:
    """A target a player typed (the TUI's dialog, the page's coach): a whole number from 0 to
    the most a game of ``rs`` can score, checked before any work.

    :raises InvalidActionError: saved-roll games, or anything else (in words, with the range).
    """
    check_target_rules(rs)
    most = most_points(SolverSpec(rs, 0))
    text = target.strip() if isinstance(target, str) else target
    if isinstance(text, str) and text.isdigit():
        text = int(text)
    if not isinstance(text, int) or isinstance(text, bool) or not 0 <= text <= most:
        raise InvalidActionError(_("a target is a whole number of points from 0 to {most} in {rules} (the "
                                   "most a game can score), not {target}").format(
                                       most=most, rules=rs.name, target=target))
    return text


def check_target_position(spec: SolverSpec, mask: int, aux: int, upper: int) -> int:
    """The query's size if it is within the limits.

    :raises InvalidActionError: saved-roll games, or an end game too big (in words: what it
        would take and what is allowed).
    """
    rs = spec.ruleset
    check_target_rules(rs)
    work = size(spec, mask, aux, upper)
    if work is None or work > TARGET_WORK:
        n_open = spec.n_cat - mask.bit_count()
        allowed = open_allowed(spec)
        took = (_("reaches more than {n} cards").format(n=number(TARGET_MASKS)) if work is None
                else _("has {n} states × points").format(n=number(work)))
        raise InvalidActionError(
            ngettext("the chance of reaching a target is worked out exactly near the end of the game: "
                     "this position has {open} boxes open and the rest of its game {took}, where at most "
                     "{limit} states × points are allowed; in {rules} that is about {n} open box or fewer",
                     "the chance of reaching a target is worked out exactly near the end of the game: "
                     "this position has {open} boxes open and the rest of its game {took}, where at most "
                     "{limit} states × points are allowed; in {rules} that is about {n} open boxes or fewer",
                     allowed).format(open=n_open, took=took, limit=number(TARGET_WORK), rules=rs.name,
                                     n=allowed))
    return work


def target_endgame(spec: SolverSpec, mask: int, aux: int, upper: int, need: int) -> Endgame:
    """The end game from a turn-start state for the chance of gaining ``need`` points or more
    (unchecked: :func:`check_target_position` first)."""
    open_list = np.array([c for c in range(spec.n_cat) if not mask >> c & 1], dtype=np.int64)
    top = width_of(spec, open_list) + spec.bonus[2]
    return solve_endgame(spec, mask, aux, upper, (np.arange(top + 1) >= need).astype(np.float64))


def target_options(coach: Coach, pos: Position, need: int) -> TargetQuery:
    """Every option of ``pos`` with its exact chance of gaining at least ``need`` more points
    (the upper bonus included) under the play that maximises that chance; best first, ties
    in the coach's order (by expected score).

    :raises InvalidActionError: as :func:`check_target_position`.
    """
    spec = coach.spec
    ids = coach.ids
    mask = sum(1 << ids.index(c) for c in pos.filled)
    upper = min(pos.upper, spec.bonus[1])
    query_size = check_target_position(spec, mask, pos.aux, upper)
    end = target_endgame(spec, mask, pos.aux, upper, need)
    ycat, keep_index = spec.yahtzee[0], spec.keeps[1]
    extra = 0
    if (spec.mode == MODE_YAHTZEE and mask >> ycat & 1 and pos.aux == 1 and len(set(pos.dice)) == 1):
        extra = int(spec.yahtzee[3])
    out = []
    for o in coach.options(pos):
        a = o.action
        if isinstance(a, Roll) or o.points is None:
            assert isinstance(a, Roll)
            chance = float(end.EX[pos.rolls_left - 1, keep_index[tuple(sorted(a.keep))], 0])
        else:
            c = ids.index(a.category)
            a2, u2 = after_box(spec, pos.aux, upper, c, o.points - extra)
            chance = end.after(mask | 1 << c, a2, u2, o.points)
        out.append(TargetOption(o, chance))
    out.sort(key=lambda t: -t.chance)  # stable: ties keep the coach's order
    return TargetQuery(need, query_size, out)


def game_target(coach: Coach, game: Game, target: int) -> TargetQuery:
    """The current player's options in a running game ranked by the chance of ending with
    ``target`` or more (their total so far counted, an upper bonus already earned once).

    :raises InvalidActionError: as :func:`check_target_position`.
    """
    pos = coach.position_of(game)
    points = game.total(game.state.current)
    _upper_boxes, threshold, bonus = coach.spec.bonus
    if pos.upper >= threshold:
        points -= bonus  # earned, and counted again by the end game when it ends at the threshold
    return target_options(coach, pos, max(0, target - points))
