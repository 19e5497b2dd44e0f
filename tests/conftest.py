import os
import tempfile

# Value tables go to a private cache so tests never touch the user's.
os.environ.setdefault("YATZY_CACHE_DIR", tempfile.mkdtemp(prefix="yatzy-test-cache-"))
