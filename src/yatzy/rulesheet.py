"""Rule sheets and score tables rendered with Rich."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .names import category_name, label
from .registry import OPTIONS
from .rules import Ruleset

_INTRO = {
    "en": "{dice} dice, {turns} turns, up to 3 rolls a turn; fill one box per turn.",
    "fi": "{dice} noppaa, {turns} vuoroa, enintään 3 heittoa vuorossa; täytä yksi sarake vuorossa.",
    "sv": "{dice} tärningar, {turns} omgångar, högst 3 slag per omgång; fyll en ruta per omgång.",
    "da": "{dice} terninger, {turns} runder, op til 3 slag pr. runde; udfyld ét felt pr. runde.",
    "nb": "{dice} terninger, {turns} runder, opptil 3 kast per runde; fyll én rute per runde.",
    "ru": "{dice} кубиков, {turns} ходов, до 3 бросков за ход; за ход заполняется одна графа.",
}


def rule_sheet(rs: Ruleset, lang: str = "en") -> Group:
    """The printable rule sheet of a ruleset in a language."""
    table = Table(title=f"{rs.title}", title_justify="left")
    table.add_column("id", style="dim")
    table.add_column(label("category", lang), style="bold")
    table.add_column(label("rule", lang))
    table.add_column(label("max", lang), justify="right")
    for c in rs.categories:
        table.add_row(c.id, category_name(c.id, lang), c.rule, str(c.max))
    for b in rs.bonuses:
        cmp = ">" if b.strict else "≥"
        table.add_row("", label("bonus", lang), f"+{b.points} if {', '.join(b.categories)} "
                      f"total {cmp} {b.threshold}", str(b.points), style="italic")
    parts: list[object] = [
        Text(_INTRO[lang].format(dice=rs.dice, turns=rs.turns)),
        table,
    ]
    extra = []
    if rs.order is not None:
        extra.append("Forced order: " + " → ".join(rs.order))
    if rs.saved_rolls:
        cap = "no cap" if rs.bank_cap is None else f"at most {rs.bank_cap}"
        extra.append(f"Saved rolls: unused rolls are banked for later turns ({cap}).")
    if rs.name == "yahtzee":
        extra.append(f"Joker rule: {rs.option('joker')}; Yahtzee bonus "
                     f"{'on (+100)' if rs.option('yahtzee_bonus') else 'off'}.")
    if rs.uses_board:
        extra.append("Tiles 1-12 start in play; used numbers go out, unused dice bring tiles "
                     "back (alone or as pair sums 7-12). With 4+ out before a turn, you may "
                     "bring tiles back until 3 are out.")
    opts = ", ".join(f"{o.name}={o.show(rs.option(o.name))}" for o in OPTIONS[rs.name])
    extra.append(f"Options: {opts}")
    top = f"{label('total', lang)} max: {rs.max_total}"
    if rs.max_extra:
        top += f" ({rs.max_total + rs.max_extra} with every extra Yahtzee's +100)"
    extra.append(top)
    parts.extend(Text(e) for e in extra)
    return Group(*parts)  # type: ignore[arg-type]


def score_table(rs: Ruleset, rolls: list[tuple[int, ...]], lang: str = "en") -> Table:
    """Every category's score for each roll, one column per roll."""
    table = Table(title=f"{rs.title}")
    table.add_column(label("category", lang))
    for r in rolls:
        table.add_column("".join(map(str, r)), justify="right")
    scores = [rs.score_all(r) for r in rolls]
    for c in rs.categories:
        table.add_row(category_name(c.id, lang), *(str(s[c.id]) for s in scores))
    return table
