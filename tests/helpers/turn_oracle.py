"""The simulator's turn as it was before the coach's :func:`yatzy.solver.packed.lean_turn`
replaced it: plain loops on the solver's 2-D tables, kept as the oracle that turn (flat,
branchless) must equal value for value."""

from __future__ import annotations

import numpy as np
from numba import njit

from yatzy.solver.kernel import FAST, MODE_BANK, MODE_YAHTZEE, NEG


@njit(cache=True, nogil=True, fastmath=FAST)
def score_rolls(Srow, m, a, u, V, score, is_upper, open_bits, cap, mode, ycat, jok, five_face,
                extra_bonus, next_aux):  # noqa: ANN001, ANN201
    """Srow[r]: best value of scoring roll r now from (m, a, u), one box at a time."""
    C, NR = score.shape
    for r in range(NR):
        Srow[r] = NEG
    opn = open_bits[m]
    a_keep = a if mode == MODE_YAHTZEE else next_aux
    for c in range(C):
        if (opn >> c) & 1 == 0:
            continue
        nm = m | (1 << c)
        pts_c = score[c]
        if is_upper[c]:
            row = V[nm, a_keep]
            for r in range(NR):
                p = pts_c[r]
                v = np.float32(p) + row[min(u + p, cap)]
                Srow[r] = max(Srow[r], v)
        elif mode == MODE_YAHTZEE and c == ycat:
            v0, v1 = V[nm, 0, u], V[nm, 1, u]
            for r in range(NR):
                p = pts_c[r]
                v = np.float32(p) + (v1 if p > 0 else v0)
                Srow[r] = max(Srow[r], v)
        else:
            base = V[nm, a_keep, u]
            for r in range(NR):
                Srow[r] = max(Srow[r], np.float32(pts_c[r]) + base)
    if mode == MODE_YAHTZEE and (m >> ycat) & 1 == 1:
        bonus = np.float32(extra_bonus if a == 1 else 0.0)
        for r in range(NR):
            if five_face[r] == 0:
                continue
            best = NEG
            for c in range(C):
                p = jok[m, five_face[r] - 1, c]
                if p >= 0:
                    u2 = min(u + p, cap) if is_upper[c] else u
                    best = max(best, np.float32(p) + bonus + V[m | (1 << c), a, u2])
            Srow[r] = best


@njit(cache=True, nogil=True, fastmath=FAST)
def _expect(X, child, full0):  # noqa: ANN001, ANN201
    """X[k] for every keep smaller than a roll: the mean over one more die.

    kernel.expect for a single upper total; calling that one with U=1 makes the
    simulator about 15% slower (measured), so the turn keeps this flat copy.
    """
    six = np.float32(6.0)
    for k in range(full0 - 1, -1, -1):
        X[k] = (X[child[k, 0]] + X[child[k, 1]] + X[child[k, 2]] + X[child[k, 3]]
                + X[child[k, 4]] + X[child[k, 5]]) / six


@njit(cache=True, nogil=True, fastmath=FAST)
def lean_turn(m, a, u, left, V, score, is_upper, open_bits, cap, n, child, start, mode, ycat,
              jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr, sub_idx, pos_ptr,
              pos_cat, roll_prob, S, EX, Y):  # noqa: ANN001, ANN201
    """Fill S[0..left] (score roll r with j rolls left) and EX[0..left-1] (keep k, j left after).

    Same values as the solver's turn, but only the levels this turn can reach.
    """
    full0 = start[n]
    NR = score.shape[1]
    for j in range(left + 1):  # one call site: a literal 0 would compile a second version
        if j == 0 or (mode == MODE_BANK and j <= bank_cap):
            score_rolls(S[j], m, a, u, V, score, is_upper, open_bits, cap, mode, ycat, jok,
                        five_face, extra_bonus, j)
        else:
            S[j, :] = S[j - 1, :]
    if left == 0:
        return
    X = EX[0]
    X[full0:] = S[0]
    _expect(X, child, full0)
    for j in range(1, left):
        # the best of scoring, keeping all, or any smaller keep, smallest keeps first
        # (kernel.best_keeps for one upper total, flat for speed like _expect)
        Y[:] = EX[j - 1]
        for r in range(NR):
            Y[full0 + r] = max(S[j, r], EX[j - 1, full0 + r])
        if must_keep_one:
            Y[0] = NEG
        for k in range(1, Y.shape[0]):
            best = Y[k]
            for i in range(sub_ptr[k], sub_ptr[k + 1]):
                best = max(best, Y[sub_idx[i]])
            Y[k] = best
        X = EX[j]
        X[full0:] = Y[full0:]
        _expect(X, child, full0)
