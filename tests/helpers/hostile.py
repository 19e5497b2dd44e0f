"""Hostile names the tests of every front end share (no tests here).

``SHOWN`` are names a seat may have and every medium must show exactly as typed: Rich markup,
HTML, a format field, emoji and combining marks. ``REFUSED`` are names no new seat may have:
control characters (ESC would start a terminal escape), text-direction overrides and isolates,
and 10 000 characters.
"""

from __future__ import annotations

SHOWN = ["[/x]", "[link=https://evil.example]Eve[/link]", "[bold red]X", "<img src=x onerror=alert(1)>",
         "</script>", "{name}{0}%s", "Zoë 👩‍👩‍👧 e\u0301"]

REFUSED = {
    "an escape (C0)": "Eve\x1b[31m",
    "a newline": "Ann\nBo",
    "a tab": "Ann\tBo",
    "a CSI (C1)": "Eve\x9b31m",
    "DEL": "Eve\x7f",
    "a right-to-left override": "\u202eevE",
    "a left-to-right isolate": "Eve\u2066",
    "a line separator": "Ann\u2028Bo",
    "10 000 characters": "x" * 10_000,
}
