"""The ruleset registry: names, aliases, options and the builders that turn them into values."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from . import scoring as s
from .dice import Counts
from .errors import InvalidActionError, UnknownRulesetError
from .i18n import N_, _, pgettext
from .rules import UPPER_IDS, Bonus, Category, DozzyRuleset, Ruleset, YahtzeeRuleset


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

_UPPER_RULES = (N_("1 x number of 1s"), N_("2 x number of 2s"), N_("3 x number of 3s"),
                N_("4 x number of 4s"), N_("5 x number of 5s"), N_("6 x number of 6s"))
"""The rule of each upper box, one literal string per face so a catalog can word each."""

_SUM_RULES = {
    7: N_("7 x number of disjoint dice pairs adding to 7"),
    8: N_("8 x number of disjoint dice pairs adding to 8"),
    9: N_("9 x number of disjoint dice pairs adding to 9"),
    10: N_("10 x number of disjoint dice pairs adding to 10"),
    11: N_("11 x number of disjoint dice pairs adding to 11"),
    12: N_("12 x number of disjoint dice pairs adding to 12"),
}
"""DOZZY's rows 7-12, likewise."""


def _upper(dice: int, prefix: str = "") -> list[Category]:
    return [
        Category(f"n{f}" if prefix else UPPER_IDS[f - 1], _UPPER_RULES[f - 1], f * dice,
                 partial(s.upper, face=f), kind="number", section="upper", face=f)
        for f in range(1, 7)
    ]


def _sets(id_: str, rule: str, top: int, score: Callable[[Counts], int], per_face: int,
          faces: int = 1) -> Category:
    return Category(id_, rule, top, score, kind="sets", sets=(per_face, faces))


def _scandinavian_lower(fh_yatzy: bool, tp_four: bool) -> list[Category]:
    return [
        _sets("one_pair", N_("2 x highest pair"), 12, partial(s.of_a_kind, n=2), 2),
        _sets("two_pairs", N_("two different pairs: their sum (four of a kind counts, 4 x face)") if tp_four
              else N_("two different pairs: their sum"), 24 if tp_four else 22,
              partial(s.pairs, n=2, accept_four=tp_four), 2, 2),
        _sets("three_of_a_kind", N_("3 x face shown 3+ times"), 18, partial(s.of_a_kind, n=3), 3),
        _sets("four_of_a_kind", N_("4 x face shown 4+ times"), 24, partial(s.of_a_kind, n=4), 4),
        Category("small_straight", N_("exactly 1-2-3-4-5: 15"), 15,
                 partial(s.straight, low=1, high=5, points=15), kind="straight"),
        Category("large_straight", N_("exactly 2-3-4-5-6: 20"), 20,
                 partial(s.straight, low=2, high=6, points=20), kind="straight"),
        Category("full_house", N_("exactly 3 + 2 of different faces: sum of dice (five of a kind counts)")
                 if fh_yatzy else N_("exactly 3 + 2 of different faces: sum of dice"), 30 if fh_yatzy else 28,
                 partial(s.full_house_exact, accept_yatzy=fh_yatzy)),
        Category("chance", N_("sum of dice"), 30, s.total, kind="chance"),
        Category("yatzy", N_("five of a kind: 50"), 50, partial(s.all_same, points=50), kind="yatzy"),
    ]


def _upper_bonus(ids: tuple[str, ...], threshold: int, points: int = 50) -> Bonus:
    return Bonus("bonus", ids, threshold, points)


def _yatzy_parts(o: Mapping[str, Any]) -> dict[str, Any]:
    cats = _upper(5) + _scandinavian_lower(o["full_house_accepts_yatzy"], o["two_pairs_accepts_four"])
    return dict(dice=5, categories=tuple(cats),
                bonuses=(_upper_bonus(UPPER_IDS, o["bonus_threshold"]),))


def _common(entry: RulesetEntry, o: Mapping[str, Any]) -> dict[str, Any]:
    return dict(name=entry.name, title=entry.title, options=tuple(sorted(o.items())),
                must_keep_one=o["must_keep_one"])


def _build_yatzy(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    return Ruleset(**_yatzy_parts(o), **_common(e, o))


def _build_forced(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    parts = _yatzy_parts(o)
    ids = tuple(c.id for c in parts["categories"])
    return Ruleset(order=ids if o["order"] == "down" else ids[::-1], **parts, **_common(e, o))


def _build_osto(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    return Ruleset(saved_rolls=True, bank_cap=o["bank_cap"], **_yatzy_parts(o), **_common(e, o))


def _build_kids(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    return Ruleset(dice=5, categories=tuple(_upper(5)),
                   bonuses=(_upper_bonus(UPPER_IDS, o["bonus_threshold"]),), **_common(e, o))


def _build_maxi(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    cats = _upper(6) + [
        _sets("one_pair", N_("2 x highest pair"), 12, partial(s.of_a_kind, n=2), 2),
        _sets("two_pairs", N_("two different pairs: best sum"), 22, partial(s.pairs, n=2), 2, 2),
        _sets("three_pairs", N_("three different pairs: sum of the six dice"), 30, partial(s.pairs, n=3),
              2, 3),
        _sets("three_of_a_kind", N_("3 x face shown 3+ times"), 18, partial(s.of_a_kind, n=3), 3),
        _sets("four_of_a_kind", N_("4 x face shown 4+ times"), 24, partial(s.of_a_kind, n=4), 4),
        _sets("five_of_a_kind", N_("5 x face shown 5+ times"), 30, partial(s.of_a_kind, n=5), 5),
        Category("small_straight", N_("1-2-3-4-5 present: 15"), 15,
                 partial(s.straight, low=1, high=5, points=15), kind="straight"),
        Category("large_straight", N_("2-3-4-5-6 present: 20"), 20,
                 partial(s.straight, low=2, high=6, points=20), kind="straight"),
        Category("full_straight", N_("1-2-3-4-5-6: 21"), 21,
                 partial(s.straight, low=1, high=6, points=21), kind="straight"),
        Category("full_house", N_("3 + 2 of different faces: best sum of those 5 dice"), 28,
                 partial(s.combo, big=3, small=2)),
        Category("villa", N_("two different triples: sum of all 6"), 33, partial(s.combo, big=3, small=3)),
        Category("tower", N_("4 + 2 of different faces: sum of all 6"), 34, partial(s.combo, big=4, small=2)),
        Category("chance", N_("sum of dice"), 36, s.total, kind="chance"),
        Category("maxi_yatzy", N_("six of a kind: 100"), 100, partial(s.all_same, points=100), kind="yatzy"),
    ]
    threshold = o["bonus_threshold"]
    return Ruleset(dice=6, categories=tuple(cats),
                   bonuses=(_upper_bonus(UPPER_IDS, threshold, 100 if threshold == 84 else 50),),
                   saved_rolls=o["saved_rolls"], bank_cap=o["bank_cap"], **_common(e, o))


def _build_yahtzee(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    lower = [
        Category("three_of_a_kind", N_("3+ of a face: sum of all dice"), 30, partial(s.of_a_kind_sum, n=3)),
        Category("four_of_a_kind", N_("4+ of a face: sum of all dice"), 30, partial(s.of_a_kind_sum, n=4)),
        Category("full_house", N_("3 + 2 of different faces: 25"), 25,
                 partial(s.full_house_fixed, points=25)),
        Category("small_straight", N_("any 4 in a row: 30"), 30, partial(s.run, length=4, points=30),
                 kind="straight"),
        Category("large_straight", N_("5 in a row: 40"), 40, partial(s.run, length=5, points=40),
                 kind="straight"),
        Category("yahtzee", N_("five of a kind: 50"), 50, partial(s.all_same, points=50), kind="yatzy"),
        Category("chance", N_("sum of dice"), 30, s.total, kind="chance"),
    ]
    return YahtzeeRuleset(dice=5, categories=tuple(_upper(5) + lower),
                          bonuses=(_upper_bonus(UPPER_IDS, 63, 35),), joker=o["joker"],
                          yahtzee_bonus=o["yahtzee_bonus"], **_common(e, o))


def _build_dozzy(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    sums = [
        Category(f"n{k}", _SUM_RULES[k], 2 * k,
                 partial(s.pair_sums_points, target=k), kind="pair_sum", section="sums", pair_sum=k)
        for k in range(7, 13)
    ]
    upper = _upper(5, prefix="n")
    ids16 = tuple(c.id for c in upper)
    ids712 = tuple(c.id for c in sums)
    return DozzyRuleset(
        dice=5, categories=tuple(upper + sums + _scandinavian_lower(False, False)),
        bonuses=(Bonus("bonus", ids16, 63, 50, strict=o["bonus_1_6_strict"]),
                 Bonus("bonus_7_12", ids712, 113, 50, strict=True)),
        sum_tiles_need_faces=o["sum_tiles_need_faces"], **_common(e, o))


@dataclass(frozen=True)
class RulesetEntry:
    """One ruleset in the registry: its id, title, the names people type, options, builder."""

    name: str
    title: str
    aliases: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    builder: Callable[[RulesetEntry, Mapping[str, Any]], Ruleset]

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


VARIANTS: tuple[RulesetEntry, ...] = (
    RulesetEntry("yatzy", N_("Yatzy (Scandinavian)"),
                 ("scandinavian", "nordic", "yatzy-scandinavian", "skandinavisk", "classic"),
                 (MUST_KEEP_ONE, THRESHOLD_63, FH_YATZY, TP_FOUR), _build_yatzy),
    RulesetEntry("forced", N_("Forced Yatzy (Pakko / Tvungen)"),
                 ("pakko", "pakko-yatzy", "tvungen", "tvungen-yatzy", "forced-yatzy"),
                 (MUST_KEEP_ONE, THRESHOLD_63, FH_YATZY, TP_FOUR,
                  OptionSpec("order", "down", N_("fill boxes top-down or bottom-up"), ("down", "up"))),
                 _build_forced),
    RulesetEntry("maxi", N_("Maxi Yatzy (6 dice)"), ("maxi-yatzy", "maxiyatzy", "maksi"),
                 (MUST_KEEP_ONE,
                  OptionSpec("bonus_threshold", 84, N_("84 earns +100, 75 earns +50"), (84, 75)),
                  OptionSpec("saved_rolls", True, N_("unused rolls are saved for later turns"),
                             (False, True)),
                  BANK_CAP), _build_maxi),
    RulesetEntry("osto", N_("Osto-Yatzy (saved rolls)"), ("osto-yatzy", "ostoyatzy"),
                 (MUST_KEEP_ONE, THRESHOLD_63, FH_YATZY, TP_FOUR, BANK_CAP), _build_osto),
    RulesetEntry("kids", N_("Kids' Yatzy (upper section practice)"), ("children", "lasten", "practice"),
                 (MUST_KEEP_ONE, THRESHOLD_63), _build_kids),
    RulesetEntry("yahtzee", N_("Yahtzee (American)"), ("american", "hasbro"),
                 (MUST_KEEP_ONE,
                  OptionSpec("joker", "forced", N_("joker rule for extra Yahtzees"),
                             ("forced", "free", "none")),
                  OptionSpec("yahtzee_bonus", True, N_("+100 for each extra Yahtzee"), (False, True))),
                 _build_yahtzee),
    RulesetEntry("dozzy", N_("DOZZY (Yatzy on the DOZEN12 board)"), ("dozen12",),
                 (MUST_KEEP_ONE,
                  OptionSpec("bonus_1_6_strict", False, N_("rows 1-6 must exceed 63 for the bonus"),
                             (False, True)),
                  OptionSpec("sum_tiles_need_faces", False,
                             N_("sums 7-12 also need their faces' tiles in play"), (False, True))),
                 _build_dozzy),
)
"""Every ruleset the engine plays, in the order menus list them."""

RULESETS = tuple(e.name for e in VARIANTS)
OPTIONS: dict[str, tuple[OptionSpec, ...]] = {e.name: e.options for e in VARIANTS}
ALIASES: dict[str, str] = {a: e.name for e in VARIANTS for a in (e.name, *e.aliases)}


def find_variant(name: str) -> RulesetEntry:
    """The registry entry for a ruleset id or alias people type ("Maxi-Yatzy", "pakko").

    :raises UnknownRulesetError: no ruleset has that name, listing the known ones.
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key not in ALIASES:
        aliases = ", ".join(sorted(a for a in ALIASES if a not in RULESETS))
        raise UnknownRulesetError(
            _("unknown ruleset “{name}”; known rulesets: {rulesets} (also: {aliases})").format(
                name=name, rulesets=", ".join(RULESETS), aliases=aliases))
    return next(e for e in VARIANTS if e.name == ALIASES[key])


def canonical(name: str) -> str:
    """The canonical ruleset id for a name or alias people type."""
    return find_variant(name).name


def get_ruleset(name: str = "yatzy", **options: object) -> Ruleset:
    """Build a ruleset by name or alias with house-rule options, e.g. ``joker="free"``."""
    return find_variant(name).build(**options)


def parse_options(pairs: list[str]) -> dict[str, str]:
    """Turn ``["joker=free", "order=up"]`` into a dict; InvalidActionError on a bad pair."""
    out: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise InvalidActionError(_("options are written name=value, not “{pair}”").format(pair=pair))
        k, v = pair.split("=", 1)
        out[k.strip().replace("-", "_")] = v.strip()
    return out


