"""Rule sheets and score tables rendered with Rich, in the player's language."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .i18n import _, current_language, language, ngettext
from .names import category_name, label
from .registry import OPTIONS, find_variant
from .rules import Bonus, Ruleset
from .rulesets.parts import saved_rolls_note


def _intro(rs: Ruleset) -> str:
    """ "5 dice, 15 turns, up to 3 rolls a turn; fill one box per turn." """
    return _("{dice}, {turns}, {rolls}; fill one box per turn.").format(
        dice=ngettext("{n} die", "{n} dice", rs.dice).format(n=rs.dice),
        turns=ngettext("{n} turn", "{n} turns", rs.turns).format(n=rs.turns),
        rolls=ngettext("up to {n} roll a turn", "up to {n} rolls a turn", rs.rolls_per_turn).format(
            n=rs.rolls_per_turn))


def _bonus_rule(rs: Ruleset, bonus: Bonus) -> str:
    """ "+50 if Ones to Sixes total ≥ 63": the boxes by name, first to last."""
    first, last = bonus.categories[0], bonus.categories[-1]
    sums = [rs.by_id[c].pair_sum for c in bonus.categories]
    if all(sums):
        boxes = _("pair sums {first} to {last}").format(first=sums[0], last=sums[-1])
    else:
        boxes = _("{first} to {last}").format(first=category_name(first), last=category_name(last))
    cmp = ">" if bonus.strict else "≥"
    return _("+{points} if {boxes} total {cmp} {threshold}").format(
        points=bonus.points, boxes=boxes, cmp=cmp, threshold=bonus.threshold)


def _extra_lines(rs: Ruleset) -> list[str]:
    """What the table does not say: forced order, saved rolls, the ruleset's own notes (jokers,
    the board), options, totals."""
    extra = []
    if rs.order is not None:
        extra.append(_("Forced order: {boxes}").format(boxes=" → ".join(category_name(c) for c in rs.order)))
    if rs.saved_rolls:
        extra.append(saved_rolls_note(rs.bank_cap))
    extra.extend(find_variant(rs.name).notes(rs))
    extra.append(_("Options (change them with --option name=value):"))
    for o in OPTIONS[rs.name]:
        extra.append(f"  {o.name}={o.show(rs.option(o.name))}: {_(o.help)}")
    if rs.max_extra:
        extra.append(_("Total max: {points} ({with_extra} with every extra Yahtzee's +100)").format(
            points=rs.max_total, with_extra=rs.max_total + rs.max_extra))
    else:
        extra.append(_("Total max: {points}").format(points=rs.max_total))
    return extra


def rule_sheet(rs: Ruleset, lang: str | None = None) -> Group:
    """The printable rule sheet of a ruleset, in ``lang`` or the current language."""
    with language(lang or current_language()):
        table = Table(title=_(rs.title), title_justify="left")
        table.add_column(_("id"), style="dim")
        table.add_column(label("category"), style="bold")
        table.add_column(label("rule"))
        table.add_column(label("max"), justify="right")
        for c in rs.categories:
            table.add_row(c.id, category_name(c.id), _(c.rule), str(c.max))
        for b in rs.bonuses:
            table.add_row("", label("bonus"), _bonus_rule(rs, b), str(b.points), style="italic")
        parts: list[Text | Table] = [Text(_intro(rs)), table]
        parts.extend(Text(e) for e in _extra_lines(rs))
        return Group(*parts)


def score_table(rs: Ruleset, rolls: list[tuple[int, ...]], lang: str | None = None) -> Table:
    """Every category's score for each roll, one column per roll, in ``lang`` or the current language."""
    with language(lang or current_language()):
        table = Table(title=_(rs.title))
        table.add_column(label("category"))
        for r in rolls:
            table.add_column("".join(map(str, r)), justify="right")
        scores = [rs.score_all(r) for r in rolls]
        for c in rs.categories:
            table.add_row(category_name(c.id), *(str(s[c.id]) for s in scores))
        return table
