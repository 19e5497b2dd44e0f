"""Adding a ruleset is adding one module: a throwaway ruleset, written by the test into a
folder of its own, registers itself and plays through the engine, the solver, the session
and a view, with no other file touched; afterwards the registry holds the seven again."""

from __future__ import annotations

import importlib.util
import json
import pkgutil
import statistics
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import yatzy.rulesets
from yatzy import scoring
from yatzy.bots import RandomBot, make_bot, play_solo, run
from yatzy.errors import UnknownRulesetError
from yatzy.events import Scored
from yatzy.game import Game, Roll, Score
from yatzy.i18n import N_
from yatzy.names import category_name
from yatzy.narration import event_words
from yatzy.registry import ALIASES, OPTIONS, RULESETS, VARIANTS, find_variant, get_ruleset
from yatzy.rules import Category, Ruleset
from yatzy.rulesets.parts import MUST_KEEP_ONE, RulesetEntry, common, register, unregister
from yatzy.seats import Seat
from yatzy.session import Session
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve
from yatzy.views import game_view, plain

SEVEN = ("yatzy", "forced", "maxi", "osto", "kids", "yahtzee", "dozzy")

TRIO = '''
"""Trio: three dice, three boxes, +10 for 20 in Fives and Sixes."""

from functools import partial

from yatzy import scoring as s
from yatzy.rules import Bonus, Category, Ruleset
from yatzy.rulesets.parts import MUST_KEEP_ONE, RulesetEntry, common, register


def build(e, o):
    return Ruleset(dice=3, categories=(
        Category("fives", "5 x number of 5s", 15, partial(s.upper, face=5), kind="number",
                 section="upper", face=5, name="Fives"),
        Category("sixes", "6 x number of 6s", 18, partial(s.upper, face=6), kind="number",
                 section="upper", face=6, name="Sixes"),
        Category("trio", "three of a kind: 30", 30, partial(s.all_same, points=30), kind="yatzy",
                 name="Trio"),
    ), bonuses=(Bonus("bonus", ("fives", "sixes"), 20, 10),), **common(e, o))


ENTRY = register(RulesetEntry("trio", "Trio (3 dice)", ("three-dice",), (MUST_KEEP_ONE,), build,
                              menu_order=80))
'''


@contextmanager
def trio_registered(folder: Path) -> Iterator[RulesetEntry]:
    """Write the Trio module, import it (it registers itself), and take it out again."""
    path = folder / "trio.py"
    path.write_text(TRIO)
    spec = importlib.util.spec_from_file_location("trio_ruleset", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
        yield module.ENTRY
    finally:
        unregister("trio")


def test_the_registry_lists_the_seven_rulesets_in_menu_order() -> None:
    assert tuple(RULESETS) == SEVEN
    assert tuple(e.name for e in VARIANTS) == SEVEN
    assert tuple(OPTIONS) == SEVEN
    assert set(ALIASES.values()) == set(SEVEN)
    modules = {m.name for m in pkgutil.iter_modules(yatzy.rulesets.__path__)} - {"parts"}
    assert modules == set(SEVEN), "each ruleset is the module of its name"
    assert all(find_variant(name).__module__ == "yatzy.rulesets.parts" for name in SEVEN)
    assert {name: get_ruleset(name).name for name in SEVEN} == {name: name for name in SEVEN}


def test_a_ruleset_of_one_module_plays_through_engine_solver_session_and_view(tmp_path: Path) -> None:
    with trio_registered(tmp_path) as entry:
        # the registry: listed last, found by its alias, its options and box names known
        assert tuple(RULESETS) == (*SEVEN, "trio") and VARIANTS[-1] is entry
        assert find_variant("Three Dice") is entry and ALIASES["three-dice"] == "trio"
        assert OPTIONS["trio"] == (MUST_KEEP_ONE,)
        rs = get_ruleset("trio", must_keep_one=True)
        assert (rs.dice, rs.category_ids, rs.max_total, rs.must_keep_one) == (3, ("fives", "sixes", "trio"),
                                                                             73, True)
        assert category_name("trio") == category_name("trio", "fi") == "Trio"

        # the engine
        game = Game("trio", ["Ann"], seed=4)
        game.play(Roll())
        assert game.state.dice is not None and len(game.state.dice) == 3
        run(game, [RandomBot(1)])
        card = game.state.players[0].card
        assert game.is_over and set(card) == {"fives", "sixes", "trio"}
        bonus = 10 if card["fives"] + card["sixes"] >= 20 else 0
        assert game.total(0) == sum(card.values()) + bonus

        # the solver: its value is what optimal play scores on average
        solution = solve(get_ruleset("trio"), use_cache=False)
        assert solution.values.shape == (2**3, 1, 21)  # filled boxes, no aux, upper total 0..20
        assert 0 < solution.expected_score < 73
        optimal = make_bot("optimal", get_ruleset("trio"))
        scores = [play_solo(get_ruleset("trio"), optimal, seed) for seed in range(600)]
        spread = statistics.stdev(scores) / len(scores) ** 0.5
        assert abs(statistics.mean(scores) - solution.expected_score) < 4 * spread
        greedy = [play_solo(get_ruleset("trio"), make_bot("greedy", rs), seed) for seed in range(600)]
        assert statistics.mean(greedy) < statistics.mean(scores)
        coach = Coach(solution)
        start = Game("trio", ["Ann"], seed=9)
        start.play(Roll())
        options = coach.options(coach.position_of(start))
        assert options[0].regret == 0 and [o.regret for o in options] == sorted(o.regret for o in options)

        # the session: a person against the optimal bot, to the end
        session = Session(Game("trio", ["Ann", Seat.bot("optimal")], seed=11), lang="fi", bot_seed=2)
        session.prepare()
        person = RandomBot(3)
        events = session.advance()
        while session.outcome() is None:
            events += session.act(person.act(session.game))
            events += session.advance()
        scored = [e for e in events if isinstance(e, Scored)]
        assert sorted((e.player, e.box) for e in scored) == sorted(
            (p, b) for p in (0, 1) for b in ("fives", "sixes", "trio"))
        # a view: the card by its names, in the view's language, as JSON; the moves in words
        view = game_view(session.game, lang="fi")
        assert any("Trio" in event_words(e.to_dict(), view, "fi") for e in scored)
        assert view.ruleset == "trio" and view.title == "Trio (3 dice)" and view.rounds == 3
        assert [b.name for b in view.players[1].boxes] == ["Viitoset", "Kuutoset", "Trio"]
        assert view.players[1].level_name == "optimaalinen"
        assert json.loads(json.dumps(plain(view)))["ruleset"] == "trio"
        assert isinstance(session.game.log[-1], Score)

    # gone again, names and all
    assert tuple(RULESETS) == SEVEN and "three-dice" not in ALIASES and "trio" not in OPTIONS
    with pytest.raises(UnknownRulesetError):
        get_ruleset("trio")
    assert category_name("trio") == "trio"


def test_a_ruleset_may_not_take_a_name_or_name_a_box_otherwise() -> None:
    def luck(e: RulesetEntry, o: Mapping[str, Any]) -> Ruleset:
        ones = Category("ones", "", 5, partial(scoring.upper, face=1), name=N_("Luck"))
        return Ruleset(dice=5, categories=(ones,), bonuses=(), **common(e, o))

    with pytest.raises(ValueError, match="the name pakko is taken"):
        register(RulesetEntry("pakko-two", "", ("pakko",), (MUST_KEEP_ONE,), luck, menu_order=90))
    with pytest.raises(ValueError, match="luck names box ones “Luck”, but yatzy names it “Ones”"):
        register(RulesetEntry("luck", "", (), (MUST_KEEP_ONE,), luck, menu_order=90))
    assert tuple(RULESETS) == SEVEN and category_name("ones") == "Ones"
