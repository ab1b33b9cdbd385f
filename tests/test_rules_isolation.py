"""The rules engine runs on any Python: it needs nothing beyond the standard library."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from conftest import REPO

BLOCKED = ("cv2", "pygame", "gpiozero", "numpy", "picamera2")


def test_rules_import_with_heavy_libraries_blocked() -> None:
    script = textwrap.dedent(
        f"""
        import sys
        class Blocker:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {BLOCKED!r}:
                    raise ImportError(f"{{name}} is blocked in this test")
                return None
        sys.meta_path.insert(0, Blocker())
        import einhorn_table.rules as rules
        import einhorn_table.simulation.simulate
        import einhorn_table.cli.replay, einhorn_table.cli.simulate
        line = '{{"v": 1, "type": "setup", "players": ["Ana", "Ben"]}}'
        assert rules.replay([line]).ledger().central == 38
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in {BLOCKED!r})
        print("loaded:", loaded)
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=REPO, check=False)
    assert result.returncode == 0, result.stderr
    assert "loaded: []" in result.stdout


def test_the_blocker_really_blocks() -> None:
    script = (
        "import sys\n"
        "class B:\n"
        "    def find_spec(self, n, p=None, t=None):\n"
        "        if n == 'json': raise ImportError('blocked')\n"
        "sys.modules.pop('json', None)\n"
        "sys.meta_path.insert(0, B())\n"
        "import einhorn_table.rules\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=REPO, check=False)
    assert result.returncode != 0 and "blocked" in result.stderr
