"""Exact play for a utility of the final score: with a few boxes open, the policy that
maximises E[util(final score)], and each option's value under it.

Winning is such a utility: util(x) is the chance that x beats (or ties, for half) every
opponent's final score; with util a step at t it is the chance of reaching t. A state is
(the open boxes still open, aux, capped upper total) and the points gained from here, g:
every state's turn is solved for all g at once (the columns), with the solver's own keep
kernels (:func:`.kernel.expect`, :func:`.kernel.best_keeps`) over g where the solver runs
over u. The states are only those the position can reach, fullest cards first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .distribution import box_points
from .kernel import MODE_YAHTZEE, NEG, best_keeps, expect
from .spec import SolverSpec


@njit(cache=True, nogil=True)
def _local(m, open_list):  # noqa: ANN001, ANN201
    """The card's filled boxes among the position's open ones, as bits of open_list."""
    out = 0
    for i in range(open_list.shape[0]):
        if (m >> open_list[i]) & 1:
            out |= 1 << i
    return out


@njit(cache=True, nogil=True)
def _turn(m, a, u, E, row_of, open_list, width, score, is_upper, open_bits, cap, n, child,
          start, mode, ycat, jok, five_face, extra_bonus, rolls, must_keep_one, sub_ptr, sub_idx,
          roll_prob, EX):  # noqa: ANN001, ANN201
    """The turn from (m, a, u) for every g < width: EX[j] (keep values, j rolls left after)
    and the turn's value at each g."""
    NR, C = score.shape[1], score.shape[0]
    full0 = start[n]
    S = np.empty((NR, width), dtype=np.float64)
    opn = open_bits[m]
    yfilled = mode == MODE_YAHTZEE and (m >> ycat) & 1 == 1
    for r in range(NR):
        for g in range(width):
            S[r, g] = NEG
        joker = yfilled and five_face[r] > 0
        for c in range(C):
            if (opn >> c) & 1 == 0:
                continue
            if joker:
                pts = jok[m, five_face[r] - 1, c]
                if pts < 0:
                    continue
            else:
                pts = score[c, r]
            a2 = a
            if mode == MODE_YAHTZEE and c == ycat:
                a2 = 1 if pts > 0 else 0
            elif mode != MODE_YAHTZEE:
                a2 = 0
            u2 = min(u + pts, cap) if is_upper[c] else u
            shift = pts + (int(extra_bonus) if joker and a == 1 else 0)
            row = E[row_of[_local(m | (1 << c), open_list), a2, u2]]
            Sr = S[r]
            for g in range(width):
                Sr[g] = max(Sr[g], row[min(g + shift, width - 1)])
    L = S.copy()
    X = np.empty((child.shape[0], width), dtype=np.float64)
    for j in range(rolls - 1):
        X[full0:] = L
        expect(X, child, start, n, width)
        EX[j] = X
        for r in range(NR):
            for g in range(width):
                X[full0 + r, g] = max(S[r, g], L[r, g])
        best_keeps(X, sub_ptr, sub_idx, width, must_keep_one)
        L[:] = X[full0:]
    out = np.zeros(width, dtype=np.float64)
    for r in range(NR):
        for g in range(width):
            out[g] += roll_prob[r] * L[r, g]
    return out


@njit(cache=True, nogil=True)
def _solve(root, order, states, E, row_of, open_list, width, score, is_upper, open_bits, cap, n,
           child, start, mode, ycat, jok, five_face, extra_bonus, rolls, must_keep_one, sub_ptr,
           sub_idx, roll_prob, EX):  # noqa: ANN001, ANN201
    """Every non-final state's row of E, fullest cards first; EX is left at the root's turn."""
    for t in range(order.shape[0]):
        s = order[t]
        local, a, u = states[s, 0], states[s, 1], states[s, 2]
        m = root
        for i in range(open_list.shape[0]):
            if (local >> i) & 1:
                m |= 1 << open_list[i]
        E[row_of[local, a, u]] = _turn(m, a, u, E, row_of, open_list, width, score, is_upper,
                                       open_bits, cap, n, child, start, mode, ycat, jok,
                                       five_face, extra_bonus, rolls, must_keep_one, sub_ptr,
                                       sub_idx, roll_prob, EX)


@dataclass(frozen=True)
class Endgame:
    """A solved end game: E[row, g] for each reachable state, and the root turn's keeps."""

    E: np.ndarray
    row_of: np.ndarray
    open_list: np.ndarray
    EX: np.ndarray
    """EX[j, k]: keep k with j rolls left after its roll, from the root, gaining nothing yet."""

    def after(self, mask: int, aux: int, upper: int, gained: int) -> float:
        """The value of the turn-start state (mask, aux, capped upper) having gained points."""
        local = int(_local(mask, self.open_list))
        row = self.row_of[local, aux, upper]
        return float(self.E[row, min(gained, self.E.shape[1] - 1)])


def reach(spec: SolverSpec, mask: int, aux: int, upper: int) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """The open boxes of ``mask`` and every state (local mask, aux, u) reachable from it."""
    is_upper, cap, _ = spec.bonus
    open_list = [c for c in range(spec.n_cat) if not mask >> c & 1]
    points = box_points(spec)
    values = [points.val[points.start[c]:points.start[c + 1]].tolist() for c in range(spec.n_cat)]
    ycat = spec.yahtzee[0]
    found: set[tuple[int, int, int]] = {(0, aux, upper)}
    frontier = [(0, aux, upper)]
    while frontier:
        local, a, u = frontier.pop()
        m = mask | sum(1 << open_list[i] for i in range(len(open_list)) if local >> i & 1)
        opn = int(spec.open_bits[m])
        for i, c in enumerate(open_list):
            if local >> i & 1 or not opn >> c & 1:
                continue
            for p in values[c]:
                u2 = min(u + p, cap) if is_upper[c] else u
                a2 = a if spec.mode == MODE_YAHTZEE else 0
                if spec.mode == MODE_YAHTZEE and c == ycat:
                    a2 = 1 if p > 0 else 0
                nxt = (local | 1 << i, a2, u2)
                if nxt not in found:
                    found.add(nxt)
                    frontier.append(nxt)
    return np.array(open_list, dtype=np.int64), sorted(found)


def width_of(spec: SolverSpec, open_list: np.ndarray) -> int:
    """Columns g: every point the open boxes (and extra Yahtzee bonuses) can still bring."""
    box_max = spec.score.max(axis=1)
    if spec.mode == MODE_YAHTZEE:
        box_max = np.maximum(box_max, spec.yahtzee[1].max(axis=(0, 1)))
    extra = int(spec.yahtzee[3]) * len(open_list)
    return int(box_max[open_list].sum()) + extra + 1


def solve_endgame(spec: SolverSpec, mask: int, aux: int, upper: int, util: np.ndarray) -> Endgame:
    """Exact play from the turn-start state (mask, aux, capped upper) for ``util``: util[g] is
    the worth of ending with g more points than now (upper bonus included)."""
    is_upper, cap, bonus = spec.bonus
    open_list, states = reach(spec, mask, aux, upper)
    width = width_of(spec, open_list)
    K = len(open_list)
    row_of = np.full((1 << K, spec.n_aux, cap + 1), -1, dtype=np.int64)
    for i, (local, a, u) in enumerate(states):
        row_of[local, a, u] = i
    E = np.zeros((len(states), width), dtype=np.float64)
    full = (1 << K) - 1
    g = np.arange(width)
    tail = np.full(width + bonus, util[-1])
    tail[: min(len(util), width + bonus)] = util[: width + bonus]
    for i, (local, _a, u) in enumerate(states):
        if local == full:
            E[i] = tail[g + (bonus if u == cap else 0)]
    arr = np.array(states, dtype=np.int64).reshape(-1, 3)
    pops = np.array([bin(s[0]).count("1") for s in states])
    # fullest first: the root (states[0], nothing filled yet) last, so EX is left at its turn
    order = np.array([i for i in np.argsort(-pops, kind="stable") if states[i][0] != full], dtype=np.int64)
    k = spec.kernel_args
    EX = np.zeros((max(k.rolls - 1, 1), k.child.shape[0], width), dtype=np.float64)
    _solve(mask, order, arr, E, row_of, open_list, width, k.score, k.is_upper, k.open_bits, k.cap,
           k.n, k.child, k.start, k.mode, k.ycat, k.jok, k.five_face, float(k.extra_bonus), k.rolls,
           k.must_keep_one, k.sub_ptr, k.sub_idx, k.roll_prob, EX)
    return Endgame(E, row_of, open_list, EX)


def after_box(spec: SolverSpec, aux: int, upper: int, c: int, pts: int) -> tuple[int, int]:
    """(aux, capped upper total) at the next turn's start once box ``c`` is filled for ``pts``
    (the box's own points, no extra bonus): Yahtzee's aux is whether its box holds 50."""
    is_upper, cap, _ = spec.bonus
    a2 = aux if spec.mode == MODE_YAHTZEE else 0
    if spec.mode == MODE_YAHTZEE and c == spec.yahtzee[0]:
        a2 = 1 if pts > 0 else 0
    return a2, min(upper + pts, cap) if is_upper[c] else upper


def work(spec: SolverSpec, mask: int, aux: int, upper: int) -> int:
    """How big the end game from this state is: its states times its columns."""
    open_list, states = reach(spec, mask, aux, upper)
    return len(states) * width_of(spec, open_list)
