"""Numba kernels of the exact score distribution: one turn's outcomes under the optimal
policy, and the push of a layer's score-so-far distributions into the next layer.

A turn is played as the simulator plays it (:mod:`.playout`: the same values, the same
keep and box choices, ties broken the same way), but with chances instead of dice: the
first roll's chances flow through each keep to the next roll, and every roll that is
scored puts its chance on (box, points, next aux, extra Yahtzee bonus or not).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .kernel import MODE_BANK, MODE_YAHTZEE
from .playout import _best_box, _choose_keep, lean_turn


@njit(cache=True, nogil=True)
def turn_outcomes(m, a, u, V, score, is_upper, open_bits, cap, n, child, start, mode, ycat, jok,
                  five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr, sub_idx,
                  pos_ptr, pos_cat, roll_prob, roll_ptr, roll_subs, S, EX, Y, R, K,
                  OUT):  # noqa: ANN001, ANN201
    """Add to OUT[c, pts, a2, y] the chance that the turn from (m, a, u) fills box c with pts
    points, leaves aux a2 and (y = 1) pays an extra Yahtzee bonus."""
    full0 = start[n]
    NR, NK = score.shape[1], child.shape[0]
    left = rolls - 1 + (a if mode == MODE_BANK else 0)
    lean_turn(m, a, u, left, V, score, is_upper, open_bits, cap, n, child, start, mode, ycat,
              jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr, sub_idx,
              pos_ptr, pos_cat, roll_prob, S, EX, Y)
    for r in range(NR):
        R[r] = roll_prob[r]
    bonus_here = mode == MODE_YAHTZEE and (m >> ycat) & 1 == 1 and a == 1
    while True:
        for k in range(NK):
            K[k] = 0.0
        for r in range(NR):
            w = R[r]
            if w == 0.0:
                continue
            k = -1
            if left > 0:
                k = _choose_keep(r, left, S, EX, full0, roll_ptr, roll_subs, must_keep_one)
            if k >= 0:
                K[k] += w
                continue
            c, pts, a2 = _best_box(r, left, m, a, u, V, score, is_upper, open_bits, cap, mode,
                                   ycat, jok, five_face, bank_cap)
            y = 1 if bonus_here and five_face[r] > 0 else 0
            OUT[c, pts, a2, y] += w
        if left == 0:
            return
        left -= 1
        # roll the dice not kept: each keep's chance spreads over one more die, size by size
        for s in range(n):
            for k in range(start[s], start[s + 1]):
                w = K[k]
                if w != 0.0:
                    w = w / 6.0
                    for f in range(6):
                        K[child[k, f]] += w
        for r in range(NR):
            R[r] = K[full0 + r]


@njit(cache=True, nogil=True, parallel=True)
def outcomes_of(states, D, seg_off, seg_len, pos_of_mask, out_tgt, out_shift, out_prob, out_n,
                turn_pts, mass, V, score, is_upper, open_bits, cap, n, child, start, mode, ycat,
                jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr, sub_idx,
                pos_ptr, pos_cat, roll_prob, roll_ptr, roll_subs, n_aux, n_y,
                p_max):  # noqa: ANN001, ANN201
    """For each source state (m, a, u) in ``states``: its chance of being reached (mass),
    the expected points of its turn, and the turn's outcomes as (target, shift, chance).

    A target is the next layer's segment (pos_of_mask[m2] * n_aux + a2) * (cap + 1) + u2;
    the shift is the points the turn adds (an extra Yahtzee bonus included).
    """
    N = states.shape[0]
    C, NR, NK = score.shape[0], score.shape[1], child.shape[0]
    levels = rolls - 1 + (bank_cap if mode == MODE_BANK else 0)
    block = 16
    for b in prange((N + block - 1) // block):
        S = np.empty((levels + 1, NR), dtype=np.float32)
        EX = np.empty((levels + 1, NK), dtype=np.float32)
        Y = np.empty(NK, dtype=np.float32)
        R = np.empty(NR, dtype=np.float64)
        K = np.empty(NK, dtype=np.float64)
        OUT = np.zeros((C, p_max + 1, n_aux, n_y), dtype=np.float64)
        for i in range(b * block, min(N, (b + 1) * block)):
            m, a, u = states[i, 0], states[i, 1], states[i, 2]
            tot = 0.0
            for j in range(seg_off[i], seg_off[i] + seg_len[i]):
                tot += D[j]
            mass[i] = tot
            out_n[i] = 0
            turn_pts[i] = 0.0
            if tot == 0.0:
                continue
            turn_outcomes(m, a, u, V, score, is_upper, open_bits, cap, n, child, start, mode,
                          ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one,
                          sub_ptr, sub_idx, pos_ptr, pos_cat, roll_prob, roll_ptr, roll_subs,
                          S, EX, Y, R, K, OUT)
            a_top = min(n_aux - 1, rolls - 1 + a) if mode == MODE_BANK else n_aux - 1
            cnt = 0
            ev = 0.0
            over = False
            for c in range(C):
                m2 = m | (1 << c)
                if m2 == m:
                    continue
                for p in range(p_max + 1):
                    u2 = min(u + p, cap) if is_upper[c] else u
                    for a2 in range(a_top + 1):
                        for y in range(n_y):
                            w = OUT[c, p, a2, y]
                            if w == 0.0:
                                continue
                            OUT[c, p, a2, y] = 0.0
                            if cnt == out_tgt.shape[1]:
                                over = True  # more outcomes than room: flagged below
                                continue
                            shift = p + (int(extra_bonus) if y == 1 else 0)
                            out_tgt[i, cnt] = (pos_of_mask[m2] * n_aux + a2) * (cap + 1) + u2
                            out_shift[i, cnt] = shift
                            out_prob[i, cnt] = w
                            ev += w * shift
                            cnt += 1
            out_n[i] = -1 if over else cnt
            turn_pts[i] = ev
    bad = 0
    for i in range(N):
        if out_n[i] < 0:
            bad += 1
    return bad


@njit(cache=True, nogil=True, parallel=True)
def push(D, seg_off, seg_len, seg_u, out_tgt, out_shift, out_prob, out_n, D2, tgt_off, tgt_len,
         cap, parts):  # noqa: ANN001, ANN201
    """D2[target, s + shift] += chance * D[source, s] for every outcome of every source.

    A segment's first entry is the score u (its capped upper total): below the bonus line
    the upper boxes hold exactly u. Targets are split among ``parts`` so no two threads
    write one segment; each thread reads every outcome and does its own targets' work.
    Returns how many outcomes did not fit their target (0 unless the layout is wrong).
    """
    N = out_n.shape[0]
    bad = np.zeros(parts, dtype=np.int64)
    for part in prange(parts):
        for i in range(N):
            L = seg_len[i]
            s0 = seg_off[i]
            for o in range(out_n[i]):
                t = out_tgt[i, o]
                if t % parts != part:
                    continue
                rel = seg_u[i] + out_shift[i, o] - t % (cap + 1)
                if rel < 0 or rel + L > tgt_len[t]:
                    bad[part] += 1
                    continue
                w = out_prob[i, o]
                d0 = tgt_off[t] + rel
                for j in range(L):
                    D2[d0 + j] += w * D[s0 + j]
    return bad.sum()


@njit(cache=True, nogil=True)
def reach_table(masks, open_bits, is_upper, table, cap, n_cat):  # noqa: ANN001, ANN201
    """reach[m, u]: capped upper total u can be had with the boxes of m filled
    (spec.reach_counts' table itself)."""
    nm = 1 << n_cat
    reach = np.zeros((nm, cap + 1), dtype=np.bool_)
    reach[0, 0] = True
    for m in masks:
        opn = open_bits[m]
        for c in range(n_cat):
            if not (opn >> c) & 1:
                continue
            nxt = m | (1 << c)
            for u in range(cap + 1):
                if not reach[m, u]:
                    continue
                if is_upper[c]:
                    for j in range(table.shape[1]):
                        p = table[c, j]
                        if p >= 0:
                            reach[nxt, min(u + p, cap)] = True
                else:
                    reach[nxt, u] = True
    return reach
