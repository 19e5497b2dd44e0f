"""American Yahtzee: Hasbro's card, the Yahtzee bonus and the joker rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from .. import scoring as s
from ..dice import Dice
from ..i18n import N_, _
from ..rules import Card, Ruleset
from .parts import (
    MUST_KEEP_ONE,
    UPPER_IDS,
    OptionSpec,
    RulesetEntry,
    box,
    common,
    register,
    upper,
    upper_bonus,
)


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



def build(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    lower = [
        box("three_of_a_kind", N_("3+ of a face: sum of all dice"), 30, partial(s.of_a_kind_sum, n=3)),
        box("four_of_a_kind", N_("4+ of a face: sum of all dice"), 30, partial(s.of_a_kind_sum, n=4)),
        box("full_house", N_("3 + 2 of different faces: 25"), 25, partial(s.full_house_fixed, points=25)),
        box("small_straight", N_("any 4 in a row: 30"), 30, partial(s.run, length=4, points=30),
            kind="straight"),
        box("large_straight", N_("5 in a row: 40"), 40, partial(s.run, length=5, points=40), kind="straight"),
        box("yahtzee", N_("five of a kind: 50"), 50, partial(s.all_same, points=50), N_("Yahtzee"),
            kind="yatzy"),
        box("chance", N_("sum of dice"), 30, s.total, kind="chance"),
    ]
    return YahtzeeRuleset(dice=5, categories=tuple(upper(5) + lower),
                          bonuses=(upper_bonus(UPPER_IDS, 63, 35),), joker=o["joker"],
                          yahtzee_bonus=o["yahtzee_bonus"], **common(e, o))


JOKER_RULES = {
    "forced": N_("Joker rule (forced): an extra Yahtzee goes in the upper box of its face if that is open; "
                 "else in any open lower box, Full House and the straights scoring 25, 30 and 40; "
                 "else a 0 in an open upper box."),
    "free": N_("Joker rule (free): an extra Yahtzee may go in any open box; Full House and the straights "
               "score 25, 30 and 40 once the upper box of its face is filled."),
    "none": N_("No joker rule: an extra Yahtzee scores each box by its normal rule."),
}
"""The Yahtzee joker options in words (the option's value is its key)."""


def notes(rs: Ruleset) -> list[str]:
    """The rule sheet's lines on jokers and the Yahtzee bonus."""
    return [_(JOKER_RULES[str(rs.option("joker"))]),
            _("Yahtzee bonus: +100 for each extra Yahtzee while the Yahtzee box holds 50.")
            if rs.option("yahtzee_bonus") else _("No Yahtzee bonus.")]


ENTRY = register(RulesetEntry(
    "yahtzee", N_("Yahtzee (American)"), ("american", "hasbro"),
    (MUST_KEEP_ONE,
     OptionSpec("joker", "forced", N_("joker rule for extra Yahtzees"), ("forced", "free", "none")),
     OptionSpec("yahtzee_bonus", True, N_("+100 for each extra Yahtzee"), (False, True))),
    build, menu_order=60, notes=notes))
