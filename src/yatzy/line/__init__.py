"""The line front end, one typed line at a time (screen readers, Braille displays, pipes).

:mod:`~yatzy.line.play` is the game (``yatzy play --plain``): a typed line read by
:mod:`~yatzy.line.parse`, the turns told by :mod:`~yatzy.line.narrator`, the card and the help
on request (:mod:`~yatzy.line.card`), the coach and the warning before a costly move
(:mod:`~yatzy.line.coach`), the analysis and the history (:mod:`~yatzy.line.review`).
:mod:`~yatzy.line.scorekeeper` keeps the score of a game played with real dice (``yatzy keep
--plain``), built on it.
"""
