"""Every ruleset the engine plays, one module each.

A module here holds everything about its ruleset: its boxes (rules and display names), its
options, title and aliases, its builder, any behaviour beyond plain scoring, its rule-sheet
notes and its solver hints, and registers itself with :func:`parts.register` (as OpenSpiel's
python games call ``register_game``). Importing the package imports every module in it, so
adding a ruleset is adding one file here. ``yatzy.registry`` looks rulesets up.
"""

from __future__ import annotations

import importlib
import pkgutil


def _import_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"{__name__}.{module.name}")


_import_all()
