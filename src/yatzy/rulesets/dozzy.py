"""DOZZY: Yatzy on the DOZEN12 board, the twelve tiles every player shares.

Rows 1-6 and the pair-sum rows 7-12 score only while their tile is in play; a scoring
sends the numbers it uses out and the unused dice bring tiles back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from .. import scoring
from ..dice import Dice, counts
from ..i18n import N_, _
from ..rules import ALL_TILES, Bonus, Category, Ruleset
from .parts import MUST_KEEP_ONE, OptionSpec, RulesetEntry, common, register, scandinavian_lower, upper


@dataclass(frozen=True)
class DozzyRuleset(Ruleset):
    """DOZZY: Yatzy scored against the shared DOZEN12 tile board (tiles 1..12)."""

    sum_tiles_need_faces: bool = False
    uses_board = True

    def score(self, category_id: str, dice: Dice, board: frozenset[int] = frozenset()) -> int:
        """Points with ``board`` the set of tiles that are *out*."""
        cat = self.category(category_id)
        in_play = ALL_TILES - board
        c = counts(dice)
        if cat.kind == "number":
            assert cat.face is not None
            return cat.score(c) if cat.face in in_play else 0
        if cat.kind == "pair_sum":
            k = cat.pair_sum
            assert k is not None
            if k not in in_play:
                return 0
            allowed = in_play if self.sum_tiles_need_faces else None
            return k * scoring.pair_sums(c, k, allowed)
        if cat.kind in ("straight", "chance"):
            # always scorable, but only dice whose face is in play count
            if cat.kind == "straight" and cat.score(c) == 0:
                return 0
            return sum(d for d in dice if d in in_play)
        if cat.uses_every_die:
            # every die is part of the combination, so every face must be in play: dice
            # whose tile is out are not dropped to make the rest "all equal"
            return cat.score(c) if set(dice) <= in_play else 0
        live = tuple(k if f + 1 in in_play else 0 for f, k in enumerate(c))
        return cat.score(live)  # type: ignore[arg-type]

    def used_dice(self, category_id: str, dice: Dice, out: frozenset[int]) -> tuple[set[int], Dice]:
        """Tiles of the numbers a scoring uses, and the dice it leaves unused."""
        cat = self.category(category_id)
        points = self.score(category_id, dice, out)
        if points == 0 or cat.kind in ("straight", "chance"):
            return set(), dice
        c = list(counts(dice))
        in_play = ALL_TILES - out
        used_tiles: set[int] = set()
        take = [0] * 6
        if cat.kind == "number":
            assert cat.face is not None
            used_tiles.add(cat.face)
            take[cat.face - 1] = c[cat.face - 1]
        elif cat.kind == "pair_sum":
            k = cat.pair_sum
            assert k is not None
            used_tiles.add(k)
            allowed = in_play if self.sum_tiles_need_faces else ALL_TILES
            for a in range(max(1, k - 6), (k + 1) // 2):
                if a in allowed and k - a in allowed:
                    m = min(c[a - 1], c[k - a - 1])
                    take[a - 1] += m
                    take[k - a - 1] += m
            if k % 2 == 0 and k // 2 in allowed:
                take[k // 2 - 1] += 2 * (c[k // 2 - 1] // 2)
        elif cat.kind == "sets":
            per_face, n_faces = cat.sets
            faces = [f for f in range(6, 0, -1) if c[f - 1] >= per_face and f in in_play]
            for f in faces[:n_faces]:
                take[f - 1] = per_face
                used_tiles.add(f)
        else:  # every die is used
            take = c[:]
            used_tiles.update(f for f in range(1, 7) if c[f - 1])
        unused = tuple(
            f for f in range(1, 7) for _ in range(c[f - 1] - take[f - 1])
        )
        return used_tiles, unused

    def tile_moves(
        self, category_id: str, dice: Dice, out: frozenset[int]
    ) -> tuple[frozenset[int], list[frozenset[int]]]:
        """Tiles going out, and every allowed set of tiles coming back (player's choice).

        Unused dice return tiles alone (their face) or paired (their sum, 7..12). A split
        returning nothing is allowed only when no split returns anything.
        """
        if self.category(category_id).kind in ("straight", "chance"):
            return frozenset(), [frozenset()]
        used, unused = self.used_dice(category_id, dice, out)
        out_after = out | used
        returnable = out_after - used
        outcomes = {frozenset(t for t in tiles if t in returnable) for tiles in _splits(unused)}
        if len(outcomes) > 1:
            outcomes.discard(frozenset())
        return frozenset(used), sorted(outcomes, key=lambda s: (sorted(s), len(s)))

    def restore_count(self, out: frozenset[int]) -> int:
        """How many tiles a player may bring back before a turn (0 unless 4+ are out)."""
        return len(out) - 3 if len(out) >= 4 else 0


def _splits(unused: Dice) -> Iterable[list[int]]:
    """Tiles named by every way to take unused dice alone or in pairs summing to 7..12."""
    if not unused:
        yield []
        return
    first, rest = unused[0], unused[1:]
    for tail in _splits(rest):
        yield [first, *tail]
    for i, other in enumerate(rest):
        if first + other >= 7:
            for tail in _splits(rest[:i] + rest[i + 1 :]):
                yield [first + other, *tail]


_SUM_RULES = {
    7: N_("7 x number of disjoint dice pairs adding to 7"),
    8: N_("8 x number of disjoint dice pairs adding to 8"),
    9: N_("9 x number of disjoint dice pairs adding to 9"),
    10: N_("10 x number of disjoint dice pairs adding to 10"),
    11: N_("11 x number of disjoint dice pairs adding to 11"),
    12: N_("12 x number of disjoint dice pairs adding to 12"),
}
"""The rule of each of rows 7-12, one literal string per row so a catalog can word each."""

PAIR_SUMS = N_("{n} (pair sums)")
"""The name of rows 7-12 ({n} is the row's sum)."""


def build(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    sums = [
        Category(f"n{k}", _SUM_RULES[k], 2 * k, partial(scoring.pair_sums_points, target=k),
                 kind="pair_sum", section="sums", pair_sum=k, name=PAIR_SUMS)
        for k in range(7, 13)
    ]
    rows = upper(5, prefix="n")
    ids16 = tuple(c.id for c in rows)
    ids712 = tuple(c.id for c in sums)
    return DozzyRuleset(
        dice=5, categories=tuple(rows + sums + scandinavian_lower(False, False)),
        bonuses=(Bonus("bonus", ids16, 63, 50, strict=o["bonus_1_6_strict"]),
                 Bonus("bonus_7_12", ids712, 113, 50, strict=True)),
        sum_tiles_need_faces=o["sum_tiles_need_faces"], **common(e, o))


def notes(rs: Ruleset) -> list[str]:
    """The rule sheet's line on the board."""
    return [_("Tiles 1-12 start in play; used numbers go out, unused dice bring tiles "
              "back (alone or as pair sums 7-12). With 4+ out before a turn, you may "
              "bring tiles back until 3 are out.")]


ENTRY = register(RulesetEntry(
    "dozzy", N_("DOZZY (Yatzy on the DOZEN12 board)"), ("dozen12",),
    (MUST_KEEP_ONE,
     OptionSpec("bonus_1_6_strict", False, N_("rows 1-6 must exceed 63 for the bonus"), (False, True)),
     OptionSpec("sum_tiles_need_faces", False, N_("sums 7-12 also need their faces' tiles in play"),
                (False, True))),
    build, menu_order=70, notes=notes))
