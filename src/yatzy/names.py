"""Display names of boxes and sheet labels, in the player's language.

Ids never change; only what a player reads does. The English names here are the
catalog's source text (context "box"); the translations live in the gettext catalogs.
Mind the Maxi naming trap: Finnish *talo* is 4+2 (tower), Swedish *hus* is 3+3 (villa),
Danish/Norwegian *hus* is 3+2.
"""

from __future__ import annotations

from .i18n import LANGUAGES, N_, _, check_language, language

__all__ = ["LABELS", "LANGUAGES", "NAMES", "box_label", "category_name", "check_language", "label",
           "saved_rolls_note"]

_UPPER = (N_("Ones"), N_("Twos"), N_("Threes"), N_("Fours"), N_("Fives"), N_("Sixes"))

NAMES: dict[str, str] = {
    **dict(zip(("ones", "twos", "threes", "fours", "fives", "sixes"), _UPPER, strict=True)),
    **{f"n{f}": name for f, name in enumerate(_UPPER, 1)},
    **{f"n{k}": f"{k}" for k in range(7, 13)},
    "one_pair": N_("One Pair"), "two_pairs": N_("Two Pairs"), "three_pairs": N_("Three Pairs"),
    "three_of_a_kind": N_("Three of a Kind"), "four_of_a_kind": N_("Four of a Kind"),
    "five_of_a_kind": N_("Five of a Kind"), "small_straight": N_("Small Straight"),
    "large_straight": N_("Large Straight"), "full_straight": N_("Full Straight"),
    "full_house": N_("Full House"), "villa": N_("Villa (3+3)"), "tower": N_("Tower (4+2)"),
    "chance": N_("Chance"), "yatzy": N_("Yatzy"), "maxi_yatzy": N_("Maxi Yatzy"),
    "yahtzee": N_("Yahtzee"),
}
"""Each box id's English name (DOZZY's sum rows are named by their number)."""

PAIR_SUMS = N_("{n} (pair sums)")

LABELS: dict[str, str] = {
    "bonus": N_("Bonus"), "total": N_("Total"), "category": N_("Box"), "max": N_("Max"),
    "rule": N_("Rule"), "player": N_("Player"), "yahtzee_bonus": N_("Yahtzee bonus"),
    "upper": N_("Upper section"), "turns": N_("turns"), "dice": N_("dice"),
}


def category_name(category_id: str, lang: str | None = None) -> str:
    """Display name of a box id, in ``lang`` or the current language."""
    if lang is not None:
        with language(lang):
            return category_name(category_id)
    if category_id not in NAMES:
        return category_id
    if category_id[1:].isdigit() and int(category_id[1:]) >= 7:
        return _(PAIR_SUMS).format(n=int(category_id[1:]))
    return _(NAMES[category_id])


def box_label(number: int, name: str) -> str:
    """A box as a player names it: "3 Threes", "13 One Pair"; DOZZY's "7 (pair sums)" keeps
    its number once."""
    return name if name.startswith(f"{number} ") else f"{number} {name}"


def saved_rolls_note(bank_cap: int | None) -> str:
    """The line a sheet prints about saved rolls (Maxi, Osto), in the current language."""
    if bank_cap is None:
        return _("Saved rolls: unused rolls are banked for later turns (no cap).")
    return _("Saved rolls: unused rolls are banked for later turns (at most {n}).").format(n=bank_cap)


def label(key: str, lang: str | None = None) -> str:
    """A sheet label (bonus, total, ...), in ``lang`` or the current language."""
    if lang is not None:
        check_language(lang)
        with language(lang):
            return _(LABELS[key])
    return _(LABELS[key])
