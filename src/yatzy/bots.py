"""Computer players. Each one only *chooses* moves; the game engine applies them."""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

import numpy as np

from .dozzy_bot import DozzyPlanner
from .errors import InvalidActionError
from .game import Action, Game, Restore, Roll, Score
from .i18n import _, current_language, language, pgettext
from .registry import get_ruleset
from .rules import Ruleset
from .solver.simulate import Summary


class Player(Protocol):
    """Anything that picks the next move for the current player."""

    def act(self, game: Game) -> Action: ...


def _tile_return(game: Game, category: str, rng: random.Random | None = None) -> tuple[int, ...] | None:
    """DOZZY: bring back the most tiles, highest first (random bots pick at random)."""
    if not game.ruleset.uses_board:
        return None
    _, options = game.tile_moves(category)
    if rng is not None:
        return tuple(sorted(rng.choice(options)))
    return tuple(sorted(max(options, key=lambda s: (len(s), sorted(s, reverse=True)))))  # type: ignore[arg-type]


def _opening(game: Game) -> Action | None:
    """The move before any choice of dice: bring the highest tiles back (DOZZY), then roll."""
    n = game.may_restore()
    if n:
        return Restore(tuple(sorted(game.state.out, reverse=True)[:n]))
    if game.state.dice is None:
        return Roll()
    return None


class RandomBot:
    """Rolls a random number of times, keeps at random, fills a random allowed box."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Game) -> Action:
        if game.state.dice is None:
            return Roll()
        keeps = game.legal_keeps()
        if keeps and self.rng.random() < 0.5:
            return Roll(self.rng.choice(keeps))
        cat = self.rng.choice(sorted(game.score_options()))
        return Score(cat, _tile_return(game, cat, self.rng))


class GreedyBot:
    """The beginner: chases the most common face and takes the most points now."""

    def act(self, game: Game) -> Action:
        opening = _opening(game)
        if opening is not None:
            return opening
        dice = game.state.dice
        assert dice is not None
        options = game.score_options()
        rs = game.ruleset
        best = max(options, key=lambda c: (options[c] / max(1, rs.by_id[c].max), options[c]))
        good = options[best] >= 0.8 * rs.by_id[best].max and options[best] > 0
        if game.rolls_left > 0 and not good:
            face = max(set(dice), key=lambda f: (dice.count(f), f))
            keep = tuple(d for d in dice if d == face)
            if keep in game.legal_keeps():
                return Roll(keep)
        if max(options.values()) == 0:  # scratch the box worth least
            best = min(options, key=lambda c: rs.by_id[c].max)
        else:
            best = max(options, key=lambda c: (options[c], -rs.by_id[c].max))
        return Score(best, _tile_return(game, best))


class CoachBot:
    """Plays by the exact solver; with a temperature it errs like a person would.

    Each option is chosen with probability proportional to exp(-regret / temperature):
    0 is optimal play, larger temperatures make costlier mistakes likelier.
    """

    def __init__(self, ruleset: Ruleset, temperature: float = 0.0, seed: int | None = None) -> None:
        from .solver.coach import Coach
        from .solver.solve import solve

        self.coach = Coach(solve(ruleset))
        self.temperature = temperature
        self.rng = random.Random(seed)

    def act(self, game: Game) -> Action:
        if game.state.dice is None:
            return Roll()
        options = self.coach.options(self.coach.position_of(game), with_odds=False)
        if self.temperature > 0:
            weights = [math.exp(-o.regret / self.temperature) for o in options]
            choice = self.rng.choices(options, weights)[0]
        else:
            choice = options[0]
        return choice.action


class WinBot:
    """Plays to finish first: in a game with others, the option with the best chance of
    winning given every card on the table (:mod:`.solver.winning`); alone, or in a
    saved-roll game (which the moment tables do not cover), it plays as the optimal bot."""

    def __init__(self, ruleset: Ruleset) -> None:
        from .solver.moments import covers
        from .solver.winning import WinPlanner

        self.optimal = CoachBot(ruleset)
        solution = self.optimal.coach.solution
        self.planner = WinPlanner(solution) if covers(solution) else None

    @staticmethod
    def prepare(ruleset: Ruleset, progress: Callable[[int, int], None]) -> None:
        """The second-moment table the bot weighs opponents with (tens of seconds the first
        time for Yatzy; cached after), built with its progress told; after the value table."""
        from .solver.moments import covers, second_moments
        from .solver.solve import solve

        solution = solve(ruleset)
        if covers(solution):
            second_moments(solution, progress=progress)

    def act(self, game: Game) -> Action:
        if game.state.dice is None:
            return Roll()
        if self.planner is None or len(game.state.players) == 1:
            return self.optimal.act(game)
        return self.planner.choose(game)


class DozzyBot:
    """A DOZZY heuristic: points now, weighed against the tiles a move sends out."""

    def act(self, game: Game) -> Action:
        opening = _opening(game)
        if opening is not None:
            return opening
        dice = game.state.dice
        assert dice is not None
        rs = game.ruleset
        options = game.score_options()

        def worth(c: str) -> float:
            gone, back = game.tile_moves(c)
            returned = max((len(b) for b in back), default=0)
            return options[c] / max(1, rs.by_id[c].max) - 0.04 * len(gone) + 0.03 * returned

        best = max(options, key=worth)
        if game.rolls_left > 0 and options[best] < 0.7 * rs.by_id[best].max:
            live = [d for d in dice if d not in game.state.out] or list(dice)
            face = max(set(live), key=lambda f: (live.count(f), f))
            keep = tuple(d for d in dice if d == face)
            if keep in game.legal_keeps():
                return Roll(keep)
        if options[best] == 0:
            best = min(options, key=lambda c: rs.by_id[c].max)
        return Score(best, _tile_return(game, best))


Needs = Literal["nothing", "solver", "board"]
"""What a bot plays from: nothing but the game; the exact solver's table (built once, then
cached; on a board, which the solver cannot reach, the DOZZY bot plays instead); a board
(offered only in games that have one)."""


@dataclass(frozen=True)
class BotSpec:
    """One bot level: the name people type, what it needs, its name in menus, how it is made."""

    name: str
    """The English code typed in ``--players "Anna,greedy"`` (the same in every language)."""
    needs: Needs
    display: Callable[[], str]
    """The level as a player reads it, in the current language."""
    make: Callable[[Ruleset, int | None], Player]
    """The bot for a ruleset and a seed."""
    default_name: Callable[[], str]
    """A seat of this level's name until someone names it ("Greedy bot"), in the current language."""
    prepare: Callable[[Ruleset, Callable[[int, int], None]], None] | None = None
    """What the bot builds once beyond the solver's table (built and cached, its progress told
    as (done, total)), so that a front end shows it as it does the table's; None: nothing."""


def _coach(temperature: float) -> Callable[[Ruleset, int | None], Player]:
    """A solver bot erring at ``temperature`` (0: optimal); the DOZZY bot where there is a board."""
    def make(ruleset: Ruleset, seed: int | None) -> Player:
        return DozzyBot() if ruleset.uses_board else CoachBot(ruleset, temperature, seed)
    return make


BOT_SPECS: tuple[BotSpec, ...] = (
    BotSpec("random", "nothing", lambda: pgettext("bot level", "random"), lambda rs, seed: RandomBot(seed),
            lambda: pgettext("bot name", "Random bot")),
    BotSpec("greedy", "nothing", lambda: pgettext("bot level", "greedy"), lambda rs, seed: GreedyBot(),
            lambda: pgettext("bot name", "Greedy bot")),
    BotSpec("beginner", "nothing", lambda: pgettext("bot level", "beginner"), lambda rs, seed: GreedyBot(),
            lambda: pgettext("bot name", "Beginner bot")),
    BotSpec("casual", "solver", lambda: pgettext("bot level", "casual"), _coach(1.5),
            lambda: pgettext("bot name", "Casual bot")),
    BotSpec("strong", "solver", lambda: pgettext("bot level", "strong"), _coach(0.4),
            lambda: pgettext("bot name", "Strong bot")),
    BotSpec("optimal", "solver", lambda: pgettext("bot level", "optimal"), _coach(0.0),
            lambda: pgettext("bot name", "Optimal bot")),
    BotSpec("win", "solver", lambda: pgettext("bot level", "plays to win"),
            lambda rs, seed: DozzyBot() if rs.uses_board else WinBot(rs),
            lambda: pgettext("bot name", "Winning bot"), WinBot.prepare),
    BotSpec("dozzy", "board", lambda: pgettext("bot level", "DOZZY expert"), lambda rs, seed: DozzyBot(),
            lambda: pgettext("bot name", "Dozzy bot")),
    BotSpec("planner", "board", lambda: pgettext("bot level", "DOZZY planner"),
            lambda rs, seed: DozzyPlanner(rs) if rs.uses_board else DozzyBot(),
            lambda: pgettext("bot name", "Dozzy planner")),
)
"""Every bot level, in menu order: the one table every front end reads."""

BOTS = tuple(b.name for b in BOT_SPECS)
_BY_NAME = {b.name: b for b in BOT_SPECS}


def bot_spec(name: str) -> BotSpec | None:
    """The bot level typed as ``name`` (any case, spaces around), or None."""
    return _BY_NAME.get(name.strip().lower())


def level_name(level: str) -> str:
    """A bot level as a player reads it, in the current language; an unknown one as it is.
    Typed names (``--players "Anna,greedy"``) stay the English codes of :data:`BOTS`."""
    spec = bot_spec(level)
    return level if spec is None else spec.display()


def bot_name(level: str) -> str:
    """A bot seat's name until someone names it, in the current language ("Greedy bot",
    "Ahne botti"); an unknown level's as :meth:`Seat.bot` names it."""
    spec = bot_spec(level)
    return f"{level.capitalize()} bot" if spec is None else spec.default_name()


def default_names(seats: int) -> set[str]:
    """Every name a seat has until someone names it, in the current language and in English
    (the first start's): "Player 1" to "Player {seats}" and each level's bot name. A front end
    renames such a seat when its kind changes, and keeps a name typed."""
    found: set[str] = set()
    for lang in {current_language(), "en"}:
        with language(lang):
            found |= {_("Player {n}").format(n=n) for n in range(1, seats + 1)}
            found |= {b.default_name() for b in BOT_SPECS}
    return found


def needs_table(name: str, ruleset: Ruleset) -> bool:
    """Whether a bot plays from the exact solver's table (built once, then cached)."""
    spec = bot_spec(name)
    return spec is not None and spec.needs == "solver" and not ruleset.uses_board


def make_bot(name: str, ruleset: Ruleset, seed: int | None = None) -> Player:
    """A bot by name: random, greedy (= beginner), casual, strong, optimal, win, dozzy, planner."""
    spec = bot_spec(name)
    if spec is None:
        raise InvalidActionError(
            _("unknown bot “{bot}”; choose one of {bots}").format(bot=name, bots=", ".join(BOTS)))
    return spec.make(ruleset, seed)


def run(game: Game, players: list[Player]) -> Game:
    """Let the players move until the game is over."""
    while not game.is_over:
        game.play(players[game.state.current].act(game))
    return game


def play_solo(ruleset: Ruleset, player: Player, seed: int) -> int:
    """One solo game; returns the final total."""
    game = run(Game(ruleset, ["bot"], seed=seed), [player])
    return game.total(0)


def _play_chunk(args: tuple[str, dict[str, object], str, int, int, int]) -> list[int]:
    rules, options, bot, seed, first, count = args
    ruleset = get_ruleset(rules, **options)
    player = make_bot(bot, ruleset, seed=seed * 7919 + first)
    return [play_solo(ruleset, player, seed * 1_000_003 + first + i) for i in range(count)]


C = TypeVar("C")
R = TypeVar("R")


def in_chunks(work: Callable[[C], list[R]], chunks: list[C], workers: int, total: int,
              progress: Callable[[int, int], None] | None = None) -> list[R]:
    """Every chunk's results, in the chunks' order, from ``workers`` processes (1: here);
    ``progress`` hears (results so far, ``total``) as chunks finish."""
    results: list[R] = []
    with ProcessPoolExecutor(workers) if workers > 1 else nullcontext() as pool:
        parts = pool.map(work, chunks) if pool is not None else map(work, chunks)
        for part in parts:
            results.extend(part)
            if progress is not None:
                progress(len(results), total)
    return results


def simulate_bot(rules: str, options: dict[str, object], bot: str, games: int,
                 seed: int = 0, workers: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Summary:
    """Final scores of solo games of any bot, through the game API, on every core.

    Results depend on (seed, games) only, not on the number of workers; ``progress``
    hears (games done, games) as chunks finish.
    """
    workers = workers or min(2, os.cpu_count() or 1)
    size = max(1, min(500, games // 40))
    chunks = [(rules, options, bot, seed, first, min(size, games - first))
              for first in range(0, games, size)]
    scores = in_chunks(_play_chunk, chunks, workers, games, progress)
    return Summary(np.array(scores, dtype=np.int64))
