"""Rulesets as frozen values: dice, categories with scoring functions, bonuses, options.

The base :class:`Ruleset` covers every game whose boxes are scored by a pure function of
the dice. American Yahtzee (jokers, Yahtzee bonus) and DOZZY (the shared tile board) are
small subclasses that override only what differs, as python-chess does for variants.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from . import scoring
from .dice import Counts, Dice, counts
from .errors import InvalidActionError
from .i18n import _, ngettext

Card = Mapping[str, int]
"""A player's filled boxes: category id -> points."""

UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")

Kind = Literal["number", "pair_sum", "sets", "combo", "straight", "chance", "yatzy"]
"""What a box is made of; rules read this, never the box's id:

- ``number``: the dice showing ``face`` (ones..sixes, DOZZY 1-6);
- ``pair_sum``: pairs of dice adding up to ``pair_sum`` (DOZZY 7-12);
- ``sets``: ``sets[1]`` different faces with ``sets[0]`` dice each (pairs, n of a kind);
- ``combo``: a shape of every die (full house, villa, tower);
- ``straight`` and ``chance``: faces in a row, or any dice;
- ``yatzy``: every die equal.
"""

Section = Literal["upper", "sums", "lower"]


@dataclass(frozen=True)
class Category:
    """One box of the score sheet."""

    id: str
    rule: str
    max: int
    score: Callable[[Counts], int] = field(compare=False, repr=False)
    kind: Kind = "combo"
    section: Section = "lower"
    """Where the box sits on the card: the upper numbers, DOZZY's sums 7-12, or below."""
    face: int | None = None
    """``number`` boxes: the face this box counts."""
    pair_sum: int | None = None
    """``pair_sum`` boxes: the sum the pairs make."""
    sets: tuple[int, int] = (0, 0)
    """``sets`` boxes: (dice of each face, different faces): one pair (2, 1), two pairs (2, 2)."""

    @property
    def uses_every_die(self) -> bool:
        """Whether the combination is made of all the dice rolled."""
        return self.kind in ("combo", "yatzy")


@dataclass(frozen=True)
class Bonus:
    """Points added when a group of boxes reaches a threshold."""

    id: str
    categories: tuple[str, ...]
    threshold: int
    points: int
    strict: bool = False
    """True when the total must *exceed* the threshold."""

    def earned(self, card: Card) -> bool:
        got = sum(card.get(c, 0) for c in self.categories)
        return got > self.threshold if self.strict else got >= self.threshold


@dataclass(frozen=True)
class Ruleset:
    """A complete ruleset. Never mutated; a game holds one."""

    name: str
    title: str
    dice: int
    categories: tuple[Category, ...]
    bonuses: tuple[Bonus, ...]
    options: tuple[tuple[str, object], ...] = ()
    rolls_per_turn: int = 3
    order: tuple[str, ...] | None = None
    """Forced games: the order boxes must be filled in."""
    saved_rolls: bool = False
    bank_cap: int | None = None
    """With saved rolls: most rolls a player may hold in the bank (None: no cap)."""
    must_keep_one: bool = False

    # ---- lookup -------------------------------------------------------------------
    @cached_property
    def by_id(self) -> dict[str, Category]:
        return {c.id: c for c in self.categories}

    @property
    def category_ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.categories)

    @property
    def turns(self) -> int:
        """Turns each player takes: one per box."""
        return len(self.categories)

    def option(self, name: str) -> object:
        return dict(self.options)[name]

    def category(self, category_id: object) -> Category:
        """The category with this id; InvalidActionError naming the valid ids if none."""
        if not isinstance(category_id, str) or category_id not in self.by_id:
            raise InvalidActionError(
                _("“{box}” is not a box of {rules}; the boxes are: {boxes}").format(
                    box=category_id, rules=self.name, boxes=", ".join(self.category_ids))
            )
        return self.by_id[category_id]

    @property
    def max_total(self) -> int:
        """Best total from the boxes and section bonuses alone."""
        return sum(c.max for c in self.categories) + sum(b.points for b in self.bonuses)

    @property
    def max_extra(self) -> int:
        """Most points a game can add beyond ``max_total`` (Yahtzee bonuses)."""
        return 0

    # ---- scoring ------------------------------------------------------------------
    def score(self, category_id: str, dice: Dice, board: frozenset[int] = frozenset()) -> int:
        """Points the dice make in a box by its plain rule (no jokers, no card context)."""
        return self.category(category_id).score(counts(dice))

    def score_all(self, dice: Dice) -> dict[str, int]:
        """Every box's plain score for a roll (DOZZY: with every tile in play)."""
        return {c.id: self.score(c.id, dice) for c in self.categories}

    def open_categories(self, card: Card) -> list[str]:
        """Boxes the player may fill now, honouring a forced order."""
        if self.order is not None:
            nxt = next((c for c in self.order if c not in card), None)
            return [] if nxt is None else [nxt]
        return [c.id for c in self.categories if c.id not in card]

    def score_options(
        self, card: Card, dice: Dice, board: frozenset[int] = frozenset()
    ) -> dict[str, int]:
        """Every box the player may fill with these dice now, with its points."""
        return {c: self.score(c, dice, board) for c in self.open_categories(card)}

    def extra_points(self, card: Card, dice: Dice) -> int:
        """Points earned by a scoring action beyond the box itself (Yahtzee bonus)."""
        return 0

    def bonus_points(self, card: Card) -> dict[str, int]:
        """Section bonuses the card has earned."""
        return {b.id: b.points if b.earned(card) else 0 for b in self.bonuses}

    def check_dice(self, dice: Iterable[object]) -> Dice:
        """Validate a full roll for this ruleset."""
        from .dice import normalize

        d = normalize(dice)
        if len(d) != self.dice:
            raise InvalidActionError(_("{rules} rolls {n} dice, not {got}").format(
                rules=self.name, n=self.dice, got=len(d)))
        return d

    # ---- DOZZY board hooks (no board in other games) --------------------------------
    uses_board = False

    def tile_moves(
        self, category_id: str, dice: Dice, out: frozenset[int]
    ) -> tuple[frozenset[int], list[frozenset[int]]]:
        """Tiles that go out and the allowed sets of tiles that come back. No board here."""
        return frozenset(), [frozenset()]


@dataclass(frozen=True)
class YahtzeeRuleset(Ruleset):
    """American Yahtzee: Yahtzee bonus and joker rules on top of plain scoring."""

    joker: str = "forced"
    yahtzee_bonus: bool = True
    joker_points: tuple[tuple[str, int], ...] = (
        ("full_house", 25), ("small_straight", 30), ("large_straight", 40),
    )
    """Boxes a joker fills at a fixed value (the others score the dice by their rule)."""

    @cached_property
    def yahtzee_box(self) -> str:
        """The id of the box that holds five of a kind."""
        return next(c.id for c in self.categories if c.kind == "yatzy")

    @property
    def max_extra(self) -> int:
        """Every box after the first filled with an extra Yahtzee earns +100; without a
        joker those in full house and the straights score 0 there instead of 25/30/40."""
        if not self.yahtzee_bonus:
            return 0
        lost = 0 if self.joker != "none" else sum(dict(self.joker_points).values())
        return 100 * (len(self.categories) - 1) - lost

    def is_extra_yahtzee(self, card: Card, dice: Dice) -> bool:
        return self.yahtzee_box in card and len(set(dice)) == 1

    def joker_score(self, category_id: str, dice: Dice) -> int:
        return dict(self.joker_points).get(category_id, self.score(category_id, dice))

    def score_options(
        self, card: Card, dice: Dice, board: frozenset[int] = frozenset()
    ) -> dict[str, int]:
        open_ids = self.open_categories(card)
        if self.joker == "none" or not self.is_extra_yahtzee(card, dice):
            return {c: self.score(c, dice) for c in open_ids}
        own = next(c.id for c in self.categories if c.kind == "number" and c.face == dice[0])
        if self.joker == "free":
            if own in open_ids:
                return {c: self.score(c, dice) for c in open_ids}
            return {c: self.joker_score(c, dice) for c in open_ids}
        # forced joker (Hasbro): own upper box, else any lower box, else a 0 in an upper box
        if own in open_ids:
            return {own: self.score(own, dice)}
        lower = [c for c in open_ids if self.by_id[c].section == "lower"]
        if lower:
            return {c: self.joker_score(c, dice) for c in lower}
        return {c: 0 for c in open_ids}

    def extra_points(self, card: Card, dice: Dice) -> int:
        if (self.yahtzee_bonus and self.is_extra_yahtzee(card, dice)
                and card[self.yahtzee_box] == self.by_id[self.yahtzee_box].max):
            return 100
        return 0


ALL_TILES = frozenset(range(1, 13))


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


def check_tiles(tiles: Iterable[object]) -> frozenset[int]:
    """Tile numbers as a set; InvalidActionError unless each is a whole number 1..12."""
    vals = list(tiles)
    bad = [t for t in vals if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= 12]
    if bad:
        raise InvalidActionError(_("tiles are numbered 1 to 12, not “{tile}”").format(tile=bad[0]))
    return frozenset(vals)  # type: ignore[arg-type]


def tiles_text(tiles: frozenset[int]) -> str:
    """A set of tiles in words: "tile 9", "tiles 4 and 5", "no tile"."""
    ts = sorted(tiles)
    if not ts:
        return _("no tile")
    return ngettext("tile {tiles}", "tiles {tiles}", len(ts)).format(tiles=" ".join(map(str, ts)))
