"""The coach's hot path in Numba: a position's options ranked in one call, or many positions in one.

A ranking is the keeps of the dice (if rolls remain) and the boxes allowed, each with its
exact value, sorted best first by a stable sort: equal values keep the order keeps, in
``dice.sub_multisets`` order, then boxes, in card order. A keep's value is the simulator's
turn (``playout.lean_turn``), a box's its points plus the table's value after it, summed in
float64, as the coach did in Python before.

Calling a Numba function costs about 0.3 µs an argument before any work (the simulator's 28
took 8 µs on the loaded 2-core machine, more than ranking itself), so the ruleset's tables
go in packed into one int64 array (:func:`pack`), made once per coach.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from ..dice import sub_multisets
from . import kernel
from .kernel import MODE_BANK, MODE_YAHTZEE, NEG
from .spec import SolverSpec

# the packed array's header: sizes and scalars, then where each table starts
(H_C, H_NR, H_NK, H_NJ, H_CAP, H_N, H_MODE, H_YCAT, H_ROLLS, H_BANK, H_MKO, H_LEVELS, H_BONUS,
 H_ODDS, H_WIDTH, H_UPW) = range(16)
HEAD = 16
N_TABLES = 16


def pack(spec: SolverSpec) -> np.ndarray:
    """The ruleset's tables for :func:`rank` and :func:`odds` in one int64 array."""
    rs = spec.ruleset
    a = spec.kernel_args
    keeps, index, _ = spec.keeps
    ids = list(rs.category_ids)
    # each roll's keeps as the coach lists them: sub_multisets order, not the roll itself,
    # not the empty keep where a die must be kept
    per_roll = [[index[k] for k in sub_multisets(r)
                 if len(k) < spec.n and (k or not rs.must_keep_one)] for r in spec.rolls]
    keep_ptr = np.zeros(len(per_roll) + 1, dtype=np.int64)
    keep_ptr[1:] = np.cumsum([len(x) for x in per_roll])
    keep_idx = np.array([k for x in per_roll for k in x], dtype=np.int64)
    # the boxes whose odds a keep shows: not an upper box, not chance (hitting them says nothing)
    odds_bits = sum(1 << i for i, c in enumerate(ids) if not a.is_upper[i] and c != "chance")
    # each keep's one-die removals, six a row as child has them, a face not in the keep naming the
    # keep itself (a maximum with itself changes nothing): the best-keep pass without branches
    _, sub = spec.child_sub
    removals = np.where(sub >= 0, sub, np.arange(len(keeps))[:, None])
    # an upper box's points take a few values (0, f, ..., n*f): each roll's as an index into
    # them, the last repeated to one width (the rows of lower boxes unused)
    points = [sorted(set(row.tolist())) if a.is_upper[c] else [0] for c, row in enumerate(a.score)]
    upw = max(map(len, points))
    up_pts = np.array([p + p[-1:] * (upw - len(p)) for p in points], dtype=np.int64)
    up_idx = np.array([[p.index(x) if x in p else 0 for x in row.tolist()]
                       for p, row in zip(points, a.score, strict=True)], dtype=np.int64)
    tables = [a.score, a.is_upper, a.open_bits, a.child, a.start, a.jok, a.five_face, a.sub_ptr,
              a.sub_idx, a.pos_ptr, a.pos_cat, keep_ptr, keep_idx, removals, up_pts, up_idx]
    assert len(tables) == N_TABLES
    head = np.zeros(HEAD + N_TABLES + 1, dtype=np.int64)
    head[:H_UPW + 1] = (len(ids), len(spec.rolls), len(keeps), a.jok.shape[0], a.cap, a.n, a.mode,
                        a.ycat, a.rolls, a.bank_cap, a.must_keep_one, spec.levels,
                        int(a.extra_bonus), odds_bits, int(np.diff(keep_ptr).max()) + len(ids), upw)
    flat = [np.ascontiguousarray(t, dtype=np.int64).ravel() for t in tables]
    head[HEAD:] = len(head) + np.concatenate(([0], np.cumsum([len(f) for f in flat])))
    return np.concatenate([head, *flat])


@njit(cache=True, nogil=True)
def _tables(T):  # noqa: ANN001, ANN201
    """The packed tables as views (no copies), in pack's order."""
    C, NR, NK, NJ, UPW = T[H_C], T[H_NR], T[H_NK], T[H_NJ], T[H_UPW]
    o = T[HEAD:HEAD + N_TABLES + 1]
    return (T[o[0]:o[1]].reshape((C, NR)), T[o[1]:o[2]], T[o[2]:o[3]],
            T[o[3]:o[4]].reshape((NK, 6)), T[o[4]:o[5]], T[o[5]:o[6]].reshape((NJ, 6, C)),
            T[o[6]:o[7]], T[o[7]:o[8]], T[o[8]:o[9]], T[o[9]:o[10]], T[o[10]:o[11]],
            T[o[11]:o[12]], T[o[12]:o[13]], T[o[13]:o[14]].reshape((NK, 6)),
            T[o[14]:o[15]].reshape((C, UPW)), T[o[15]:o[16]].reshape((C, NR)))


@njit(cache=True, nogil=True)
def _flat(T):  # noqa: ANN001, ANN201
    """The packed tables as flat views, in pack's order, indexed by hand (row i of a table of
    width w starts at i * w): a reshape costs Numba about 0.08 µs, the six of _tables and
    rank's scratch a third of a ranking with no rolls left."""
    o = T[HEAD:HEAD + N_TABLES + 1]
    return (T[o[0]:o[1]], T[o[1]:o[2]], T[o[2]:o[3]], T[o[3]:o[4]], T[o[4]:o[5]], T[o[5]:o[6]],
            T[o[6]:o[7]], T[o[7]:o[8]], T[o[8]:o[9]], T[o[9]:o[10]], T[o[10]:o[11]],
            T[o[11]:o[12]], T[o[12]:o[13]], T[o[13]:o[14]], T[o[14]:o[15]], T[o[15]:o[16]])


@njit(cache=True, nogil=True, fastmath=kernel.FAST)
def _score_rolls(Srow, m, a, u, V, score, is_upper, open_bits, cap, mode, ycat, jok, five_face,
                 extra_bonus, next_aux, up_pts, up_idx, tv):  # noqa: ANN001, ANN201
    """playout.score_rolls (the same values), on _flat's tables, an upper box's few values worked
    out once and each roll's picked by its index into them: a lookup, where the row of V was one
    at every roll (1.6 -> 1.2 µs with every box open)."""
    NR = Srow.shape[0]
    C = is_upper.shape[0]
    W = up_pts.shape[0] // C
    for r in range(NR):
        Srow[r] = NEG
    opn = open_bits[m]
    a_keep = a if mode == MODE_YAHTZEE else next_aux
    for c in range(C):
        if (opn >> c) & 1 == 0:
            continue
        nm = m | (1 << c)
        pts_c = score[c * NR:(c + 1) * NR]
        if is_upper[c]:
            row = V[nm, a_keep]
            for i in range(W):
                p = up_pts[c * W + i]
                tv[i] = np.float32(p) + row[min(u + p, cap)]
            ix = up_idx[c * NR:(c + 1) * NR]
            for r in range(NR):
                Srow[r] = max(Srow[r], tv[ix[r]])
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
            at = (m * 6 + five_face[r] - 1) * C
            for c in range(C):
                p = jok[at + c]
                if p >= 0:
                    u2 = min(u + p, cap) if is_upper[c] else u
                    best = max(best, np.float32(p) + bonus + V[m | (1 << c), a, u2])
            Srow[r] = best


@njit(cache=True, nogil=True, fastmath=kernel.FAST)
def _expect(X, child, full0):  # noqa: ANN001, ANN201
    """playout._expect on _flat's child (six a keep): the same sums in the same order."""
    six = np.float32(6.0)
    for k in range(full0 - 1, -1, -1):
        b = 6 * k
        X[k] = (X[child[b]] + X[child[b + 1]] + X[child[b + 2]] + X[child[b + 3]]
                + X[child[b + 4]] + X[child[b + 5]]) / six


@njit(cache=True, nogil=True, fastmath=kernel.FAST)
def _turn(m, a, u, left, V, score, is_upper, open_bits, cap, n, child, start, mode, ycat, jok, five_face,
          extra_bonus, bank_cap, must_keep_one, removals, up_pts, up_idx, S, EX, Y):  # noqa: ANN001, ANN201
    """playout.lean_turn's S and EX (the same values: maxima and the same sums in the same order),
    on _flat's tables, S and EX flat (level j's row at j * NR, j * NK), its best-keep pass over
    ``removals``, six a keep, with no branch (lean_turn's loop over each keep's one to five
    removals, mispredicted, was most of a turn with two rolls left)."""
    NR, NK = five_face.shape[0], Y.shape[0]
    full0 = start[n]
    for j in range(left + 1):
        if j == 0 or (mode == MODE_BANK and j <= bank_cap):
            # Y is free until the best-keep pass: it holds the upper boxes' few values
            _score_rolls(S[j * NR:(j + 1) * NR], m, a, u, V, score, is_upper, open_bits, cap, mode,
                         ycat, jok, five_face, extra_bonus, j, up_pts, up_idx, Y)
        else:
            S[j * NR:(j + 1) * NR] = S[(j - 1) * NR:j * NR]
    if left == 0:
        return
    X = EX[:NK]
    X[full0:] = S[:NR]
    _expect(X, child, full0)
    for j in range(1, left):
        before, Sj = EX[(j - 1) * NK:j * NK], S[j * NR:(j + 1) * NR]
        Y[:] = before
        for r in range(NR):
            Y[full0 + r] = max(Sj[r], before[full0 + r])
        if must_keep_one:
            Y[0] = NEG
        for k in range(1, NK):
            b = 6 * k
            Y[k] = max(max(max(Y[k], Y[removals[b]]), max(Y[removals[b + 1]], Y[removals[b + 2]])),
                       max(max(Y[removals[b + 3]], Y[removals[b + 4]]), Y[removals[b + 5]]))
        X = EX[j * NK:(j + 1) * NK]
        X[full0:] = Y[full0:]
        _expect(X, child, full0)


@njit(cache=True, nogil=True)
def _rank_into(T, V, m, a, u, left, r, S, EX, Y, act, pts, val, reg, turn_done):  # noqa: ANN001, ANN201
    """Rank one position into act/pts/val/reg (action code, points or -1, value, regret); the count.

    Action codes: keep k is k, box c is NK + c. ``turn_done``: S and EX already hold this
    card's turn for ``left`` rolls or more (its levels do not depend on how many were asked).
    S and EX are flat: (levels + 1) rows of NR and of NK.
    """
    (score, is_upper, open_bits, child, start, jok, five, _, _, _, _, keep_ptr, keep_idx,
     removals, up_pts, up_idx) = _flat(T)
    C, NR, NK, cap, mode, ycat = T[H_C], T[H_NR], T[H_NK], T[H_CAP], T[H_MODE], T[H_YCAT]
    bonus = T[H_BONUS]
    n_opt = 0
    if left > 0 and not turn_done:
        _turn(m, a, u, left, V, score, is_upper, open_bits, cap, T[H_N], child, start, mode, ycat, jok,
              five, np.float32(bonus), T[H_BANK], T[H_MKO] != 0, removals, up_pts, up_idx, S, EX, Y)
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
    """:func:`rank`'s outputs in its buffer, as views: the options' (action, points) indices and
    (value, regret) pairs, each pair side by side, and the action codes alone (for :func:`odds`)."""
    width = int(T[H_WIDTH])
    return (buf[2 * width:4 * width].view(np.int64), buf[:2 * width],
            buf[4 * width:5 * width].view(np.int64))


def roll_items(T: np.ndarray, actions: Sequence[object],
               points: Sequence[object]) -> list[tuple[object, ...]]:
    """What :func:`rank`'s (action, points) indices name, for each roll: the roll's keeps in the
    coach's order, the boxes, then ``points`` (points p the p-th of them; None last, for -1).
    ``actions`` are the coach's, keeps then boxes (as the action codes number them)."""
    NK, C = int(T[H_NK]), int(T[H_C])
    keep_ptr, keep_idx = (T[T[HEAD + i]:T[HEAD + i + 1]] for i in (11, 12))
    boxes = tuple(actions[NK:NK + C])
    return [(*(actions[k] for k in keep_idx[keep_ptr[r]:keep_ptr[r + 1]].tolist()), *boxes, *points)
            for r in range(int(T[H_NR]))]


@njit(cache=True, nogil=True)
def rank(T, V, m, a, u, left, r, buf):  # noqa: ANN001, ANN201
    """Rank position (mask m, aux a, upper total u, capped here, rolls left, roll index r);
    returns how many options there are, n.

    ``buf`` (float64, :func:`buffer_size` long) holds the outputs and the turn's scratch, so a
    query allocates nothing and passes one array. As :func:`outputs` views it: 2n ints, each
    option's action and points as indices into :func:`roll_items` of roll r (a keep its place
    among the roll's keeps, a box the number of those keeps past its code, points p that plus
    C plus p, a keep's points -1), all small: Python makes no int for them, picks each
    option's action and points from one list in one call; and 2n floats, each option's value
    and regret, read from one list; then the n action codes alone (keeps, then boxes).
    """
    NR, NK, C, levels, W = T[H_NR], T[H_NK], T[H_C], T[H_LEVELS], T[H_WIDTH]
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
    for i in range(n):
        k = act[i]
        if k < NK:
            ints[2 * i] = place[k]
            ints[2 * i + 1] = -1
        else:
            ints[2 * i] = n_keeps + k - NK
            ints[2 * i + 1] = n_keeps + C + pts[i]
        buf[2 * i] = val[i]
        buf[2 * i + 1] = reg[i]
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
def odds(T, m, left, r, act, n_opt, cats, probs):  # noqa: ANN001, ANN201
    """For each keep among the first n_opt options of act, the chance of making each box that
    may be filled this turn by its end (the boxes of H_ODDS open in m), those strictly between
    0 and 1, likeliest first (equal chances in card order).

    Written one keep after another into cats/probs (box, chance); returns each option's count.
    Every box at once, one column each, through the solver's own expect (and best keeps).
    """
    (score, _, open_bits, child, start, _, _, sub_ptr, sub_idx, _, _, _, _, _, _, _) = _tables(T)
    C, NR, NK, n = T[H_C], T[H_NR], T[H_NK], T[H_N]
    mko = T[H_MKO] != 0
    full0 = start[n]
    which = open_bits[m] & T[H_ODDS]
    box = np.empty(C, dtype=np.int64)
    K = 0
    for c in range(C):
        if (which >> c) & 1:
            box[K] = c
            K += 1
    counts = np.zeros(n_opt, dtype=np.int64)
    if K == 0 or left == 0:
        return counts
    # columns padded to a multiple of 8 (never read): whole vectors of float32 in every loop
    W = (K + 7) // 8 * 8
    hit = np.zeros((NR, W), dtype=np.float32)
    for r2 in range(NR):
        for j in range(K):
            hit[r2, j] = np.float32(1.0) if score[box[j], r2] > 0 else np.float32(0.0)
    # the full rolls' rows hold the level below (expect writes only the smaller keeps)
    X = np.empty((NK, W), dtype=np.float32)
    for r2 in range(NR):
        for j in range(W):
            X[full0 + r2, j] = hit[r2, j]
    kernel.expect(X, child, start, n, W)
    for _ in range(1, left):
        for r2 in range(NR):
            for j in range(W):
                X[full0 + r2, j] = max(hit[r2, j], X[full0 + r2, j])
        _best_keeps8(X, sub_ptr, sub_idx, mko)
        kernel.expect(X, child, start, n, W)
    at0 = 0
    for i in range(n_opt):
        k = act[i]
        if k >= NK:
            continue
        got = 0
        for j in range(K):
            p = np.float64(X[k, j])
            if 0.0 < p < 1.0:
                # insertion, likeliest first, ties in card order
                at = at0 + got
                while at > at0 and probs[at - 1] < p:
                    cats[at] = cats[at - 1]
                    probs[at] = probs[at - 1]
                    at -= 1
                cats[at] = box[j]
                probs[at] = p
                got += 1
        counts[i] = got
        at0 += got
    return counts
