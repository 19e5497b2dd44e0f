"""DOZZY's planner: each turn planned exactly over the dice, the board it leaves valued.

The exact solver cannot reach DOZZY (the shared board ties the players together), so this
bot is approximate dynamic programming over one turn: every roll it could end the turn
with is valued as the points it scores, less what the box would be worth kept open, less
the cost of the tiles left out (with the rule that brings a board back to three tiles out
before a turn), plus the progress towards both bonuses; the keeps and the choice to stop are
then exact expectations over the dice. One plan (a few NumPy passes over the 252 rolls) is
made per turn and read by that turn's every decision, so a move costs milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from .dozzy_tables import Tables, mask_of, tables
from .game import Action, Game, Restore, Roll, Score
from .rules import Card, Ruleset


@dataclass(frozen=True)
class Weights:
    """The planner's valuation of what a turn leaves behind (tuned by self-play, solo: 80 to
    200 games a setting, seeds 50000 on, away from the measured ones)."""

    open_box: float = 0.8
    """A box kept open is worth this share of its expected score in a turn spent on it."""
    upper_par: float = 1.0
    """Per point above (below) three of a face in rows 1-6, while their bonus is open."""
    own_row_tile: float = 1.5
    """A tile out whose own row (1-12) is still open costs this much."""
    face_tile: float = 1.5
    """A face tile 1-6 out costs this much more with every lower box open (scaled down)."""
    sums_row_chance: float = 0.85
    """Rows 7-12's bonus (every row perfect) is valued as its points times this chance for
    each of their rows still open, while it can be earned (0: not valued)."""


_BITS = ((np.arange(4096)[:, None] >> np.arange(12)[None, :]) & 1).astype(bool)
"""Every 12-bit board mask's tiles, one row per mask."""


@dataclass(frozen=True)
class Plan:
    """One turn's values: what each roll is worth with 0, 1, 2 rolls left, and each keep."""

    gain: np.ndarray
    """(rolls, boxes) the worth of scoring each box with each roll (-inf: not open)."""
    value: tuple[np.ndarray, ...]
    """Per rolls left: (rolls,) the worth of holding each roll."""
    keep_value: tuple[np.ndarray, ...]
    """Per rolls left r >= 1: (keeps,) the worth of a keep rolled with r-1 rolls after it."""
    board_cost: np.ndarray
    """(4096,) the cost of each board left behind."""


@cache
def _dedicated(ruleset: Ruleset) -> np.ndarray:
    """Each box's expected score in a turn spent on it alone, every tile in play."""
    t = tables(ruleset)
    pts = t.faces(0).points.astype(float)
    best = pts
    for _ in range(ruleset.rolls_per_turn - 1):
        reroll = np.where(t.may_keep[:, :, None], (t.reach @ best)[None, :, :], -np.inf).max(axis=1)
        best = np.maximum(pts, reroll)
    return np.asarray(t.reach[t.keep_index[()]] @ best)


class DozzyPlanner:
    """Plans each DOZZY turn over the dice (see the module); only plays on a board.

    Deterministic: the same game gives the same move. ``plans`` counts the turns planned,
    the unit of its work (one per turn, whatever the number of decisions in it).
    """

    def __init__(self, ruleset: Ruleset, weights: Weights | None = None) -> None:
        if not ruleset.uses_board:
            raise ValueError("the DOZZY planner plays only on a board")
        self.ruleset = ruleset
        self.weights = weights or Weights()
        self.tables: Tables = tables(ruleset)
        self.dedicated = _dedicated(ruleset)
        self.plans = 0
        self._cached: tuple[object, Plan] | None = None

    # ---- the valuation -------------------------------------------------------------
    def tile_weights(self, card: Card) -> np.ndarray:
        """(12,) what each tile out costs the player of ``card``."""
        w = self.weights
        cats = self.ruleset.categories
        lower_open = [c for c in cats if c.section == "lower" and c.id not in card]
        share = len(lower_open) / max(1, sum(c.section == "lower" for c in cats))
        weights = np.zeros(12)
        for c in cats:
            tile = c.face or c.pair_sum
            if tile and c.id not in card:
                weights[tile - 1] += w.own_row_tile
        weights[:6] += w.face_tile * share
        return weights

    def board_cost(self, card: Card) -> np.ndarray:
        """(4096,) each board's cost: its tiles' weights, but at most the three cheapest
        (four or more out may be brought back to three before the next turn)."""
        if len(card) >= self.ruleset.turns - 1:
            return np.zeros(4096)  # the last box: the board no longer matters to this player
        weights = self.tile_weights(card)
        order = np.argsort(weights, kind="stable")
        bits = _BITS[:, order]
        kept = bits & (np.cumsum(bits, axis=1) <= 3)
        return np.asarray(kept @ weights[order])

    def plan(self, card: Card, out: int) -> Plan:
        """The turn's values for the player of ``card`` facing board ``out`` (a mask)."""
        key = (tuple(sorted(card.items())), out)
        if self._cached is not None and self._cached[0] == key:
            return self._cached[1]
        self.plans += 1
        plan = self._plan(card, out)
        self._cached = (key, plan)
        return plan

    def _plan(self, card: Card, out: int) -> Plan:
        rs, t = self.ruleset, self.tables
        cost = self.board_cost(card)
        ft = t.board(out)
        points, used, unused = ft.points, ft.used, ft.unused
        gain = points - self.weights.open_box * self.dedicated[None, :]
        gain = gain + self._upper_shaping(card, points) + self._sums_bonus(card, points)
        gain[:, ~t.moves_tiles] -= cost[out]
        moving = np.flatnonzero(t.moves_tiles)
        gain[:, moving] -= self._best_board(cost, out, used[:, moving], unused[:, moving])
        closed = [i for i, c in enumerate(rs.categories) if c.id in card]
        gain[:, closed] = -np.inf
        v0 = gain.max(axis=1)
        values, keeps = [v0], []
        for _ in range(rs.rolls_per_turn - 1):
            kv = t.reach @ values[-1]
            keeps.append(kv)
            values.append(np.maximum(v0, np.where(t.may_keep, kv[None, :], -np.inf).max(axis=1)))
        return Plan(gain, tuple(values), tuple(keeps), cost)

    def _upper_shaping(self, card: Card, points: np.ndarray) -> np.ndarray:
        """The upper bonus's part: its points when a score earns it, else the par term."""
        rs = self.ruleset
        shaping = np.zeros(points.shape)
        bonus = next((b for b in rs.bonuses if b.id == "bonus"), None)
        if bonus is None or bonus.earned(card) or not rs.bonus_reachable(bonus, card):
            return shaping
        have = sum(card.get(c, 0) for c in bonus.categories)
        for i, c in enumerate(rs.categories):
            if c.id in bonus.categories and c.id not in card and c.face:
                total = have + points[:, i]
                earned = total > bonus.threshold if bonus.strict else total >= bonus.threshold
                par = self.weights.upper_par * (points[:, i] - 3 * c.face)
                shaping[:, i] = np.where(earned, bonus.points, par)
        return shaping

    def _sums_bonus(self, card: Card, points: np.ndarray) -> np.ndarray:
        """Rows 7-12's bonus as a potential: its points times a chance per open row, while
        the card can still earn it; a score's part is the change it makes."""
        rs, q = self.ruleset, self.weights.sums_row_chance
        change = np.zeros(points.shape)
        bonus = next((b for b in rs.bonuses if b.id == "bonus_7_12"), None)
        if bonus is None or q <= 0 or bonus.earned(card) or not rs.bonus_reachable(bonus, card):
            return change
        still = [c for c in bonus.categories if c not in card]
        before = bonus.points * q ** len(still)
        for c in still:
            i = rs.category_ids.index(c)
            column = points[:, i]
            for p in np.unique(column):
                after = bonus.points * q ** (len(still) - 1) \
                    if rs.bonus_reachable(bonus, {**card, c: int(p)}) else 0.0
                change[column == p, i] = after - before
        return change

    def _best_board(self, cost: np.ndarray, out: int, used: np.ndarray,
                    unused: np.ndarray) -> np.ndarray:
        """The cheapest board each scoring can leave, over its ways to bring tiles back."""
        t = self.tables
        lens = t.split_len[unused].ravel()
        starts = np.cumsum(lens) - lens
        flat_splits = t.split_flat[np.repeat(t.split_start[unused].ravel() - starts, lens)
                                   + np.arange(starts[-1] + lens[-1])]
        base = np.repeat((out | used).ravel(), lens)
        returnable = np.repeat((out & ~used).ravel(), lens)
        boards = base & ~(flat_splits & returnable)
        return np.minimum.reduceat(cost[boards], starts).reshape(used.shape)

    # ---- the moves -----------------------------------------------------------------
    def act(self, game: Game) -> Action:
        st = game.state
        card = game.player.card
        n = game.may_restore()
        if n:
            weights = self.tile_weights(card)
            back = sorted(st.out, key=lambda tile: (-weights[tile - 1], -tile))[:n]
            return Restore(tuple(sorted(back)))
        if st.dice is None:
            return Roll()
        t = self.tables
        plan = self.plan(card, mask_of(st.out))
        here = t.roll_index[st.dice]
        r = game.rolls_left
        if r > 0:
            kv = plan.keep_value[r - 1]
            keeps = game.legal_keeps()
            best = max(keeps, key=lambda k: kv[t.keep_index[k]], default=None)
            if best is not None and kv[t.keep_index[best]] > plan.value[0][here] + 1e-9:
                return Roll(best)
        options = game.score_options()
        ids = [c.id for c in self.ruleset.categories]
        cat = max(options, key=lambda c: plan.gain[here, ids.index(c)])
        gone, backs = game.tile_moves(cat)
        after = [mask_of((st.out | gone) - b) for b in backs]
        choice = min(range(len(backs)), key=lambda i: (plan.board_cost[after[i]], after[i]))
        return Score(cat, tuple(sorted(backs[choice])))
