import os
import tempfile

# Value tables go to a private cache so tests never touch the user's.
os.environ.setdefault("YATZY_CACHE_DIR", tempfile.mkdtemp(prefix="yatzy-test-cache-"))
# Games kept in the history and remembered settings go to private folders too.
os.environ.setdefault("YATZY_DATA_DIR", tempfile.mkdtemp(prefix="yatzy-test-data-"))
os.environ.setdefault("YATZY_CONFIG_DIR", tempfile.mkdtemp(prefix="yatzy-test-config-"))
