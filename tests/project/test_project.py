"""The project's own files agree: pyproject's dependencies are requirements*.txt's, and every
requirement is pinned to an exact version in constraints.txt (what CI and the image install)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def requirement_lines(path: Path) -> list[str]:
    lines = [line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    return [line for line in lines if line and not line.startswith("-")]


def name_of(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_pyproject_and_requirements_agree():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["dependencies"] == requirement_lines(ROOT / "requirements.txt")
    assert project["optional-dependencies"]["dev"] == requirement_lines(ROOT / "requirements-dev.txt")


def test_every_requirement_is_pinned_in_constraints():
    pins = {}
    for line in requirement_lines(ROOT / "constraints.txt"):
        name, _, version = line.partition("==")
        assert version, f"constraints.txt: {line!r} is not an exact pin"
        pins[name_of(name)] = version
    for req in requirement_lines(ROOT / "requirements.txt") + requirement_lines(ROOT / "requirements-dev.txt"):
        assert name_of(req) in pins, f"{req} has no exact version in constraints.txt"
