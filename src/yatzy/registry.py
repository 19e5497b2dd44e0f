"""The ruleset registry: names, aliases, options and the builders that turn them into values."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from . import scoring as s
from .dice import Counts
from .errors import InvalidActionError, UnknownRulesetError
from .rules import UPPER_IDS, Bonus, Category, DozzyRuleset, Ruleset, YahtzeeRuleset


@dataclass(frozen=True)
class OptionSpec:
    """A house-rule option: its default, the values it takes and what it means."""

    name: str
    default: object
    help: str
    choices: tuple[object, ...] | None = None
    low: int = 0
    """Numbers: the smallest value the rules can use."""
    high: int | None = None
    """Numbers: the largest value the rules can use (None: no upper bound)."""
    none_means: str = "none"
    """How a None value reads (bank_cap: "no cap")."""

    def show(self, value: object) -> str:
        """A value as a player reads it: on/off, "no cap", 63."""
        if isinstance(value, bool):
            return "on" if value else "off"
        return self.none_means if value is None else str(value)

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
            raise InvalidActionError(f"option {self.name} is on or off (true or false), not “{value}”")
        if self.choices is not None:
            for choice in self.choices:
                if str(choice) == str(value).strip().lower() or choice == value:
                    return choice
            raise InvalidActionError(
                f"option {self.name} is one of {', '.join(map(str, self.choices))}, not “{value}”"
            )
        if value is None or str(value).strip().lower() in ("none", "no-cap", "no_cap", ""):
            if self.default is None:
                return None
        try:
            number = int(str(value))
        except ValueError:
            raise InvalidActionError(
                f"option {self.name} takes a whole number, not “{value}”"
            ) from None
        if number < self.low or (self.high is not None and number > self.high):
            allowed = f"{self.low} or more" if self.high is None else f"{self.low} to {self.high}"
            raise InvalidActionError(f"option {self.name} must be {allowed}, not {number}")
        return number


MUST_KEEP_ONE = OptionSpec(
    "must_keep_one", False, "at least one die must be kept before a re-roll", (False, True)
)
THRESHOLD_63 = OptionSpec("bonus_threshold", 63, "upper total that earns the 50-point bonus",
                          low=1, high=105)
FH_YATZY = OptionSpec(
    "full_house_accepts_yatzy", False, "five of a kind also scores as full house", (False, True)
)
TP_FOUR = OptionSpec(
    "two_pairs_accepts_four", False, "four of a kind also scores as two pairs (4 x face)",
    (False, True),
)
BANK_CAP = OptionSpec("bank_cap", None, "most saved rolls a player may hold (none: no cap)",
                      high=99, none_means="no cap")

def _upper(dice: int, prefix: str = "") -> list[Category]:
    return [
        Category(f"n{f}" if prefix else UPPER_IDS[f - 1], f"{f} x number of {f}s", f * dice,
                 partial(s.upper, face=f), kind="number", section="upper", face=f)
        for f in range(1, 7)
    ]


def _sets(id_: str, rule: str, top: int, score: Callable[[Counts], int], per_face: int,
          faces: int = 1) -> Category:
    return Category(id_, rule, top, score, kind="sets", sets=(per_face, faces))


def _scandinavian_lower(fh_yatzy: bool, tp_four: bool) -> list[Category]:
    return [
        _sets("one_pair", "2 x highest pair", 12, partial(s.of_a_kind, n=2), 2),
        _sets("two_pairs", "two different pairs: their sum"
              + (" (four of a kind counts, 4 x face)" if tp_four else ""), 24 if tp_four else 22,
              partial(s.pairs, n=2, accept_four=tp_four), 2, 2),
        _sets("three_of_a_kind", "3 x face shown 3+ times", 18, partial(s.of_a_kind, n=3), 3),
        _sets("four_of_a_kind", "4 x face shown 4+ times", 24, partial(s.of_a_kind, n=4), 4),
        Category("small_straight", "exactly 1-2-3-4-5: 15", 15,
                 partial(s.straight, low=1, high=5, points=15), kind="straight"),
        Category("large_straight", "exactly 2-3-4-5-6: 20", 20,
                 partial(s.straight, low=2, high=6, points=20), kind="straight"),
        Category("full_house", "exactly 3 + 2 of different faces: sum of dice"
                 + (" (five of a kind counts)" if fh_yatzy else ""), 30 if fh_yatzy else 28,
                 partial(s.full_house_exact, accept_yatzy=fh_yatzy)),
        Category("chance", "sum of dice", 30, s.total, kind="chance"),
        Category("yatzy", "five of a kind: 50", 50, partial(s.all_same, points=50), kind="yatzy"),
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
        _sets("one_pair", "2 x highest pair", 12, partial(s.of_a_kind, n=2), 2),
        _sets("two_pairs", "two different pairs: best sum", 22, partial(s.pairs, n=2), 2, 2),
        _sets("three_pairs", "three different pairs: sum of the six dice", 30, partial(s.pairs, n=3), 2, 3),
        _sets("three_of_a_kind", "3 x face shown 3+ times", 18, partial(s.of_a_kind, n=3), 3),
        _sets("four_of_a_kind", "4 x face shown 4+ times", 24, partial(s.of_a_kind, n=4), 4),
        _sets("five_of_a_kind", "5 x face shown 5+ times", 30, partial(s.of_a_kind, n=5), 5),
        Category("small_straight", "1-2-3-4-5 present: 15", 15,
                 partial(s.straight, low=1, high=5, points=15), kind="straight"),
        Category("large_straight", "2-3-4-5-6 present: 20", 20,
                 partial(s.straight, low=2, high=6, points=20), kind="straight"),
        Category("full_straight", "1-2-3-4-5-6: 21", 21,
                 partial(s.straight, low=1, high=6, points=21), kind="straight"),
        Category("full_house", "3 + 2 of different faces: best sum of those 5 dice", 28,
                 partial(s.combo, big=3, small=2)),
        Category("villa", "two different triples: sum of all 6", 33, partial(s.combo, big=3, small=3)),
        Category("tower", "4 + 2 of different faces: sum of all 6", 34, partial(s.combo, big=4, small=2)),
        Category("chance", "sum of dice", 36, s.total, kind="chance"),
        Category("maxi_yatzy", "six of a kind: 100", 100, partial(s.all_same, points=100), kind="yatzy"),
    ]
    threshold = o["bonus_threshold"]
    return Ruleset(dice=6, categories=tuple(cats),
                   bonuses=(_upper_bonus(UPPER_IDS, threshold, 100 if threshold == 84 else 50),),
                   saved_rolls=o["saved_rolls"], bank_cap=o["bank_cap"], **_common(e, o))


def _build_yahtzee(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    lower = [
        Category("three_of_a_kind", "3+ of a face: sum of all dice", 30, partial(s.of_a_kind_sum, n=3)),
        Category("four_of_a_kind", "4+ of a face: sum of all dice", 30, partial(s.of_a_kind_sum, n=4)),
        Category("full_house", "3 + 2 of different faces: 25", 25, partial(s.full_house_fixed, points=25)),
        Category("small_straight", "any 4 in a row: 30", 30, partial(s.run, length=4, points=30),
                 kind="straight"),
        Category("large_straight", "5 in a row: 40", 40, partial(s.run, length=5, points=40),
                 kind="straight"),
        Category("yahtzee", "five of a kind: 50", 50, partial(s.all_same, points=50), kind="yatzy"),
        Category("chance", "sum of dice", 30, s.total, kind="chance"),
    ]
    return YahtzeeRuleset(dice=5, categories=tuple(_upper(5) + lower),
                          bonuses=(_upper_bonus(UPPER_IDS, 63, 35),), joker=o["joker"],
                          yahtzee_bonus=o["yahtzee_bonus"], **_common(e, o))


def _build_dozzy(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
    sums = [
        Category(f"n{k}", f"{k} x number of disjoint dice pairs adding to {k}", 2 * k,
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
            raise InvalidActionError(
                f"{self.name} has no option “{unknown[0]}”; its options are: {', '.join(specs)}"
            )
        values = {n: spec.parse(options[n]) if n in options else spec.default
                  for n, spec in specs.items()}
        if values.get("saved_rolls") is False and values.get("bank_cap") is not None:
            raise InvalidActionError("bank_cap limits saved rolls, so it needs saved_rolls=on")
        return self.builder(self, values)


VARIANTS: tuple[RulesetEntry, ...] = (
    RulesetEntry("yatzy", "Yatzy (Scandinavian)",
                 ("scandinavian", "nordic", "yatzy-scandinavian", "skandinavisk", "classic"),
                 (MUST_KEEP_ONE, THRESHOLD_63, FH_YATZY, TP_FOUR), _build_yatzy),
    RulesetEntry("forced", "Forced Yatzy (Pakko / Tvungen)",
                 ("pakko", "pakko-yatzy", "tvungen", "tvungen-yatzy", "forced-yatzy"),
                 (MUST_KEEP_ONE, THRESHOLD_63, FH_YATZY, TP_FOUR,
                  OptionSpec("order", "down", "fill boxes top-down or bottom-up", ("down", "up"))),
                 _build_forced),
    RulesetEntry("maxi", "Maxi Yatzy (6 dice)", ("maxi-yatzy", "maxiyatzy", "maksi"),
                 (MUST_KEEP_ONE,
                  OptionSpec("bonus_threshold", 84, "84 earns +100, 75 earns +50", (84, 75)),
                  OptionSpec("saved_rolls", True, "unused rolls are saved for later turns", (False, True)),
                  BANK_CAP), _build_maxi),
    RulesetEntry("osto", "Osto-Yatzy (saved rolls)", ("osto-yatzy", "ostoyatzy"),
                 (MUST_KEEP_ONE, THRESHOLD_63, FH_YATZY, TP_FOUR, BANK_CAP), _build_osto),
    RulesetEntry("kids", "Kids' Yatzy (upper section practice)", ("children", "lasten", "practice"),
                 (MUST_KEEP_ONE, THRESHOLD_63), _build_kids),
    RulesetEntry("yahtzee", "Yahtzee (American)", ("american", "hasbro"),
                 (MUST_KEEP_ONE,
                  OptionSpec("joker", "forced", "joker rule for extra Yahtzees", ("forced", "free", "none")),
                  OptionSpec("yahtzee_bonus", True, "+100 for each extra Yahtzee", (False, True))),
                 _build_yahtzee),
    RulesetEntry("dozzy", "DOZZY (Yatzy on the DOZEN12 board)", ("dozen12",),
                 (MUST_KEEP_ONE,
                  OptionSpec("bonus_1_6_strict", False, "rows 1-6 must exceed 63 for the bonus",
                             (False, True)),
                  OptionSpec("sum_tiles_need_faces", False,
                             "sums 7-12 also need their faces' tiles in play", (False, True))),
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
            f"unknown ruleset “{name}”; known rulesets: {', '.join(RULESETS)} (also: {aliases})"
        )
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
            raise InvalidActionError(f"options are written name=value, got {pair!r}")
        k, v = pair.split("=", 1)
        out[k.strip().replace("-", "_")] = v.strip()
    return out


