"""Numba kernels of the exact score distribution: the turns of a card under the optimal
policy for every upper total at once, and the push of their outcomes into the next layer.

A turn is played as the simulator plays it (:mod:`.playout`: the same float32 values, the
same keep and box choices, ties broken the same way), but with chances instead of dice and
for all the card's reached upper totals u at once, the inner loops running over u as the
solver's do: the first roll's chances flow through each keep to the next roll, and every
roll that is scored puts its chance on (box, points, next aux, extra Yahtzee bonus or not).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .kernel import MODE_BANK, MODE_YAHTZEE, NEG, best_keeps, expect

BATCH = 64
"""Columns (reached states) played together: enough for full vector loops, few enough that
a batch's arrays stay in a core's cache."""


@njit(cache=True, nogil=True)
def _score_rows(S, CB, col0, m, a, us, V, score, is_upper, open_bits, cap, mode, ycat, jok,
                five_face, extra_bonus, next_aux):  # noqa: ANN001, ANN201
    """S[r, col0 + i]: best value of scoring roll r now at u = us[i] on card m; CB: its box.

    packed.lean_turn's scoring and playout._best_box over every u at once: the first box of the
    best value wins, a joker's box is chosen without its bonus (as _best_box does).
    """
    C, NR = score.shape
    nu = us.shape[0]
    for r in range(NR):
        for i in range(nu):
            S[r, col0 + i] = NEG
            CB[r, col0 + i] = -1
    opn = open_bits[m]
    a_keep = a if mode == MODE_YAHTZEE else next_aux
    base = np.empty(nu, dtype=np.float32)
    base1 = np.empty(nu, dtype=np.float32)
    for c in range(C):
        if (opn >> c) & 1 == 0:
            continue
        nm = m | (1 << c)
        pts_c = score[c]
        if is_upper[c]:
            row = V[nm, a_keep]
            for r in range(NR):
                p = pts_c[r]
                fp = np.float32(p)
                Sr, CBr = S[r, col0:col0 + nu], CB[r, col0:col0 + nu]
                for i in range(nu):  # selects, not branches, so the loop vectorizes
                    v = fp + row[min(us[i] + p, cap)]
                    better = v > Sr[i]
                    Sr[i] = v if better else Sr[i]
                    CBr[i] = c if better else CBr[i]
        else:
            if mode == MODE_YAHTZEE and c == ycat:
                for i in range(nu):
                    base[i] = V[nm, 0, us[i]]
                    base1[i] = V[nm, 1, us[i]]
            else:
                for i in range(nu):
                    base[i] = V[nm, a_keep, us[i]]
                    base1[i] = base[i]
            for r in range(NR):
                p = pts_c[r]
                fp = np.float32(p)
                row = base1 if p > 0 else base
                Sr, CBr = S[r, col0:col0 + nu], CB[r, col0:col0 + nu]
                for i in range(nu):
                    v = fp + row[i]
                    better = v > Sr[i]
                    Sr[i] = v if better else Sr[i]
                    CBr[i] = c if better else CBr[i]
    if mode == MODE_YAHTZEE and (m >> ycat) & 1 == 1:
        bonus = np.float32(extra_bonus if a == 1 else 0.0)
        for r in range(NR):
            if five_face[r] == 0:
                continue
            for i in range(nu):
                best, chosen, v_box = NEG, -1, NEG
                for c in range(C):
                    p = jok[m, five_face[r] - 1, c]
                    if p >= 0:
                        u2 = min(us[i] + p, cap) if is_upper[c] else us[i]
                        after = V[m | (1 << c), a, u2]
                        best = max(best, np.float32(p) + bonus + after)
                        v = np.float32(p) + after
                        if v > v_box:
                            v_box, chosen = v, c
                S[r, col0 + i] = best
                CB[r, col0 + i] = chosen


@njit(cache=True, nogil=True)
def _first_best_keeps(YB, IB, EX, sub_ptr, sub_idx, must_keep_one):  # noqa: ANN001, ANN201
    """YB[k, i]: the best of EX over the sub-multisets of keep k (k included), IB[k, i] the
    first (smallest) keep that has it; kernel.best_keeps with the keep kept too.

    Keeps are sorted by size, so each keep's one-die removals are final before it; every
    sub-multiset is reached through them, so the smallest index wins every tie.
    """
    NK, nu = EX.shape
    for k in range(NK):
        for i in range(nu):
            YB[k, i] = EX[k, i]
            IB[k, i] = k
    if must_keep_one:
        for i in range(nu):
            YB[0, i] = NEG
    for k in range(1, NK):
        for s in range(sub_ptr[k], sub_ptr[k + 1]):
            j = sub_idx[s]
            for i in range(nu):  # bitwise, not short-circuit, so the loop vectorizes
                vj, vk, ij, ik = YB[j, i], YB[k, i], IB[j, i], IB[k, i]
                take = (vj > vk) | ((vj == vk) & (ij < ik))
                YB[k, i] = vj if take else vk
                IB[k, i] = ij if take else ik


@njit(cache=True, nogil=True)
def _play_roll(K, SC, R, r, Sl, Ex, YB, IB, full0, roll_ptr, roll_subs,
               must_keep_one):  # noqa: ANN001, ANN201
    """Roll r's chance in each column R[r, i] goes to the keep playout._choose_keep takes
    (K) or, if it scores, to SC[r, i].

    _choose_keep takes the first keep (smallest first) worth more than the best so far by
    1e-6. That is the first keep of the best value (YB, IB) when it beats scoring and is
    16 or more (a float32 there is more than 1e-6 from its neighbours, so the margin is a
    plain "more"); scoring when nothing beats it; and below 16 the walk itself.
    """
    full = full0 + r
    for i in range(Sl.shape[1]):
        w = R[r, i]
        best = YB[full, i]
        if best <= Sl[r, i]:
            SC[r, i] += w
            continue
        if best >= np.float32(16.00001):
            K[IB[full, i], i] += w
            continue
        best_v, k_best = Sl[r, i], -1
        for s in range(roll_ptr[r], roll_ptr[r + 1]):
            k = roll_subs[s]
            if must_keep_one and k == 0:
                continue
            v = Ex[k, i]
            if v > best_v + 1e-6:
                best_v, k_best = v, k
        if k_best >= 0:
            K[k_best, i] += w
        else:
            SC[r, i] += w


@njit(cache=True, nogil=True)
def turn_outcomes(S, CB, a, col_m, n_aux, n_y, pidx, n_pts, score, n, child, start, mode, ycat,
                  jok, five_face, rolls, bank_cap, must_keep_one, sub_ptr, sub_idx, roll_prob,
                  roll_ptr, roll_subs):  # noqa: ANN001, ANN201
    """OUT[d, a2, y, i]: the chance that the turn from column i's state (card col_m[i], aux a,
    the u its S column was scored at) fills the box and points of pidx's index d, leaves aux
    a2 and (y = 1) pays an extra Yahtzee bonus.

    Columns of several cards go together: past the scoring (S, CB), a turn's work is the
    same for every card, and wide columns keep the vector loops full.
    """
    NR, NK = score.shape[1], child.shape[0]
    n_s, nu = S.shape[0], S.shape[2]
    full0 = start[n]
    left = rolls - 1 + (a if mode == MODE_BANK else 0)
    # EX[j, k]: keep k with j rolls left after it (packed.lean_turn, over every column)
    EX = np.empty((max(left, 1), NK, nu), dtype=np.float32)
    if left > 0:
        EX[0, full0:] = S[0]
        expect(EX[0], child, start, n, nu)
    one = np.float32(1 + sub_ptr[0])  # 1.0, from the data: see kernel.best_keeps
    for j in range(1, left):
        Sj = S[min(j, n_s - 1)]
        EX[j, :full0] = EX[j - 1, :full0]
        for r in range(NR):
            for i in range(nu):
                EX[j, full0 + r, i] = max(Sj[r, i], EX[j - 1, full0 + r, i]) * one
        best_keeps(EX[j], sub_ptr, sub_idx, nu, must_keep_one)
        expect(EX[j], child, start, n, nu)
    OUT = np.zeros((n_pts, n_aux, n_y, nu), dtype=np.float64)
    R = np.empty((NR, nu), dtype=np.float64)
    K = np.zeros((NK, nu), dtype=np.float64)
    for r in range(NR):
        for i in range(nu):
            R[r, i] = roll_prob[r]
    yfilled = np.zeros(nu, dtype=np.bool_)
    if mode == MODE_YAHTZEE:
        for i in range(nu):
            yfilled[i] = (col_m[i] >> ycat) & 1 == 1
    YB = np.empty((NK, nu), dtype=np.float32)
    IB = np.empty((NK, nu), dtype=np.int32)
    SC = np.zeros((NR, nu), dtype=np.float64)  # chance of scoring each roll, not yet in OUT
    W = np.empty(nu, dtype=np.float64)
    while True:
        Sl, CBl = S[min(left, n_s - 1)], CB[min(left, n_s - 1)]
        if left > 0:
            _first_best_keeps(YB, IB, EX[left - 1], sub_ptr, sub_idx, must_keep_one)
            for r in range(NR):
                _play_roll(K, SC, R, r, Sl, EX[left - 1], YB, IB, full0, roll_ptr, roll_subs,
                           must_keep_one)
        else:
            SC += R
        if mode == MODE_BANK or left == 0:  # the box is the same at every roll but with saved rolls
            _scored(OUT, SC, CBl, a, min(left, bank_cap), col_m, yfilled, pidx, score, mode, ycat,
                    jok, five_face)
        if left == 0:
            return OUT
        left -= 1
        # roll the dice not kept: each keep's chance spreads over one more die, size by size
        for s in range(n):
            for k in range(start[s], start[s + 1]):
                for i in range(nu):
                    W[i] = K[k, i] / 6.0
                for f in range(6):
                    ch = child[k, f]
                    for i in range(nu):
                        K[ch, i] += W[i]
        for r in range(NR):
            for i in range(nu):
                R[r, i] = K[full0 + r, i]
        K[:] = 0.0


@njit(cache=True, nogil=True)
def _scored(OUT, SC, CBl, a, a_bank, col_m, yfilled, pidx, score, mode, ycat, jok,
            five_face):  # noqa: ANN001, ANN201
    """Move the chance of scoring each roll (SC, then zeroed) to OUT[points, aux after, y]."""
    NR, nu = SC.shape
    for r in range(NR):
        for i in range(nu):
            w = SC[r, i]
            if w == 0.0:
                continue
            SC[r, i] = 0.0
            c = CBl[r, i]
            joker = yfilled[i] and five_face[r] > 0
            pts = jok[col_m[i], five_face[r] - 1, c] if joker else score[c, r]
            a2 = 0
            if mode == MODE_BANK:
                a2 = a_bank
            elif mode == MODE_YAHTZEE:
                a2 = a
                if c == ycat:
                    a2 = 1 if pts > 0 else 0
            OUT[pidx[c, pts], a2, 1 if joker and a == 1 else 0, i] += w


@njit(cache=True, nogil=True, parallel=True)
def card_turns(lo, hi, masks, M, seg_len, pos_of_mask, n_aux, n_y, pidx, p_start, p_val,
               region, o_src, o_tgt, o_rel, o_prob, cstart, ev, reached, V, score, is_upper,
               open_bits, cap, n, child, start, mode, ycat, jok, five_face, extra_bonus, rolls,
               bank_cap, must_keep_one, sub_ptr, sub_idx, roll_prob, roll_ptr,
               roll_subs):  # noqa: ANN001, ANN201
    """The turns of cards lo..hi-1 of a layer, every reached (aux, u) of each, as outcomes.

    Card j's outcomes go to o_*[region[j - lo]:region[j - lo + 1]] grouped by box: those of
    aux a and box c are cstart[j - lo, a, c] up to cstart[j - lo, a, c + 1]. An outcome is
    (source segment, target segment, where the source's first entry lands in the target's,
    chance); a target is the next layer's segment (pos_of_mask[m2] * n_aux + a2) * (cap + 1)
    + u2. ev[j - lo] gets the expected points of the card's turns weighted by each state's
    chance of being reached (M), reached the number of states with a chance. Cards are
    played in batches of about BATCH columns (one per reached state). Returns how many cards
    had more outcomes than room.
    """
    C, NR = score.shape
    n_cards = hi - lo
    extra = int(extra_bonus)
    over = np.zeros(n_cards, dtype=np.int64)
    cursor = region[:-1].copy()
    for j in range(n_cards):
        ev[j] = 0.0
        reached[j] = 0
    for a in range(n_aux):
        left = rolls - 1 + (a if mode == MODE_BANK else 0)
        n_s = min(left, bank_cap) + 1 if mode == MODE_BANK else 1
        cols = np.zeros(n_cards + 1, dtype=np.int64)  # card j's columns: cols[j]..cols[j + 1]
        for j in range(n_cards):
            base = ((lo + j) * n_aux + a) * (cap + 1)
            live = 0
            for u in range(cap + 1):
                if seg_len[base + u] > 0 and M[base + u] > 0.0:
                    live += 1
            cols[j + 1] = cols[j] + live
        cuts = np.zeros(n_cards + 1, dtype=np.int64)  # whole cards in each batch
        n_cuts = 1
        for j in range(n_cards):
            if cols[j + 1] - cols[cuts[n_cuts - 1]] >= BATCH or j == n_cards - 1:
                cuts[n_cuts] = j + 1
                n_cuts += 1
        for b in prange(n_cuts - 1):
            j0, j1 = cuts[b], cuts[b + 1]
            nu = cols[j1] - cols[j0]
            col_m = np.empty(nu, dtype=np.int64)
            col_u = np.empty(nu, dtype=np.int64)
            S = np.empty((n_s, NR, nu), dtype=np.float32)
            CB = np.empty((n_s, NR, nu), dtype=np.int32)
            for j in range(j0, j1):
                c0, c1 = cols[j] - cols[j0], cols[j + 1] - cols[j0]
                if c1 == c0:
                    continue
                base = ((lo + j) * n_aux + a) * (cap + 1)
                i = c0
                for u in range(cap + 1):
                    if seg_len[base + u] > 0 and M[base + u] > 0.0:
                        col_m[i], col_u[i] = masks[lo + j], u
                        i += 1
                for k in range(n_s):
                    _score_rows(S[k], CB[k], c0, masks[lo + j], a, col_u[c0:c1], V, score,
                                is_upper, open_bits, cap, mode, ycat, jok, five_face,
                                extra_bonus, k)
            OUT = turn_outcomes(S, CB, a, col_m, n_aux, n_y, pidx, p_val.shape[0], score, n,
                                child, start, mode, ycat, jok, five_face, rolls, bank_cap,
                                must_keep_one, sub_ptr, sub_idx, roll_prob, roll_ptr, roll_subs)
            for j in range(j0, j1):
                c0, c1 = cols[j] - cols[j0], cols[j + 1] - cols[j0]
                m = masks[lo + j]
                base = ((lo + j) * n_aux + a) * (cap + 1)
                cnt, end = cursor[j], region[j + 1]
                e = 0.0
                for c in range(C):
                    cstart[j, a, c] = cnt
                    if (m >> c) & 1:
                        continue
                    t_base = pos_of_mask[m | (1 << c)] * n_aux
                    for ii in range(c0, c1):  # a source's outcomes together: its vector stays hot
                        u = col_u[ii]
                        for d in range(p_start[c], p_start[c + 1]):
                            p = p_val[d]
                            u2 = min(u + p, cap) if is_upper[c] else u
                            for a2 in range(n_aux):
                                for y in range(n_y):
                                    w = OUT[d, a2, y, ii]
                                    if w == 0.0:
                                        continue
                                    if cnt == end:
                                        over[j] = 1  # more outcomes than room: flagged below
                                        continue
                                    shift = p + (extra if y == 1 else 0)
                                    o_src[cnt] = base + u
                                    o_tgt[cnt] = (t_base + a2) * (cap + 1) + u2
                                    o_rel[cnt] = u + shift - u2
                                    o_prob[cnt] = w
                                    e += M[base + u] * (w * shift)
                                    cnt += 1
                cstart[j, a, C] = cnt
                cursor[j] = cnt
                ev[j] += e
                reached[j] += c1 - c0
    return over.sum()


@njit(cache=True, nogil=True, parallel=True)
def push(c, cstart, o_src, o_tgt, o_rel, o_prob, D, M, src_off, src_len, D2, M2, dst_off,
         dst_len):  # noqa: ANN001, ANN201
    """D2[target, rel + s] += chance * D[source, s] for the outcomes of box c of each card.

    The cards' turns into box c lead to distinct cards (a card and c make the next one), so
    no two threads write one segment. M2 gets each target's chance of being reached.
    Returns how many outcomes did not fit their target (0 unless the layout is wrong).
    """
    n_cards, n_aux = cstart.shape[0], cstart.shape[1]
    bad = np.zeros(n_cards, dtype=np.int64)
    for j in prange(n_cards):
        for a in range(n_aux):
            for o in range(cstart[j, a, c], cstart[j, a, c + 1]):
                s, t, rel = o_src[o], o_tgt[o], o_rel[o]
                L = src_len[s]
                if rel < 0 or rel + L > dst_len[t]:
                    bad[j] += 1
                    continue
                w = o_prob[o]
                s0, d0 = src_off[s], dst_off[t] + rel
                into, source = D2[d0:d0 + L], D[s0:s0 + L]  # views: no sign check per entry
                for k in range(L):
                    into[k] += w * source[k]
                M2[t] += w * M[s]
    return bad.sum()
