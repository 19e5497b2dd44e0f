"""Numba kernels of the exact solver: one turn's expectimax, vectorized over upper totals.

A state is (filled mask, aux, u): ``aux`` is the bank of saved rolls (Maxi, Osto) or
whether the Yahtzee box holds 50 (Yahtzee); ``u`` is the upper total capped at the bonus
threshold. For one mask the whole turn is solved for every aux and u at once, the inner
loops running over u so they vectorize.

Within a turn, keeps are sorted multisets indexed by size. With ``L`` the values of full
rolls one level down, the expected value of a keep is the average over one more die
(``child``), and the best keep reachable from a roll is a max over one-die removals
(``sub``) — both a few thousand vector operations per level.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

MODE_PLAIN, MODE_YAHTZEE, MODE_BANK = 0, 1, 2
NEG = np.float32(-1e30)
# No "arcp"/"reassoc": a float32 reciprocal of 6 would bias every expectation a little.
FAST = {"nnan", "ninf", "nsz", "contract"}


@njit(cache=True, fastmath=FAST)
def expect(X, child, start, n, U):  # noqa: ANN001, ANN201
    """Fill X[k] for keeps smaller than n with the mean over one more die."""
    six = np.float32(6.0)
    for s in range(n - 1, -1, -1):
        for k in range(start[s], start[s + 1]):
            c0, c1, c2 = child[k, 0], child[k, 1], child[k, 2]
            c3, c4, c5 = child[k, 3], child[k, 4], child[k, 5]
            for u in range(U):
                X[k, u] = (X[c0, u] + X[c1, u] + X[c2, u] + X[c3, u] + X[c4, u] + X[c5, u]) / six


@njit(cache=True, fastmath=FAST)
def best_keeps(X, M, sub, start, n, U, must_keep_one):  # noqa: ANN001, ANN201
    """M[k] = best of X over every sub-multiset of keep k (k itself included)."""
    for s in range(0, n + 1):
        for k in range(start[s], start[s + 1]):
            if s == 0 and must_keep_one:
                for u in range(U):
                    M[k, u] = NEG
            else:
                for u in range(U):
                    M[k, u] = X[k, u]
            for f in range(6):
                j = sub[k, f]
                if j >= 0:
                    for u in range(U):
                        if M[j, u] > M[k, u]:
                            M[k, u] = M[j, u]


@njit(cache=True, fastmath=FAST)
def score_step(S, m, a, V, score, is_upper, open_bits, cap, U, mode, ycat, jok, five_face,
               extra_bonus, next_aux):  # noqa: ANN001, ANN201
    """S[r, u]: best value of scoring roll r now, from (m, a, u), next state's aux next_aux."""
    C, NR = score.shape
    opn = open_bits[m]
    for r in range(NR):
        for u in range(U):
            S[r, u] = NEG
        joker = mode == MODE_YAHTZEE and five_face[r] > 0 and (m >> ycat) & 1 == 1
        bonus = np.float32(extra_bonus if (joker and a == 1) else 0.0)
        for c in range(C):
            if joker:
                pts = jok[m, five_face[r] - 1, c]
                if pts < 0:
                    continue
            else:
                if (opn >> c) & 1 == 0:
                    continue
                pts = score[c, r]
            nm = m | (1 << c)
            a2 = next_aux
            if mode == MODE_YAHTZEE:
                a2 = a
                if c == ycat:
                    a2 = 1 if pts > 0 else 0
            base = np.float32(pts) + bonus
            row = V[nm, a2]
            if is_upper[c]:
                lim = cap - pts
                if lim > U:
                    lim = U
                if lim < 0:
                    lim = 0
                for u in range(lim):
                    v = base + row[u + pts]
                    if v > S[r, u]:
                        S[r, u] = v
                top = base + row[cap]
                for u in range(lim, U):
                    if top > S[r, u]:
                        S[r, u] = top
            else:
                for u in range(U):
                    v = base + row[u]
                    if v > S[r, u]:
                        S[r, u] = v


@njit(cache=True, fastmath=FAST)
def solve_mask(m, V, score, is_upper, open_bits, cap, n, child, sub, start, mode,
               ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, umax):  # noqa: ANN001, ANN201
    """Solve every (aux, u) of one mask from the values of the masks after it."""
    NK = child.shape[0]
    NR = score.shape[1]
    U = umax[m] + 1
    full0 = start[n]
    X = np.empty((NK, U), dtype=np.float32)
    M = np.empty((NK, U), dtype=np.float32)
    S = np.empty((NR, U), dtype=np.float32)
    L = np.empty((NR, U), dtype=np.float32)
    n_aux = 2 if mode == MODE_YAHTZEE else 1
    if mode == MODE_YAHTZEE and (m >> ycat) & 1 == 0:
        n_aux = 1
    levels = rolls - 1 + (bank_cap if mode == MODE_BANK else 0)
    for a in range(n_aux):
        next_aux = 0
        score_step(S, m, a, V, score, is_upper, open_bits, cap, U, mode, ycat, jok, five_face,
                   extra_bonus, next_aux)
        for r in range(NR):
            for u in range(U):
                L[r, u] = S[r, u]
        for j in range(1, levels + 1):
            for r in range(NR):
                for u in range(U):
                    X[full0 + r, u] = L[r, u]
            expect(X, child, start, n, U)
            if mode == MODE_BANK:
                if j - 1 >= rolls - 1:
                    b = j - 1 - (rolls - 1)
                    for u in range(U):
                        V[m, b, u] = X[0, u]
                if j <= bank_cap:
                    score_step(S, m, a, V, score, is_upper, open_bits, cap, U, mode, ycat, jok,
                               five_face, extra_bonus, j)
            for r in range(NR):
                for u in range(U):
                    X[full0 + r, u] = max(S[r, u], L[r, u])
            best_keeps(X, M, sub, start, n, U, must_keep_one)
            for r in range(NR):
                for u in range(U):
                    L[r, u] = M[full0 + r, u]
        for r in range(NR):
            for u in range(U):
                X[full0 + r, u] = L[r, u]
        expect(X, child, start, n, U)
        b = bank_cap if mode == MODE_BANK else a
        for u in range(U):
            V[m, b, u] = X[0, u]


@njit(cache=True, parallel=True)
def solve_layer(masks, V, score, is_upper, open_bits, cap, n, child, sub, start, mode,
                ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, umax):  # noqa: ANN001, ANN201
    """Solve every mask of one layer (same number of filled boxes) in parallel."""
    for i in prange(masks.shape[0]):
        solve_mask(masks[i], V, score, is_upper, open_bits, cap, n, child, sub, start,
                   mode, ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, umax)


@njit(cache=True, fastmath=FAST)
def _score_scalar(Srow, m, a, u, V, score, is_upper, cap, mode, ycat, jok, five_face, extra_bonus,
                  next_aux, cats, n_open):  # noqa: ANN001, ANN201
    """Srow[r]: best value of scoring roll r now from (m, a, u) — one upper total only."""
    NR = score.shape[1]
    yfilled = mode == MODE_YAHTZEE and (m >> ycat) & 1 == 1
    for r in range(NR):
        best = NEG
        joker = yfilled and five_face[r] > 0
        if joker:
            bonus = np.float32(extra_bonus if a == 1 else 0.0)
            for c in range(score.shape[0]):
                pts = jok[m, five_face[r] - 1, c]
                if pts < 0:
                    continue
                u2 = min(u + pts, cap) if is_upper[c] else u
                v = np.float32(pts) + bonus + V[m | (1 << c), a, u2]
                if v > best:
                    best = v
        else:
            for i in range(n_open):
                c = cats[i]
                pts = score[c, r]
                a2 = next_aux
                if mode == MODE_YAHTZEE:
                    a2 = a
                    if c == ycat:
                        a2 = 1 if pts > 0 else 0
                u2 = min(u + pts, cap) if is_upper[c] else u
                v = np.float32(pts) + V[m | (1 << c), a2, u2]
                if v > best:
                    best = v
        Srow[r] = best


@njit(cache=True, fastmath=FAST)
def turn_scalar(m, a, u, V, score, is_upper, open_bits, cap, n, child, sub, start, mode, ycat,
                jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, S_out, EX, X, L):  # noqa: ANN001, ANN201
    """One state's turn, for its own upper total only, in flat preallocated arrays.

    Fills and returns (S, EX): S[j, r] is the best value of scoring roll r with j rolls
    still left, EX[j, k] the expected value of keeping k and rolling with j rolls left
    after that roll. The coach and the simulator's hot path both use it.
    """
    NK = child.shape[0]
    NR = score.shape[1]
    full0 = start[n]
    levels = rolls - 1 + (bank_cap if mode == MODE_BANK else 0)
    cats = np.empty(score.shape[0], dtype=np.int64)
    n_open = 0
    for c in range(score.shape[0]):
        if (open_bits[m] >> c) & 1:
            cats[n_open] = c
            n_open += 1
    _score_scalar(S_out[0], m, a, u, V, score, is_upper, cap, mode, ycat, jok, five_face,
                  extra_bonus, 0, cats, n_open)
    for r in range(NR):
        L[r] = S_out[0, r]
    six = np.float32(6.0)
    for j in range(1, levels + 2):
        for r in range(NR):
            X[full0 + r] = L[r]
        for k in range(full0 - 1, -1, -1):
            X[k] = (X[child[k, 0]] + X[child[k, 1]] + X[child[k, 2]] + X[child[k, 3]]
                    + X[child[k, 4]] + X[child[k, 5]]) / six
        for k in range(NK):
            EX[j - 1, k] = X[k]
        if j > levels:
            break
        if mode == MODE_BANK and j <= bank_cap:
            _score_scalar(S_out[j], m, a, u, V, score, is_upper, cap, mode, ycat, jok, five_face,
                          extra_bonus, j, cats, n_open)
        else:
            for r in range(NR):
                S_out[j, r] = S_out[j - 1, r]
        for r in range(NR):
            X[full0 + r] = max(S_out[j, r], L[r])
        # best keep reachable from each keep: a max over one-die removals, smallest first
        for k in range(NK):
            if k == 0 and must_keep_one:
                X[k] = NEG
            best = X[k]
            for f in range(6):
                i = sub[k, f]
                if i >= 0 and X[i] > best:
                    best = X[i]
            X[k] = best
        for r in range(NR):
            L[r] = X[full0 + r]
    return S_out, EX


@njit(cache=True)
def _next_u64(state):  # noqa: ANN001, ANN201
    """splitmix64: returns (new state, output)."""
    state = (state + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _die(state):  # noqa: ANN001, ANN201
    """An unbiased face 1..6: top three bits of a 64-bit draw, rejecting 6 and 7."""
    while True:
        state, z = _next_u64(state)
        v = z >> np.uint64(61)
        if v < 6:
            return state, int(v) + 1


@njit(cache=True, parallel=True)
def simulate_optimal(n_games, seed, V, score, is_upper, open_bits, cap, n, child, sub, start,
                     mode, ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one,
                     bonus_points):  # noqa: ANN001, ANN201
    """Play n_games with the optimal policy; returns each game's final score."""
    out = np.zeros(n_games, dtype=np.int64)
    full0 = start[n]
    levels = rolls - 1 + (bank_cap if mode == MODE_BANK else 0)
    for g in prange(n_games):
        S_buf = np.empty((levels + 1, score.shape[1]), dtype=np.float32)
        EX_buf = np.empty((levels + 1, child.shape[0]), dtype=np.float32)
        X_buf = np.empty(child.shape[0], dtype=np.float32)
        L_buf = np.empty(score.shape[1], dtype=np.float32)
        stack = np.empty(64, dtype=np.int64)
        seen = np.zeros(child.shape[0], dtype=np.bool_)
        rng = np.uint64(seed) * np.uint64(1000003) + np.uint64(g) * np.uint64(0x632BE59BD9B4E019)
        m = 0
        a = 0
        u = 0
        total = 0
        for _turn in range(score.shape[0]):
            S, EX = turn_scalar(m, a, u, V, score, is_upper, open_bits, cap, n, child, sub,
                                start, mode, ycat, jok, five_face, extra_bonus, rolls,
                                bank_cap, must_keep_one, S_buf, EX_buf, X_buf, L_buf)
            left = rolls - 1 + (a if mode == MODE_BANK else 0)
            kept = 0  # keep index
            while True:
                k = kept
                while k < full0:  # roll the missing dice one at a time
                    rng, f = _die(rng)
                    k = child[k, f - 1]
                r = k - full0
                if left == 0:
                    break
                # best keep among sub-multisets of roll r, against scoring now
                best_v = S[left, r]
                best_k = -1
                seen[:] = False
                top = 0
                stack[0] = k
                top = 1
                seen[k] = True
                while top > 0:
                    top -= 1
                    kk = stack[top]
                    if not (must_keep_one and kk == 0):
                        v = EX[left - 1, kk]
                        if v > best_v + 1e-6:
                            best_v = v
                            best_k = kk
                    for f in range(6):
                        j = sub[kk, f]
                        if j >= 0 and not seen[j]:
                            seen[j] = True
                            stack[top] = j
                            top += 1
                if best_k < 0:
                    break
                kept = best_k
                left -= 1
            # score the best box for roll r with `left` rolls left
            pts_best = 0
            c_best = -1
            v_best = np.float32(-1e30)
            a_best = a
            joker = mode == MODE_YAHTZEE and five_face[r] > 0 and (m >> ycat) & 1 == 1
            for c in range(score.shape[0]):
                if joker:
                    pts = jok[m, five_face[r] - 1, c]
                    if pts < 0:
                        continue
                else:
                    if (open_bits[m] >> c) & 1 == 0:
                        continue
                    pts = score[c, r]
                nm = m | (1 << c)
                a2 = 0
                if mode == MODE_BANK:
                    a2 = min(left, bank_cap)
                elif mode == MODE_YAHTZEE:
                    a2 = a
                    if c == ycat:
                        a2 = 1 if pts > 0 else 0
                u2 = u
                if is_upper[c]:
                    u2 = min(u + pts, cap)
                v = np.float32(pts) + V[nm, a2, u2]
                if v > v_best:
                    v_best = v
                    c_best = c
                    pts_best = pts
                    a_best = a2
            if joker and a == 1:
                total += int(extra_bonus)
            total += pts_best
            if is_upper[c_best]:
                u = min(u + pts_best, cap)
            m = m | (1 << c_best)
            a = a_best
        if u >= cap:
            total += bonus_points
        out[g] = total
    return out
