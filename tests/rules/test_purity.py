import subprocess
import sys
from pathlib import Path

import scorekeeper.rules

RULES_DIR = Path(scorekeeper.rules.__file__).parent


def test_the_rules_module_imports_nothing_from_django():
    modules = [
        ".".join(("scorekeeper", *path.relative_to(RULES_DIR.parent).with_suffix("").parts)).removesuffix(".__init__")
        for path in RULES_DIR.rglob("*.py")
    ]
    assert "scorekeeper.rules.rounds.together" in modules and len(modules) >= 10
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in modules)
        + (
            "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'django')\nprint(loaded)\nsys.exit(bool(loaded))"
        )
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=RULES_DIR.parent.parent)
    assert result.returncode == 0, result.stdout + result.stderr
