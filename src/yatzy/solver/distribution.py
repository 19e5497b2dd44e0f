"""The exact distribution of the final score under optimal (EV) play, computed over the states.

Forward, card by card from the empty one (Delta Yatzy's way): every state (filled boxes,
aux, capped upper total) a game can reach holds the distribution of the points scored so
far, a float64 vector. A card's turns are played once for all its reached upper totals,
with chances instead of dice, by the simulator's own choices (:mod:`.dist_kernel`), and
each state's vector is pushed, shifted by each outcome's points, into the states the turn
leads to. At the full card the bonus is added where the upper total made it. Only two
layers (cards with k and k + 1 boxes filled) are held at a time.

Three numbers say how exact it is: ``mean`` (the distribution's mean), ``policy_value`` (the
same policy's expected score summed turn by turn in float64, by linearity: it checks the
distribution's bookkeeping to ~1e-9) and ``table_value`` (the float32 table's start value,
within ~1e-4 of both: the table's rounding).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numba
import numpy as np

from ..errors import InvalidActionError
from ..i18n import _
from ..rules import Ruleset
from . import dist_kernel
from .kernel import MODE_BANK, MODE_YAHTZEE
from .playout import read_only
from .solve import Solution
from .spec import SolverSpec

PERCENTS = (1, 5, 10, 25, 50, 75, 90, 95, 99)
THRESHOLDS = (200, 250, 300, 325, 350)
ROOM = 1 << 22
"""Turn outcomes held at once (32 bytes each, 128 MB): cards are worked out in groups that
fit, each group a few parallel loops (fewer groups, less waiting for threads)."""
SMALL = 1 << 15
"""Outcomes below which a group is worked out on the calling thread alone."""

Progress = Callable[[int, int], None]
"""Called with (states done, states in all) as groups of cards finish."""


@dataclass(frozen=True)
class Layer:
    """The states of the cards with one number of boxes filled, and where each one's vector lies.

    Segment (i * n_aux + a) * (cap + 1) + u is state (masks[i], a, u); an unreachable one
    has length 0. room[i, a]: the most outcomes one turn from (masks[i], a, any u) can have.
    """

    masks: np.ndarray
    seg_len: np.ndarray
    seg_off: np.ndarray
    room: np.ndarray

    @property
    def size(self) -> int:
        return int(self.seg_len.sum())


@dataclass(frozen=True)
class BoxPoints:
    """Each box's possible points, numbered: box c's are val[start[c]:start[c + 1]], and
    index[c, points] is their number (what a turn's outcomes are counted by)."""

    index: np.ndarray
    start: np.ndarray
    val: np.ndarray


@dataclass(frozen=True)
class Plan:
    """The layers, and what the pass will hold at its peak."""

    spec: SolverSpec
    layers: list[Layer]
    points: BoxPoints
    room: int
    """Outcomes the pass holds at once (the most one card can have, if more than ROOM)."""
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


def box_points(spec: SolverSpec) -> BoxPoints:
    """Every box's possible points, a joker's included."""
    jok = spec.yahtzee[1]
    per_box = [sorted(set(spec.score[c].tolist()) | {int(p) for p in np.unique(jok[..., c]) if p >= 0})
               for c in range(spec.n_cat)]
    index = np.full((spec.n_cat, max(max(x) for x in per_box) + 1), -1, dtype=np.int64)
    start = np.zeros(spec.n_cat + 1, dtype=np.int64)
    start[1:] = np.cumsum([len(x) for x in per_box])
    for c, x in enumerate(per_box):
        index[c, x] = np.arange(start[c], start[c + 1])
    return BoxPoints(index, start, np.array([p for x in per_box for p in x], dtype=np.int64))


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
    budget = memory_budget() if budget is None else budget
    reach = spec.upper_reach()[masks]
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
    # a turn's outcomes: an open box's points, the aux after (saved rolls: the rolls left
    # unused), an extra Yahtzee bonus or not
    points = box_points(spec)
    open_bits = spec.open_bits[masks]
    per_box = np.diff(points.start)
    open_points = sum(((open_bits >> c) & 1) * int(per_box[c]) for c in range(n_cat))
    after = np.minimum(rs.rolls_per_turn + auxes, n_aux) if spec.mode == MODE_BANK else np.ones(n_aux)
    room = (open_points[:, None] * after[None, :] * (2 if spec.mode == MODE_YAHTZEE else 1)
            * valid).astype(np.int64)
    per_card_room = (room * reach.sum(axis=1)[:, None]).sum(axis=1)
    layer_room = max(int(per_card_room[pop == k].sum()) for k in range(n_cat + 1))
    most = max(min(ROOM, layer_room), int(per_card_room.max()))
    # layer sizes first, from counts, so a far too big ruleset is refused before its arrays
    below, at = reach[:, :cap].sum(axis=1), reach[:, cap]
    per_card = (valid * (below[:, None] * (low_most + 1)
                         + at[:, None] * ((up_most - cap)[:, None] + low_most + 1))).sum(axis=1)
    sizes = [int(per_card[pop == k].sum()) for k in range(n_cat + 1)]
    need = peak_bytes(spec, sizes, most)
    if need > budget:
        raise InvalidActionError(
            _("the exact distribution of {rules} would take {need} GiB of memory; this machine "
              "allows {budget} GiB (half its memory), so it would take a machine with {machine} "
              "GiB").format(rules=rs.name, need=_gib(need), budget=_gib(budget),
                            machine=math.ceil(2 * need / 2**30)))
    u = np.arange(cap + 1)
    layers = []
    for k in range(n_cat + 1):
        here = pop == k
        width_of = np.where(u < cap, low_most[here][:, :, None] + 1,
                            (up_most[here] - cap)[:, None, None] + low_most[here][:, :, None] + 1)
        flat = (width_of * (valid[here][:, :, None] & reach[here][:, None, :])).ravel()
        off = np.zeros_like(flat)
        off[1:] = np.cumsum(flat)[:-1]
        layers.append(Layer(masks[here], flat, off, room[here]))
    return Plan(spec, layers, points, most, need)


def peak_bytes(spec: SolverSpec, sizes: list[int], room: int) -> int:
    """What the pass holds at most: two layers' vectors, the outcomes held at once, the value
    table."""
    two = max(a + b for a, b in zip(sizes, sizes[1:], strict=False)) if len(sizes) > 1 else sizes[0]
    cap = spec.bonus[1]
    table = (1 << spec.n_cat) * spec.n_aux * (cap + 1) * 4
    return 8 * two + room * 32 + table


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
        """P(final >= score) under optimal (expected-score) play: the exact sum of the chances
        of the scores from ``score`` up (math.fsum, so it never grows with the score).

        :raises InvalidActionError: ``score`` is not a whole number of 0 or more.
        """
        return math.fsum(self.pmf[check_target(score):].tolist())

    def to_dict(self, targets: Sequence[int] = ()) -> dict[str, object]:
        """The JSON of ``yatzy distribution``; ``targets`` adds P(final >= t) for each."""
        out: dict[str, object] = {
            "rules": self.rules, "mean": self.mean, "sd": self.sd,
            "policy_value": self.policy_value, "table_value": self.table_value,
            "percentiles": {str(q): self.percentile(q) for q in PERCENTS},
            "at_least": {str(t): self.at_least(t) for t in THRESHOLDS}}
        if targets:
            out["targets"] = {str(t): self.at_least(t) for t in targets}
        return {**out, "pmf": [[int(s), float(p)] for s, p in enumerate(self.pmf) if p > 0],
                "states": self.states, "seconds": self.seconds, "peak_bytes": self.peak_bytes}


def check_target(score: object) -> int:
    """``score`` as a target: a whole number of points, 0 or more.

    :raises InvalidActionError: anything else (in the player's language).
    """
    if isinstance(score, bool) or not isinstance(score, int | np.integer):
        raise InvalidActionError(_("a target is a whole number of points, not “{target}”").format(
            target=score))
    if score < 0:
        raise InvalidActionError(_("a target is 0 points or more, not {target}").format(target=score))
    return int(score)


def parse_targets(texts: Sequence[str]) -> list[int]:
    """Targets as typed: each text one or a comma-separated list ("300" or "200,250"), in the
    order given, each once.

    :raises InvalidActionError: a piece that is not a whole number of 0 or more.
    """
    out: list[int] = []
    for text in texts:
        for piece in text.split(","):
            piece = piece.strip()
            try:
                value: object = int(piece)
            except ValueError:
                value = piece
            target = check_target(value)
            if target not in out:
                out.append(target)
    return out


def distribution(solution: Solution, progress: Progress | None = None,
                 the_plan: Plan | None = None) -> Distribution:
    """The exact final-score distribution of optimal play with ``solution``'s table."""
    t0 = time.perf_counter()
    spec = solution.spec
    p = the_plan or plan(spec)
    cap, bonus_points = spec.bonus[1:]
    values = read_only(solution.values)
    k = spec.kernel_args
    turn_args = (values, k.score, k.is_upper, k.open_bits, k.cap, k.n, k.child, k.start, k.mode,
                 k.ycat, k.jok, k.five_face, k.extra_bonus, k.rolls, k.bank_cap, k.must_keep_one,
                 k.sub_ptr, k.sub_idx, k.roll_prob, *spec.sub_lists[2:])
    threads = numba.get_num_threads()
    try:
        D, value, reached = _walk(p, turn_args, progress, threads)
    finally:
        numba.set_num_threads(threads)
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


def _walk(p: Plan, turn_args: tuple[object, ...], progress: Progress | None,
          threads: int) -> tuple[np.ndarray, float, int]:
    """Layer by layer from the empty card: the full cards' vectors, the policy's expected
    points before the bonus, the states reached."""
    spec = p.spec
    per_state = spec.bonus[1] + 1
    n_aux, n_y, n_cat = spec.n_aux, 2 if spec.mode == MODE_YAHTZEE else 1, spec.n_cat
    o_src, o_tgt, o_rel = (np.empty(p.room, dtype=np.int64) for _ in range(3))
    o_prob = np.empty(p.room, dtype=np.float64)
    total = sum(int((layer.seg_len > 0).sum()) for layer in p.layers[:-1])
    done, reached, value = 0, 0, 0.0
    D = np.ones(1, dtype=np.float64)
    M = np.zeros(len(p.layers[0].seg_len), dtype=np.float64)
    M[0] = 1.0  # the empty card, nothing scored
    for src, dst in zip(p.layers, p.layers[1:], strict=False):
        D2 = np.zeros(dst.size, dtype=np.float64)
        M2 = np.zeros(len(dst.seg_len), dtype=np.float64)
        pos_of_mask = np.full(1 << n_cat, -1, dtype=np.int64)
        pos_of_mask[dst.masks] = np.arange(len(dst.masks))
        n_cards = len(src.masks)
        live = (M > 0).reshape(n_cards, n_aux, per_state).sum(axis=2)
        need = np.cumsum((live * src.room).sum(axis=1))
        states = np.cumsum((src.seg_len > 0).reshape(n_cards, -1).sum(axis=1))
        lo = 0
        while lo < n_cards:  # cards in groups whose outcomes fit the room
            before = int(need[lo - 1]) if lo else 0
            hi = max(lo + 1, int(np.searchsorted(need, before + p.room, side="right")))
            region = np.zeros(hi - lo + 1, dtype=np.int64)
            region[1:] = need[lo:hi] - before
            cstart = np.empty((hi - lo, n_aux, n_cat + 1), dtype=np.int64)
            ev = np.empty(hi - lo, dtype=np.float64)
            n_reached = np.empty(hi - lo, dtype=np.int64)
            # a small group is quicker on this thread than woken threads (Kids, the last cards)
            numba.set_num_threads(1 if region[-1] < SMALL else threads)
            bad = dist_kernel.card_turns(
                lo, hi, src.masks, M, src.seg_len, pos_of_mask, n_aux, n_y, p.points.index,
                p.points.start, p.points.val, region, o_src, o_tgt, o_rel, o_prob, cstart, ev,
                n_reached, *turn_args)
            for c in range(n_cat):
                bad += dist_kernel.push(c, cstart, o_src, o_tgt, o_rel, o_prob, D, M,
                                        src.seg_off, src.seg_len, D2, M2, dst.seg_off, dst.seg_len)
            if bad:
                raise AssertionError(f"{bad} turn outcomes did not fit the distribution's layout")
            value += float(ev.sum())
            reached += int(n_reached.sum())
            done = int(states[hi - 1])
            if progress is not None:
                progress(done, total)
            lo = hi
        D, M = D2, M2
    return D, value, reached
