"""What rulesets share, and how each one registers itself.

A ruleset is one module of this package: it builds its boxes from the parts here (the
options most rulesets take, the upper section, the Scandinavian lower section) and calls
:func:`register` with a :class:`RulesetEntry`. ``yatzy.registry`` looks the entries up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from .. import scoring as s
from ..dice import Counts
from ..errors import InvalidActionError
from ..i18n import N_, _, pgettext
from ..names import name_boxes
from ..rules import Bonus, Category, Ruleset


@dataclass(frozen=True)
class OptionSpec:
    """A house-rule option: its default, the values it takes and what it means."""

    name: str
    default: object
    help: str
    """What the option means, in English: marked with ``N_``, shown with ``_(spec.help)``."""
    choices: tuple[object, ...] | None = None
    low: int = 0
    """Numbers: the smallest value the rules can use."""
    high: int | None = None
    """Numbers: the largest value the rules can use (None: no upper bound)."""
    none_means: str = "none"
    """How a None value is typed (bank_cap: "no-cap")."""

    def show(self, value: object) -> str:
        """A value as typed after ``--option name=``: on/off, no-cap, 63 (the same in every language)."""
        if isinstance(value, bool):
            return "on" if value else "off"
        return self.none_means if value is None else str(value)

    def label(self, value: object) -> str:
        """A value as a player reads it, in the current language: "on", "no cap", "top-down"."""
        if isinstance(value, bool):
            return pgettext("option value", "on") if value else pgettext("option value", "off")
        labels = {
            "no-cap": pgettext("option value", "no cap"), "none": pgettext("option value", "none"),
            "down": pgettext("option value", "top-down"), "up": pgettext("option value", "bottom-up"),
            "forced": pgettext("option value", "forced"), "free": pgettext("option value", "free"),
        }
        text = self.show(value)
        return labels.get(text, text)

    def parse(self, value: object) -> object:
        """Accept a value of the right type, or its text form from the command line.

        :raises InvalidActionError: the value is not one the option takes, saying which are.
        """
        if isinstance(self.default, bool) or self.choices == (False, True):
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise InvalidActionError(_("option {name} is on or off (true or false), not “{value}”").format(
                name=self.name, value=value))
        if self.choices is not None:
            for choice in self.choices:
                if str(choice) == str(value).strip().lower() or choice == value:
                    return choice
            raise InvalidActionError(_("option {name} is one of {choices}, not “{value}”").format(
                name=self.name, choices=", ".join(map(str, self.choices)), value=value))
        if value is None or str(value).strip().lower() in ("none", "no-cap", "no_cap", ""):
            if self.default is None:
                return None
        try:
            number = int(str(value))
        except ValueError:
            raise InvalidActionError(
                _("option {name} takes a whole number, not “{value}”").format(name=self.name, value=value)
            ) from None
        if number < self.low or (self.high is not None and number > self.high):
            if self.high is None:
                why = _("option {name} must be {low} or more, not {number}")
            else:
                why = _("option {name} must be {low} to {high}, not {number}")
            raise InvalidActionError(why.format(name=self.name, low=self.low, high=self.high, number=number))
        return number


MUST_KEEP_ONE = OptionSpec(
    "must_keep_one", False, N_("at least one die must be kept before a re-roll"), (False, True)
)
THRESHOLD_63 = OptionSpec("bonus_threshold", 63, N_("upper total that earns the 50-point bonus"),
                          low=1, high=105)
FH_YATZY = OptionSpec(
    "full_house_accepts_yatzy", False, N_("five of a kind also scores as full house"), (False, True)
)
TP_FOUR = OptionSpec(
    "two_pairs_accepts_four", False, N_("four of a kind also scores as two pairs (4 x face)"),
    (False, True),
)
BANK_CAP = OptionSpec("bank_cap", None, N_("most saved rolls a player may hold"),
                      high=99, none_means="no-cap")
SCANDINAVIAN_OPTIONS = (MUST_KEEP_ONE, THRESHOLD_63, FH_YATZY, TP_FOUR)
"""The options of the Scandinavian card (yatzy, forced, osto)."""

UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")

_UPPER_NAMES = (N_("Ones"), N_("Twos"), N_("Threes"), N_("Fours"), N_("Fives"), N_("Sixes"))

_UPPER_RULES = (N_("1 x number of 1s"), N_("2 x number of 2s"), N_("3 x number of 3s"),
                N_("4 x number of 4s"), N_("5 x number of 5s"), N_("6 x number of 6s"))
"""The rule of each upper box, one literal string per face so a catalog can word each."""

NAMES = {
    "one_pair": N_("One Pair"), "two_pairs": N_("Two Pairs"), "three_of_a_kind": N_("Three of a Kind"),
    "four_of_a_kind": N_("Four of a Kind"), "small_straight": N_("Small Straight"),
    "large_straight": N_("Large Straight"), "full_house": N_("Full House"), "chance": N_("Chance"),
    "yatzy": N_("Yatzy"),
}
"""The English names of the lower boxes several rulesets share (Maxi and Yahtzee reuse some)."""


def upper(dice: int, prefix: str = "") -> list[Category]:
    """Ones to Sixes for ``dice`` dice (DOZZY's rows 1-6 are ids ``n1``..``n6``)."""
    return [
        Category(f"n{f}" if prefix else UPPER_IDS[f - 1], _UPPER_RULES[f - 1], f * dice,
                 partial(s.upper, face=f), kind="number", section="upper", face=f, name=_UPPER_NAMES[f - 1])
        for f in range(1, 7)
    ]


def box(id_: str, rule: str, top: int, score: Callable[[Counts], int], name: str | None = None,
        **kind: Any) -> Category:
    """A lower box, named from :data:`NAMES` unless ``name`` is given."""
    return Category(id_, rule, top, score, name=name or NAMES[id_], **kind)


def sets(id_: str, rule: str, top: int, score: Callable[[Counts], int], per_face: int,
         faces: int = 1, name: str | None = None) -> Category:
    """A box of ``faces`` different faces with ``per_face`` dice each (pairs, n of a kind)."""
    return box(id_, rule, top, score, name, kind="sets", sets=(per_face, faces))


def scandinavian_lower(fh_yatzy: bool, tp_four: bool) -> list[Category]:
    """One Pair to Yatzy, with the two house rules that change Two Pairs and Full House."""
    return [
        sets("one_pair", N_("2 x highest pair"), 12, partial(s.of_a_kind, n=2), 2),
        sets("two_pairs", N_("two different pairs: their sum (four of a kind counts, 4 x face)") if tp_four
             else N_("two different pairs: their sum"), 24 if tp_four else 22,
             partial(s.pairs, n=2, accept_four=tp_four), 2, 2),
        sets("three_of_a_kind", N_("3 x face shown 3+ times"), 18, partial(s.of_a_kind, n=3), 3),
        sets("four_of_a_kind", N_("4 x face shown 4+ times"), 24, partial(s.of_a_kind, n=4), 4),
        box("small_straight", N_("exactly 1-2-3-4-5: 15"), 15,
            partial(s.straight, low=1, high=5, points=15), kind="straight"),
        box("large_straight", N_("exactly 2-3-4-5-6: 20"), 20,
            partial(s.straight, low=2, high=6, points=20), kind="straight"),
        box("full_house", N_("exactly 3 + 2 of different faces: sum of dice (five of a kind counts)")
            if fh_yatzy else N_("exactly 3 + 2 of different faces: sum of dice"), 30 if fh_yatzy else 28,
            partial(s.full_house_exact, accept_yatzy=fh_yatzy)),
        box("chance", N_("sum of dice"), 30, s.total, kind="chance"),
        box("yatzy", N_("five of a kind: 50"), 50, partial(s.all_same, points=50), kind="yatzy"),
    ]


def upper_bonus(ids: tuple[str, ...], threshold: int, points: int = 50) -> Bonus:
    return Bonus("bonus", ids, threshold, points)


def scandinavian_parts(o: Mapping[str, Any]) -> dict[str, Any]:
    """The Scandinavian card (yatzy, forced, osto): five dice, 15 boxes, +50 at 63."""
    cats = upper(5) + scandinavian_lower(o["full_house_accepts_yatzy"], o["two_pairs_accepts_four"])
    return dict(dice=5, categories=tuple(cats),
                bonuses=(upper_bonus(UPPER_IDS, o["bonus_threshold"]),))


def common(entry: RulesetEntry, o: Mapping[str, Any]) -> dict[str, Any]:
    """What every builder passes on: the entry's name, title and solver hint, the options."""
    return dict(name=entry.name, title=entry.title, options=tuple(sorted(o.items())),
                must_keep_one=o["must_keep_one"], solver_bank_cap=entry.solver_bank_cap)


def saved_rolls_note(bank_cap: int | None) -> str:
    """The line a sheet prints about saved rolls (Maxi, Osto), in the current language."""
    if bank_cap is None:
        return _("Saved rolls: unused rolls are banked for later turns (no cap).")
    return _("Saved rolls: unused rolls are banked for later turns (at most {n}).").format(n=bank_cap)


def no_notes(rs: Ruleset) -> list[str]:
    return []


@dataclass(frozen=True)
class RulesetEntry:
    """One ruleset as its module registers it: id, title, the names people type, options,
    builder, and what front ends and the solver need to know beyond the rules."""

    name: str
    title: str
    aliases: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    builder: Callable[[RulesetEntry, Mapping[str, Any]], Ruleset]
    menu_order: int
    """Where menus list it, lowest first (the seven rulesets are 10 to 70)."""
    notes: Callable[[Ruleset], list[str]] = no_notes
    """Lines a rule sheet adds about this ruleset (jokers, the board), in the current language."""
    solver_bank_cap: int = Ruleset.solver_bank_cap
    """The bank cap the exact solver works with when the game sets none (see Ruleset)."""

    def build(self, **options: object) -> Ruleset:
        """The ruleset with these house-rule options (the rest at their defaults).

        :raises InvalidActionError: an unknown option or a value it does not take.
        """
        specs = {spec.name: spec for spec in self.options}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            raise InvalidActionError(_("{rules} has no option “{option}”; its options are: {options}").format(
                rules=self.name, option=unknown[0], options=", ".join(specs)))
        values = {n: spec.parse(options[n]) if n in options else spec.default
                  for n, spec in specs.items()}
        if values.get("saved_rolls") is False and values.get("bank_cap") is not None:
            raise InvalidActionError(_("bank_cap limits saved rolls, so it needs saved_rolls=on"))
        return self.builder(self, values)


_registered: tuple[RulesetEntry, ...] = ()
_box_names: dict[str, dict[str, tuple[str, int | None]]] = {}
"""Each registered ruleset's box names: id -> (English name, the number its {n} stands for)."""


def registered() -> tuple[RulesetEntry, ...]:
    """Every registered ruleset, in menu order."""
    return _registered


def register(entry: RulesetEntry) -> RulesetEntry:
    """Add a ruleset (its module calls this when imported) and name its boxes.

    :raises ValueError: its name or an alias is taken, or it names a box another ruleset
        names differently.
    """
    global _registered
    taken = {n for e in _registered for n in (e.name, *e.aliases)}
    clash = sorted(taken & {entry.name, *entry.aliases})
    if clash:
        raise ValueError(f"ruleset {entry.name}: the name {clash[0]} is taken")
    names = {c.id: (c.name, c.pair_sum) for c in entry.build().categories if c.name}
    for other in _registered:
        theirs = _box_names[other.name]
        differ = sorted(i for i in names.keys() & theirs.keys() if names[i] != theirs[i])
        if differ:
            box = differ[0]
            raise ValueError(f"ruleset {entry.name} names box {box} “{names[box][0]}”, "
                             f"but {other.name} names it “{theirs[box][0]}”")
    _registered = tuple(sorted((*_registered, entry), key=lambda e: (e.menu_order, e.name)))
    _box_names[entry.name] = names
    _name_boxes()
    return entry


def unregister(name: str) -> None:
    """Take a ruleset out again (tests that register one of their own)."""
    global _registered
    _registered = tuple(e for e in _registered if e.name != name)
    _box_names.pop(name, None)
    _name_boxes()


def _name_boxes() -> None:
    name_boxes({i: n for names in _box_names.values() for i, n in names.items()})
