"""The ruleset's tables packed into one int64 array, and the turn for one upper total that
reads them (:func:`lean_turn`): the coach's ranking (:mod:`.ranking`) plays a turn through it.
The simulator (:mod:`.playout`) works out many states' turns side by side instead, the same values;
it shares a joker's value (:func:`joker_value`) and an upper box's few points
(:func:`upper_points`) from here.

Calling a Numba function costs about 0.3 µs an argument before any work (the simulator's 28
took 8 µs on the loaded 2-core machine, more than ranking itself), so the tables go in as one
array (:func:`pack`), made once per coach, and are read flat (:func:`flat`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..dice import sub_multisets
from . import kernel
from .kernel import MODE_BANK, MODE_YAHTZEE, NEG
from .spec import SolverSpec

# the packed array's header: sizes and scalars, then where each table starts
(H_C, H_NR, H_NK, H_NJ, H_CAP, H_N, H_MODE, H_YCAT, H_ROLLS, H_BANK, H_MKO, H_LEVELS, H_BONUS,
 H_ODDS, H_WIDTH, H_UPW, H_MOST) = range(17)
HEAD = 17
N_TABLES = 18


def pack(spec: SolverSpec) -> np.ndarray:
    """The ruleset's tables for the coach (:mod:`.ranking`) in one int64 array."""
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
    up_pts, up_idx = upper_points(spec)
    upw = up_pts.shape[1]
    tables = [a.score, a.is_upper, a.open_bits, a.child, a.start, a.jok, a.five_face, a.sub_ptr,
              a.sub_idx, a.pos_ptr, a.pos_cat, keep_ptr, keep_idx, removals, up_pts, up_idx]
    head = np.zeros(HEAD + N_TABLES + 1, dtype=np.int64)
    head[:H_MOST + 1] = (len(ids), len(spec.rolls), len(keeps), a.jok.shape[0], a.cap, a.n, a.mode,
                         a.ycat, a.rolls, a.bank_cap, a.must_keep_one, spec.levels,
                         int(a.extra_bonus), odds_bits, int(np.diff(keep_ptr).max()) + len(ids), upw,
                         most_points(spec))
    flat = [np.ascontiguousarray(t, dtype=np.int64).ravel() for t in tables]
    # the points and an upper box's index into its few values again as float32, two to a word
    # (read through flat()'s views): the scoring's loops then run on float32 vectors alone (an
    # int64 converted to float32 is scalar code on AVX2)
    flat += [_words(a.score), _words(up_idx)]
    assert len(flat) == N_TABLES
    head[HEAD:] = len(head) + np.concatenate(([0], np.cumsum([len(f) for f in flat])))
    return np.concatenate([head, *flat])


def most_points(spec: SolverSpec) -> int:
    """The most points one box can make at once (an extra Yahtzee's bonus included)."""
    return int(max(spec.score.max(), spec.yahtzee[1].max())) + int(spec.yahtzee[3])


def _words(table: np.ndarray) -> np.ndarray:
    """A table's values as float32, two to an int64 word (the last half word 0 if odd)."""
    f = np.zeros(table.size + table.size % 2, dtype=np.float32)
    f[:table.size] = table.ravel()
    return f.view(np.int64)


def upper_points(spec: SolverSpec) -> tuple[np.ndarray, np.ndarray]:
    """(up_pts, up_idx): an upper box's points take a few values (0, f, ..., n*f), up_pts[c];
    each roll's as an index into them, up_idx[c, r]; the last value repeated to one width (the
    rows of lower boxes unused). A turn works an upper box's value out once for each."""
    score, is_upper = spec.score, spec.bonus[0]
    points = [sorted(set(row.tolist())) if is_upper[c] else [0] for c, row in enumerate(score)]
    assert all(p[0] == 0 for p in points)  # some roll misses each face: up_pts[c, 0] is 0 points
    upw = max(map(len, points))
    up_pts = np.array([p + p[-1:] * (upw - len(p)) for p in points], dtype=np.int64)
    up_idx = np.array([[p.index(x) if x in p else 0 for x in row.tolist()]
                       for p, row in zip(points, score, strict=True)], dtype=np.int64)
    return up_pts, up_idx


@njit(cache=True, nogil=True)
def tables(T):  # noqa: ANN001, ANN201
    """The packed tables as views (no copies), in pack's order."""
    C, NR, NK, NJ, UPW = T[H_C], T[H_NR], T[H_NK], T[H_NJ], T[H_UPW]
    o = T[HEAD:HEAD + N_TABLES + 1]
    return (T[o[0]:o[1]].reshape((C, NR)), T[o[1]:o[2]], T[o[2]:o[3]],
            T[o[3]:o[4]].reshape((NK, 6)), T[o[4]:o[5]], T[o[5]:o[6]].reshape((NJ, 6, C)),
            T[o[6]:o[7]], T[o[7]:o[8]], T[o[8]:o[9]], T[o[9]:o[10]], T[o[10]:o[11]],
            T[o[11]:o[12]], T[o[12]:o[13]], T[o[13]:o[14]].reshape((NK, 6)),
            T[o[14]:o[15]].reshape((C, UPW)), T[o[15]:o[16]].reshape((C, NR)),
            T[o[16]:o[17]].view(np.float32), T[o[17]:o[18]].view(np.float32))


@njit(cache=True, nogil=True)
def flat(T):  # noqa: ANN001, ANN201
    """The packed tables as flat views, in pack's order, indexed by hand (row i of a table of
    width w starts at i * w): a reshape costs Numba about 0.08 µs, the six of tables() and
    a ranking's scratch a third of a ranking with no rolls left."""
    o = T[HEAD:HEAD + N_TABLES + 1]
    return (T[o[0]:o[1]], T[o[1]:o[2]], T[o[2]:o[3]], T[o[3]:o[4]], T[o[4]:o[5]], T[o[5]:o[6]],
            T[o[6]:o[7]], T[o[7]:o[8]], T[o[8]:o[9]], T[o[9]:o[10]], T[o[10]:o[11]],
            T[o[11]:o[12]], T[o[12]:o[13]], T[o[13]:o[14]], T[o[14]:o[15]], T[o[15]:o[16]],
            T[o[16]:o[17]].view(np.float32), T[o[17]:o[18]].view(np.float32))


@njit(cache=True, nogil=True, fastmath=kernel.FAST)
def _score_rolls(Srow, m, a, u, V, scoref, upix, is_upper, open_bits, cap, mode, ycat, jok, five_face,
                 extra_bonus, next_aux, up_pts, tv, one):  # noqa: ANN001, ANN201
    """Srow[r]: the best value of scoring roll r now from (m, a, u), the next state's aux
    next_aux (a bank), on flat()'s tables; ``scoref`` the points and ``upix`` each roll's index
    into an upper box's few values (:func:`upper_points`), both float32, so every loop over the
    rolls is float32 vectors. An upper box's few values are worked out once (into ``tv``) and
    each roll takes its own, one value at a time: a compare and a select, where a lookup is a
    gather or scalar code. A joker fills any open box it may. ``one`` is 1.0 from the data,
    each maximum multiplied by it: see :func:`.kernel.best_keeps`."""
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
        if is_upper[c]:
            row = V[nm, a_keep]
            for i in range(W):
                p = up_pts[c * W + i]
                tv[i] = np.float32(p) + row[min(u + p, cap)]
            ix = upix[c * NR:(c + 1) * NR]
            for i in range(W):
                if i > 0 and up_pts[c * W + i] == up_pts[c * W + i - 1]:
                    break  # the padding: the last value repeated, no roll's index
                fi, vi = np.float32(i), tv[i]
                for r in range(NR):
                    Srow[r] = max(Srow[r], vi if ix[r] == fi else NEG) * one
            continue
        pts_c = scoref[c * NR:(c + 1) * NR]
        if mode == MODE_YAHTZEE and c == ycat:
            v0, v1 = V[nm, 0, u], V[nm, 1, u]
            for r in range(NR):
                p = pts_c[r]
                Srow[r] = max(Srow[r], p + (v1 if p > 0 else v0)) * one
        else:
            base = V[nm, a_keep, u]
            for r in range(NR):
                Srow[r] = max(Srow[r], pts_c[r] + base) * one
    if mode == MODE_YAHTZEE and (m >> ycat) & 1 == 1:
        bonus = np.float32(extra_bonus if a == 1 else 0.0)
        for r in range(NR):
            if five_face[r] > 0:
                at = (m * 6 + five_face[r] - 1) * C
                Srow[r] = joker_value(jok[at:at + C], m, a, u, V, is_upper, cap, bonus)


@njit(cache=True, nogil=True, fastmath=kernel.FAST)
def joker_value(jrow, m, a, u, V, is_upper, cap, bonus):  # noqa: ANN001, ANN201
    """The best value of a joker (a Yahtzee rolled with the Yahtzee box filled) from (m, a, u):
    any box it may fill (``jrow[c]``: its joker points, or -1), the extra Yahtzee's ``bonus``
    added, the aux unchanged."""
    best = NEG
    for c in range(jrow.shape[0]):
        p = jrow[c]
        if p >= 0:
            u2 = min(u + p, cap) if is_upper[c] else u
            best = max(best, np.float32(p) + bonus + V[m | (1 << c), a, u2])
    return best


@njit(cache=True, nogil=True, fastmath=kernel.FAST)
def _expect(X, child, full0):  # noqa: ANN001, ANN201
    """X[k] for every keep smaller than a roll: the mean over one more die (kernel.expect for one
    upper total, on flat()'s child, six a keep: the same sums in the same order)."""
    six = np.float32(6.0)
    for k in range(full0 - 1, -1, -1):
        b = 6 * k
        X[k] = (X[child[b]] + X[child[b + 1]] + X[child[b + 2]] + X[child[b + 3]]
                + X[child[b + 4]] + X[child[b + 5]]) / six


@njit(cache=True, nogil=True, fastmath=kernel.FAST)
def lean_turn(m, a, u, left, V, scoref, upix, is_upper, open_bits, cap, n, child, start, mode, ycat, jok,
              five_face, extra_bonus, bank_cap, must_keep_one, removals, up_pts, S, EX, Y):  # noqa: ANN001, ANN201
    """Fill S (score roll r with j rolls left: row j) and EX (keep k with j rolls left after it:
    row j) for j up to ``left``: the solver's turn for one upper total, only the levels this
    turn can reach, the same values (maxima, and the same sums in the same order). On flat()'s
    tables, S and EX flat (level j's row at j * NR, j * NK). The best-keep pass takes each
    keep's six one-die removals with no branch (``removals``: a loop over one to five of them,
    mispredicted, was most of a turn with two rolls left)."""
    NR, NK = five_face.shape[0], Y.shape[0]
    full0 = start[n]
    for j in range(left + 1):
        if j == 0 or (mode == MODE_BANK and j <= bank_cap):
            # Y is free until the best-keep pass: it holds the upper boxes' few values
            _score_rolls(S[j * NR:(j + 1) * NR], m, a, u, V, scoref, upix, is_upper, open_bits, cap,
                         mode, ycat, jok, five_face, extra_bonus, j, up_pts, Y, np.float32(1 + start[0]))
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
