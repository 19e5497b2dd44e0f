"""What the solver needs to know about a ruleset, read through the rules API only.

Scores come from ``Ruleset.score``, the boxes a player may fill from
``Ruleset.open_categories``, jokers from ``Ruleset.score_options``: the solver never
restates a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ..dice import Dice, all_rolls, probability, sub_multisets
from ..errors import InvalidActionError
from ..rules import Ruleset
from ..rulesets.yahtzee import YahtzeeRuleset
from .kernel import MODE_BANK, MODE_PLAIN, MODE_YAHTZEE


class KernelArgs(NamedTuple):
    """What every kernel takes after the state and the value table, in its order."""

    score: np.ndarray
    is_upper: np.ndarray
    open_bits: np.ndarray
    cap: int
    n: int
    child: np.ndarray
    start: np.ndarray
    mode: int
    ycat: int
    jok: np.ndarray
    five_face: np.ndarray
    extra_bonus: Any
    rolls: int
    bank_cap: int
    must_keep_one: bool
    sub_ptr: np.ndarray
    sub_idx: np.ndarray
    pos_ptr: np.ndarray
    pos_cat: np.ndarray
    roll_prob: np.ndarray


def keep_index(n: int) -> tuple[list[Dice], dict[Dice, int], np.ndarray]:
    """All keeps of 0..n dice sorted by size, their index, and where each size starts."""
    keeps: list[Dice] = []
    start = [0]
    for size in range(n + 1):
        keeps.extend(all_rolls(size) if size else [()])
        start.append(len(keeps))
    return keeps, {k: i for i, k in enumerate(keeps)}, np.array(start, dtype=np.int64)


@dataclass(frozen=True)
class SolverSpec:
    """Arrays describing one ruleset to the kernels."""

    ruleset: Ruleset
    bank_cap: int

    @property
    def n(self) -> int:
        return self.ruleset.dice

    @property
    def n_cat(self) -> int:
        return len(self.ruleset.categories)

    @cached_property
    def mode(self) -> int:
        if isinstance(self.ruleset, YahtzeeRuleset) and (
            self.ruleset.yahtzee_bonus or self.ruleset.joker != "none"
        ):
            return MODE_YAHTZEE
        return MODE_BANK if self.ruleset.saved_rolls else MODE_PLAIN

    @property
    def n_aux(self) -> int:
        return {MODE_PLAIN: 1, MODE_YAHTZEE: 2, MODE_BANK: self.bank_cap + 1}[self.mode]

    @cached_property
    def keeps(self) -> tuple[list[Dice], dict[Dice, int], np.ndarray]:
        return keep_index(self.n)

    @cached_property
    def rolls(self) -> tuple[Dice, ...]:
        return all_rolls(self.n)

    @property
    def levels(self) -> int:
        """Most rolls that can remain after a turn's first roll (saved rolls included)."""
        return self.ruleset.rolls_per_turn - 1 + (self.bank_cap if self.mode == MODE_BANK else 0)

    @cached_property
    def kernel_args(self) -> KernelArgs:
        """The kernels' shared arguments for this ruleset."""
        is_upper, cap, _ = self.bonus
        _, _, start = self.keeps
        child, _ = self.child_sub
        ycat, jok, five, extra = self.yahtzee
        return KernelArgs(self.score, is_upper, self.open_bits, cap, self.n, child, start,
                          self.mode, ycat, jok, five, np.float32(extra),
                          self.ruleset.rolls_per_turn, self.bank_cap,
                          self.ruleset.must_keep_one, *self.sub_lists[:2],
                          *_csr([np.flatnonzero(col > 0).tolist() for col in self.score.T]),
                          np.array([probability(r) for r in self.rolls], dtype=np.float64))

    @cached_property
    def child_sub(self) -> tuple[np.ndarray, np.ndarray]:
        keeps, index, _ = self.keeps
        child = np.full((len(keeps), 6), -1, dtype=np.int64)
        sub = np.full((len(keeps), 6), -1, dtype=np.int64)
        for i, k in enumerate(keeps):
            for f in range(1, 7):
                if len(k) < self.n:
                    child[i, f - 1] = index[tuple(sorted((*k, f)))]
                if f in k:
                    lst = list(k)
                    lst.remove(f)
                    sub[i, f - 1] = index[tuple(lst)]
        return child, sub

    @cached_property
    def sub_lists(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """CSR lists: each keep's one-die removals (best keeps), each roll's sub-keeps (playout).

        (sub_ptr, sub_idx, roll_ptr, roll_subs): keep k's removals are
        sub_idx[sub_ptr[k]:sub_ptr[k+1]]; roll r's keeps (itself and the empty keep
        included) are roll_subs[roll_ptr[r]:roll_ptr[r+1]].
        """
        keeps, index, _ = self.keeps
        _, sub = self.child_sub
        removals = [[int(j) for j in row if j >= 0] for row in sub]
        per_roll = [sorted(index[k] for k in sub_multisets(r)) for r in self.rolls]
        return (*_csr(removals), *_csr(per_roll))

    @cached_property
    def score(self) -> np.ndarray:
        rs = self.ruleset
        return np.array([[rs.score(c.id, r) for r in self.rolls] for c in rs.categories],
                        dtype=np.int64)

    @cached_property
    def bonus(self) -> tuple[np.ndarray, int, int]:
        """(is_upper per category, cap of u, bonus points)."""
        rs = self.ruleset
        if len(rs.bonuses) > 1:
            raise InvalidActionError(f"the exact solver does not handle {rs.name}'s two bonuses")
        is_upper = np.zeros(self.n_cat, dtype=np.bool_)
        if not rs.bonuses:
            return is_upper, 0, 0
        b = rs.bonuses[0]
        for i, c in enumerate(rs.categories):
            is_upper[i] = c.id in b.categories
        return is_upper, b.threshold + (1 if b.strict else 0), b.points

    @cached_property
    def full_mask(self) -> int:
        return (1 << self.n_cat) - 1

    def card(self, mask: int) -> dict[str, int]:
        """A stand-in card with the boxes of ``mask`` filled (points irrelevant)."""
        return {c.id: 0 for i, c in enumerate(self.ruleset.categories) if mask >> i & 1}

    @cached_property
    def open_bits(self) -> np.ndarray:
        """For each mask, the boxes that may be filled next (forced order honoured)."""
        rs = self.ruleset
        nm = 1 << self.n_cat
        if rs.order is None:
            return (~np.arange(nm, dtype=np.int64)) & self.full_mask
        ids = list(rs.category_ids)
        bits = np.zeros(nm, dtype=np.int64)
        for m in range(nm):
            for c in rs.open_categories(self.card(m)):
                bits[m] |= 1 << ids.index(c)
        return bits

    @cached_property
    def reachable_masks(self) -> np.ndarray:
        """Masks reachable from the empty card, in the order the DP needs (fullest first)."""
        if self.ruleset.order is None:
            masks = np.arange(1 << self.n_cat, dtype=np.int64)
        else:
            ids = list(self.ruleset.category_ids)
            masks = np.array([sum(1 << ids.index(c) for c in self.ruleset.order[:i])
                              for i in range(self.n_cat + 1)], dtype=np.int64)
        return masks

    def _upper_points(self, filled: bool) -> np.ndarray:
        """For each mask, the most its upper boxes can hold: those filled (``filled``) or those
        still open (the best points of each box, summed)."""
        is_upper, _, _ = self.bonus
        nm = 1 << self.n_cat
        best = self.score.max(axis=1)
        ar = np.arange(nm, dtype=np.int64)
        total = np.zeros(nm, dtype=np.int64)
        for i in range(self.n_cat):
            if is_upper[i]:
                total += (((ar >> i) & 1) == int(filled)) * best[i]
        return total

    @cached_property
    def umax(self) -> np.ndarray:
        """Largest capped upper total reachable in each mask."""
        return np.minimum(self._upper_points(filled=True), self.bonus[1])

    @cached_property
    def ulo(self) -> np.ndarray:
        """In each mask, the highest upper total from which the open upper boxes cannot reach
        the bonus threshold any more (0 where every total can; at most ``umax``): every total
        up to it has the same value, the bonus lost whatever it is."""
        cap = self.bonus[1]
        return np.minimum(np.maximum(cap - self._upper_points(filled=False) - 1, 0), self.umax)

    @cached_property
    def yahtzee(self) -> tuple[int, np.ndarray, np.ndarray, float]:
        """(yahtzee box index, joker points per mask/face/box or -1, face of five-of-a-kind rolls, bonus)."""
        five = np.array([r[0] if len(set(r)) == 1 else 0 for r in self.rolls], dtype=np.int64)
        if self.mode != MODE_YAHTZEE:
            return -1, np.full((1, 6, self.n_cat), -1, dtype=np.int64), five, 0.0
        rs = self.ruleset
        assert isinstance(rs, YahtzeeRuleset)
        ids = list(rs.category_ids)
        ycat = ids.index(rs.yahtzee_box)
        jok = np.full((1 << self.n_cat, 6, self.n_cat), -1, dtype=np.int64)
        for m in range(1 << self.n_cat):
            if not m >> ycat & 1 or m == self.full_mask:
                continue
            card = self.card(m)
            for f in range(1, 7):
                for cid, pts in rs.score_options(card, (f,) * self.n).items():
                    jok[m, f - 1, ids.index(cid)] = pts
        extra = float(rs.extra_points({rs.yahtzee_box: rs.by_id[rs.yahtzee_box].max}, (1,) * self.n))
        return ycat, jok, five, extra

    def upper_reach(self) -> np.ndarray:
        """reach[m, u]: the capped upper total u can be had with the boxes of mask m filled
        (not kept: Maxi's is 90 MB)."""
        is_upper, cap, _ = self.bonus
        scores = [np.array(sorted(set(self.score[c].tolist())), dtype=np.int64)
                  for c in range(self.n_cat)]
        width = max(len(x) for x in scores)
        table = np.full((self.n_cat, width), -1, dtype=np.int64)
        for c, x in enumerate(scores):
            table[c, : len(x)] = x
        return reach_table(self.reachable_masks, self.open_bits, is_upper, table, cap, self.n_cat)

    @property
    def table_bytes(self) -> int:
        """Bytes of the value table: a float32 for every card, aux and capped upper total."""
        return (1 << self.n_cat) * self.n_aux * (self.bonus[1] + 1) * 4

    def states(self) -> int:
        """Number of reachable states (mask, capped upper total, aux) the solution covers."""
        per_mask = self.upper_reach().sum(axis=1)
        if self.mode == MODE_YAHTZEE:
            has_y = (np.arange(1 << self.n_cat) >> self.yahtzee[0]) & 1
            return int((per_mask * (1 + has_y)).sum())
        return int(per_mask.sum()) * self.n_aux


def _csr(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    ptr = np.zeros(len(lists) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(x) for x in lists])
    return ptr, np.array([i for x in lists for i in x], dtype=np.int64)


@njit(cache=True, nogil=True)
def reach_table(masks, open_bits, is_upper, table, cap, n_cat):  # noqa: ANN001, ANN201
    """reach[m, u]: capped upper total u is reachable with the boxes of m filled."""
    nm = 1 << n_cat
    reach = np.zeros((nm, cap + 1), dtype=np.bool_)
    reach[0, 0] = True
    pop = np.zeros(masks.shape[0], dtype=np.int64)
    for i in range(masks.shape[0]):
        m = masks[i]
        while m:
            pop[i] += m & 1
            m >>= 1
    order = masks[np.argsort(pop, kind="mergesort")]
    for m in order:
        opn = open_bits[m]
        for c in range(n_cat):
            if not (opn >> c) & 1:
                continue
            here, nxt = reach[m], reach[m | (1 << c)]
            if not is_upper[c]:
                for u in range(cap + 1):  # whole rows, no branch: the loops vectorize
                    nxt[u] |= here[u]
                continue
            for j in range(table.shape[1]):
                p = table[c, j]
                if p < 0:
                    continue
                lim = max(cap - p, 0)
                for u in range(lim):
                    nxt[u + p] |= here[u]
                top = False
                for u in range(lim, cap + 1):
                    top |= here[u]
                nxt[cap] |= top
    return reach
