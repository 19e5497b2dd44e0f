"""A moment worth a cheer: a Yatzy scored, and a person's best total in this ruleset.

The best totals come from the history (the games finished before this one), read once in a
worker thread as the game starts; a history that cannot be read celebrates no best.
"""

from __future__ import annotations

from ..events import Scored
from ..game import Game
from ..i18n import _
from ..storage import Database, StorageError, player_stats
from ..views import GameView


def previous_bests(game: Game) -> dict[str, int]:
    """Each person's best final total in the history for this game's ruleset, by name (a person
    with no finished game of it is not listed). Empty when the history cannot be read."""
    names = {s.name for s in game.seats if not s.is_bot}
    bests: dict[str, int] = {}
    try:
        with Database() as db:
            for name in names:
                for p in player_stats(db, game.ruleset.name, player=name):
                    if p.kind == "person":
                        bests[name] = max(bests.get(name, p.best), p.best)
    except (StorageError, OSError):
        return {}
    return bests


def is_yatzy(game: Game, e: Scored) -> bool:
    """All dice equal, scored in a Yatzy box (not a 0 put there)."""
    return e.points > 0 and game.ruleset.by_id[e.box].kind == "yatzy"


def yatzy_text(name: str, points: int) -> str:
    return _("Yatzy! {name} scores {points} with all the dice alike.").format(name=name, points=points)


def best_texts(view: GameView, bests: dict[str, int]) -> list[str]:
    """At the end: each person whose total beats their best in the history, in words."""
    return [_("A personal best for {name}: {total}, beating {best}!").format(
                name=p.name, total=p.total, best=bests[p.name])
            for p in view.players if p.kind == "person" and p.name in bests and p.total > bests[p.name]]
