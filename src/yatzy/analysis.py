"""After the game: what each decision cost, by the exact solver's reckoning.

:func:`analyse` replays a game's log through the coach. At every decision (dice on the
table and more than one thing to do: keep some dice and roll, or fill a box) it ranks every
option by expected final score and notes what the one played lost against the best: its
regret, in expected points. Luck is not a mistake: a decision is judged with the dice the
player had, not with the dice that came next.

Only rulesets the exact solver handles can be analysed (not DOZZY). In saved-roll games
(Maxi, Osto) a bank beyond the solver's cap is ranked as at the cap, as the optimal bot does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .actions import Roll, Score
from .dice import Dice, normalize
from .errors import InvalidActionError
from .game import Game
from .i18n import _

if TYPE_CHECKING:
    from .solver.coach import Coach

__all__ = ["Analysis", "AnalysisError", "Decision", "Reason", "SeatAnalysis", "analyse", "ranked_reasons",
           "reason_for"]

COSTLIEST = 3
"""How many of a seat's costliest decisions :attr:`SeatAnalysis.costliest` lists."""


class AnalysisError(InvalidActionError):
    """The game cannot be analysed: its ruleset is out of the exact solver's reach."""


@dataclass(frozen=True)
class Reason:
    """Why the coach's best move beat the one played, where the card alone tells it, cheaply and
    surely (the numbers say how much; this says why, for a player). The first that holds, in
    this order:

    - ``"bonus"``: the box played put a section bonus out of reach; the best move kept it in reach.
    - ``"last_chance"``: the seat's last turn, with ``box`` the only one open: the best move rolls
      on for it.
    - ``"open"``: the box played, ``box``, is one worth keeping open (Chance, Yatzy: any dice
      fit the one, the other pays most), and the best move fills another box.
    - ``"sure"``: the player rolled on where the best move scores ``box`` for ``count`` points
      (more than 0) at once: sure points against a gamble.
    - ``"rolls_left"``: the player filled a box with ``count`` rolls still to make; the best move
      rolls on.
    """

    kind: Literal["bonus", "last_chance", "open", "sure", "rolls_left"]
    box: str | None = None
    """The box the reason names: the one the last turn fills, the one kept open, the one scored."""
    count: int | None = None
    """``"sure"``: the points the best move scores; ``"rolls_left"``: the rolls that were left."""

    def __post_init__(self) -> None:
        assert (self.box is None) == (self.kind in ("bonus", "rolls_left")), self
        assert (self.count is None) == (self.kind not in ("sure", "rolls_left")), self


KEPT_OPEN = ("chance", "yatzy")
"""The kinds of box worth keeping open (``Category.kind``): Chance takes any dice, Yatzy pays most."""


@dataclass(frozen=True)
class Decision:
    """One decision of one seat and what it cost."""

    index: int
    """The action's place in the game's log (0 first)."""
    seat: int
    turn: int
    """The seat's turn, 1 to the number of boxes."""
    dice: Dice
    """The dice on the table when the decision was made."""
    rolls_left: int
    """Rolls the player could still make this turn (saved rolls included)."""
    played: Roll | Score
    """What was played: ``Roll(keep)`` (the dice kept before rolling) or ``Score(box)``."""
    best: Roll | Score
    """The coach's best option (the one played when it lost nothing)."""
    points_lost: float
    """Expected points the choice lost against the best option: 0 or more."""
    played_points: int | None = None
    """What the box played scored (None for a roll): the words name it ("Sixes for 18")."""
    best_points: int | None = None
    """What the best option's box would have scored (None when the best was a roll)."""
    reason: Reason | None = None
    """Why the best move was better, when the card tells it (None when the move played was the
    best, or nothing short and sure can be said)."""


@dataclass(frozen=True)
class SeatAnalysis:
    """Every decision of one seat."""

    seat: int
    name: str
    decisions: tuple[Decision, ...]

    @property
    def total_lost(self) -> float:
        """Expected points lost over the game: the sum over the decisions."""
        return sum(d.points_lost for d in self.decisions)

    @property
    def costliest(self) -> tuple[Decision, ...]:
        """The (up to) three decisions that lost most, costliest first (earlier first on a
        tie); a decision that lost nothing is never among them."""
        lost = [d for d in self.decisions if d.points_lost > 1e-6]
        return tuple(sorted(lost, key=lambda d: (-d.points_lost, d.index))[:COSTLIEST])


@dataclass(frozen=True)
class Analysis:
    """The decisions of the analysed seats of one game."""

    ruleset: str
    actions: int
    """How many actions of the game's log were analysed (all of them)."""
    seats: tuple[SeatAnalysis, ...]
    keeps_guessed: bool = False
    """A scorekeeper game: the dice kept before each throw were not typed but guessed from
    the throws (:meth:`Game.roll_reaching`), and the keeps are judged on that guess."""

    def seat(self, index: int) -> SeatAnalysis:
        """The analysis of seat ``index``; KeyError if that seat was not analysed."""
        for s in self.seats:
            if s.seat == index:
                return s
        raise KeyError(index)


def check_analysable(game: Game) -> None:
    """Refuse a game whose ruleset the exact solver does not handle (DOZZY).

    :raises AnalysisError: naming the ruleset and why.
    """
    if game.ruleset.uses_board:
        raise AnalysisError(
            _("{rules} games cannot be analysed: the exact solver does not handle the shared tile "
              "board").format(rules=_(game.ruleset.title)))


def analyse(game: Game, seats: Iterable[int] | None = None, *, coach: Coach | None = None) -> Analysis:
    """Replay ``game`` through the coach and price every decision of the given seats (every
    seat by default; ``[i for i, s in enumerate(game.seats) if not s.is_bot]`` for the
    people). The game may be unfinished. ``coach`` reuses a coach of the game's ruleset;
    otherwise its table is solved (or loaded from the cache).

    :raises AnalysisError: the ruleset is out of the exact solver's reach (DOZZY).
    :raises InvalidActionError: a seat number is not one of the game's, or ``coach`` is for
        another ruleset.
    """
    check_analysable(game)
    chosen = sorted(set(range(len(game.seats)) if seats is None else seats))
    for i in chosen:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(game.seats):
            raise InvalidActionError(_("the game has seats 0 to {last}, not {seat}").format(
                last=len(game.seats) - 1, seat=i))
    if coach is None:
        from .solver.coach import Coach
        from .solver.solve import solve

        coach = Coach(solve(game.ruleset))
    elif coach.spec.ruleset != game.ruleset:
        raise InvalidActionError(_("this coach plays {coached}, not {rules}").format(
            coached=coach.spec.ruleset.name, rules=game.ruleset.name))
    replay = Game.from_dict({**game.to_dict(), "log": []})
    found: dict[int, list[Decision]] = {i: [] for i in chosen}
    for index, action in enumerate(game.log):
        mover = replay.state.current
        if replay.state.dice is not None and mover in found and isinstance(action, Roll | Score):
            decision = _decision(coach, replay, index, action)
            if decision is not None:
                found[mover].append(decision)
        replay.apply(action)
    return Analysis(game.ruleset.name, len(game.log),
                    tuple(SeatAnalysis(i, game.seats[i].name, tuple(found[i])) for i in chosen),
                    keeps_guessed=game.dice_from == "players")


def _decision(coach: Coach, game: Game, index: int, action: Roll | Score) -> Decision | None:
    """The decision the player made with dice on the table (None when there was no choice)."""
    options = coach.options(coach.position_of(game), with_odds=False)
    if len(options) < 2:
        return None
    if isinstance(action, Roll):
        keep = normalize(action.keep)
        played = next((o for o in options if isinstance(o.action, Roll) and o.action.keep == keep), None)
    else:
        box = game.ruleset.category(action.category).id
        played = next((o for o in options if isinstance(o.action, Score) and o.action.category == box), None)
    if played is None:  # the engine allowed it, so the coach must rank it
        raise InvalidActionError(_("action {number} ({action}) is not among the coach's options").format(
            number=index + 1, action=action))
    assert game.state.dice is not None
    scores = game.score_options()

    def points(move: Roll | Score) -> int | None:
        return scores[game.ruleset.category(move.category).id] if isinstance(move, Score) else None

    best = options[0].action
    return Decision(index=index, seat=game.state.current, turn=len(game.player.card) + 1,
                    dice=game.state.dice, rolls_left=game.rolls_left, played=played.action,
                    best=best, points_lost=max(0.0, float(played.regret)),
                    played_points=points(played.action), best_points=points(best),
                    reason=None if played.action == best else reason_for(game, played.action, best))


def reason_for(game: Game, played: Roll | Score, best: Roll | Score) -> Reason | None:
    """Why ``best`` beats ``played`` for the player to move in ``game`` (dice on the table), when
    the card alone says it (the kinds of :class:`Reason`, the first that holds). None otherwise."""
    if _loses_bonus(game, played, best):
        return Reason("bonus")
    if (last := _last_chance(game, best)) is not None:
        return last
    rs = game.ruleset
    if isinstance(played, Score):
        box = rs.category(played.category)
        if isinstance(best, Roll):  # the box might still be filled this turn: the rolls are why
            return Reason("rolls_left", count=game.rolls_left)
        if box.kind in KEPT_OPEN and rs.category(best.category).id != box.id:
            return Reason("open", box.id)
        return None
    if isinstance(best, Score) and (points := game.score_options()[rs.category(best.category).id]) > 0:
        return Reason("sure", rs.category(best.category).id, points)
    return None


def ranked_reasons(game: Game, ranked: Sequence[Roll | Score]) -> list[Reason | None]:
    """For the coach's moves, best first: the reason the card tells about each, or None. A move
    below the best gets ``"bonus"`` when it puts a bonus out of reach that the best keeps; the
    best gets ``"last_chance"`` when it rolls on for the one box left."""
    if not ranked:
        return []
    best = ranked[0]
    return [_last_chance(game, best)] + [Reason("bonus") if _loses_bonus(game, move, best) else None
                                         for move in ranked[1:]]


def _after(game: Game, move: Roll | Score) -> dict[str, int]:
    """The card of the player to move after ``move`` (a roll fills nothing)."""
    card = game.player.card
    if isinstance(move, Roll):
        return dict(card)
    box = game.ruleset.category(move.category).id
    return {**card, box: game.score_options()[box]}


def _loses_bonus(game: Game, played: Roll | Score, best: Roll | Score) -> bool:
    """The box played puts a bonus out of reach that the best move keeps in reach."""
    rs = game.ruleset
    return isinstance(played, Score) and any(
        not rs.bonus_reachable(b, _after(game, played)) and rs.bonus_reachable(b, _after(game, best))
        for b in rs.bonuses)


def _last_chance(game: Game, best: Roll | Score) -> Reason | None:
    """The player's last turn, the best move rolling on for the one box left."""
    left = [c for c in game.ruleset.category_ids if c not in game.player.card]
    return Reason("last_chance", left[0]) if isinstance(best, Roll) and len(left) == 1 else None
