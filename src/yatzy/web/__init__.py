"""The browser app's server: rooms, the WebSocket protocol and the web front end.

:mod:`yatzy.web.protocol` describes every message (pydantic models, JSON schemas in
``docs/protocol``), :mod:`yatzy.web.rooms` holds the rooms and their games (one writer per
game, every accepted action committed before it is broadcast; beside it :mod:`~yatzy.web.room`,
:mod:`~yatzy.web.presence`, :mod:`~yatzy.web.relay` and :mod:`~yatzy.web.botloop`),
:mod:`yatzy.web.pubsub` fans events out, and :mod:`yatzy.web.app` is the FastAPI app
``yatzy serve`` runs: its routers in :mod:`yatzy.web.routes` (bodies in :mod:`yatzy.web.schemas`,
dependencies in :mod:`yatzy.web.deps`) and one :mod:`yatzy.web.connection` per WebSocket.
"""
