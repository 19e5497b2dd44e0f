"""Playing to win: the option with the highest chance of finishing first, given every card.

Each opponent's final score is a normal from their state (their points so far plus the
mean and variance of what optimal play still brings them: :mod:`.moments`), or exactly their
total once their card is full. That gives util(x), the worth of ending with x points: the
chance that x beats every opponent, a tie for first counting half (as a duel counts a draw).

- With few boxes left to fill (the end game's states times columns within ``EXACT_WORK``),
  the turn is played exactly for util over every state the position reaches
  (:mod:`.endgame`): at the very end, against finished opponents, that is the exact chance
  of winning.
- Before, each option's own final score is a normal too (its mean and E[R²] under optimal
  play after it) and the option with the highest E[util] is taken.

Ties between options (a lost or won game, every option alike) go to the higher expected
score, so a settled game is played as the optimal bot plays it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..actions import Action, Roll, Score
from ..game import Game
from ..rulesets.yahtzee import YahtzeeRuleset
from .endgame import Endgame, after_box, solve_endgame, work
from .kernel import MODE_YAHTZEE
from .moments import second_moments, turn_moments
from .playout import read_only
from .solve import Solution

EXACT_WORK = 20_000
"""Largest end game (states × columns) played exactly, once a turn: about 4 µs of one core a
unit, 0.08 s at the limit (docs/performance.md)."""
EXACT_BOXES = 5
"""Most open boxes an end game is even counted for."""
SETTLED = 1e-9
"""Chances of winning closer than this are alike; the expected score decides."""
Prepared = tuple[np.ndarray, Endgame | None, np.ndarray, np.ndarray]
"""A turn's util, its end game (or None), its keeps' values and E[R²] (levels × keeps)."""


@njit(cache=True, nogil=True)
def _cdf(z):  # noqa: ANN001, ANN201
    out = np.empty(z.shape[0], dtype=np.float64)
    for i in range(z.shape[0]):
        out[i] = 0.5 * math.erfc(-z[i] / math.sqrt(2.0))
    return out


def below(mean: float, var: float, top: int) -> tuple[np.ndarray, np.ndarray]:
    """(P(Y < x), P(Y <= x)) for x = 0..top, Y an integer score: a normal rounded, or a point."""
    x = np.arange(top + 1, dtype=np.float64)
    if var < 1e-6:
        point = round(mean)
        return (x > point).astype(np.float64), (x >= point).astype(np.float64)
    sd = math.sqrt(var)
    return _cdf((x - 0.5 - mean) / sd), _cdf((x + 0.5 - mean) / sd)


def win_utility(opponents: list[tuple[float, float]], top: int) -> np.ndarray:
    """util[x]: the chance that a final score x is first (a shared first place counts half)
    against opponents whose finals have these (mean, variance)."""
    lt, le = np.ones(top + 1), np.ones(top + 1)
    for mean, var in opponents:
        a, b = below(mean, var, top)
        lt, le = lt * a, le * b
    return lt + 0.5 * (le - lt)


def expected_utility(util: np.ndarray, means: np.ndarray, vars_: np.ndarray) -> np.ndarray:
    """E[util(X)] for each X ~ a normal (mean, variance) rounded to whole points."""
    top = len(util) - 1
    x = np.arange(top + 1, dtype=np.float64)
    out = np.empty(len(means))
    for i, (mu, var) in enumerate(zip(means, vars_, strict=True)):
        if var < 1e-6:
            out[i] = util[min(max(round(mu), 0), top)]
            continue
        sd = math.sqrt(var)
        mass = _cdf((x + 0.5 - mu) / sd) - _cdf((x - 0.5 - mu) / sd)
        mass[-1] += 1.0 - _cdf(np.array([(top + 0.5 - mu) / sd]))[0]
        out[i] = float(mass @ util)
    return out


@dataclass(frozen=True)
class SeatState:
    """One player's state at the start of a turn, in the solver's terms."""

    mask: int
    aux: int
    upper: int
    points: int
    """Points so far but the upper bonus (which the tables count as still to come)."""
    full: bool


class WinPlanner:
    """Chooses moves for the current player to win, from the value and moment tables."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self.spec = solution.spec
        self.V = read_only(solution.values)
        self.W = read_only(second_moments(solution))
        self.ids = list(self.spec.ruleset.category_ids)
        extra = int(self.spec.yahtzee[3]) * self.spec.n_cat
        self.top = int(self.spec.score.max(axis=1).sum()) + self.spec.bonus[2] + extra + 1
        self._turn: tuple[object, ...] | None = None
        self._cached: Prepared | None = None

    def seat(self, game: Game, i: int) -> SeatState:
        rs, p = game.ruleset, game.state.players[i]
        is_upper, cap, _ = self.spec.bonus
        mask = sum(1 << self.ids.index(c) for c in p.card)
        upper = min(cap, sum(v for c, v in p.card.items() if is_upper[self.ids.index(c)]))
        aux = 0
        if self.spec.mode == MODE_YAHTZEE and isinstance(rs, YahtzeeRuleset):
            aux = 1 if p.card.get(rs.yahtzee_box) == rs.by_id[rs.yahtzee_box].max else 0
        return SeatState(mask, aux, upper, sum(p.card.values()) + p.extra, len(p.card) == rs.turns)

    def final(self, s: SeatState, game: Game, i: int) -> tuple[float, float]:
        """(mean, variance) of a seat's final score from the start of its turn."""
        if s.full:
            return float(game.total(i)), 0.0
        v, w = float(self.V[s.mask, s.aux, s.upper]), float(self.W[s.mask, s.aux, s.upper])
        return s.points + v, max(0.0, w - v * v)

    def _prepare(self, game: Game, me: SeatState) -> Prepared:
        """Once a turn: util, the exact end game (if small), the keeps' moments."""
        others = [self.final(self.seat(game, i), game, i)
                  for i in range(len(game.state.players)) if i != game.state.current]
        key = (me, tuple(others))
        if self._turn == key and self._cached is not None:
            return self._cached
        util = win_utility(others, self.top)
        spec, k = self.spec, self.spec.kernel_args
        end = None
        if (spec.n_cat - me.mask.bit_count() <= EXACT_BOXES
                and work(spec, me.mask, me.aux, me.upper) <= EXACT_WORK):
            end = solve_endgame(spec, me.mask, me.aux, me.upper, util[me.points:])
        levels = max(k.rolls - 1, 1)
        EX = np.empty((levels, k.child.shape[0], 1), dtype=np.float32)
        EX2 = np.empty((levels, k.child.shape[0], 1), dtype=np.float64)
        turn_moments(me.mask, me.aux, np.array([me.upper]), self.V, self.W, k.score, k.is_upper,
                     k.open_bits, k.cap, k.n, k.child, k.start, k.mode, k.ycat, k.jok, k.five_face,
                     float(k.extra_bonus), k.rolls, k.must_keep_one, k.sub_ptr, k.sub_idx,
                     k.roll_prob, EX, EX2)
        self._turn, self._cached = key, (util, end, EX[:, :, 0], EX2[:, :, 0])
        return self._cached

    def choose(self, game: Game) -> Action:
        """The current player's move with the best chance of winning (dice on the table)."""
        dice = game.state.dice
        assert dice is not None
        spec, rs = self.spec, game.ruleset
        me = self.seat(game, game.state.current)
        util, end, EX, EX2 = self._prepare(game, me)
        index = spec.keeps[1]
        actions: list[Action] = []
        means, m2s, exact = [], [], []
        left = game.rolls_left
        for keep in game.legal_keeps():
            kk = index[tuple(sorted(keep))]
            actions.append(Roll(keep))
            means.append(float(EX[left - 1, kk]))
            m2s.append(float(EX2[left - 1, kk]))
            if end is not None:
                exact.append(float(end.EX[left - 1, kk, 0]))
        card = game.player.card
        extra = rs.extra_points(card, dice)
        for cid, pts in game.score_options().items():
            c = self.ids.index(cid)
            a2, u2 = after_box(spec, me.aux, me.upper, c, pts)
            m2 = me.mask | 1 << c
            v, w = float(self.V[m2, a2, u2]), float(self.W[m2, a2, u2])
            shift = pts + extra
            actions.append(Score(cid))
            means.append(shift + v)
            m2s.append(shift * shift + 2 * shift * v + w)
            if end is not None:
                exact.append(end.after(m2, a2, u2, shift))
        mean = np.array(means)
        if end is not None:
            chance = np.array(exact)
        else:
            chance = expected_utility(util, me.points + mean, np.maximum(0.0, np.array(m2s) - mean**2))
        best = max(range(len(actions)), key=lambda i: (round(float(chance[i]) / SETTLED), float(mean[i])))
        return actions[best]
