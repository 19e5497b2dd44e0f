"""The coach's hot path in Numba: a position's options ranked in one call, or many positions in one.

A ranking is the keeps of the dice (if rolls remain) and the boxes allowed, each with its
exact value, sorted best first by a stable sort: equal values keep the order keeps, in
``dice.sub_multisets`` order, then boxes, in card order. A keep's value is the solver's
turn for one upper total (:func:`.packed.lean_turn`), a box's its points plus the table's value
after it, summed in float64, as the coach did in Python before. The ruleset's tables come
packed into one array (:func:`.packed.pack`), made once per coach.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np
from numba import njit

from . import kernel
from .kernel import MODE_BANK, MODE_YAHTZEE
from .packed import (
    H_BANK,
    H_BONUS,
    H_C,
    H_CAP,
    H_LEVELS,
    H_MKO,
    H_MODE,
    H_MOST,
    H_N,
    H_NK,
    H_NR,
    H_ODDS,
    H_WIDTH,
    H_YCAT,
    HEAD,
    flat,
    lean_turn,
    tables,
)

A = TypeVar("A")


@njit(cache=True, nogil=True)
def _rank_into(T, V, m, a, u, left, r, S, EX, Y, act, pts, val, reg, turn_done):  # noqa: ANN001, ANN201
    """Rank one position into act/pts/val/reg (action code, points or -1, value, regret); the count.

    Action codes: keep k is k, box c is NK + c. ``turn_done``: S and EX already hold this
    card's turn for ``left`` rolls or more (its levels do not depend on how many were asked).
    S and EX are flat: (levels + 1) rows of NR and of NK.
    """
    (score, is_upper, open_bits, child, start, jok, five, _, _, _, _, keep_ptr, keep_idx,
     removals, up_pts, _, scoref, upix) = flat(T)
    C, NR, NK, cap, mode, ycat = T[H_C], T[H_NR], T[H_NK], T[H_CAP], T[H_MODE], T[H_YCAT]
    bonus = T[H_BONUS]
    n_opt = 0
    if left > 0 and not turn_done:
        lean_turn(m, a, u, left, V, scoref, upix, is_upper, open_bits, cap, T[H_N], child, start, mode,
                  ycat, jok, five, np.float32(bonus), T[H_BANK], T[H_MKO] != 0, removals, up_pts, S, EX, Y)
    if left > 0:
        for i in range(keep_ptr[r], keep_ptr[r + 1]):
            k = keep_idx[i]
            act[n_opt] = k
            pts[n_opt] = -1
            val[n_opt] = np.float64(EX[(left - 1) * NK + k])
            n_opt += 1
    joker = mode == MODE_YAHTZEE and (m >> ycat) & 1 == 1 and five[r] > 0
    extra = bonus if joker and a == 1 else 0
    opn = open_bits[m]
    for c in range(C):
        if joker:
            p = jok[(m * 6 + five[r] - 1) * C + c]
            if p < 0:
                continue
        elif (opn >> c) & 1 == 0:
            continue
        else:
            p = score[c * NR + r]
        if mode == MODE_BANK:
            a2 = min(left, T[H_BANK])
        elif mode == MODE_YAHTZEE:
            a2 = (1 if p > 0 else 0) if c == ycat else a
        else:
            a2 = 0
        u2 = min(u + p, cap) if is_upper[c] else u
        act[n_opt] = NK + c
        pts[n_opt] = p + extra
        val[n_opt] = np.float64(p + extra) + np.float64(V[m | (1 << c), a2, u2])
        n_opt += 1
    # stable insertion sort, best first: equal values keep their order
    for i in range(1, n_opt):
        v, k, p = val[i], act[i], pts[i]
        j = i - 1
        while j >= 0 and val[j] < v:
            val[j + 1], act[j + 1], pts[j + 1] = val[j], act[j], pts[j]
            j -= 1
        val[j + 1], act[j + 1], pts[j + 1] = v, k, p
    for i in range(n_opt):
        reg[i] = val[0] - val[i]
    return n_opt


def buffer_size(T: np.ndarray) -> int:
    """The length of :func:`rank`'s buffer (float64s) for these tables."""
    NR, NK, levels, width = (int(T[h]) for h in (H_NR, H_NK, H_LEVELS, H_WIDTH))
    return 8 * width + NK + ((levels + 1) * (NR + NK) + NK + 1) // 2


def outputs(buf: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`rank`'s outputs in its buffer, as views: the options' indices into
    :func:`roll_items`, their values, and their action codes (for :func:`odds`)."""
    width = int(T[H_WIDTH])
    return (buf[2 * width:3 * width].view(np.int64), buf[:width],
            buf[4 * width:5 * width].view(np.int64))


def roll_items(T: np.ndarray, actions: Sequence[A]) -> list[list[tuple[A, int | None]]]:
    """What :func:`rank`'s indices name, for each roll: the (action, points) pair of each of the
    roll's keeps in the coach's order (points None), of each box at the roll's own points, then,
    for a roll a joker may score (five of a kind in a Yahtzee game), of each box at every points
    0 to :func:`.packed.most_points` (box c's points p at C + c * (most + 1) + p past the
    boxes). ``actions`` are the coach's, keeps then boxes (as the action codes number them).
    Each pair is made once, shared by every roll that names it."""
    NK, C, NR, most = (int(T[h]) for h in (H_NK, H_C, H_NR, H_MOST))
    score, keep_ptr, keep_idx, five = (T[T[HEAD + i]:T[HEAD + i + 1]] for i in (0, 11, 12, 6))
    score = score.reshape(C, NR)
    keep_pairs = [(k, None) for k in actions[:NK]]
    box_pairs = [[(box, p) for p in range(most + 1)] for box in actions[NK:NK + C]]
    joker = T[H_MODE] == MODE_YAHTZEE
    extra = [pair for row in box_pairs for pair in row]
    return [[*(keep_pairs[k] for k in keep_idx[keep_ptr[r]:keep_ptr[r + 1]].tolist()),
             *(box_pairs[c][p] for c, p in enumerate(score[:, r].tolist())),
             *(extra if joker and five[r] > 0 else ())]
            for r in range(NR)]


@njit(cache=True, nogil=True)
def rank(T, V, m, a, u, left, r, buf):  # noqa: ANN001, ANN201
    """Rank position (mask m, aux a, upper total u, capped here, rolls left, roll index r);
    returns how many options there are, n.

    ``buf`` (float64, :func:`buffer_size` long) holds the outputs and the turn's scratch, so a
    query allocates nothing and passes one array. As :func:`outputs` views it: n ints, each
    option's (action, points) pair as an index into :func:`roll_items` of roll r (a keep its
    place among the roll's keeps, a box at the roll's points the number of those keeps past its
    box, other points, a joker's, past the boxes), nearly all small: Python makes no int for
    them and picks the pairs from one list in one call; n floats, the options' values; then the
    n action codes (keeps, then boxes).
    """
    NR, NK, C, levels, W, most = T[H_NR], T[H_NK], T[H_C], T[H_LEVELS], T[H_WIDTH], T[H_MOST]
    ints = buf[2 * W:6 * W].view(np.int64)
    act, pts = ints[2 * W:3 * W], ints[3 * W:]
    val, reg = buf[6 * W:7 * W], buf[7 * W:8 * W]
    place = buf[8 * W:8 * W + NK].view(np.int64)
    scratch = buf[8 * W + NK:].view(np.float32)
    s1 = (levels + 1) * NR
    s2 = s1 + (levels + 1) * NK
    S, EX, Y = scratch[:s1], scratch[s1:s2], scratch[s2:s2 + NK]
    fresh = left < 0  # False, typed bool: a literal False would compile _rank_into a second time
    n = _rank_into(T, V, m, a, min(u, T[H_CAP]), left, r, S, EX, Y, act, pts, val, reg, fresh)
    # each of the roll's keeps' place among them (keep_ptr and keep_idx read from T in place)
    first, at = T[T[HEAD + 11] + r], T[HEAD + 12]
    n_keeps = T[T[HEAD + 11] + r + 1] - first
    for i in range(n_keeps):
        place[T[at + first + i]] = i
    score = T[T[HEAD]:T[HEAD + 1]]
    for i in range(n):
        k = act[i]
        if k < NK:
            ints[i] = place[k]
        elif pts[i] == score[(k - NK) * NR + r]:
            ints[i] = n_keeps + k - NK
        else:
            ints[i] = n_keeps + C + (k - NK) * (most + 1) + pts[i]
        buf[i] = val[i]
    return n


@njit(cache=True, nogil=True)
def rank_many(T, V, Q, act, pts, val, reg, count):  # noqa: ANN001, ANN201
    """Rank every position of Q (rows m, a, u, rolls left, roll index) into row i of the outputs.

    A position of the same card (m, a, u) as the one before, with no more rolls left, reuses
    its turn: a game's decisions of one turn (a roll, a keep, the box) cost one turn. On one
    thread: over threads (prange) it was three times slower on the shared 2-core machine,
    each block waiting for a core.
    """
    NR, NK, levels = T[H_NR], T[H_NK], T[H_LEVELS]
    S = np.empty((levels + 1) * NR, dtype=np.float32)
    EX = np.empty((levels + 1) * NK, dtype=np.float32)
    Y = np.empty(NK, dtype=np.float32)
    have = -1  # levels of the turn in S and EX, for the card before
    for i in range(Q.shape[0]):
        m, a, u, left = Q[i, 0], Q[i, 1], Q[i, 2], Q[i, 3]
        same = i > 0 and m == Q[i - 1, 0] and a == Q[i - 1, 1] and u == Q[i - 1, 2]
        if not same:
            have = -1
        count[i] = _rank_into(T, V, m, a, u, left, Q[i, 4], S, EX, Y, act[i], pts[i], val[i], reg[i],
                              left <= have)
        if left > have:
            have = left


@njit(cache=True, nogil=True, fastmath=kernel.FAST)
def _best_keeps8(X, sub_ptr, sub_idx, must_keep_one):  # noqa: ANN001, ANN201
    """kernel.best_keeps (the same maxima) over columns in blocks of 8, each block's best so far
    held in eight locals: the compiler makes one vector of them, where best_keeps, storing every
    step, was three times slower."""
    if must_keep_one:
        X[0, :] = kernel.NEG
    for k in range(1, X.shape[0]):
        lo, hi = sub_ptr[k], sub_ptr[k + 1]
        for b in range(0, X.shape[1], 8):
            row = X[k, b:b + 8]
            a0, a1, a2, a3, a4, a5, a6, a7 = row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7]
            for i in range(lo, hi):
                s = X[sub_idx[i], b:b + 8]
                a0, a1, a2, a3 = max(a0, s[0]), max(a1, s[1]), max(a2, s[2]), max(a3, s[3])
                a4, a5, a6, a7 = max(a4, s[4]), max(a5, s[5]), max(a6, s[6]), max(a7, s[7])
            row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7] = a0, a1, a2, a3, a4, a5, a6, a7


@njit(cache=True, nogil=True)
def odds_table(T):  # noqa: ANN001, ANN201
    """P[j - 1, k, c]: the chance of making box c by the turn's end from keep k, j rolls left
    after it (j = 1..levels), rolling for that box alone. It is the same on every card, so a
    coach works it out once, every box at once, a column each, through the solver's own expect
    (and best keeps); columns padded to a multiple of 8 (never read): whole vectors of float32
    in every loop."""
    (score, _, _, child, start, _, _, sub_ptr, sub_idx, _, _, _, _, _, _, _, _, _) = tables(T)
    C, NR, NK, n, levels = T[H_C], T[H_NR], T[H_NK], T[H_N], T[H_LEVELS]
    mko = T[H_MKO] != 0
    full0 = start[n]
    W = (C + 7) // 8 * 8
    hit = np.zeros((NR, W), dtype=np.float32)
    for r2 in range(NR):
        for c in range(C):
            hit[r2, c] = np.float32(1.0) if score[c, r2] > 0 else np.float32(0.0)
    P = np.empty((max(levels, 1), NK, W), dtype=np.float32)
    # the full rolls' rows hold the level below (expect writes only the smaller keeps)
    X = P[0]
    X[full0:] = hit
    kernel.expect(X, child, start, n, W)
    for j in range(1, levels):
        X = P[j]
        for r2 in range(NR):
            for c in range(W):
                X[full0 + r2, c] = max(hit[r2, c], P[j - 1, full0 + r2, c])
        X[:full0] = P[j - 1, :full0]
        _best_keeps8(X, sub_ptr, sub_idx, mko)
        kernel.expect(X, child, start, n, W)
    return P


@njit(cache=True, nogil=True)
def odds(T, P, m, left, act, n_opt, probs, where):  # noqa: ANN001, ANN201
    """For each keep among the first n_opt options of act, the chance of making each box that
    may be filled this turn by its end (the boxes of H_ODDS open in m), those strictly between
    0 and 1, likeliest first (equal chances in card order): read from :func:`odds_table` ``P``.

    Written one keep after another into probs/where: the chance, and its place in ``P`` as a
    flat index (the box is that index modulo ``P``'s width; the coach keeps each place's
    (box, chance) pair made once); returns each option's count.
    """
    C, NK = T[H_C], T[H_NK]
    open_bits = flat(T)[2]
    which = open_bits[m] & T[H_ODDS]
    counts = np.zeros(n_opt, dtype=np.int64)
    if which == 0 or left == 0:
        return counts
    X = P[left - 1]
    at0 = 0
    for i in range(n_opt):
        k = act[i]
        if k >= NK:
            continue
        got = 0
        for c in range(C):
            if (which >> c) & 1 == 0:
                continue
            p = np.float64(X[k, c])
            if 0.0 < p < 1.0:
                # insertion, likeliest first, ties in card order
                at = at0 + got
                while at > at0 and probs[at - 1] < p:
                    probs[at] = probs[at - 1]
                    where[at] = where[at - 1]
                    at -= 1
                probs[at] = p
                where[at] = ((left - 1) * NK + k) * P.shape[2] + c
                got += 1
        counts[i] = got
        at0 += got
    return counts
