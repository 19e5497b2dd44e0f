"""Rulesets as frozen values: dice, categories with scoring functions, bonuses, options.

The base :class:`Ruleset` covers every game whose boxes are scored by a pure function of
the dice. American Yahtzee (jokers, Yahtzee bonus) and DOZZY (the shared tile board) are
small subclasses in their own modules (``yatzy/rulesets/``) that override only what
differs, as python-chess does for variants; the board hooks and tile helpers are here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from .dice import Counts, Dice, counts
from .errors import InvalidActionError
from .i18n import _

Card = Mapping[str, int]
"""A player's filled boxes: category id -> points."""

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
    name: str = ""
    """The box's English display name (its catalog msgid; a pair-sum box's ``{n}`` is its sum),
    shown through ``names.category_name``; empty: shown by its id."""

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
    solver_bank_cap: int = field(default=4, compare=False)
    """The bank cap the exact solver works with when ``bank_cap`` is None (an unbounded bank
    has no finite table); the ruleset's module picks it."""

    # ---- lookup -------------------------------------------------------------------
    @cached_property
    def by_id(self) -> dict[str, Category]:
        return {c.id: c for c in self.categories}

    @cached_property
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

    def bonus_reachable(self, bonus: Bonus, card: Card) -> bool:
        """Whether a card has earned ``bonus``, or would with each of its open boxes at its maximum."""
        return bonus.earned({**card, **{c: self.by_id[c].max for c in bonus.categories if c not in card}})

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


ALL_TILES = frozenset(range(1, 13))


def check_tiles(tiles: Iterable[object]) -> frozenset[int]:
    """Tile numbers as a set; InvalidActionError unless each is a whole number 1..12."""
    vals = list(tiles)
    bad = [t for t in vals if isinstance(t, bool) or not isinstance(t, int) or not 1 <= t <= 12]
    if bad:
        raise InvalidActionError(_("tiles are numbered 1 to 12, not “{tile}”").format(tile=bad[0]))
    return frozenset(vals)  # type: ignore[arg-type]
