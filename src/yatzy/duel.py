"""Bots played head to head: many seeded games with the seats rotating, and each bot's wins,
draws and win rate with its 95 % confidence interval (``yatzy duel``, the benchmarks).

A shared first place is a draw for every bot sharing it, and a draw counts half a win.
The interval is Wilson's score interval at z = 1.96 for the win rate over the games played
(draws as halves): unlike the normal one it stays inside [0, 1] and is sound near 0 and 1.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .bots import BOTS, Player, bot_spec, in_chunks, make_bot, run
from .errors import InvalidActionError
from .game import Game
from .i18n import _
from .registry import get_ruleset
from .rules import Ruleset

Z95 = 1.959963984540054
"""The standard normal's two-sided 95 % quantile."""


def wilson(rate: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a proportion ``rate`` seen over ``n`` trials."""
    if n < 1:
        raise ValueError("an interval needs at least one trial")

    def low(p: float) -> float:
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        return max(0.0, centre - half)

    return low(rate), 1.0 - low(1.0 - rate)  # the upper bound mirrored: exactly 1 at rate 1


@dataclass(frozen=True)
class BotRecord:
    """One bot's results over a duel's games."""

    bot: str
    wins: int
    draws: int
    games: int

    @property
    def win_rate(self) -> float:
        """Wins plus half the draws, per game."""
        return (self.wins + self.draws / 2) / self.games

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.win_rate, self.games)

    def to_dict(self) -> dict[str, object]:
        return {"bot": self.bot, "wins": self.wins, "draws": self.draws,
                "win_rate": self.win_rate, "ci95": list(self.ci95)}


@dataclass(frozen=True)
class DuelResult:
    """Every bot's record, in the order the bots were given."""

    games: int
    records: tuple[BotRecord, ...]

    def to_dict(self) -> dict[str, object]:
        """The JSON of ``yatzy duel``."""
        return {"games": self.games, "bots": [r.to_dict() for r in self.records]}


def check_bots(names: Sequence[str], ruleset: Ruleset) -> list[str]:
    """The bots typed, each a known level this ruleset can have, at least two.

    :raises InvalidActionError: an unknown bot, fewer than two, or a bot the ruleset
        cannot have (the board's bot without a board), in the player's language.
    """
    bots = [n.strip().lower() for n in names if n.strip()]
    if len(bots) < 2:
        raise InvalidActionError(_("a duel needs at least two bots, e.g. win,optimal"))
    for name in bots:
        spec = bot_spec(name)
        if spec is None:
            raise InvalidActionError(
                _("unknown bot “{bot}”; choose one of {bots}").format(bot=name, bots=", ".join(BOTS)))
        if spec.needs == "board" and not ruleset.uses_board:
            raise InvalidActionError(
                _("the {bot} bot plays only games with a board, not {rules}").format(
                    bot=name, rules=ruleset.name))
    return bots


def seating(game_index: int, n_bots: int) -> list[int]:
    """Which bot sits in each seat in game ``game_index``: seat s gets bot (s + g) mod n, so
    every bot starts as often as any other over n games."""
    return [(s + game_index) % n_bots for s in range(n_bots)]


def tally(bots: Sequence[str], winners: Iterable[Sequence[int]]) -> DuelResult:
    """Each bot's record from each game's winning bots (indices into ``bots``): a sole winner
    wins, a shared first place is a draw for each bot in it."""
    wins, draws, games = [0] * len(bots), [0] * len(bots), 0
    for first in winners:
        games += 1
        for b in first:
            if len(first) == 1:
                wins[b] += 1
            else:
                draws[b] += 1
    return DuelResult(games, tuple(BotRecord(name, wins[i], draws[i], games)
                                   for i, name in enumerate(bots)))


def play_game(ruleset: Ruleset, players: Sequence[Player], game_index: int, seed: int) -> list[int]:
    """Game ``game_index`` of a duel, seeded from ``seed``, the players seated by
    :func:`seating`; the players (indices) in first place."""
    order = seating(game_index, len(players))
    game = Game(ruleset, [f"bot {s + 1}" for s in range(len(order))], seed=seed * 1_000_003 + game_index)
    run(game, [players[b] for b in order])
    return sorted(order[s] for s in game.winners())


def _chunk(args: tuple[Ruleset | tuple[str, dict[str, object]], tuple[str, ...], int, int, int]
           ) -> list[list[int]]:
    """Games first..first + count - 1: each bot made once for the chunk, seeded by its start."""
    rules, bots, seed, first, count = args
    ruleset = rules if isinstance(rules, Ruleset) else get_ruleset(rules[0], **rules[1])
    players = [make_bot(b, ruleset, seed * 7919 + first + 101 * i) for i, b in enumerate(bots)]
    return [play_game(ruleset, players, g, seed) for g in range(first, first + count)]


def duel(ruleset: Ruleset, bots: Sequence[str], games: int, seed: int = 0,
         workers: int | None = None, progress: Callable[[int, int], None] | None = None
         ) -> DuelResult:
    """Play ``games`` games of the bots against each other, seats rotating, on every core.

    The results depend on (ruleset, bots, games, seed) only, not on the number of workers;
    ``progress`` hears (games done, games) as chunks finish.

    :raises InvalidActionError: fewer than one game, or bots :func:`check_bots` refuses.
    """
    if games < 1:
        raise InvalidActionError(_("play at least 1 game, not {games}").format(games=games))
    names = tuple(check_bots(bots, ruleset))
    for name in set(names):
        make_bot(name, ruleset)  # build each table once, here, before the workers need it
    workers = workers or min(2, os.cpu_count() or 1)
    size = max(1, min(50, games // 40))
    rules: Ruleset | tuple[str, dict[str, object]] = (
        ruleset if workers == 1 else (ruleset.name, dict(ruleset.options)))
    chunks = [(rules, names, seed, first, min(size, games - first)) for first in range(0, games, size)]
    winners = in_chunks(_chunk, chunks, workers, games, progress)
    return tally(names, winners)
