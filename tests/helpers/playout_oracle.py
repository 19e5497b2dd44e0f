"""The simulator as it was before it played a block of games side by side: each game its own
turns through :func:`yatzy.solver.packed.lean_turn`, one game after another. Kept as the
oracle the side-by-side simulator must equal game for game (the same dice, the same choices)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from yatzy.solver.kernel import MODE_BANK, MODE_YAHTZEE
from yatzy.solver.packed import flat, lean_turn
from yatzy.solver.playout import _best_box, _die


@njit(cache=True, nogil=True)
def _choose_keep(r, left, S, EX, NR, NK, roll_ptr, roll_subs, must_keep_one):  # noqa: ANN001, ANN201
    """The keep worth more than scoring now (index), or -1 to score roll r (S and EX flat, as
    lean_turn fills them)."""
    best_v = S[left * NR + r]
    best_k = -1
    for i in range(roll_ptr[r], roll_ptr[r + 1]):
        k = roll_subs[i]
        if must_keep_one and k == 0:
            continue
        v = EX[(left - 1) * NK + k]
        if v > best_v + 1e-6:
            best_v = v
            best_k = k
    return best_k


@njit(cache=True, nogil=True, parallel=True)
def simulate(n_games, first, seed, T, V, score, is_upper, open_bits, cap, n, child, start, mode, ycat,
             jok, five_face, extra_bonus, rolls, bank_cap, must_keep_one, sub_ptr, sub_idx,
             pos_ptr, pos_cat, roll_prob, bonus_points, roll_ptr, roll_subs):  # noqa: ANN001, ANN201
    """Play games first..first + n_games - 1 with the optimal policy; each one's final score.

    Game g's dice come from its own stream (seed, g), so results depend neither on threads
    nor on how the games are split into calls. ``T``: the packed tables (:func:`.packed.pack`)
    the turn reads; the rest are the solver's kernel arguments the choices read.
    """
    out = np.zeros(n_games, dtype=np.int64)
    full0 = start[n]
    NK, NR, C = child.shape[0], score.shape[1], score.shape[0]
    levels = rolls - 1 + (bank_cap if mode == MODE_BANK else 0)
    (_, _, _, fchild, _, fjok, _, _, _, _, _, _, _, removals, up_pts, _, scoref, upix) = flat(T)
    bonus = np.float32(extra_bonus)
    S0 = np.empty((levels + 1) * NR, dtype=np.float32)
    EX0 = np.empty((levels + 1) * NK, dtype=np.float32)
    Y0 = np.empty(NK, dtype=np.float32)
    zero = np.int64(0)  # typed int64 from the start: literal 0s make Numba compile the callees twice
    lean_turn(zero, zero, zero, rolls - 1, V, scoref, upix, is_upper, open_bits, cap, n, fchild, start, mode,
              ycat, fjok, five_face, bonus, bank_cap, must_keep_one, removals, up_pts, S0, EX0, Y0)
    block = 512
    n_blocks = (n_games + block - 1) // block
    for b in prange(n_blocks):
        S_buf = np.empty((levels + 1) * NR, dtype=np.float32)
        EX_buf = np.empty((levels + 1) * NK, dtype=np.float32)
        Y = np.empty(NK, dtype=np.float32)
        for i in range(b * block, min(n_games, (b + 1) * block)):
            g = first + i
            rng = np.uint64(seed) * np.uint64(1000003) + np.uint64(g) * np.uint64(0x632BE59BD9B4E019)
            m, a, u, total = zero, zero, zero, zero
            for turn in range(C):
                left = rolls - 1 + (a if mode == MODE_BANK else 0)
                if turn == 0:
                    S, EX = S0, EX0
                else:
                    lean_turn(m, a, u, left, V, scoref, upix, is_upper, open_bits, cap, n, fchild, start,
                              mode, ycat, fjok, five_face, bonus, bank_cap, must_keep_one, removals, up_pts,
                              S_buf, EX_buf, Y)
                    S, EX = S_buf, EX_buf
                k = 0
                while True:
                    while k < full0:  # roll the missing dice one at a time
                        rng, f = _die(rng)
                        k = child[k, f - 1]
                    r = k - full0
                    if left == 0:
                        break
                    k = _choose_keep(r, left, S, EX, NR, NK, roll_ptr, roll_subs, must_keep_one)
                    if k < 0:
                        break
                    left -= 1
                c_best, pts_best, a_best = _best_box(r, left, m, a, u, V, score, is_upper,
                                                      open_bits, cap, mode, ycat, jok, five_face,
                                                      bank_cap)
                if mode == MODE_YAHTZEE and five_face[r] > 0 and (m >> ycat) & 1 == 1 and a == 1:
                    total += int(extra_bonus)
                total += pts_best
                if is_upper[c_best]:
                    u = min(u + pts_best, cap)
                m |= 1 << c_best
                a = a_best
            if u >= cap:
                total += bonus_points
            out[i] = total
    return out
