"""Numba kernels of the exact solver: one turn's expectimax, vectorized over upper totals.

A state is (filled mask, aux, u): ``aux`` is the bank of saved rolls (Maxi, Osto) or
whether the Yahtzee box holds 50 (Yahtzee); ``u`` is the upper total capped at the bonus
threshold. For one mask the whole turn is solved for every aux and u at once, the inner
loops running over u so they vectorize.

Only the upper totals that can differ are solved: from ``ulo[m]`` (below it the open upper
boxes cannot reach the threshold any more, so the bonus is lost whatever u is and every
such u has the same value: ``ulo[m]`` is the highest of them) to ``umax[m]`` (the most the
filled upper boxes can hold). The hopeless ones below are copies of ``ulo[m]``'s, bit for
bit what solving each would give: Maxi solves 36 upper totals a card instead of 60.

A layer of cards (the same number of boxes filled) reads only the values of the layer after
it: each is an array of its own, a card's row in it given by ``slot``, so a build holds two
layers and not the whole table (:mod:`.solve` writes a big table to its file a layer at a time).

Within a turn, keeps are sorted multisets indexed by size. With ``L`` the values of full
rolls one level down, the expected value of a keep is the average over one more die
(``child``), and the best keep reachable from a roll is a max over one-die removals
(``sub_idx``) — both a few thousand vector operations per level. The turn's value is the
first roll's values weighted by their chances (``roll_prob``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

MODE_PLAIN, MODE_YAHTZEE, MODE_BANK = 0, 1, 2
NEG = np.float32(-1e30)
# No "arcp"/"reassoc": a float32 reciprocal of 6 would bias every expectation a little.
FAST = {"nnan", "ninf", "nsz", "contract"}


@njit(cache=True, nogil=True, fastmath=FAST)
def expect(X, child, start, n, U):  # noqa: ANN001, ANN201
    """Fill X[k] for keeps smaller than n with the mean over one more die."""
    six = np.float32(6.0)
    for s in range(n - 1, -1, -1):
        for k in range(start[s], start[s + 1]):
            c0, c1, c2 = child[k, 0], child[k, 1], child[k, 2]
            c3, c4, c5 = child[k, 3], child[k, 4], child[k, 5]
            for u in range(U):
                X[k, u] = (X[c0, u] + X[c1, u] + X[c2, u] + X[c3, u] + X[c4, u] + X[c5, u]) / six


@njit(cache=True, nogil=True, fastmath=FAST)
def best_keeps(X, sub_ptr, sub_idx, U, must_keep_one):  # noqa: ANN001, ANN201
    """In place: X[k] becomes the best of X over every sub-multiset of keep k (k included).

    Keeps are sorted by size, so each keep's one-die removals are final before it.
    """
    if must_keep_one:
        for u in range(U):
            X[0, u] = NEG
    for k in range(1, X.shape[0]):
        for i in range(sub_ptr[k], sub_ptr[k + 1]):
            j = sub_idx[i]
            for u in range(U):
                X[k, u] = max(X[k, u], X[j, u])


@njit(cache=True, nogil=True, fastmath=FAST)
def score_step(S, Z, R, m, a, V, slot, score, is_upper, open_bits, cap, lo, W, mode, ycat, jok,
               five_face, extra_bonus, next_aux, pos_ptr, pos_cat):  # noqa: ANN001, ANN201
    """S[r, t]: best value of scoring roll r now, from (m, a, u = lo + t), next state's aux next_aux;
    ``V`` holds the values of the next layer's cards, card m' in row ``slot[m']``.

    Filling a box with 0 is worth that box's row of V whatever the roll, so the best zero
    (Z) is computed once and each roll only visits the boxes where it scores points
    (pos_cat); a box where it scores is worth at least its zero, so Z never overstates.
    Each open box's row is copied once into ``R`` (scratch, a row a box) and the rolls read it
    there, two-dimensional, with the loops written out: half the time of finding the row in V
    again for every roll (this step is most of a card's work). The rare offers (a joker, the
    Yahtzee box's 50) go through :func:`_offer`; the common one repeats its loops on purpose:
    through ``_offer`` on ``R`` too, a whole Yatzy build took 1.3 times as long.
    """
    C, NR = score.shape
    opn = open_bits[m]
    for t in range(W):
        Z[t] = NEG
    for c in range(C):
        if (opn >> c) & 1:
            a2 = (0 if c == ycat else a) if mode == MODE_YAHTZEE else next_aux
            row = V[slot[m | (1 << c)], a2]
            for u in range(cap + 1):
                R[c, u] = row[u]
            for t in range(W):
                Z[t] = max(Z[t], row[lo + t])
    yfilled = mode == MODE_YAHTZEE and (m >> ycat) & 1 == 1
    for r in range(NR):
        if yfilled and five_face[r] > 0:  # a joker: any open box it may fill, at its joker points
            for t in range(W):
                S[r, t] = NEG
            bonus = np.float32(extra_bonus if a == 1 else 0.0)
            for c in range(C):
                pts = jok[m, five_face[r] - 1, c]
                if pts >= 0:
                    _offer(S[r], np.float32(pts) + bonus, V[slot[m | (1 << c)], a], pts,
                           is_upper[c], cap, lo, W)
            continue
        Srow = S[r]
        for t in range(W):
            Srow[t] = Z[t]
        for i in range(pos_ptr[r], pos_ptr[r + 1]):
            c = pos_cat[i]
            if (opn >> c) & 1 == 0:
                continue
            pts = score[c, r]
            base = np.float32(pts)
            if mode == MODE_YAHTZEE and c == ycat:  # the 50 scored: the box's row with aux 1, not R's
                row = V[slot[m | (1 << c)], 1]
                for t in range(W):
                    Srow[t] = max(Srow[t], base + row[lo + t])
                continue
            if is_upper[c]:
                lim = min(max(cap - pts - lo, 0), W)
                off = lo + pts
                for t in range(lim):
                    Srow[t] = max(Srow[t], base + R[c, off + t])
                top = base + R[c, cap]
                for t in range(lim, W):
                    Srow[t] = max(Srow[t], top)
            else:
                for t in range(W):
                    Srow[t] = max(Srow[t], base + R[c, lo + t])


@njit(cache=True, nogil=True, fastmath=FAST, inline="always")
def _offer(Srow, base, row, pts, upper, cap, lo, W):  # noqa: ANN001, ANN201
    """Srow[t] = max(Srow[t], base + value after the box at u = lo + t), the upper total moving by pts."""
    if upper:
        lim = min(max(cap - pts - lo, 0), W)
        for t in range(lim):
            Srow[t] = max(Srow[t], base + row[lo + t + pts])
        top = base + row[cap]
        for t in range(lim, W):
            Srow[t] = max(Srow[t], top)
    else:
        for t in range(W):
            Srow[t] = max(Srow[t], base + row[lo + t])


@njit(cache=True, nogil=True, fastmath=FAST)
def solve_mask(m, out, V, slot, score, is_upper, open_bits, cap, n, child, start, mode,
               ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr, sub_idx,
               pos_ptr, pos_cat, roll_prob, umax, ulo):  # noqa: ANN001, ANN201
    """Solve every (aux, u) of card m into ``out[slot[m]]`` from the values of the next layer's
    cards (``V``, by ``slot`` too): u from ulo[m] to umax[m] solved, below ulo[m] copied (the
    module's docstring)."""
    NK = child.shape[0]
    NR = score.shape[1]
    lo = ulo[m]
    W = umax[m] + 1 - lo
    here = out[slot[m]]
    full0 = start[n]
    X = np.empty((NK, W), dtype=np.float32)
    S = np.empty((NR, W), dtype=np.float32)
    L = np.empty((NR, W), dtype=np.float32)
    Z = np.empty(W, dtype=np.float32)
    R = np.empty((score.shape[0], cap + 1), dtype=np.float32)
    n_aux = 2 if mode == MODE_YAHTZEE else 1
    if mode == MODE_YAHTZEE and (m >> ycat) & 1 == 0:
        n_aux = 1
    levels = rolls - 1 + (bank_cap if mode == MODE_BANK else 0)
    for a in range(n_aux):
        next_aux = 0
        score_step(S, Z, R, m, a, V, slot, score, is_upper, open_bits, cap, lo, W, mode, ycat, jok, five_face,
                   extra_bonus, next_aux, pos_ptr, pos_cat)
        for r in range(NR):
            for t in range(W):
                L[r, t] = S[r, t]
        for j in range(1, levels + 1):
            for r in range(NR):
                for t in range(W):
                    X[full0 + r, t] = L[r, t]
            expect(X, child, start, n, W)
            if mode == MODE_BANK:
                if j - 1 >= rolls - 1:
                    b = j - 1 - (rolls - 1)
                    for t in range(W):
                        here[b, lo + t] = X[0, t]
                if j <= bank_cap:
                    score_step(S, Z, R, m, a, V, slot, score, is_upper, open_bits, cap, lo, W, mode, ycat,
                               jok, five_face, extra_bonus, j, pos_ptr, pos_cat)
            for r in range(NR):
                for t in range(W):
                    X[full0 + r, t] = max(S[r, t], L[r, t])
            best_keeps(X, sub_ptr, sub_idx, W, must_keep_one)
            for r in range(NR):
                for t in range(W):
                    L[r, t] = X[full0 + r, t]
        # the turn's value: the first roll's values weighted by their chances
        acc = np.zeros(W, dtype=np.float64)
        for r in range(NR):
            p = roll_prob[r]
            for t in range(W):
                acc[t] += p * L[r, t]
        b = bank_cap if mode == MODE_BANK else a
        for t in range(W):
            here[b, lo + t] = acc[t]
    # the hopeless totals below lo: lo's values (every aux this mask wrote)
    for b in range(here.shape[0]):
        for u in range(lo):
            here[b, u] = here[b, lo]


@njit(cache=True, nogil=True, parallel=True)
def solve_layer(masks, out, V, slot, score, is_upper, open_bits, cap, n, child, start, mode,
                ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr, sub_idx,
                pos_ptr, pos_cat, roll_prob, umax, ulo):  # noqa: ANN001, ANN201
    """Solve every card of one layer (the same number of boxes filled) in parallel, into ``out``
    from the next layer's values ``V`` (a card's row in either: ``slot``)."""
    for i in prange(masks.shape[0]):
        solve_mask(masks[i], out, V, slot, score, is_upper, open_bits, cap, n, child, start,
                   mode, ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr,
                   sub_idx, pos_ptr, pos_cat, roll_prob, umax, ulo)
