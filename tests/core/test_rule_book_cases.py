"""Each decided edge case of the rule book, as stated there."""

from __future__ import annotations

import pytest

from yatzy.dice import parse
from yatzy.registry import get_ruleset


def scores(rules: str, roll: str, **opts: object) -> dict[str, int]:
    rs = get_ruleset(rules, **opts)
    return rs.score_all(parse(roll, rs.dice))


def test_five_fives() -> None:
    s = scores("yatzy", "55555")
    assert (s["one_pair"], s["three_of_a_kind"], s["four_of_a_kind"]) == (10, 15, 20)
    assert (s["two_pairs"], s["full_house"], s["yatzy"]) == (0, 0, 50)


def test_best_pair_two_pairs_full_house() -> None:
    assert scores("yatzy", "66442")["one_pair"] == 12
    s = scores("yatzy", "55533")
    assert (s["two_pairs"], s["full_house"]) == (16, 21)
    assert scores("yatzy", "66662")["two_pairs"] == 0


def test_four_in_a_row_is_not_a_straight() -> None:
    s = scores("yatzy", "12346")
    assert s["small_straight"] == 0 and s["large_straight"] == 0
    assert scores("yatzy", "23456")["large_straight"] == 20


def test_seed_002_notation() -> None:
    assert scores("yatzy", "66613")["three_of_a_kind"] == 18


def test_house_rules() -> None:
    assert scores("yatzy", "44444", full_house_accepts_yatzy=True)["full_house"] == 20
    assert scores("yatzy", "44441", two_pairs_accepts_four=True)["two_pairs"] == 16


def test_bonus_threshold_is_at_least_63() -> None:
    rs = get_ruleset("yatzy")
    card = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    assert rs.bonus_points(card) == {"bonus": 50}
    card["sixes"] = 12
    assert rs.bonus_points(card) == {"bonus": 0}
    assert get_ruleset("forced", bonus_threshold=42).bonus_points(card) == {"bonus": 50}


def test_maxi_six_of_a_kind_and_tower() -> None:
    s = scores("maxi", "666666")
    assert [s[c] for c in ("one_pair", "three_of_a_kind", "four_of_a_kind",
                           "five_of_a_kind", "maxi_yatzy")] == [12, 18, 24, 30, 100]
    assert [s[c] for c in ("two_pairs", "three_pairs", "full_house", "villa", "tower")] == [0] * 5
    s = scores("maxi", "666655")
    assert (s["full_house"], s["tower"], s["two_pairs"], s["three_pairs"], s["villa"]) == (
        28, 34, 22, 0, 0)


def test_maxi_bonus_option() -> None:
    assert get_ruleset("maxi").bonuses[0].points == 100
    rs = get_ruleset("maxi", bonus_threshold=75)
    assert (rs.bonuses[0].threshold, rs.bonuses[0].points) == (75, 50)


def test_yahtzee_lower_section() -> None:
    s = scores("yahtzee", "12346")
    assert (s["small_straight"], s["large_straight"]) == (30, 0)
    s = scores("yahtzee", "33333")
    assert (s["full_house"], s["small_straight"], s["three_of_a_kind"]) == (0, 0, 15)


@pytest.mark.parametrize("roll,cat,points", [
    ("45452", "two_pairs", 18),  # the sheet's errata: 18, not 20
    ("33345", "n3", 9),
    ("33345", "n9", 9),
    ("66441", "n12", 12),
    ("66661", "n12", 24),
])
def test_dozzy_with_all_tiles(roll: str, cat: str, points: int) -> None:
    assert scores("dozzy", roll)[cat] == points


def test_dozzy_max_total() -> None:
    assert get_ruleset("dozzy").max_total == 538
    assert get_ruleset("yatzy").max_total == 374


def test_finnish_names_as_the_finnish_sheets_write_them() -> None:
    from yatzy.names import category_name

    assert category_name("fives", "fi") == "Viitoset"
    assert category_name("n5", "fi") == "Viitoset"
    assert category_name("one_pair", "fi") == "Yksi pari"


def all_yahtzee_game(joker: str) -> int:
    """A whole solo game in which every roll is five of a kind, boxes chosen for the most points."""
    from yatzy.game import Game, Roll

    rs = get_ruleset("yahtzee", joker=joker)
    game = Game(rs, ["a"], seed=0)
    plan = [(6, "yahtzee")] + [(f, u) for f, u in zip(range(1, 7), rs.category_ids[:6], strict=True)]
    lower = [c for c in rs.category_ids[6:] if c != "yahtzee"]
    plan += [(6, c) for c in lower]
    for face, box in plan:
        game.apply(Roll((), (face,) * 5))
        options = game.score_options()
        game.score(box if box in options else max(options, key=options.__getitem__))
    assert game.is_over
    return game.total(0)


@pytest.mark.parametrize("joker", ["forced", "free", "none"])
def test_yahtzee_max_total_counts_the_bonuses(joker: str) -> None:
    rs = get_ruleset("yahtzee", joker=joker)
    assert rs.max_total == 375
    assert rs.max_total + rs.max_extra == all_yahtzee_game(joker)
    assert get_ruleset("yahtzee", yahtzee_bonus=False).max_extra == 0


def test_option_values_out_of_range_are_refused() -> None:
    from yatzy.errors import InvalidActionError

    for rules, opts, match in [
        ("yatzy", {"bonus_threshold": 1000}, "bonus_threshold must be 1 to 105, not 1000"),
        ("yatzy", {"bonus_threshold": 0}, "must be 1 to 105"),
        ("osto", {"bank_cap": -1}, "bank_cap must be 0 to 99"),
        ("maxi", {"bonus_threshold": 63}, "84, 75"),
        ("yatzy", {"must_keep_one": "maybe"}, "on or off"),
        ("forced", {"bonus_threshold": "lots"}, "whole number"),
        ("maxi", {"saved_rolls": False, "bank_cap": 2}, "needs saved_rolls=on"),
    ]:
        with pytest.raises(InvalidActionError, match=match):
            get_ruleset(rules, **opts)
    assert get_ruleset("osto", bank_cap="none").bank_cap is None
    assert get_ruleset("forced", bonus_threshold="42").bonuses[0].threshold == 42


def test_the_rule_sheet_notes_follow_the_yahtzee_options_and_state_dozzys_board() -> None:
    from yatzy.rulesets import dozzy, yahtzee

    starts = {"forced": "Joker rule (forced): ", "free": "Joker rule (free): ", "none": "No joker rule: "}
    for joker, start in starts.items():
        for bonus in (True, False):
            joker_line, bonus_line = yahtzee.notes(get_ruleset("yahtzee", joker=joker, yahtzee_bonus=bonus))
            assert joker_line.startswith(start) and joker_line.endswith(".")
            assert bonus_line == ("Yahtzee bonus: +100 for each extra Yahtzee while the Yahtzee box holds 50."
                                  if bonus else "No Yahtzee bonus.")
    (board,) = dozzy.notes(get_ruleset("dozzy"))
    assert board.startswith("Tiles 1-12 start in play;")
    assert board.endswith("bring tiles back until 3 are out.")
    assert " With 4+ out before a turn, you may " in board
    # each line is a whole message of the catalogs: it reads in every language, never in English
    from yatzy.i18n import LANGUAGES, language

    sheets = [(yahtzee, get_ruleset("yahtzee", joker=joker, yahtzee_bonus=bonus))
              for joker in starts for bonus in (True, False)] + [(dozzy, get_ruleset("dozzy"))]
    for module, rules in sheets:
        english = module.notes(rules)
        for lang in LANGUAGES[1:]:
            with language(lang):
                translated = module.notes(rules)
            assert len(translated) == len(english)
            assert all(line not in english for line in translated), (lang, translated)


def test_the_section_bonuses_at_their_thresholds() -> None:
    """docs/rules.md: Yahtzee +35 when Ones to Sixes total 63 or more; DOZZY +50 when rows 1-6
    total 63 or more (more than 63 with bonus_1_6_strict), +50 when rows 7-12 total more than 113."""
    upper = ["ones", "twos", "threes", "fours", "fives", "sixes"]
    three_each = {c: 3 * face for face, c in enumerate(upper, 1)}  # 63
    yahtzee = get_ruleset("yahtzee")
    assert yahtzee.bonus_points(three_each) == {"bonus": 35}
    assert yahtzee.bonus_points({**three_each, "ones": 2}) == {"bonus": 0}
    dozzy = get_ruleset("dozzy")
    rows16 = {f"n{face}": 3 * face for face in range(1, 7)}  # 63
    rows712 = {f"n{k}": 2 * k for k in range(7, 13)}  # each sum row's best: 114
    assert dozzy.bonus_points({**rows16, **rows712}) == {"bonus": 50, "bonus_7_12": 50}
    # 107: no card of rows 7-12 totals 108 to 113, so in play "more than 113" means every row at
    # its best; the rule itself, at the tie, on a card made up for it
    assert dozzy.bonus_points({**rows16, **rows712, "n7": 7}) == {"bonus": 50, "bonus_7_12": 0}
    assert dozzy.bonus_points({**rows16, **rows712, "n7": 13}) == {"bonus": 50, "bonus_7_12": 0}  # 113
    strict = get_ruleset("dozzy", bonus_1_6_strict=True)
    assert strict.bonus_points(rows16)["bonus"] == 0
    assert strict.bonus_points({**rows16, "n1": 4})["bonus"] == 50


def test_every_boxs_rule_and_name_read_in_every_language() -> None:
    """A rule sheet shows each box's rule and name through the catalogs (``_(c.rule)``,
    names.category_name): each must be a message every language's compiled catalog has, or
    the sheet falls back to English, or to no words at all."""
    import gettext

    from yatzy.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
    from yatzy.registry import RULESETS

    class Missing(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            raise LookupError(message)

    for lang in LANGUAGES[1:]:
        with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as mo:
            catalog = gettext.GNUTranslations(mo)
        catalog.add_fallback(Missing())
        for name in RULESETS:
            for box in get_ruleset(name).categories:
                for text in (box.rule, box.name):
                    assert isinstance(text, str) and text, (name, box.id)
                    assert catalog.gettext(text), (lang, name, box.id, text)
