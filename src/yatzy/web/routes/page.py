"""The browser page (static files, no build step): ``/`` (the lobby) and ``/r/{code}`` (a
room's invite link) are index.html, its files are under ``/static``; ``/api/catalog`` names
the rulesets, their options and the bot levels in a language, for the lobby's form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from ...bots import BOTS, level_name
from ...i18n import _, language
from ...registry import VARIANTS
from ..deps import LangDep, SettingsDep

__all__ = ["STATIC", "router"]

STATIC = Path(__file__).parents[1] / "static"

router = APIRouter()
router.mount("/static", StaticFiles(directory=STATIC), name="static")


@router.get("/", include_in_schema=False)
async def page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/r/{code}", include_in_schema=False)
async def room_page(code: str) -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    """The die the page's tab shows (browsers ask for /favicon.ico whatever the page links)."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


@router.get("/api/catalog")
async def catalog(lang: LangDep, settings: SettingsDep) -> dict[str, Any]:
    """Rulesets (title, house-rule options with their values) and bot levels, in ``lang``;
    ``public_history``: whether the history shows every game (else a browser's own rooms')."""
    with language(lang):
        return {
            "rulesets": [{"id": e.name, "title": _(e.title), "options": [
                {"name": o.name, "help": _(o.help), "default": o.default,
                 "choices": None if o.choices is None else [
                     {"value": c, "label": o.label(c)} for c in o.choices],
                 "low": o.low, "high": o.high} for o in e.options]} for e in VARIANTS],
            "bots": [{"level": b, "name": level_name(b)} for b in BOTS],
            "public_history": settings.public_history,
        }
