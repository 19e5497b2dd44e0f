"""The simulator's kernel: many games of optimal play, in step, their turns' tables shared.

A game's turn needs the turn's table at its own card and upper total: every roll scored, every
keep's expectation, at the levels the turn can still use (what :func:`.packed.lean_turn` works
out for the coach). All the games play a turn before any plays the next, listed by state, so
games in the same state share one table: every game on the first turn, a few hundred states on
the last; over 100,000 games of Yatzy, a table for an eighth of the games' turns. One state's
table is too small for vector code (one upper total), so a thread works out :data:`BLOCK`
states' tables at once, a state a column: the solver's expectations and best keeps over the
columns, each roll's scoring a maximum over the boxes, a vector over the states. Then each game
rolls its dice and picks from its state's column: the best keep of a roll from a precomputed
list of its sub-multisets, then the best box. The same dice and the same values as one game at
a time, so the same games (``tests/helpers/playout_oracle.py`` keeps that simulator to check it).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, prange

from .kernel import FAST, MODE_BANK, MODE_YAHTZEE, NEG, best_keeps, expect
from .packed import joker_value


def read_only(values: np.ndarray) -> np.ndarray:
    """A value table as the kernels should see it: contiguous and read-only, like a loaded
    (memory-mapped) one. Numba compiles each kernel once per kind of array (17-26 s a kernel on
    a loaded 2-core machine), so a table built in this process shares a loaded one's code."""
    values = np.ascontiguousarray(values)
    if values.flags.writeable:
        values = values.view()
        values.flags.writeable = False
    return values


@njit(cache=True, nogil=True)
def _next_u64(state):  # noqa: ANN001, ANN201
    """splitmix64: returns (new state, output)."""
    state = (state + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def _die(state):  # noqa: ANN001, ANN201
    """An unbiased face 1..6: top three bits of a 64-bit draw, rejecting 6 and 7."""
    while True:
        state, z = _next_u64(state)
        v = z >> np.uint64(61)
        if v < 6:
            return state, int(v) + 1


BLOCK = 128
"""States whose turn's tables a thread works out at once: one array, a state a column."""


@njit(cache=True, nogil=True, fastmath=FAST)
def _score_level(j, Sj, ms, auxs, us, V, score, is_upper, open_bits, cap, mode, ycat, jok,
                 five_face, extra_bonus, up_pts, up_idx, pos_ptr, pos_cat, bl, bu, b0, b1, Z):  # noqa: ANN001, ANN201
    """Sj[r, g]: the best value of scoring roll r now in state g (card ms[g], aux auxs[g], upper
    total us[g]), the next state's aux j (a bank) — :func:`.packed.lean_turn`'s scoring, the same
    values, for every state of a block at once.

    First each box's value in each state, a state a column (bl: a lower box, its points aside;
    bu: an upper box at each of its few points; b0, b1: the Yahtzee box without and with its 50;
    a box filled in a state is NEG there, so it never wins); then each roll's row is a maximum
    over the boxes, a vector over the states. A joker (its state's Yahtzee box filled) is played
    state by state, as lean_turn plays it.
    """
    C, NR = score.shape
    G = ms.shape[0]
    UPW = up_pts.shape[1]
    ymode = mode == MODE_YAHTZEE
    one = np.float32(1 + pos_ptr[0])  # 1.0, from the data: see kernel.best_keeps
    for c in range(C):
        for g in range(G):
            m = ms[g]
            if (open_bits[m] >> c) & 1 == 0:
                bl[c, g] = NEG
                for i in range(UPW):
                    bu[c, i, g] = NEG
                if ymode and c == ycat:
                    b0[g] = NEG
                    b1[g] = NEG
                continue
            nm, u = m | (1 << c), us[g]
            ak = auxs[g] if ymode else j
            if is_upper[c]:
                for i in range(UPW):
                    p = up_pts[c, i]
                    bu[c, i, g] = np.float32(p) + V[nm, ak, min(u + p, cap)]
            elif ymode and c == ycat:
                b0[g] = V[nm, 0, u]
                b1[g] = V[nm, 1, u]
            else:
                bl[c, g] = V[nm, ak, u]
    # the best box filled with 0 points, once a state: a box where a roll scores is worth at least
    # its zero (values rise with the upper total, and with the 50 scored), so each roll visits
    # only the boxes where it scores (pos_cat) and the maximum is the same
    for g in range(G):
        Z[g] = NEG
    for c in range(C):
        src = bu[c, 0] if is_upper[c] else (b0 if ymode and c == ycat else bl[c])
        for g in range(G):
            Z[g] = max(Z[g], src[g]) * one
    for r in range(NR):
        row = Sj[r]
        for g in range(G):
            row[g] = Z[g]
        for i in range(pos_ptr[r], pos_ptr[r + 1]):
            c = pos_cat[i]
            if is_upper[c]:
                src = bu[c, up_idx[c, r]]
                for g in range(G):
                    row[g] = max(row[g], src[g]) * one
            else:
                p = score[c, r]
                src = b1 if ymode and c == ycat else bl[c]
                pf = np.float32(p)
                for g in range(G):
                    row[g] = max(row[g], pf + src[g]) * one
    if ymode:
        for g in range(G):
            m, a, u = ms[g], auxs[g], us[g]
            if (m >> ycat) & 1 == 0:
                continue
            bonus = np.float32(extra_bonus if a == 1 else 0.0)
            for r in range(NR):
                if five_face[r] > 0:
                    Sj[r, g] = joker_value(jok[m, five_face[r] - 1], m, a, u, V, is_upper, cap, bonus)


@njit(cache=True, nogil=True, fastmath=FAST)
def _turn_tables(L, ms, auxs, us, V, score, is_upper, open_bits, cap, n, child, start, mode, ycat,
                 jok, five_face, extra_bonus, bank_cap, must_keep_one, sub_ptr, sub_idx, pos_ptr,
                 pos_cat, up_pts, up_idx, S, EX, bl, bu, b0, b1, Z):  # noqa: ANN001, ANN201
    """S[j, r, g] (score roll r with j rolls left) and EX[j, k, g] (keep k with j rolls left
    after it) for j up to L, every state g of a block side by side: lean_turn's levels, the same
    values (the solver's expectations and best keeps over the states' columns)."""
    NR = score.shape[1]
    full0 = start[n]
    G = ms.shape[0]
    one = np.float32(1 + sub_ptr[0])  # 1.0, from the data: see kernel.best_keeps
    for j in range(L + 1):
        if j == 0 or (mode == MODE_BANK and j <= bank_cap):
            _score_level(j, S[j], ms, auxs, us, V, score, is_upper, open_bits, cap, mode, ycat, jok,
                         five_face, extra_bonus, up_pts, up_idx, pos_ptr, pos_cat, bl, bu, b0, b1, Z)
        else:
            S[j] = S[j - 1]
    if L == 0:
        return
    X = EX[0]
    X[full0:] = S[0]
    expect(X, child, start, n, G)
    for j in range(1, L):
        Y = EX[j]
        Y[:] = EX[j - 1]
        for r in range(NR):
            for g in range(G):
                Y[full0 + r, g] = max(S[j, r, g], Y[full0 + r, g]) * one
        best_keeps(Y, sub_ptr, sub_idx, G, must_keep_one)
        expect(Y, child, start, n, G)


@njit(cache=True, nogil=True)
def _choose_keep(g, r, left, S, EX, roll_ptr, roll_subs, must_keep_one):  # noqa: ANN001, ANN201
    """The keep worth more than scoring now (index), or -1 to score roll r, in column g of a block
    (S and EX as _turn_tables fills them)."""
    best_v = np.float64(S[left, r, g])
    best_k = -1
    ex = EX[left - 1]
    # the empty keep comes first in a roll's list; the choice without a branch (it looks random)
    first = roll_ptr[r] + (1 if must_keep_one and roll_subs[roll_ptr[r]] == 0 else 0)
    for i in range(first, roll_ptr[r + 1]):
        k = roll_subs[i]
        v = np.float64(ex[k, g])
        better = v > best_v + 1e-6
        best_v = v if better else best_v
        best_k = k if better else best_k
    return best_k


@njit(cache=True, nogil=True)
def _new_games(n_games, first, seed):  # noqa: ANN001, ANN201
    """Each game's dice stream before its first turn: its own (seed, game), so a game is the
    same however the games are split into calls."""
    rngs = np.empty(n_games, dtype=np.uint64)
    for g in range(n_games):
        rngs[g] = (np.uint64(seed) * np.uint64(1000003)
                   + np.uint64(first + g) * np.uint64(0x632BE59BD9B4E019))
    return rngs


@njit(cache=True, nogil=True, parallel=True)
def _play_turn(keys, totals, rngs, A, span, V, score, is_upper, open_bits, cap, n, child, start,
               mode, ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr,
               sub_idx, pos_ptr, pos_cat, roll_ptr, roll_subs, up_pts, up_idx):  # noqa: ANN001, ANN201
    """Every game's next turn, in place. A game's state is a number, its key: (card × (cap + 1)
    + upper total) × A + aux. The games are listed by key, so games in the same state are
    neighbours and share a column of the turn's table. A thread takes ``span`` neighbours at a
    time: up to BLOCK of their states' tables at once (:func:`_turn_tables`), then each of those
    games plays its turn from its state's column."""
    n_games = keys.shape[0]
    full0 = start[n]
    NK, NR, C = child.shape[0], score.shape[1], score.shape[0]
    levels = rolls - 1 + (bank_cap if mode == MODE_BANK else 0)
    UPW = up_pts.shape[1]
    for sp in prange((n_games + span - 1) // span):
        lo = sp * span
        hi = min(n_games, lo + span)
        col = np.empty(hi - lo, dtype=np.int64)  # a game's column: its state's
        sm = np.empty(BLOCK, dtype=np.int64)
        sa = np.empty(BLOCK, dtype=np.int64)
        su = np.empty(BLOCK, dtype=np.int64)
        b0 = np.empty(BLOCK, dtype=np.float32)
        b1 = np.empty(BLOCK, dtype=np.float32)
        Z = np.empty(BLOCK, dtype=np.float32)
        i = lo
        while i < hi:
            G, L, e, prev = 0, 0, i, np.int64(-1)
            while e < hi:  # games i..e-1: G states
                key = keys[e]
                if key != prev:
                    if G == BLOCK:
                        break
                    sm[G], su[G], sa[G], prev = key // A // (cap + 1), key // A % (cap + 1), key % A, key
                    L = max(L, rolls - 1 + (sa[G] if mode == MODE_BANK else 0))
                    G += 1
                col[e - lo] = G - 1
                e += 1
            S = np.empty((levels + 1, NR, G), dtype=np.float32)
            EX = np.empty((max(levels, 1), NK, G), dtype=np.float32)
            bl = np.empty((C, G), dtype=np.float32)
            bu = np.empty((C, UPW, G), dtype=np.float32)
            _turn_tables(L, sm[:G], sa[:G], su[:G], V, score, is_upper, open_bits, cap, n, child,
                         start, mode, ycat, jok, five_face, extra_bonus, bank_cap, must_keep_one,
                         sub_ptr, sub_idx, pos_ptr, pos_cat, up_pts, up_idx, S, EX, bl, bu,
                         b0[:G], b1[:G], Z[:G])
            for g in range(i, e):
                cg = col[g - lo]
                m, a, u, rng = sm[cg], sa[cg], su[cg], rngs[g]
                left = rolls - 1 + (a if mode == MODE_BANK else 0)
                k = 0
                while True:
                    while k < full0:  # roll the missing dice one at a time
                        rng, f = _die(rng)
                        k = child[k, f - 1]
                    r = k - full0
                    if left == 0:
                        break
                    k = _choose_keep(cg, r, left, S, EX, roll_ptr, roll_subs,
                                     must_keep_one)
                    if k < 0:
                        break
                    left -= 1
                joker = mode == MODE_YAHTZEE and five_face[r] > 0 and (m >> ycat) & 1 == 1
                if mode == MODE_BANK or joker:
                    c_best, pts_best, a_best = _best_box(r, left, m, a, u, V, score, is_upper,
                                                          open_bits, cap, mode, ycat, jok,
                                                          five_face, bank_cap)
                else:
                    c_best, pts_best, a_best = _best_box_of(cg, r, m, a, score, is_upper,
                                                            open_bits, mode, ycat, up_idx, bl,
                                                            bu, b0, b1)
                if joker and a == 1:
                    totals[g] += int(extra_bonus)
                totals[g] += pts_best
                u2 = min(u + pts_best, cap) if is_upper[c_best] else u
                keys[g] = ((m | (1 << c_best)) * (cap + 1) + u2) * A + a_best
                rngs[g] = rng
            i = e


SPANS = 32
"""Runs of neighbouring games a turn is split into, for the threads to share (a state on the
border of two runs has its table worked out twice)."""


def simulate(n_games: int, first: int, seed: int, V: np.ndarray, score: np.ndarray,
             is_upper: np.ndarray, open_bits: np.ndarray, cap: int, n: int, child: np.ndarray,
             start: np.ndarray, mode: int, ycat: int, jok: np.ndarray, five_face: np.ndarray,
             extra_bonus: float, rolls: int, bank_cap: int, must_keep_one: bool,
             sub_ptr: np.ndarray, sub_idx: np.ndarray, pos_ptr: np.ndarray, pos_cat: np.ndarray,
             roll_prob: np.ndarray, bonus_points: int, roll_ptr: np.ndarray,
             roll_subs: np.ndarray, up_pts: np.ndarray, up_idx: np.ndarray,
             turn_done: Callable[[int], None] | None = None) -> np.ndarray:
    """Play games first..first + n_games - 1 with the optimal policy; each one's final score.

    The games play in step, a turn at a time for all of them: games in the same state share
    the turn's table (all of them on the first turn, most on the last ones): tables for an
    eighth of the games' turns in 100,000 games of Yatzy, a tenth in Yahtzee. ``turn_done``
    hears each turn's number (1, 2, ...) once every game has played it."""
    rngs = _new_games(n_games, first, seed)
    keys, totals, games = (np.zeros(n_games, dtype=np.int64), np.zeros(n_games, dtype=np.int64),
                           np.arange(n_games, dtype=np.int64))
    A = V.shape[1]
    span = max(BLOCK, -(-n_games // SPANS))
    bits = max(1, n_games.bit_length())
    places = np.arange(n_games, dtype=np.int64)
    for turn in range(score.shape[0]):
        # the games listed by state, each one's numbers with it (a sort of key and place is
        # quicker than an argsort)
        place = np.sort((keys << bits) | places) & ((1 << bits) - 1)
        keys, totals, rngs, games = keys[place], totals[place], rngs[place], games[place]
        _play_turn(keys, totals, rngs, A, span, V, score, is_upper, open_bits, cap, n, child,
                   start, mode, ycat, jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one,
                   sub_ptr, sub_idx, pos_ptr, pos_cat, roll_ptr, roll_subs, up_pts, up_idx)
        if turn_done is not None:
            turn_done(turn + 1)
    out = np.empty(n_games, dtype=np.int64)
    us = keys // A % (cap + 1)
    out[games] = totals + np.where(us >= cap, bonus_points, 0)
    return out


@njit(cache=True, nogil=True, fastmath=FAST)
def _best_box_of(g, r, m, a, score, is_upper, open_bits, mode, ycat, up_idx, bl, bu, b0,
                 b1):  # noqa: ANN001, ANN201
    """:func:`_best_box` from the boxes' values the turn's scoring read for column g (bl, bu,
    b0, b1 as :func:`_score_level` leaves them), not from the table: the same sums, the same
    box. For a game that saves no rolls and plays no joker (the scoring's values are for no
    saved roll, and a joker is scored apart)."""
    pts_best, c_best, a_best = 0, -1, a
    v_best = NEG
    for c in range(score.shape[0]):
        if (open_bits[m] >> c) & 1 == 0:
            continue
        pts = score[c, r]
        a2 = a
        if is_upper[c]:
            v = bu[c, up_idx[c, r], g]
        elif mode == MODE_YAHTZEE and c == ycat:
            a2 = 1 if pts > 0 else 0
            v = np.float32(pts) + (b1[g] if pts > 0 else b0[g])
        else:
            v = np.float32(pts) + bl[c, g]
        if v > v_best:
            v_best, c_best, pts_best, a_best = v, c, pts, a2
    return c_best, pts_best, a_best


@njit(cache=True, nogil=True, fastmath=FAST)
def _best_box(r, left, m, a, u, V, score, is_upper, open_bits, cap, mode, ycat, jok, five_face,
              bank_cap):  # noqa: ANN001, ANN201
    """(box, points, next aux) of the best box to fill with roll r, `left` rolls unused."""
    pts_best, c_best, a_best = 0, -1, a
    v_best = NEG
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
        a2 = 0
        if mode == MODE_BANK:
            a2 = min(left, bank_cap)
        elif mode == MODE_YAHTZEE:
            a2 = a
            if c == ycat:
                a2 = 1 if pts > 0 else 0
        u2 = min(u + pts, cap) if is_upper[c] else u
        v = np.float32(pts) + V[m | (1 << c), a2, u2]
        if v > v_best:
            v_best, c_best, pts_best, a_best = v, c, pts, a2
    return c_best, pts_best, a_best
