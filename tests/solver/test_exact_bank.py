"""The exact value of a saved-roll game with no bank cap (``solve.exact_value``): against a
brute force that knows no cap, and against whole tables solved at growing caps."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import pytest
from typer.testing import CliRunner

import yatzy.solver.solve as solve_mod
from helpers.toy import toy
from yatzy.cli import app
from yatzy.dice import all_rolls, probability, sub_multisets
from yatzy.errors import InvalidActionError
from yatzy.registry import get_ruleset
from yatzy.rules import Ruleset
from yatzy.solver.solve import exact_cap, exact_value, solve


def saving(**changes: object) -> Ruleset:
    """The toy (three dice, four boxes) with unused rolls saved, as Maxi and Osto save them."""
    return replace(toy(), saved_rolls=True, **changes)  # type: ignore[arg-type]


def brute_value(rs: Ruleset) -> float:
    """Expected final score of best play by plain recursion over turns, rolls and keeps: the
    rolls a turn leaves go to the bank, bounded only by the ruleset's own cap (if any)."""
    b = rs.bonuses[0]

    @cache
    def start(open_: frozenset[str], u: int, bank: int) -> float:
        if not open_:
            return float(b.points if u >= b.threshold else 0)
        left = rs.rolls_per_turn - 1 + bank
        return sum(probability(r) * at(open_, u, r, left) for r in all_rolls(rs.dice))

    @cache
    def at(open_: frozenset[str], u: int, roll: tuple[int, ...], left: int) -> float:
        saved = left if rs.bank_cap is None else min(left, rs.bank_cap)
        best = max(rs.score(c, roll) + start(open_ - {c}, min(u + rs.score(c, roll), b.threshold)
                                             if c in b.categories else u, saved) for c in open_)
        if left:
            for k in sub_multisets(roll):
                best = max(best, sum(probability(rest) * at(open_, u, tuple(sorted(k + rest)), left - 1)
                                     for rest in all_rolls(rs.dice - len(k))))
        return best

    return start(frozenset(rs.category_ids), 0, 0)


@pytest.mark.parametrize("changes", [{}, {"bank_cap": 1}, {"rolls_per_turn": 2}])
def test_the_exact_value_is_the_brute_force_with_no_cap(changes: dict[str, object]) -> None:
    rs = saving(**changes)
    assert exact_value(rs).expected_score == pytest.approx(brute_value(rs), abs=1e-4)


def test_the_exact_cap_is_no_cap_at_all() -> None:
    """Tables at growing caps rise to the exact value, reach it at ``exact_cap`` and stay."""
    rs = saving()
    top = exact_cap(rs)
    assert top == 2 * 3  # two rolls saved at most in each of the three turns before the last
    exact = exact_value(rs)
    values = [solve(rs, bank_cap=c, use_cache=False).expected_score for c in range(top + 3)]
    assert all(a <= b + 1e-5 for a, b in zip(values, values[1:], strict=False))
    assert values[0] < exact.expected_score - 1  # saved rolls are worth something here
    for v in values[top:]:
        assert v == pytest.approx(exact.expected_score, abs=1e-4)
    # each layer holds only the banks a game can have by then: fewer states than the whole table
    assert solve(rs, bank_cap=0, use_cache=False).states < exact.states < solve(
        rs, bank_cap=top, use_cache=False).states


def test_exact_cap_counts_the_turns_and_keeps_a_rulesets_own_cap() -> None:
    assert exact_cap(get_ruleset("maxi")) == 2 * 19
    assert exact_cap(get_ruleset("osto")) == 2 * (len(get_ruleset("osto").categories) - 1)
    assert exact_cap(saving(bank_cap=1)) == 1


def test_a_game_without_saved_rolls_has_no_exact_bank_value() -> None:
    with pytest.raises(InvalidActionError, match="no saved rolls"):
        exact_value(get_ruleset("yatzy"))


# ---- the command line: yatzy solve --no-cap ------------------------------------------------------
runner = CliRunner()


@pytest.mark.slow
def test_solve_no_cap_gives_osto_its_converged_value() -> None:
    r = runner.invoke(app, ["solve", "-r", "osto", "--no-cap", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    # where Osto's table settles at caps 20 and 24 (docs/performance.md), now with no cap at all
    assert out["no_cap"] is True and out["bank_cap"] == 28
    assert out["expected_score"] == pytest.approx(280.4109, abs=1e-4)


def test_solve_no_cap_says_so_in_the_players_language(monkeypatch: pytest.MonkeyPatch) -> None:
    toy_exact = exact_value(saving())
    monkeypatch.setattr(solve_mod, "exact_value", lambda rs, progress=None: toy_exact)
    r = runner.invoke(app, ["solve", "-r", "osto", "--no-cap", "--lang", "fi"])
    assert r.exit_code == 0, r.output
    assert "ilman säästökattoa" in r.stdout
    assert f"{toy_exact.expected_score:.4f}".replace(".", ",") in r.stdout


@pytest.mark.parametrize(("args", "said"), [
    (["-r", "osto", "--no-cap", "--bank-cap", "3"], "--bank-cap 3"),
    (["-r", "yatzy", "--no-cap"], "no saved rolls"),
])
def test_solve_no_cap_refuses_what_it_cannot_do(args: list[str], said: str) -> None:
    r = runner.invoke(app, ["solve", *args])
    assert r.exit_code == 2 and said in r.stderr and r.stdout == ""
