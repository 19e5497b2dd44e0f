"""What `./play` and `scripts/setup` run on a fresh clone, with a stand-in Python that logs its
calls (no install: the real one takes a minute; docs/performance.md has its times): a venv made
without pip when this Python's pip can install into it (pip >= 22.3, `--python`), no pip
upgrade, no compile of every package; the venv's own pip otherwise; a developer's venv gets its
pip; an installed clone runs nothing; `./play` says it is starting after an install."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PYTHON = r"""#!/usr/bin/env bash
# A stand-in Python: logs its call; `-m venv` makes a venv of stand-ins (with a pip unless
# --without-pip), `-c` (the pip version check) answers $OWN_PIP, `-m pip --version` whether
# this Python has a pip.
here=$(cd "$(dirname "$0")/.." && pwd)
who=python; [ -f "$here/pyvenv.cfg" ] && who=.venv/bin/python
echo "$who $*" >> "$LOG"
case "$1 $2" in
  "-c "*) exit "$OWN_PIP" ;;
  "-m venv")
    shift 2; pip=1
    [ "$1" = --without-pip ] && { pip=0; shift; }
    mkdir -p "$1/bin"; cp "$0" "$1/bin/python"; touch "$1/pyvenv.cfg"
    printf '#!/usr/bin/env bash\necho "yatzy $*" >> "$LOG"\n' > "$1/bin/yatzy"; chmod +x "$1/bin/yatzy"
    [ $pip = 1 ] && touch "$1/has-pip"; exit 0 ;;
  "-m ensurepip") touch "$here/has-pip"; exit 0 ;;
  "-m pip")
    if [ "$3" = --version ]; then
      [ "$who" = python ] || [ -f "$here/has-pip" ]; exit $?
    fi
    exit 0 ;;
esac
exit 3
"""


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """The files ./play and the setup read, in a folder of their own, and the stand-in Python."""
    root = tmp_path / "yatzy"
    (root / "scripts").mkdir(parents=True)
    for name in ("play", "scripts/setup", "pyproject.toml"):
        shutil.copy2(ROOT / name, root / name)
    python = tmp_path / "python"
    python.write_text(PYTHON, encoding="utf-8")
    python.chmod(0o755)
    return root


def run(clone: Path, *command: str, own_pip: bool = True) -> tuple[list[str], str]:
    """Run a command in the clone with the stand-in Python: its calls (log) and what it said."""
    log = clone.parent / "log"
    log.unlink(missing_ok=True)
    env = {**os.environ, "PYTHON": str(clone.parent / "python"), "LOG": str(log),
           "OWN_PIP": "0" if own_pip else "1"}
    done = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True, timeout=60, check=True)
    return (log.read_text(encoding="utf-8").splitlines() if log.exists() else []), done.stderr


INSTALL = "install -q --progress-bar off --no-compile -e ."
"""What playing installs: the project, no module compiled ahead."""


def test_a_fresh_clone_installs_with_this_pythons_pip_into_a_venv_made_without_one(clone: Path) -> None:
    calls, said = run(clone, "./play", "--plain")
    assert calls[1:] == ["python -m venv --without-pip .venv", ".venv/bin/python -m pip --version",
                         f"python -m pip --python .venv/bin/python {INSTALL}", "yatzy play --plain"]
    assert not any("--upgrade" in c for c in calls)
    assert said.splitlines()[0] == "yatzy: creating a virtual environment in .venv (once)"
    assert said.splitlines()[-1] == "yatzy: starting the game (the first start takes a few seconds more)"
    calls, said = run(clone, "./play")  # installed: nothing runs but the game, and nothing is said
    assert (calls, said) == (["yatzy play"], "")


def test_without_a_pip_of_its_own_the_venv_gets_one(clone: Path) -> None:
    calls, _ = run(clone, "bash", "scripts/setup", own_pip=False)
    assert calls[1:] == ["python -m venv .venv", ".venv/bin/python -m pip --version",
                         f".venv/bin/python -m pip {INSTALL}"]


def test_a_developers_venv_made_without_pip_gets_its_pip(clone: Path) -> None:
    """... and every module compiled ahead: the tests start many processes."""
    run(clone, "bash", "scripts/setup")
    calls, _ = run(clone, "bash", "scripts/setup", "dev")
    assert calls == [".venv/bin/python -m pip --version", ".venv/bin/python -m ensurepip --default-pip",
                     ".venv/bin/python -m pip --version",
                     ".venv/bin/python -m pip install -q --progress-bar off --compile -e .[dev]"]
