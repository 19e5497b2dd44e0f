"""The browser page's files (``yatzy/web/static``): native ES modules with no build step.

Each file stays under the house limit of 600 lines; every module index.html loads, and every
module another one imports, exists and exports the names imported from it; every module is
reached from index.html; the modules import each other without a cycle; and the server serves
each file (JavaScript as JavaScript), which the wheel carries (pyproject's package-data).
The narration module runs under Node (when there is one): the page shows the server's words.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from yatzy.web.app import create_app

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "src" / "yatzy"
STATIC = PACKAGE / "web" / "static"
MAX_LINES = 600

SCRIPT = re.compile(r'<script\b[^>]*\btype="module"[^>]*\bsrc="/static/([^"]+)"')
# import { a, b as c } from "./x.js";  import "./x.js";  export { a } from "./x.js"
IMPORT = re.compile(r'^\s*(?:import|export)\s+(?:(\{[^}]*\}|\*\s+as\s+\w+|\w+)\s+from\s+)?"([^"]+)"\s*;',
                    re.MULTILINE)
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|class|const|let|var)\s+([\w$]+)", re.MULTILINE)


def modules() -> list[Path]:
    return sorted(STATIC.rglob("*.js"))


def imports(module: Path) -> list[tuple[Path, list[str]]]:
    """The modules ``module`` imports (resolved) with the names it takes from each."""
    found = []
    for names, spec in IMPORT.findall(module.read_text(encoding="utf-8")):
        assert spec.startswith("./") or spec.startswith("../"), (module.name, spec, "a relative path")
        assert spec.endswith(".js"), (module.name, spec, "the browser needs the file's name")
        taken = [n.split(" as ")[0].strip() for n in names.strip("{}").split(",") if n.strip()] \
            if names.startswith("{") else []
        found.append(((module.parent / spec).resolve(), taken))
    return found


def entry_points() -> list[Path]:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    return [(STATIC / src).resolve() for src in SCRIPT.findall(page)]


def test_no_file_of_the_page_is_over_the_house_limit() -> None:
    files = [f for f in STATIC.rglob("*") if f.is_file() and f.suffix in {".js", ".css", ".html"}]
    assert len(files) > 3
    long = {f.name: n for f in files if (n := len(f.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines: {long}"


def test_index_html_loads_the_entry_module_and_it_exists() -> None:
    entries = entry_points()
    assert [e.name for e in entries] == ["main.js"]
    assert all(e.is_file() for e in entries)
    assert "<script src=" not in (STATIC / "index.html").read_text(encoding="utf-8")  # no classic script


def test_every_import_exists_and_exports_what_is_taken_from_it() -> None:
    for module in modules():
        for target, names in imports(module):
            assert target.is_file(), f"{module.name} imports {target.name}, which is not there"
            exported = set(EXPORT.findall(target.read_text(encoding="utf-8")))
            missing = set(names) - exported
            assert not missing, f"{module.name} takes {sorted(missing)} from {target.name}, which lacks them"


def test_every_module_is_reached_from_index_html_and_none_in_a_cycle() -> None:
    graph = {m.resolve(): [t for t, _ in imports(m)] for m in modules()}
    reached: set[Path] = set()
    path: list[Path] = []

    def visit(m: Path) -> None:
        assert m not in path, "an import cycle: " + " -> ".join(p.name for p in [*path[path.index(m):], m])
        if m in reached:
            return
        reached.add(m)
        path.append(m)
        for t in graph[m]:
            visit(t)
        path.pop()

    for entry in entry_points():
        visit(entry)
    assert {m.name for m in graph} - {m.name for m in reached} == set(), "modules nothing imports"


def test_the_guard_reads_imports_and_exports() -> None:
    """The regular expressions above find what they must (else the tests above pass on nothing)."""
    game = STATIC / "game.js"
    taken = dict(imports(game))
    assert taken[(STATIC / "fair.js").resolve()] == ["verifyRevealText"]
    assert "GameScreen" in EXPORT.findall(game.read_text(encoding="utf-8"))
    assert "$" in EXPORT.findall((STATIC / "dom.js").read_text(encoding="utf-8"))
    assert sum(len(imports(m)) for m in modules()) > 2 * len(modules())


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}")) as c:
        yield c


def test_the_server_serves_every_file_of_the_page(client: TestClient) -> None:
    for f in sorted(p for p in STATIC.rglob("*") if p.is_file()):
        response = client.get(f"/static/{f.relative_to(STATIC).as_posix()}")
        assert response.status_code == 200, f.name
        assert response.content == f.read_bytes(), f.name
        if f.suffix == ".js":  # a module script must come as JavaScript, or the browser refuses it
            kind = response.headers["content-type"]
            assert "javascript" in kind, (f.name, kind)


def test_the_page_has_an_icon_where_browsers_look_for_it(client: TestClient) -> None:
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    assert '<link rel="icon" href="/static/favicon.svg"' in index
    icon = client.get("/favicon.ico")  # asked for whatever the page links (was a 404)
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.content == (STATIC / "favicon.svg").read_bytes() and b"<svg" in icon.content


def test_the_package_data_carries_every_file_of_the_page() -> None:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"]["yatzy"]
    carried = {p.resolve() for pattern in patterns for p in PACKAGE.glob(pattern)}
    files = {p.resolve() for p in STATIC.rglob("*") if p.is_file()}
    assert files and files <= carried, sorted(p.name for p in files - carried)


# ---- the page's narration, run by Node with stand-ins for the browser's globals ----------------

NARRATE = """
import fs from "node:fs";
const [STATIC, EVENTS] = process.argv.slice(2);
const dummy = { setAttribute() {}, value: "", textContent: "" };
globalThis.document = { querySelector: () => dummy, querySelectorAll: () => [], documentElement: {} };
globalThis.localStorage = { getItem: () => null, setItem() {} };
Object.defineProperty(globalThis, "navigator", { value: { language: "en-GB" }, configurable: true });
globalThis.fetch = async (url) => ({
  json: async () => JSON.parse(fs.readFileSync(STATIC + url.replace("/static", ""), "utf8")) });
const { loadLanguage } = await import(`file://${STATIC}/i18n.js`);
const { eventText } = await import(`file://${STATIC}/narrate.js`);
await loadLanguage();
console.log(JSON.stringify(JSON.parse(EVENTS).map((e) => eventText(e))));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no Node to run the page's modules")
def test_an_events_words_are_the_servers_text(tmp_path: Path) -> None:
    """The page words no event itself: it shows the server's ``text`` (one narration, in
    yatzy.narration), and nothing for an event sent without words."""
    script = tmp_path / "narrate.mjs"
    script.write_text(NARRATE, encoding="utf-8")
    rolled = {"kind": "rolled", "player": 0, "roll": 1, "dice": [1, 2, 3], "kept": []}
    events = [{**rolled, "text": "Ann heittää 1 2 3."}, rolled, {**rolled, "text": ""},
              {"kind": "something_new"}]
    out = subprocess.run(["node", str(script), str(STATIC), json.dumps(events)],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert json.loads(out) == ["Ann heittää 1 2 3.", "", "", ""]
