"""What several test files share (no tests here), imported as ``from helpers.web import ...``:
pytest puts ``tests/`` on the path (``pythonpath`` in pyproject.toml)."""
