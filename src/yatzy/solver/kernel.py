"""Numba kernels of the exact solver: one turn's expectimax, vectorized over upper totals.

A state is (filled mask, aux, u): ``aux`` is the bank of saved rolls (Maxi, Osto) or
whether the Yahtzee box holds 50 (Yahtzee); ``u`` is the upper total capped at the bonus
threshold. For one mask the whole turn is solved for every aux and u at once, the inner
loops running over u so they vectorize; a thread solves a few cards side by side
(:func:`solve_cards`), their columns next to each other.

Only the upper totals that can differ are solved: from ``ulo[m]`` (below it the open upper
boxes cannot reach the threshold any more, so the bonus is lost whatever u is and every
such u has the same value: ``ulo[m]`` is the highest of them) to ``umax[m]`` (the most the
filled upper boxes can hold). The hopeless ones below are copies of ``ulo[m]``'s, bit for
bit what solving each would give: Maxi solves 36 upper totals a card instead of 60.

A layer of cards (the same number of boxes filled) reads only the values of the layer after
it: each is an array of its own, a card's row in it given by ``slot``, so a build holds two
layers and not the whole table (:mod:`.solve` writes a big table to its file a layer at a time).
In a saved-roll game a layer's rows hold its banks 0..top and the next layer's 0..next_top
(read from the arrays' shapes): the bank cap in a whole table, fewer in the early layers of
the exact value with no cap (a game cannot have saved more by then).

Within a turn, keeps are sorted multisets indexed by size. With the values of full rolls one
level down (the full rolls' rows of ``X``), the expected value of a keep is the average over one more die
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

    Keeps are sorted by size, so each keep's one-die removals are final before it. Each
    maximum is multiplied by ``one``, 1.0 read from the data (``sub_ptr[0]`` is 0): a row's
    maximum with itself stored back is otherwise compiled to a masked store (only where the
    value grew), which AMD's cores run as microcode, about five times slower than the vector
    maximum it now is. The values are the same (x * 1.0 is x).
    """
    one = np.float32(1 + sub_ptr[0])
    if must_keep_one:
        for u in range(U):
            X[0, u] = NEG
    for k in range(1, X.shape[0]):
        for i in range(sub_ptr[k], sub_ptr[k + 1]):
            j = sub_idx[i]
            for u in range(U):
                X[k, u] = max(X[k, u], X[j, u]) * one


@njit(cache=True, nogil=True)
def offer_tables(score, is_upper, pos_ptr, pos_cat):  # noqa: ANN001, ANN201
    """For each way a roll scores points (``pos_cat``, roll r's at ``pos_ptr[r]:pos_ptr[r + 1]``):
    the upper total it adds (its points in an upper box, else 0) and its points as float32.
    Worked out once a layer, so :func:`list_offers` reads them instead of converting and
    choosing for every card."""
    NR = pos_ptr.shape[0] - 1
    pos_up = np.empty(pos_cat.shape[0], dtype=np.int64)
    pos_pts = np.empty(pos_cat.shape[0], dtype=np.float32)
    for r in range(NR):
        for i in range(pos_ptr[r], pos_ptr[r + 1]):
            c = pos_cat[i]
            pos_up[i] = score[c, r] if is_upper[c] else 0
            pos_pts[i] = np.float32(score[c, r])
    return pos_up, pos_pts


@njit(cache=True, nogil=True)
def list_offers(m, a, lo, RL, score, is_upper, open_bits, ycat, jok, five_face, extra_bonus,
                ymode, pos_ptr, pos_cat, pos_up, pos_pts, optr, oq, obase, ojoker):  # noqa: ANN001, ANN201
    """Every way card m (aux a) can score each roll for points: roll r's offers are
    ``optr[r]:optr[r + 1]``, each the points ``obase`` plus the row of R that starts at flat
    index ``oq`` (box c's row from column off: c * RL + off). ``ojoker[r]``: r is a joker.

    Each open box's row of the next values is R[c] (:func:`score_step`), the Yahtzee box's row
    with aux 1 (the 50 scored) R[C]; an upper box's points move the row's start. Filling a box
    with 0 is worth its row whatever the roll, so those are left to the best zero (Z); a box
    where the roll scores is worth at least its zero, so Z never overstates. A joker fills any
    open box it may, at its joker points. The offers are the same for every bank a turn can
    save, so they are listed once a card and read at every bank. Branch-free: each candidate
    is written and kept only if its box is open (a card's open boxes look random to the CPU).
    """
    C, NR = score.shape
    opn = open_bits[m]
    yfilled = ymode and (m >> ycat) & 1 == 1
    K = 0
    for r in range(NR):
        optr[r] = K
        joker = yfilled and five_face[r] > 0
        ojoker[r] = joker
        if joker:
            bonus = np.float32(extra_bonus if a == 1 else 0.0)
            for c in range(C):
                pts = jok[m, five_face[r] - 1, c]
                oq[K] = c * RL + (lo + pts if is_upper[c] else lo)
                obase[K] = np.float32(pts) + bonus
                K += pts >= 0
        else:
            for i in range(pos_ptr[r], pos_ptr[r + 1]):
                c = pos_cat[i]
                # the 50 scored: the Yahtzee box's row with aux 1
                oq[K] = C * RL + lo if ymode and c == ycat else c * RL + lo + pos_up[i]
                obase[K] = pos_pts[i]
                K += (opn >> c) & 1
    optr[NR] = K


@njit(cache=True, nogil=True, fastmath=FAST)
def score_step(S, c0, Z, R, m, a, V, slot, open_bits, cap, lo, W, ymode, ycat, next_aux,
               optr, oq, obase, ojoker):  # noqa: ANN001, ANN201
    """S[r, c0 + t]: best value of scoring roll r now, from (m, a, u = lo + t), next state's aux
    next_aux, over the offers :func:`list_offers` made; ``V`` holds the values of the next
    layer's cards, card m' in row ``slot[m']``.

    Each open box's row of V is copied once into ``R[c]``, past ``cap`` with the value at ``cap``
    (an upper box's points past the threshold leave u at cap), the Yahtzee box's row with aux 1
    into ``R[C]``. Each offer is one loop over the row's columns, reading R flat at an unsigned
    index: Numba wraps a negative index, so ``R[c, off + t]`` became scalar loads or gathers; an
    unsigned one cannot be negative and the loop runs on vector registers. ``W`` is a multiple
    of 8.
    """
    C = R.shape[0] - 1
    opn = open_bits[m]
    one = np.float32(1 + optr[0])  # 1.0, from the data: see best_keeps
    for t in range(W):
        Z[t] = NEG
    for c in range(C):
        if (opn >> c) & 1:
            row_aux = (0 if c == ycat else a) if ymode else next_aux
            _copy_row(R[c], V[slot[m | (1 << c)], row_aux], cap)
            zc = R[c, lo:]  # a view: its index t is never negative, so the loop vectorizes
            for t in range(W):
                Z[t] = max(Z[t], zc[t]) * one
    if ymode and (opn >> ycat) & 1:
        _copy_row(R[C], V[slot[m | (1 << ycat)], 1], cap)
    Rf = R.reshape(-1)
    Wu = np.uint64(W)
    for r in range(optr.shape[0] - 1):
        out = S[r, c0:]
        if ojoker[r]:
            for t in range(W):
                out[t] = NEG
        else:
            for t in range(W):
                out[t] = Z[t]
        for i in range(optr[r], optr[r + 1]):
            o = np.uint64(oq[i])
            p = obase[i]
            for t in range(Wu):
                out[t] = max(out[t], p + Rf[o + t]) * one


@njit(cache=True, nogil=True, inline="always")
def _copy_row(dst, row, cap):  # noqa: ANN001, ANN201
    """dst[u] = row[min(u, cap)] over all of dst."""
    for u in range(cap + 1):
        dst[u] = row[u]
    top = row[cap]
    for u in range(cap + 1, dst.shape[0]):
        dst[u] = top


@njit(cache=True, nogil=True, fastmath=FAST)
def solve_cards(ms, out, V, slot, score, is_upper, open_bits, cap, n, child, start, mode,
                ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr, sub_idx,
                pos_ptr, pos_cat, roll_prob, umax, ulo, pos_up, pos_pts):  # noqa: ANN001, ANN201
    """Solve every (aux, u) of the cards ``ms`` (one layer's) into ``out[slot[m]]`` from the
    values of the next layer's cards (``V``, by ``slot`` too): for each card u from ulo[m] to
    umax[m] solved, below ulo[m] copied (the module's docstring); ``pos_up``, ``pos_pts``:
    :func:`offer_tables`.

    The cards' turns run side by side: card g owns the columns col[g]..col[g+1] of X and S,
    its upper totals padded to a multiple of 8. Only the scoring differs between cards; the
    keeps' expectations and best keeps run over all the columns at once, so their loops are a
    few cards long instead of one card's 40 columns, and each row's set-up is paid once for
    them all. A padded column is never read into a real one (the upper total moves only
    through R) and never stored. The full rolls' rows of X hold the level below between levels
    (expect writes only the smaller keeps), so no copy of them is kept apart.
    """
    G = ms.shape[0]
    NK = child.shape[0]
    C, NR = score.shape
    one = np.float32(1 + sub_ptr[0])  # 1.0, from the data: see best_keeps
    col = np.zeros(G + 1, dtype=np.int64)
    wmax = 0
    for g in range(G):
        w = (umax[ms[g]] + 1 - ulo[ms[g]] + 7) // 8 * 8
        col[g + 1] = col[g] + w
        wmax = max(wmax, w)
    T = col[G]
    full0 = start[n]
    X = np.empty((NK, T), dtype=np.float32)
    S = np.empty((NR, T), dtype=np.float32)
    Z = np.empty(wmax, dtype=np.float32)
    # an upper offer reads up to lo + points + W: past cap by at most 6n + W
    RL = cap + 1 + 6 * n + wmax
    R = np.empty((C + 1, RL), dtype=np.float32)
    optr = np.empty((G, NR + 1), dtype=np.int64)
    oq = np.empty((G, NR * C), dtype=np.int64)
    obase = np.empty((G, NR * C), dtype=np.float32)
    ojoker = np.empty((G, NR), dtype=np.bool_)
    ymode = mode == MODE_YAHTZEE
    n_aux = 1
    if mode == MODE_YAHTZEE:
        for g in range(G):
            if (ms[g] >> ycat) & 1:
                n_aux = 2
    # the banks this layer holds and the next one's (bank_cap each in a whole table; fewer in
    # early layers of a table bounded by what a bank can hold after its turns)
    top, next_top = out.shape[1] - 1, V.shape[1] - 1
    levels = rolls - 1 + (top if mode == MODE_BANK else 0)
    for a in range(n_aux):
        for g in range(G):
            m = ms[g]
            list_offers(m, a, ulo[m], RL, score, is_upper, open_bits, ycat, jok, five_face,
                        extra_bonus, ymode, pos_ptr, pos_cat, pos_up, pos_pts, optr[g], oq[g], obase[g],
                        ojoker[g])
            score_step(S, col[g], Z, R, m, a, V, slot, open_bits, cap, ulo[m], col[g + 1] - col[g],
                       ymode, ycat, 0, optr[g], oq[g], obase[g], ojoker[g])
        for r in range(NR):
            for t in range(T):
                X[full0 + r, t] = S[r, t]
        for j in range(1, levels + 1):
            expect(X, child, start, n, T)
            if mode == MODE_BANK:
                if j - 1 >= rolls - 1:
                    for g in range(G):
                        m = ms[g]
                        hb = out[slot[m], j - 1 - (rolls - 1), ulo[m]:]
                        xg = X[0, col[g]:]
                        for t in range(umax[m] + 1 - ulo[m]):
                            hb[t] = xg[t]
                if j <= next_top:
                    for g in range(G):
                        m = ms[g]
                        score_step(S, col[g], Z, R, m, a, V, slot, open_bits, cap, ulo[m],
                                   col[g + 1] - col[g], ymode, ycat, j, optr[g], oq[g], obase[g],
                                   ojoker[g])
            for r in range(NR):
                for t in range(T):
                    X[full0 + r, t] = max(S[r, t], X[full0 + r, t]) * one
            best_keeps(X, sub_ptr, sub_idx, T, must_keep_one)
        # the turn's value: the first roll's values weighted by their chances
        acc = np.zeros(T, dtype=np.float64)
        for r in range(NR):
            p = roll_prob[r]
            for t in range(T):
                acc[t] += p * X[full0 + r, t]
        for g in range(G):
            m = ms[g]
            if mode == MODE_YAHTZEE and a == 1 and (m >> ycat) & 1 == 0:
                continue  # the Yahtzee box open: no 50 scored yet, aux 1 is no state
            hb = out[slot[m], top if mode == MODE_BANK else a, ulo[m]:]
            ag = acc[col[g]:]
            for t in range(umax[m] + 1 - ulo[m]):
                hb[t] = ag[t]
    # the hopeless totals below lo: lo's values (every aux the cards wrote)
    for g in range(G):
        m = ms[g]
        here = out[slot[m]]
        for b in range(here.shape[0]):
            for u in range(ulo[m]):
                here[b, u] = here[b, ulo[m]]


GROUP = 8
"""Cards a thread solves side by side (:func:`solve_cards`): from 3 to 8 about equally quick
for Maxi on an Intel machine, 8 a few per cent quicker than 4 on an AMD one (a whole layer of
Maxi, 144 against 148 µs a card on one thread); 2 is slower, and 1 (a card alone) a fifth
slower."""


@njit(cache=True, nogil=True, parallel=True)
def solve_layer(masks, group, out, V, slot, score, is_upper, open_bits, cap, n, child, start, mode,
                ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr, sub_idx,
                pos_ptr, pos_cat, roll_prob, umax, ulo):  # noqa: ANN001, ANN201
    """Solve every card of one layer (the same number of boxes filled) in parallel, ``group``
    cards side by side, into ``out`` from the next layer's values ``V`` (a card's row in
    either: ``slot``)."""
    pos_up, pos_pts = offer_tables(score, is_upper, pos_ptr, pos_cat)
    for i in prange((masks.shape[0] + group - 1) // group):
        solve_cards(masks[i * group:(i + 1) * group], out, V, slot, score, is_upper, open_bits,
                    cap, n, child, start, mode, ycat, jok, five_face, extra_bonus, rolls, bank_cap,
                    must_keep_one, sub_ptr, sub_idx, pos_ptr, pos_cat, roll_prob, umax, ulo, pos_up,
                    pos_pts)
