"""yatzy: plays and solves the Yatzy rulesets of the Nordic countries and beyond.

The layers, where each thing lives, and how to add a ruleset, a bot, a front end or a
protocol message: ``docs/architecture.md``. In short, the core (``game``, ``rulesets``,
``rules``, ``actions``) is the one place state changes; the solver, the bots, the session
and views, the narration and the front ends (``cli``, ``line``, ``tui``, ``web``) stand on it
in that order.
"""
