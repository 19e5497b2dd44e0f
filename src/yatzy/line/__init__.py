"""The line front end, one typed line at a time (screen readers, Braille displays, pipes).

:mod:`~yatzy.line.play` is the game (``yatzy play --plain``); :mod:`~yatzy.line.scorekeeper`
keeps the score of a game played with real dice (``yatzy keep --plain``), built on it.
"""
