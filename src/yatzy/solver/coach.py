"""The coach: every legal option in a position ranked by exact expected score and regret."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..dice import Dice, sub_multisets
from ..errors import IllegalActionError, InvalidActionError
from ..game import Game
from . import kernel, playout
from .solve import Solution


@dataclass(frozen=True)
class Position:
    """What the coach needs: filled boxes, capped upper total, aux, dice and rolls left."""

    filled: frozenset[str]
    upper: int
    dice: Dice
    rolls_left: int
    aux: int = 0
    """Saved rolls (Maxi, Osto), or 1 when the Yahtzee box holds 50."""
    yahtzee_box: int | None = None


@dataclass(frozen=True)
class Option:
    action: str
    """"keep 3 3" or "score one_pair"."""
    value: float
    """Expected points still to come from here, this turn included."""
    regret: float
    odds: tuple[tuple[str, float], ...] = field(default=())
    """For keeps: chance of making each open box by the end of the turn."""

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"action": self.action, "value": round(self.value, 6),
                                "regret": round(self.regret, 6)}
        if self.odds:
            d["odds"] = {k: round(v, 6) for k, v in self.odds}
        return d


class Coach:
    """Ranks options with a solved table; also the engine behind the optimal bot."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self.spec = solution.spec
        self.ids = list(self.spec.ruleset.category_ids)
        self._values = np.ascontiguousarray(solution.values)

    # ---- positions --------------------------------------------------------------------
    def position(self, filled: Iterable[str], dice: Iterable[int], rolls_left: int,
                 upper: int | None = None, aux: int = 0) -> Position:
        rs = self.spec.ruleset
        names = frozenset(rs.category(c).id for c in filled)
        if len(names) == len(self.ids):
            raise IllegalActionError("every box is filled; the game is over")
        d = rs.check_dice(dice)
        levels = self.spec.levels
        if not 0 <= rolls_left <= levels:
            raise InvalidActionError(f"rolls left must be 0..{levels} here, got {rolls_left}")
        if upper is None or upper < 0:
            raise InvalidActionError("give the upper-section total so far (0 or more)")
        if not 0 <= aux < self.spec.n_aux:
            raise InvalidActionError(f"saved rolls must be 0..{self.spec.n_aux - 1}, got {aux}")
        return Position(names, upper, d, rolls_left, aux)

    def position_of(self, game: Game) -> Position:
        """The coach's view of the current player's position in a running game."""
        rs, st, p = self.spec.ruleset, game.state, game.player
        if st.dice is None:
            raise IllegalActionError("roll first: the coach ranks options for dice on the table")
        is_upper, _, _ = self.spec.bonus
        upper = sum(v for c, v in p.card.items() if is_upper[self.ids.index(c)])
        if rs.saved_rolls:
            aux = min(p.bank, self.spec.bank_cap)
            rolls_left = min(game.rolls_left, self.spec.levels)
        else:
            aux = 1 if self.spec.n_aux == 2 and p.card.get("yahtzee") == 50 else 0
            rolls_left = game.rolls_left
        return Position(frozenset(p.card), upper, st.dice, rolls_left, aux)

    # ---- ranking ----------------------------------------------------------------------
    def _mask(self, pos: Position) -> int:
        return sum(1 << self.ids.index(c) for c in pos.filled)

    def options(self, pos: Position, with_odds: bool = True) -> list[Option]:
        """Every distinct keep (if rolls remain) and every box allowed, best first."""
        spec = self.spec
        _, cap, _ = spec.bonus
        m, u = self._mask(pos), min(pos.upper, cap)
        keeps, index, _ = spec.keeps
        S = np.empty((spec.levels + 1, len(spec.rolls)), dtype=np.float32)
        EX = np.empty((spec.levels + 1, len(keeps)), dtype=np.float32)
        playout.lean_turn(m, pos.aux, u, pos.rolls_left, self._values, *spec.kernel_args, S, EX,
                          np.empty(len(keeps), dtype=np.float32))
        raw: list[tuple[str, float, Dice | None]] = []
        if pos.rolls_left > 0:
            for k in sub_multisets(pos.dice):
                if len(k) == len(pos.dice) or (spec.ruleset.must_keep_one and not k):
                    continue
                raw.append(("keep " + " ".join(map(str, k)) if k else "keep nothing",
                            float(EX[pos.rolls_left - 1, index[k]]), k))
        for cid, value in self.score_values(pos).items():
            raw.append((f"score {cid}", value, None))
        best = max(v for _, v, _ in raw)
        raw.sort(key=lambda t: -t[1])
        odds_of = self._odds(pos) if with_odds and pos.rolls_left > 0 else {}
        return [Option(a, v, best - v, odds_of.get(k, ()) if k is not None else ())
                for a, v, k in raw]

    def score_values(self, pos: Position) -> dict[str, float]:
        """Value of filling each allowed box now (its points plus the future after it)."""
        spec, rs = self.spec, self.spec.ruleset
        is_upper, cap, _ = spec.bonus
        m, u = self._mask(pos), min(pos.upper, cap)
        card: dict[str, int] = {c: 0 for c in pos.filled}
        if spec.n_aux == 2 and "yahtzee" in card:
            card["yahtzee"] = 50 if pos.aux == 1 else 0
        extra = rs.extra_points(card, pos.dice)
        out: dict[str, float] = {}
        for cid, pts in rs.score_options(card, pos.dice).items():
            c = self.ids.index(cid)
            if rs.saved_rolls:
                a2 = min(pos.rolls_left, spec.bank_cap)
            elif spec.n_aux == 2:
                a2 = (1 if pts > 0 else 0) if cid == "yahtzee" else pos.aux
            else:
                a2 = 0
            u2 = min(u + pts, cap) if is_upper[c] else u
            out[cid] = pts + extra + float(self.solution.values[m | 1 << c, a2, u2])
        return out

    def best(self, pos: Position) -> Option:
        return self.options(pos, with_odds=False)[0]

    def _odds(self, pos: Position) -> dict[Dice, tuple[tuple[str, float], ...]]:
        """Chance of making each open box by the end of the turn, for every keep."""
        spec = self.spec
        keeps, index, start = spec.keeps
        child, _ = spec.child_sub
        # the odds that matter are the combinations: hitting "a one" or "chance" says nothing
        is_upper = spec.bonus[0]
        open_ids = [c for i, c in enumerate(self.ids)
                    if c not in pos.filled and not is_upper[i] and c != "chance"]
        my_keeps = [k for k in sub_multisets(pos.dice) if len(k) < len(pos.dice)]
        per_keep: dict[Dice, list[tuple[str, float]]] = {k: [] for k in my_keeps}
        full0 = int(start[spec.n])
        X = np.zeros((len(keeps), 1), dtype=np.float32)
        for cid in open_ids:
            hit = (spec.score[self.ids.index(cid)] > 0).astype(np.float32)
            L = hit.copy()
            for j in range(pos.rolls_left):
                X[full0:, 0] = L
                kernel.expect(X, child, start, spec.n, 1)
                if j == pos.rolls_left - 1:
                    break
                X[full0:, 0] = np.maximum(hit, L)
                kernel.best_keeps(X, *spec.sub_lists[:2], 1, spec.ruleset.must_keep_one)
                L = X[full0:, 0].copy()
            for k in my_keeps:
                p = float(X[index[k], 0])
                if 0.0 < p < 1.0:
                    per_keep[k].append((cid, p))
        return {k: tuple(sorted(v, key=lambda t: -t[1])) for k, v in per_keep.items()}


def filled_from_text(text: str) -> list[str]:
    """"ones,twos" -> ["ones", "twos"]; empty or "-" -> []."""
    return [t.strip() for t in text.split(",") if t.strip() and t.strip() != "-"]


