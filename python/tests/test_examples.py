"""The example player (examples/python) plays a short match against othbook's random
player through the package."""

import subprocess
import sys

from conftest import ROOT


def test_the_example_match_prints_its_score():
    script = ROOT / "examples/python/match.py"
    out = subprocess.run(
        [sys.executable, str(script), "--games", "4", "--depth", "2"],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    line = out.stdout.strip()
    assert "vs random" in line and "in 4 games" in line, line
    assert " book moves" in line and "searched" in line
