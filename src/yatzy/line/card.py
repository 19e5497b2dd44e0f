"""What the line game shows on request: the scorecard, the standings and the help."""

from __future__ import annotations

from rich import box
from rich.markup import escape
from rich.table import Table

from ..i18n import _
from ..names import box_label, label
from ..narration import board_text, round_text
from ..session import DEFAULT_SAVE
from ..views import BonusView, BoxView, GameView


def name_of(view: GameView, seat: int) -> str:
    return escape(view.players[seat].name)


def box_text(b: BoxView) -> str:
    return escape(box_label(b.number, b.name))


def bonus_status(bonus: BonusView) -> str:
    """ "earned", "12 more" or "out of reach"."""
    if not bonus.needed:
        return _("earned")
    return _("{n} more").format(n=bonus.needed) if bonus.reachable else _("out of reach")


def scorecard(view: GameView) -> Table:
    """Every box in card order with its number, each section's sum and bonus, and the totals."""
    title = f"{view.title} · {round_text(view)}"
    t = Table(title=escape(title), title_justify="left", min_width=len(title), box=box.SIMPLE_HEAD,
              show_edge=False, caption=board_text(view.board.tiles_out) if view.board else None,
              caption_justify="left")
    t.add_column(label("category"))
    players, bonuses = view.players, view.players[0].bonuses
    for p in players:
        t.add_column(escape(p.name), justify="right", header_style="bold reverse" if p.current else "bold")
    for i, b in enumerate(players[0].boxes):
        t.add_row(box_text(b), *("[dim]·[/]" if p.boxes[i].points is None else str(p.boxes[i].points)
                                 for p in players))
        for j, bonus in enumerate(bonuses):
            if max(bonus.boxes) == b.number:
                sums = label("upper") if len(bonuses) == 1 else \
                    f"{label('total')} {min(bonus.boxes)}–{max(bonus.boxes)}"
                t.add_row(f"[dim]{sums}[/]", *(f"[dim]{p.bonuses[j].subtotal}[/]" for p in players))
                t.add_row("[dim]" + _("for the bonus") + "[/]",
                          *(f"[dim]{bonus_status(p.bonuses[j])}[/]" for p in players))
                t.add_row(label("bonus"), *(str(p.bonuses[j].points) for p in players), end_section=True)
    if view.has_yahtzee_bonus or any(p.yahtzee_bonus for p in players):
        t.add_row(label("yahtzee_bonus"), *(str(p.yahtzee_bonus) for p in players))
    if view.has_saved_rolls:
        t.add_row(_("saved rolls"), *(str(p.bank) for p in players))
    t.add_row(label("total"), *(str(p.total) for p in players), style="bold")
    return t



def standings_text(view: GameView) -> str:
    ranking = " · ".join(f"{escape(p.name)} {p.total}" for p in sorted(view.players, key=lambda p: p.rank))
    return _("Standings ({round}): {ranking}").format(round=round_text(view), ranking=ranking)


def help_table(view: GameView) -> Table:
    rows = [("r", _("roll (the first roll of a turn throws all the dice)")),
            ("k 335", _("keep those dice and roll the others")),
            ("s 3", _("score box 3 (a box keeps its number all game; s two_pairs works too)"))]
    if view.board:
        rows += [("s 3 9", _("score box 3 and bring tile 9 back (s 3 4 5 brings tiles 4 and 5)")),
                 ("b 11 12", _("before your first roll, with 4 or more tiles out: bring those back"))]
    rows += [("s", _("list the boxes you may fill and what each would score")),
             ("c", _("the coach: the best moves for your dice, by the exact solver"))]
    if not view.board:  # DOZZY has no exact table
        rows += [("t 250", _("the coach plays for a final score: each move's chance of 250 or more "
                             "(t alone: the points to expect again)"))]
    rows += [("w", _("warn before a move that loses more than 1, 3, 5 or 10 points against the coach's best "
                     "(each w: the next, then off)")),
             ("card", _("show the scorecard")), ("history", _("list your finished games")),
             ("u", _("undo the last score, until the next player rolls")),
             ("save FILE", _("save the game (default {file}); continue with yatzy play --load FILE").format(
                 file=DEFAULT_SAVE)),
             ("q", _("quit (asks first and offers to save)"))]
    grid = Table.grid(padding=(0, 3))
    for command, text in rows:
        grid.add_row(command, escape(text))
    return grid

