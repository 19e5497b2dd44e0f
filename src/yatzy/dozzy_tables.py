"""DOZZY's scores and tile moves for every roll and box, as arrays a turn planner reads.

The board enters a score through which of the faces 1-6 are out, and a sum row's own tile,
so every roll's points, tiles sent out and unused dice are computed once per set of faces
out, through ``Ruleset.score`` and ``Ruleset.used_dice``; a sum row whose tile is out is a 0.
The tests hold every array to the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np

from .dice import Dice, all_rolls, counts, probability
from .rules import Ruleset
from .rulesets.dozzy import _splits

FACE_MASK = 0b111111
"""The bits of tiles 1-6 in a 12-bit board mask (bit t-1 is tile t)."""


def mask_of(tiles: frozenset[int] | set[int]) -> int:
    """A set of tiles as a 12-bit mask."""
    return sum(1 << (t - 1) for t in tiles)


def tiles_of(mask: int) -> frozenset[int]:
    """A 12-bit mask as its set of tiles."""
    return frozenset(t for t in range(1, 13) if mask >> (t - 1) & 1)


@dataclass(frozen=True)
class FaceTable:
    """Every roll's points, tiles out and unused dice per box, with a given set of faces out."""

    points: np.ndarray
    """(rolls, boxes) points."""
    used: np.ndarray
    """(rolls, boxes) mask of the tiles the scoring sends out."""
    unused: np.ndarray
    """(rolls, boxes) index (in ``Tables.keeps``) of the dice the scoring leaves unused."""


@dataclass
class Tables:
    """The dice's arrays for one DOZZY ruleset; per faces-out arrays made when first asked."""

    ruleset: Ruleset
    rolls: tuple[Dice, ...]
    roll_index: dict[Dice, int]
    keeps: tuple[Dice, ...]
    """Every multiset of 0..5 dice (462); a keep, or the unused dice of a scoring."""
    keep_index: dict[Dice, int]
    reach: np.ndarray
    """(keeps, rolls) chance that a keep, its other dice rolled, becomes each roll."""
    may_keep: np.ndarray
    """(rolls, keeps) whether a keep may be taken from a roll (not the whole roll)."""
    split_flat: np.ndarray
    """Every keep's distinct masks of the tiles its dice can name, alone or paired, in a row."""
    split_start: np.ndarray
    """(keeps,) where each keep's masks start in ``split_flat``."""
    split_len: np.ndarray
    """(keeps,) how many masks each keep has (at least one)."""
    roll_as_keep: np.ndarray
    """(rolls,) each roll's index among the keeps (the unused dice of a 0)."""
    moves_tiles: np.ndarray
    """(boxes,) whether scoring the box moves tiles (not straights or chance)."""
    pair_tile: np.ndarray
    """(boxes,) the tile mask of a sum row 7-12 (0 for the other boxes)."""
    _faces: dict[int, FaceTable] = field(default_factory=dict)

    def faces(self, faces_out: int) -> FaceTable:
        """The arrays with the faces of mask ``faces_out`` (bits 0-5) out."""
        got = self._faces.get(faces_out)
        if got is None:
            got = self._faces[faces_out] = _face_table(self, faces_out)
        return got

    def board(self, out: int) -> FaceTable:
        """The arrays on board ``out`` (a 12-bit mask): its faces' arrays, with each sum row
        whose own tile is out scoring 0 (every die unused, no tile out)."""
        ft = self.faces(out & FACE_MASK)
        scratched = (self.pair_tile & out) != 0
        if not scratched.any():
            return ft
        points, used, unused = ft.points.copy(), ft.used.copy(), ft.unused.copy()
        points[:, scratched] = 0
        used[:, scratched] = 0
        unused[:, scratched] = self.roll_as_keep[:, None]
        return FaceTable(points, used, unused)


def _face_table(t: Tables, faces_out: int) -> FaceTable:
    """Scored through the rules; a roll showing no face that is out scores as on a board
    with none out (the board acts through the faces rolled), so only the others are asked."""
    rs = t.ruleset
    out = tiles_of(faces_out)
    if faces_out:
        base = t.faces(0)
        points, used, unused = base.points.copy(), base.used.copy(), base.unused.copy()
    else:
        shape = (len(t.rolls), len(rs.categories))
        points, used, unused = (np.zeros(shape, dtype=np.int64) for _ in range(3))
    for r, dice in enumerate(t.rolls):
        if faces_out and not out & set(dice):
            continue
        for c, cat in enumerate(rs.categories):
            points[r, c] = rs.score(cat.id, dice, out)
            tiles, rest = rs.used_dice(cat.id, dice, out)  # type: ignore[attr-defined]
            used[r, c] = mask_of(tiles)
            unused[r, c] = t.keep_index[rest]
    return FaceTable(points, used, unused)


@cache
def tables(ruleset: Ruleset) -> Tables:
    """The arrays of a DOZZY ruleset (made once per ruleset and process)."""
    rolls = all_rolls(ruleset.dice)
    keeps = tuple(k for size in range(ruleset.dice + 1) for k in (all_rolls(size) if size else [()]))
    keep_index = {k: i for i, k in enumerate(keeps)}
    roll_index = {r: i for i, r in enumerate(rolls)}
    reach = np.zeros((len(keeps), len(rolls)))
    for k, keep in enumerate(keeps):
        for rest in all_rolls(ruleset.dice - len(keep)) if len(keep) < ruleset.dice else [()]:
            reach[k, roll_index[tuple(sorted(keep + rest))]] += probability(rest)
    have = np.array([counts(r) for r in rolls])
    kept = np.array([counts(k) for k in keeps])
    sizes = kept.sum(axis=1)
    may_keep = (kept[None, :, :] <= have[:, None, :]).all(axis=2) & (sizes < ruleset.dice)[None, :]
    if ruleset.must_keep_one:
        may_keep[:, keep_index[()]] = False
    splits = [sorted({mask_of(set(s)) for s in _splits(k)}) for k in keeps]
    split_len = np.array([len(s) for s in splits], dtype=np.int64)
    split_flat = np.array([m for s in splits for m in s], dtype=np.int64)
    roll_as_keep = np.array([keep_index[r] for r in rolls], dtype=np.int64)
    cats = ruleset.categories
    moves_tiles = np.array([c.kind not in ("straight", "chance") for c in cats])
    pair_tile = np.array([1 << (c.pair_sum - 1) if c.pair_sum else 0 for c in cats], dtype=np.int64)
    return Tables(ruleset, rolls, roll_index, keeps, keep_index, reach, may_keep, split_flat,
                  np.cumsum(split_len) - split_len, split_len, roll_as_keep, moves_tiles, pair_tile)
