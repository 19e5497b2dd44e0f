"""The action and observation layouts of a ruleset, as integers and flat vectors.

One fixed action space per ruleset, in three blocks (docs/research.md has the table):

- **keeps**: every multiset of 0 .. dice-1 dice, smallest first (the solver's keep order);
  index 0 keeps nothing, which is also the first roll of a turn;
- **scores**: box ``b`` (the ruleset's box order) with return choice ``j``: index
  ``keeps + b * slots + j``. Without a board there is one slot; in DOZZY ``j`` is the
  ``j``-th way the engine lists to bring tiles back with that box (:data:`RETURN_SLOTS`);
- **restores** (DOZZY only): before a turn's first roll with 4+ tiles out, bring tiles back
  so that exactly the three tiles of :data:`STAY_OUT` ``[i]`` stay out.

The engine decides what is legal (``Game.legal_actions``); this module only names actions.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..actions import Action, Restore, Roll, Score
from ..dice import Dice, all_rolls, counts
from ..game import Game
from ..rules import Ruleset

RETURN_SLOTS = 18
"""Most ways a DOZZY score can bring tiles back: the unused dice (five at most) split into
single faces and pairs summing to 7..12 never name more than 18 different sets of tiles."""

STAY_OUT: tuple[tuple[int, int, int], ...] = tuple(itertools.combinations(range(1, 13), 3))
"""DOZZY restores: the 220 sets of three tiles that may stay out after tiles come back."""


@dataclass(frozen=True)
class Layout:
    """Integer actions and the observation vector of one ruleset."""

    ruleset: Ruleset

    # ---- actions ------------------------------------------------------------------
    @cached_property
    def keeps(self) -> tuple[Dice, ...]:
        """Every keep of 0 .. dice-1 dice: index 0 is ``()``, then singles, pairs, ..."""
        return tuple(k for size in range(self.ruleset.dice) for k in (all_rolls(size) if size else [()]))

    @cached_property
    def _keep_index(self) -> dict[Dice, int]:
        return {k: i for i, k in enumerate(self.keeps)}

    @property
    def slots(self) -> int:
        """Return choices per box: 1, or :data:`RETURN_SLOTS` on a board."""
        return RETURN_SLOTS if self.ruleset.uses_board else 1

    @property
    def score_start(self) -> int:
        return len(self.keeps)

    @property
    def restore_start(self) -> int:
        return self.score_start + len(self.ruleset.categories) * self.slots

    @property
    def n_actions(self) -> int:
        return self.restore_start + (len(STAY_OUT) if self.ruleset.uses_board else 0)

    def action_of(self, game: Game, index: int) -> Action | None:
        """The engine's action for ``index`` now, or None when the index names no legal move
        (out of range, or a return slot past the choices the box has)."""
        if not 0 <= index < self.n_actions:
            return None
        if index < self.score_start:
            return Roll(self.keeps[index])
        if index < self.restore_start:
            box, slot = divmod(index - self.score_start, self.slots)
            cat = self.ruleset.categories[box].id
            if not self.ruleset.uses_board or game.state.dice is None:
                return Score(cat) if slot == 0 else None
            _, returns = game.tile_moves(cat)
            if slot >= len(returns):
                return None
            return Score(cat) if len(returns) == 1 else Score(cat, tuple(sorted(returns[slot])))
        stay = frozenset(STAY_OUT[index - self.restore_start])
        return Restore(tuple(sorted(game.state.out - stay)))

    def index_of(self, game: Game, action: Action,
                 returns: dict[str, list[frozenset[int]]] | None = None) -> int:
        """The integer of a legal action of ``game`` (the inverse of :meth:`action_of`);
        ``returns`` keeps each box's return choices between calls for the same position."""
        if isinstance(action, Roll):
            return self._keep_index[tuple(sorted(action.keep))]
        if isinstance(action, Score):
            box = self.ruleset.category_ids.index(action.category)
            slot = 0
            if self.ruleset.uses_board and action.returns is not None:
                known = {} if returns is None else returns
                if action.category not in known:
                    known[action.category] = game.tile_moves(action.category)[1]
                slot = known[action.category].index(frozenset(action.returns))
            return self.score_start + box * self.slots + slot
        stay = tuple(sorted(game.state.out - frozenset(action.tiles)))
        return self.restore_start + STAY_OUT.index(stay)  # type: ignore[arg-type]

    def mask(self, game: Game) -> np.ndarray:
        """1 for every legal action now (int8, the dtype masked policies read)."""
        out = np.zeros(self.n_actions, dtype=np.int8)
        returns: dict[str, list[frozenset[int]]] = {}
        for action in game.legal_actions():
            out[self.index_of(game, action, returns)] = 1
        return out

    # ---- observations ---------------------------------------------------------------
    @cached_property
    def fields(self) -> tuple[tuple[str, int, float], ...]:
        """The named parts of one seat's vector, in order: (name, length, highest value)."""
        rs = self.ruleset
        n_cat = len(rs.categories)
        most = max(c.max for c in rs.categories)
        upper_most = sum(c.max for c in rs.categories if c.section == "upper")
        bank = rs.rolls_per_turn * rs.turns if rs.saved_rolls else 0
        parts: list[tuple[str, int, float]] = [
            ("dice", 6, rs.dice), ("rolled", 1, 1), ("rolls_left", 1, rs.rolls_per_turn),
            ("saved_rolls", 1, bank), ("filled", n_cat, 1), ("points", n_cat, most),
            ("upper_total", 1, upper_most), ("extra", 1, rs.max_extra), ("tiles_out", 12, 1),
        ]
        # a part a ruleset cannot use is left out: saved rolls, extra points, the board
        unused = {"saved_rolls": not rs.saved_rolls, "extra": rs.max_extra <= 0,
                  "tiles_out": not rs.uses_board}
        return tuple(p for p in parts if not unused.get(p[0], False))

    @property
    def size(self) -> int:
        return sum(n for _, n, _ in self.fields)

    def high(self) -> np.ndarray:
        """The highest value of each entry (every entry is 0 or more)."""
        return np.concatenate([np.full(n, top, dtype=np.float32) for _, n, top in self.fields])

    def observe(self, game: Game, seat: int) -> np.ndarray:
        """Seat ``seat``'s card and the table as the vector :attr:`fields` names. The dice, the
        turn's own rolls left and the tiles are the table's (a seat not on turn sees the turn
        being played); the saved rolls are the seat's."""
        rs, st = self.ruleset, game.state
        p = st.players[seat]
        normal, saved = game.rolls_split()
        if seat != st.current:
            saved = p.bank
        dice = counts(st.dice) if st.dice is not None else (0,) * 6
        values: dict[str, list[float] | tuple[int, ...]] = {
            "dice": dice, "rolled": [1.0 if st.dice is not None else 0.0], "rolls_left": [float(normal)],
            "saved_rolls": [float(saved)], "filled": [1.0 if c.id in p.card else 0.0 for c in rs.categories],
            "points": [float(p.card.get(c.id, 0)) for c in rs.categories],
            "upper_total": [float(sum(v for c, v in p.card.items() if rs.by_id[c].section == "upper"))],
            "extra": [float(p.extra)], "tiles_out": [1.0 if t in st.out else 0.0 for t in range(1, 13)],
        }
        return np.concatenate([np.asarray(values[name], dtype=np.float32) for name, _, _ in self.fields])

    def names(self) -> list[str]:
        """A name for every entry of the vector: ``dice[1]``, ``filled[chance]``, ``tiles_out[12]``."""
        rs, out = self.ruleset, []
        for name, n, _ in self.fields:
            if name in ("filled", "points"):
                out += [f"{name}[{c.id}]" for c in rs.categories]
            elif n == 1:
                out.append(name)
            else:
                out += [f"{name}[{i}]" for i in range(1, n + 1)]
        return out
