"""``python -m yatzy.cli``: the ``yatzy`` command."""

from . import app

app()
