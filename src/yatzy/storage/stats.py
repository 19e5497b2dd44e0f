"""Statistics of finished games: per player, best totals, and the spread of totals.

Only finished games count, and games of one kind of dice at a time: the server's seeded
dice ("server", the default) or dice people typed at a real table ("players", a scorekeeper
game). Typed dice are whatever was typed, so a typed game never ranks among the records, the
means or the spread of games the server rolled. A player is a seat's name, kind and level (a
person named Ann and a bot named Ann are two players); a ruleset is its canonical name,
house-rule options mixed (they are in each game's ``options``). Nothing here carries a save or
a seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, case, func, select

from ..errors import InvalidActionError
from ..i18n import _
from ..registry import canonical
from .database import Target, reading
from .schema import AMENDMENTS, DiceFrom, GameRow, SeatRow, check_dice_from, corrected_after_end


@dataclass(frozen=True)
class PlayerStats:
    """One player's finished games of one ruleset."""

    name: str
    kind: str
    level: str | None
    ruleset: str
    games: int
    wins: int
    mean: float
    """Mean final total."""
    best: int
    bonus_rate: float
    """Share of games with the upper-section bonus earned (0..1)."""
    yatzy_rate: float
    """Share of games with at least one Yatzy (a box of kind "yatzy" filled with points)."""
    analysed: int
    """Games whose points lost to the coach are known."""
    mean_points_lost: float | None
    """Mean points lost to the coach over the analysed games (None if none was analysed)."""


@dataclass(frozen=True)
class Record:
    """A final total on the best-totals list."""

    total: int
    name: str
    kind: str
    level: str | None
    game_id: int
    seat: int
    finished_at: datetime | None
    corrected_after_end: bool = False
    """The game's standings were corrected after its end (a scorekeeper game)."""


@dataclass(frozen=True)
class Histogram:
    """Final totals counted in bins ``[low, low + bin)``, from the lowest bin with a total to
    the highest (empty bins between included)."""

    ruleset: str
    bin: int
    bins: tuple[tuple[int, int], ...]
    """(low end of the bin, totals in it)."""

    @property
    def count(self) -> int:
        return sum(n for _, n in self.bins)


def _finished(ruleset: str | None, dice_from: DiceFrom) -> list[ColumnElement[bool]]:
    check_dice_from(dice_from)
    where: list[ColumnElement[bool]] = [GameRow.finished.is_(True), GameRow.dice_from == dice_from]
    if ruleset is not None:
        where.append(GameRow.ruleset == canonical(ruleset))
    return where


def finished_count(target: Target, ruleset: str | None = None, *, dice_from: DiceFrom = "server") -> int:
    """How many finished games (of ``ruleset``, if named) have dice from ``dice_from``: a
    screen showing one kind says how many of the other there are."""
    q = select(func.count()).select_from(GameRow).where(*_finished(ruleset, dice_from))
    with reading(target) as s:
        return int(s.execute(q).scalar_one())


def _count_if(condition: ColumnElement[bool]) -> ColumnElement[int]:
    return func.sum(case((condition, 1), else_=0))


def player_stats(target: Target, ruleset: str | None = None, *, player: str | None = None,
                 dice_from: DiceFrom = "server") -> list[PlayerStats]:
    """Per player and ruleset (one ruleset, or each): games, wins, mean and best total,
    bonus and Yatzy rates, mean points lost to the coach. Rulesets by name, then the
    players with most games first.

    :raises InvalidActionError: ``dice_from`` is neither "server" nor "players".
    :raises UnknownRulesetError: ``ruleset`` names no ruleset.
    """
    q = (select(GameRow.ruleset, SeatRow.name, SeatRow.kind, SeatRow.level, func.count(),
                _count_if(SeatRow.won.is_(True)), func.avg(SeatRow.total), func.max(SeatRow.total),
                _count_if(SeatRow.upper_bonus.is_(True)), _count_if(SeatRow.yatzys > 0),
                func.count(SeatRow.points_lost), func.avg(SeatRow.points_lost))
         .join(GameRow, GameRow.id == SeatRow.game_id)
         .where(*_finished(ruleset, dice_from))
         .group_by(GameRow.ruleset, SeatRow.name, SeatRow.kind, SeatRow.level))
    if player is not None:
        q = q.where(SeatRow.name == player)
    with reading(target) as s:
        rows = s.execute(q).all()
    stats = [PlayerStats(name=name, kind=kind, level=level, ruleset=rules, games=games, wins=int(wins),
                         mean=float(mean), best=int(best), bonus_rate=int(bonus) / games,
                         yatzy_rate=int(yatzys) / games, analysed=analysed,
                         mean_points_lost=None if lost is None else float(lost))
             for rules, name, kind, level, games, wins, mean, best, bonus, yatzys, analysed, lost in rows]
    return sorted(stats, key=lambda p: (p.ruleset, -p.games, p.name, p.kind, p.level or ""))


def records(target: Target, ruleset: str, limit: int = 10, *, dice_from: DiceFrom = "server") -> list[Record]:
    """The best final totals of a ruleset, best first (the earlier of equal totals first).

    :raises InvalidActionError: ``limit`` below 1.
    :raises UnknownRulesetError: ``ruleset`` names no ruleset.
    """
    if limit < 1:
        raise InvalidActionError(_("list at least 1 record, not {n}").format(n=limit))
    q = (select(SeatRow, GameRow.finished_at, AMENDMENTS).join(GameRow, GameRow.id == SeatRow.game_id)
         .where(*_finished(ruleset, dice_from))
         .order_by(SeatRow.total.desc(), GameRow.finished_at, SeatRow.game_id, SeatRow.seat).limit(limit))
    with reading(target) as s:
        rows = s.execute(q).all()
    return [Record(r.total, r.name, r.kind, r.level, r.game_id, r.seat, at, corrected_after_end(fixes))
            for r, at, fixes in rows]


def score_histogram(target: Target, ruleset: str, bin: int = 10, *, player: str | None = None,
                    dice_from: DiceFrom = "server") -> Histogram:
    """Final totals of a ruleset (of one player's seats, if named) counted in bins of ``bin``
    points: the data of a histogram.

    :raises InvalidActionError: ``bin`` below 1.
    :raises UnknownRulesetError: ``ruleset`` names no ruleset.
    """
    if isinstance(bin, bool) or not isinstance(bin, int) or bin < 1:
        raise InvalidActionError(_("a histogram's bins are 1 point wide or more, not {bin}").format(bin=bin))
    low = (SeatRow.total // bin) * bin
    q = (select(low, func.count()).join(GameRow, GameRow.id == SeatRow.game_id)
         .where(*_finished(ruleset, dice_from)).group_by(low))
    if player is not None:
        q = q.where(SeatRow.name == player)
    with reading(target) as s:
        counts = {int(edge): int(n) for edge, n in s.execute(q).all()}
    if not counts:
        return Histogram(canonical(ruleset), bin, ())
    edges = range(min(counts), max(counts) + bin, bin)
    return Histogram(canonical(ruleset), bin, tuple((e, counts.get(e, 0)) for e in edges))
