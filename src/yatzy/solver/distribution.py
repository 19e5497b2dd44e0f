"""The exact distribution of the final score under optimal (EV) play, computed over the states.

Forward, card by card from the empty one (Delta Yatzy's way): every state (filled boxes,
aux, capped upper total) a game can reach holds the distribution of the points scored so
far, a float64 vector. Each state's turn is played once with chances instead of dice, by
the simulator's own choices (:mod:`.dist_kernel`), and its vector is pushed, shifted by
each outcome's points, into the states the turn leads to. At the full card the bonus is
added where the upper total made it. Only two layers (cards with k and k + 1 boxes filled)
are held at a time.

Three numbers say how exact it is: ``mean`` (the distribution's mean), ``policy_value`` (the
same policy's expected score summed turn by turn in float64, by linearity: it checks the
distribution's bookkeeping to ~1e-9) and ``table_value`` (the float32 table's start value,
within ~1e-4 of both: the table's rounding).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numba
import numpy as np

from ..errors import InvalidActionError
from ..i18n import _
from ..rules import Ruleset
from . import dist_kernel
from .kernel import MODE_BANK, MODE_YAHTZEE
from .solve import Solution
from .spec import SolverSpec

PERCENTS = (1, 5, 10, 25, 50, 75, 90, 95, 99)
THRESHOLDS = (200, 250, 300, 325, 350)
CHUNK = 4096
"""Source states whose turns are worked out before their vectors are pushed."""

Progress = Callable[[int, int], None]
"""Called with (states done, states in all) as chunks finish."""


@dataclass(frozen=True)
class Layer:
    """The states of the cards with one number of boxes filled, and where each one's vector lies.

    Segment (i * n_aux + a) * (cap + 1) + u is state (masks[i], a, u); an unreachable one
    has length 0.
    """

    masks: np.ndarray
    seg_len: np.ndarray
    seg_off: np.ndarray

    @property
    def size(self) -> int:
        return int(self.seg_len.sum())


@dataclass(frozen=True)
class Plan:
    """The layers, and what the pass will hold at its peak."""

    spec: SolverSpec
    layers: list[Layer]
    out_width: int
    p_max: int
    peak_bytes: int

    @property
    def states(self) -> int:
        return sum(int((layer.seg_len > 0).sum()) for layer in self.layers)



def spec_of(ruleset: Ruleset) -> SolverSpec:
    """The spec :func:`.solve.solve` solves the ruleset with (its bank cap, if it saves rolls)."""
    cap = ruleset.bank_cap if ruleset.bank_cap is not None else ruleset.solver_bank_cap
    return SolverSpec(ruleset, cap if ruleset.saved_rolls else 0)


def memory_budget() -> int:
    """Bytes the pass may take: half the machine's memory."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2


def _gib(n: int) -> str:
    return f"{n / 2**30:.1f}"


def plan(spec: SolverSpec, budget: int | None = None) -> Plan:
    """Lay out the states' vectors; refuse a ruleset whose pass would not fit in ``budget``.

    Needs no value table, so it refuses before a long solve.

    :raises InvalidActionError: the pass would take more memory than the budget (the
        message names how much it would take).
    """
    rs = spec.ruleset
    is_upper, cap, _points = spec.bonus
    n_cat, n_aux = spec.n_cat, spec.n_aux
    masks = spec.reachable_masks
    pop = np.bitwise_count(masks).astype(np.int64)
    ycat, jok, _five, extra = spec.yahtzee
    box_max = spec.score.max(axis=1)
    if spec.mode == MODE_YAHTZEE:
        box_max = np.maximum(box_max, jok.max(axis=(0, 1)))
    p_max = int(box_max.max())
    budget = memory_budget() if budget is None else budget
    reach = dist_kernel.reach_table(masks[np.argsort(pop, kind="mergesort")], spec.open_bits,
                                    is_upper, _upper_scores(spec), cap, n_cat)[masks]
    # a state's points so far lie in [u, u + lower boxes' most] below the bonus line
    # (the upper boxes hold exactly u there), in [cap, all filled boxes' most] at it
    up_most = np.zeros(len(masks), dtype=np.int64)
    low_most = np.zeros(len(masks), dtype=np.int64)
    for c in range(n_cat):
        (up_most if is_upper[c] else low_most)[:] += (masks >> c & 1) * int(box_max[c])
    auxes = np.arange(n_aux)
    if spec.mode == MODE_YAHTZEE:  # aux 1: the box holds 50, a bonus can come every turn after
        valid = (auxes == 0) | (masks[:, None] >> ycat & 1 == 1)
        low_most = low_most[:, None] + (auxes == 1) * int(extra) * np.maximum(pop - 1, 0)[:, None]
    else:
        low_most = np.repeat(low_most[:, None], n_aux, axis=1)
        most_saved = np.minimum(spec.bank_cap, (rs.rolls_per_turn - 1) * pop) if spec.mode == MODE_BANK else 0
        valid = auxes[None, :] <= np.broadcast_to(most_saved, pop.shape)[:, None]
    # layer sizes first, from counts, so a far too big ruleset is refused before its arrays
    below, at = reach[:, :cap].sum(axis=1), reach[:, cap]
    per_card = (valid * (below[:, None] * (low_most + 1)
                         + at[:, None] * ((up_most - cap)[:, None] + low_most + 1))).sum(axis=1)
    sizes = [int(per_card[pop == k].sum()) for k in range(n_cat + 1)]
    distinct = sum(len(set(spec.score[c].tolist()) | set(jok[..., c].ravel().tolist()))
                   for c in range(n_cat))
    width = distinct * (min(n_aux, rs.rolls_per_turn + spec.bank_cap) if spec.mode == MODE_BANK
                        else n_aux) * (2 if spec.mode == MODE_YAHTZEE else 1)
    need = peak_bytes(spec, sizes, width)
    if need > budget:
        raise InvalidActionError(
            _("the exact distribution of {rules} would take {need} GiB of memory; this machine "
              "allows {budget} GiB (half its memory)").format(
                rules=rs.name, need=_gib(need), budget=_gib(budget)))
    u = np.arange(cap + 1)
    layers = []
    for k in range(n_cat + 1):
        here = pop == k
        width_of = np.where(u < cap, low_most[here][:, :, None] + 1,
                            (up_most[here] - cap)[:, None, None] + low_most[here][:, :, None] + 1)
        flat = (width_of * (valid[here][:, :, None] & reach[here][:, None, :])).ravel()
        off = np.zeros_like(flat)
        off[1:] = np.cumsum(flat)[:-1]
        layers.append(Layer(masks[here], flat, off))
    return Plan(spec, layers, width, p_max, need)


def peak_bytes(spec: SolverSpec, sizes: list[int], out_width: int) -> int:
    """What the pass holds at most: two layers' vectors, a chunk's outcomes, the value table."""
    two = max(a + b for a, b in zip(sizes, sizes[1:], strict=False)) if len(sizes) > 1 else sizes[0]
    cap = spec.bonus[1]
    table = (1 << spec.n_cat) * spec.n_aux * (cap + 1) * 4
    return 8 * two + CHUNK * out_width * 24 + table


def _upper_scores(spec: SolverSpec) -> np.ndarray:
    """Each box's possible points, padded with -1 (what the reach table adds to u)."""
    scores = [sorted(set(spec.score[c].tolist())) for c in range(spec.n_cat)]
    table = np.full((spec.n_cat, max(len(x) for x in scores)), -1, dtype=np.int64)
    for c, x in enumerate(scores):
        table[c, : len(x)] = x
    return table


def _auxes(spec: SolverSpec, mask: int, filled: int) -> range:
    """The aux values a card with these boxes filled can have."""
    if spec.mode == MODE_YAHTZEE:
        return range(2 if mask >> spec.yahtzee[0] & 1 else 1)
    if spec.mode == MODE_BANK:
        return range(min(spec.bank_cap, (spec.ruleset.rolls_per_turn - 1) * filled) + 1)
    return range(1)


@dataclass(frozen=True)
class Distribution:
    """The final score's distribution under optimal play, and how it was had."""

    rules: str
    pmf: np.ndarray
    """pmf[s]: the chance of ending with s points."""
    policy_value: float
    table_value: float
    seconds: float
    peak_bytes: int
    states: int
    """States the pass worked through (those optimal play reaches)."""
    scores: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", np.arange(len(self.pmf), dtype=np.float64))

    @property
    def mean(self) -> float:
        return float(self.scores @ self.pmf)

    @property
    def sd(self) -> float:
        return math.sqrt(max(0.0, float(((self.scores - self.mean) ** 2) @ self.pmf)))

    def percentile(self, q: float) -> int:
        """The smallest score whose cumulative chance reaches q percent."""
        cdf = np.cumsum(self.pmf)
        return int(np.searchsorted(cdf, q / 100 - 1e-12))

    def at_least(self, score: int) -> float:
        """P(final >= score), from the top down so it never grows with the score."""
        tail = np.cumsum(self.pmf[::-1])[::-1]
        return float(tail[max(score, 0)]) if score < len(tail) else 0.0

    def to_dict(self) -> dict[str, object]:
        return {"rules": self.rules, "mean": self.mean, "sd": self.sd,
                "policy_value": self.policy_value, "table_value": self.table_value,
                "percentiles": {str(q): self.percentile(q) for q in PERCENTS},
                "at_least": {str(t): self.at_least(t) for t in THRESHOLDS},
                "pmf": [[int(s), float(p)] for s, p in enumerate(self.pmf) if p > 0],
                "states": self.states, "seconds": self.seconds, "peak_bytes": self.peak_bytes}


def distribution(solution: Solution, progress: Progress | None = None,
                 the_plan: Plan | None = None) -> Distribution:
    """The exact final-score distribution of optimal play with ``solution``'s table."""
    t0 = time.perf_counter()
    spec = solution.spec
    p = the_plan or plan(spec)
    cap, bonus_points = spec.bonus[1:]
    n_aux, n_y = spec.n_aux, 2 if spec.mode == MODE_YAHTZEE else 1
    values = np.ascontiguousarray(solution.values)
    roll_ptr, roll_subs = spec.sub_lists[2:]
    out_tgt = np.empty((CHUNK, p.out_width), dtype=np.int64)
    out_shift = np.empty((CHUNK, p.out_width), dtype=np.int64)
    out_prob = np.empty((CHUNK, p.out_width), dtype=np.float64)
    out_n = np.empty(CHUNK, dtype=np.int64)
    turn_pts = np.empty(CHUNK, dtype=np.float64)
    mass = np.empty(CHUNK, dtype=np.float64)
    parts = 4 * numba.get_num_threads()
    total = sum(int((layer.seg_len > 0).sum()) for layer in p.layers[:-1])
    done, reached, value = 0, 0, 0.0
    D = np.ones(1, dtype=np.float64)
    for src, dst in zip(p.layers, p.layers[1:], strict=False):
        D2 = np.zeros(dst.size, dtype=np.float64)
        pos_of_mask = np.full(1 << spec.n_cat, -1, dtype=np.int64)
        pos_of_mask[dst.masks] = np.arange(len(dst.masks))
        seg = np.flatnonzero(src.seg_len)
        states = np.stack([src.masks[seg // (n_aux * (cap + 1))], seg // (cap + 1) % n_aux,
                           seg % (cap + 1)], axis=1).astype(np.int64)
        for c0 in range(0, len(seg), CHUNK):
            chunk = seg[c0:c0 + CHUNK]
            off, length = src.seg_off[chunk], src.seg_len[chunk]
            k = len(chunk)
            bad = dist_kernel.outcomes_of(
                states[c0:c0 + k], D, off, length, pos_of_mask, out_tgt, out_shift, out_prob,
                out_n[:k], turn_pts, mass, values, *spec.kernel_args, roll_ptr, roll_subs, n_aux,
                n_y, p.p_max)
            bad += dist_kernel.push(D, off, length, states[c0:c0 + k, 2], out_tgt, out_shift,
                                    out_prob, out_n[:k], D2, dst.seg_off, dst.seg_len, cap, parts)
            if bad:
                raise AssertionError(f"{bad} turn outcomes did not fit the distribution's layout")
            value += float(mass[:k] @ turn_pts[:k])
            reached += int((mass[:k] > 0).sum())
            done += k
            if progress is not None:
                progress(done, total)
        D = D2
    last = p.layers[-1]
    pmf = np.zeros(int(last.seg_len.max()) + cap + bonus_points, dtype=np.float64)
    for i in np.flatnonzero(last.seg_len).tolist():
        o, L = int(last.seg_off[i]), int(last.seg_len[i])
        u = i % (cap + 1)
        shift = u + (bonus_points if u == cap else 0)
        pmf[shift:shift + L] += D[o:o + L]
        if u == cap and bonus_points:
            value += bonus_points * float(D[o:o + L].sum())
    return Distribution(spec.ruleset.name, np.trim_zeros(pmf, "b"), value, solution.expected_score,
                        time.perf_counter() - t0, p.peak_bytes, reached)
