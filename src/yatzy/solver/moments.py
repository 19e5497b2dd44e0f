"""The spread of the points still to come under optimal (expected-score) play: for every
state at the start of a turn, E[R²] of the remaining points R (the value table holds E[R]).

Built backward card by card in the solver's sweep (fullest cards first, a layer's cards in
parallel), each turn played by the simulator's own choices (:mod:`.dist_kernel`'s scoring
rows and first-best keeps) with the second moment carried beside the value: a keep's E[R²]
is the mean of its children's, exactly as its value is (:func:`.kernel.expect`), and a roll
scored in a box gives (points)² + 2·points·E[R'] + E[R'²] of the state after. The table is
cached beside the value table and memory-mapped; :func:`turn_moments` also gives one
position's keeps their mean and second moment, which the win bot weighs.

Saved-roll games (Maxi, Osto) are not covered: their turns carry the bank.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
from numba import njit, prange

from ..errors import InvalidActionError
from .dist_kernel import _first_best_keeps, _score_rows
from .kernel import MODE_BANK, MODE_YAHTZEE, expect
from .solve import Progress, Solution, cache_dir, save_array, table_key


@njit(cache=True, nogil=True)
def turn_moments(m, a, us, V, W, score, is_upper, open_bits, cap, n, child, start, mode, ycat,
                 jok, five_face, extra_bonus, rolls, must_keep_one, sub_ptr, sub_idx, roll_prob,
                 EX, EX2):  # noqa: ANN001, ANN201
    """One turn from card m, aux a, at each upper total us[i], played for expected score.

    Fills EX[j, k, i] and EX2[j, k, i] (the value and E[R²] of keep k with j rolls left after
    the roll it makes, j < rolls - 1) and returns the turn's E[R²] at each us[i].
    """
    NR, NK, nu = score.shape[1], child.shape[0], us.shape[0]
    full0 = start[n]
    S = np.empty((NR, nu), dtype=np.float32)
    CB = np.empty((NR, nu), dtype=np.int32)
    _score_rows(S, CB, 0, m, a, us, V, score, is_upper, open_bits, cap, mode, ycat, jok,
                five_face, extra_bonus, 0)
    Q = np.empty((NR, nu), dtype=np.float64)
    yfilled = mode == MODE_YAHTZEE and (m >> ycat) & 1 == 1
    for r in range(NR):
        joker = yfilled and five_face[r] > 0
        for i in range(nu):
            c = CB[r, i]
            pts = jok[m, five_face[r] - 1, c] if joker else score[c, r]
            a2 = a
            if mode == MODE_YAHTZEE and c == ycat:
                a2 = 1 if pts > 0 else 0
            elif mode != MODE_YAHTZEE:
                a2 = 0
            u2 = min(us[i] + pts, cap) if is_upper[c] else us[i]
            shift = np.float64(pts) + (extra_bonus if joker and a == 1 else 0.0)
            nm = m | (1 << c)
            Q[r, i] = shift * shift + 2.0 * shift * V[nm, a2, u2] + W[nm, a2, u2]
    L = S.copy()
    L2 = Q.copy()
    X = np.empty((NK, nu), dtype=np.float32)
    X2 = np.empty((NK, nu), dtype=np.float64)
    YB = np.empty((NK, nu), dtype=np.float32)
    IB = np.empty((NK, nu), dtype=np.int32)
    for j in range(rolls - 1):
        X[full0:] = L
        X2[full0:] = L2
        expect(X, child, start, n, nu)
        expect(X2, child, start, n, nu)
        EX[j] = X
        EX2[j] = X2
        _first_best_keeps(YB, IB, X, sub_ptr, sub_idx, must_keep_one)
        for r in range(NR):
            for i in range(nu):
                best = YB[full0 + r, i]
                if best > S[r, i]:
                    L[r, i] = best
                    L2[r, i] = X2[IB[full0 + r, i], i]
                else:
                    L[r, i] = S[r, i]
                    L2[r, i] = Q[r, i]
    out = np.zeros(nu, dtype=np.float64)
    for r in range(NR):
        for i in range(nu):
            out[i] += roll_prob[r] * L2[r, i]
    return out


@njit(cache=True, nogil=True, parallel=True)
def moments_layer(masks, V, W, umax, n_aux, score, is_upper, open_bits, cap, n, child, start,
                  mode, ycat, jok, five_face, extra_bonus, rolls, must_keep_one, sub_ptr, sub_idx,
                  roll_prob):  # noqa: ANN001, ANN201
    """W of every card of one layer (same number of boxes filled), cards in parallel."""
    NK = child.shape[0]
    levels = max(rolls - 1, 1)
    for t in prange(masks.shape[0]):
        m = masks[t]
        us = np.arange(umax[m] + 1)
        EX = np.empty((levels, NK, us.shape[0]), dtype=np.float32)
        EX2 = np.empty((levels, NK, us.shape[0]), dtype=np.float64)
        auxes = n_aux if mode != MODE_YAHTZEE or (m >> ycat) & 1 == 1 else 1
        for a in range(auxes):
            w = turn_moments(m, a, us, V, W, score, is_upper, open_bits, cap, n, child, start,
                             mode, ycat, jok, five_face, extra_bonus, rolls, must_keep_one,
                             sub_ptr, sub_idx, roll_prob, EX, EX2)
            for i in range(us.shape[0]):
                W[m, a, i] = w[i]


def covers(solution: Solution) -> bool:
    """Whether the moments cover this ruleset (all but the saved-roll games)."""
    return solution.spec.mode != MODE_BANK


def _key(solution: Solution) -> str:
    h = hashlib.sha256(table_key(solution.spec).encode())
    here = Path(__file__).parent
    for name in ("moments.py", "dist_kernel.py"):
        h.update((here / name).read_bytes())
    return f"{solution.spec.ruleset.name}-moments-{h.hexdigest()[:16]}"


def build(solution: Solution, progress: Progress | None = None) -> np.ndarray:
    """E[R²] of every state at a turn's start (float64, shaped as the value table); each
    layer done is told to ``progress`` as (cards done, cards in all), as the solver does."""
    spec = solution.spec
    if not covers(solution):
        raise InvalidActionError(f"the score's spread is not computed for {spec.ruleset.name}")
    _, cap, bonus = spec.bonus
    V = np.ascontiguousarray(solution.values)
    W = np.zeros(V.shape, dtype=np.float64)
    W[spec.full_mask, :, cap] = float(bonus) ** 2
    k = spec.kernel_args
    masks = spec.reachable_masks
    pop = np.array([bin(int(m)).count("1") for m in masks])
    done, total = 0, int((pop < spec.n_cat).sum())  # the full card has nothing to come
    for filled in range(spec.n_cat - 1, -1, -1):
        layer = masks[pop == filled].astype(np.int64)
        if progress is not None:
            progress(done, total)
        done += len(layer)
        moments_layer(layer, V, W, spec.umax, spec.n_aux, k.score, k.is_upper, k.open_bits, k.cap,
                      k.n, k.child, k.start, k.mode, k.ycat, k.jok, k.five_face,
                      float(k.extra_bonus), k.rolls, k.must_keep_one, k.sub_ptr, k.sub_idx,
                      k.roll_prob)
    if progress is not None:
        progress(done, total)
    return W


def second_moments(solution: Solution, use_cache: bool = True,
                   progress: Progress | None = None) -> np.ndarray:
    """The E[R²] table of ``solution``, from the cache (memory-mapped) or built (its layers
    told to ``progress``) and kept."""
    path = cache_dir() / f"{_key(solution)}.npy"
    if use_cache and path.exists():
        return np.load(path, mmap_mode="r")
    W = build(solution, progress)
    if use_cache:
        save_array(path, W)
    return W
