"""Shared fixtures: the default book, and the paths of the othbook binary and the C example
that the comparison tests run (.ci/run builds both; set OTHBOOK_BIN / OTHBOOK_C_PROBE to
use others)."""

import os
from pathlib import Path

import pytest

import othbook

ROOT = Path(__file__).resolve().parents[2]


def built(env: str, default: Path, how: str) -> Path:
    """A program the tests need: fails (never skips) when it is missing."""
    path = Path(os.environ.get(env) or default)
    if not path.is_file():
        pytest.fail(f"{path} is missing: {how} (or set {env})")
    return path


@pytest.fixture(scope="session")
def book() -> othbook.Book:
    return othbook.Book.open()


@pytest.fixture(scope="session")
def cli() -> Path:
    return built("OTHBOOK_BIN", ROOT / "target/release/othbook", "run `cargo build --release`")


@pytest.fixture(scope="session")
def c_probe() -> Path:
    return built(
        "OTHBOOK_C_PROBE",
        ROOT / "target/c/probe",
        "build the C example as .ci/run does (docs/c.md)",
    )


@pytest.fixture(scope="session")
def c_lib() -> Path:
    return built(
        "OTHBOOK_C_LIB",
        ROOT / "target/release/libothbook.so",
        "run `cargo build --release -p othbook-c`",
    )
