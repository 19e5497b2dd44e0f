"""The app's routes, one :class:`fastapi.APIRouter` per group: :mod:`.rooms` (make, read, join
and spectate a room, its QR code, its fairness data and finished rounds), :mod:`.socket` (the
game's WebSocket), :mod:`.analysis` (a finished room's analysis), :mod:`.history` (stored
games, replays, statistics) and :mod:`.page` (the browser page and its catalog).
"""
