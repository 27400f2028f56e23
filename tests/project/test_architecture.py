"""The layout's promises: no import cycles among the project's modules, the core never imports
discord (statically or at run time), the command table depends on no feature, and every feature
in the one list loads and declares commands."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from tabletop import features
from tabletop.core import commands as table

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("tabletop", "cogs")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    found = {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    found["bot"] = ROOT / "bot.py"
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(name: str, path: Path, known: set[str], with_type_checking: bool = True) -> set[str]:
    """Every project module `name` imports, at the top or inside functions (a deferred import is
    still a dependency), and under `if TYPE_CHECKING:` too unless with_type_checking is False (a name a
    module needs to be understood is a dependency as well)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped = (
        set()
        if with_type_checking
        else {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _is_type_checking(node) for n in ast.walk(node)}
    )
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def import_graph(with_type_checking: bool = True) -> dict[str, set[str]]:
    modules = project_modules()
    known = set(modules)
    return {name: imports_of(name, path, known, with_type_checking) for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles():
    graph = import_graph()
    assert "tabletop.core.commands" in graph and len(graph) > 20
    assert find_cycle(graph) is None


def package_of(module: str) -> str:
    """tabletop.rules.search -> tabletop.rules; cogs.ui -> cogs; bot -> bot."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "tabletop" else parts[0]


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Package -> the packages it imports. The bare `tabletop` (a docstring, reached by every
    `from tabletop import x`) is left out: it holds nothing to depend on."""
    out: dict[str, set[str]] = {}
    for module, deps in graph.items():
        if module == "tabletop":
            continue
        own = package_of(module)
        out.setdefault(own, set()).update(package_of(d) for d in deps if d != "tabletop" and package_of(d) != own)
    return out


# The layers, lowest first: a package imports only packages of lower layers (the shared core
# and the store under the features, the front ends on top). `tabletop.features` is the list of
# features the front ends load; it imports them by name, at run time.
LAYERS = (
    {"tabletop.core"},
    {"tabletop.store"},
    {"tabletop.rules"},
    {"tabletop.combat"},
    {"tabletop.agenda", "tabletop.galaxy_trucker", "tabletop.site", "tabletop.builtin", "tabletop.packimport"},
    {"tabletop.features"},
    {"tabletop.console"},
    {"cogs"},
    {"tabletop.cli"},  # the command line, which also starts the console and the Discord bot
    {"bot"},
)


def test_no_cycles_between_packages():
    packages = package_graph(import_graph())
    assert {"tabletop.core", "tabletop.rules", "tabletop.combat", "tabletop.console"} <= set(packages)
    assert find_cycle(packages) is None


def test_packages_import_only_lower_layers():
    layer = {package: i for i, group in enumerate(LAYERS) for package in group}
    packages = package_graph(import_graph())
    assert set(packages) <= set(layer), f"a package with no layer: {set(packages) - set(layer)}"
    upward = sorted(f"{p} -> {d}" for p, deps in packages.items() for d in deps if layer[d] >= layer[p] and p != "bot")
    assert upward == []


def test_the_package_check_finds_an_upward_import():
    assert package_graph({"tabletop.core.x": {"tabletop.rules.y"}, "tabletop.rules.y": {"tabletop.core.x"}}) == {
        "tabletop.core": {"tabletop.rules"},
        "tabletop.rules": {"tabletop.core"},
    }
    assert find_cycle(package_graph({"tabletop.core.x": {"tabletop.rules.y"}, "tabletop.rules.y": {"tabletop.core.x"}}))


def test_a_type_only_import_is_a_dependency_too(tmp_path):
    """A name under `if TYPE_CHECKING:` ties a module to another as much as any import: it counts
    in every check above."""
    module = tmp_path / "x.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tabletop.rules import search\n")
    known = {"tabletop.rules.search"}
    assert imports_of("tabletop.core.x", module, known) == {"tabletop.rules.search"}
    assert imports_of("tabletop.core.x", module, known, with_type_checking=False) == set()


def test_core_never_imports_discord_statically():
    for name, path in project_modules().items():
        if not name.startswith("tabletop"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            mods = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(m == "discord" or m.startswith("discord.") for m in mods), name


def test_core_never_imports_discord_at_run_time():
    code = (
        "import sys, importlib, pkgutil, tabletop; from tabletop import features; features.load(); "
        "[importlib.import_module(m.name) for m in pkgutil.walk_packages(tabletop.__path__, 'tabletop.')]; "
        "print('discord' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr


def test_the_command_table_depends_on_no_feature():
    graph = import_graph()
    table_deps = graph["tabletop.core.commands"]
    assert not table_deps & set(features.FEATURES)
    assert all(package_of(d) == "tabletop.core" for d in table_deps), table_deps


def test_every_feature_loads_and_declares_commands():
    features.load()
    owners = {cmd.handler.__module__ for cmd in table.COMMANDS.values()}
    assert owners == set(features.FEATURES)


# A module a reader can hold in mind: past this, it is doing two things and should be split.
MAX_MODULE_LINES = 600


def test_no_module_is_over_the_line_limit():
    long = {
        name: n for name, path in project_modules().items() if (n := len(path.read_text("utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_tests_mirror_the_packages():
    """A package's tests are in tests/<package>/ (the front end's in tests/cogs/, the whole
    project's contracts in tests/project/); only shared helpers sit at the top."""
    tests = ROOT / "tests"
    dirs = {p.name for p in tests.iterdir() if p.is_dir() and any(p.glob("test_*.py"))}
    packages = {p.name for p in (ROOT / "tabletop").iterdir() if (p / "__init__.py").exists()}
    assert sorted(packages - dirs) == []
    assert sorted(dirs - packages - {"cogs", "project"}) == []
    assert sorted(p.name for p in tests.glob("test_*.py")) == []


# numba reads its own variable at import; the bot only asks whether the admin set it
_OWN_ENVIRONMENT_READERS = {"tabletop.core.config", "tabletop.combat.kernel"}


def environment_readers() -> set[str]:
    """The modules that read or write os.environ / os.getenv themselves."""
    found = set()
    for name, path in project_modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            reads = isinstance(node, ast.Attribute) and node.attr in {"environ", "getenv", "putenv"}
            if reads and isinstance(node.value, ast.Name) and node.value.id == "os":
                found.add(name)
    return found


def test_configuration_is_read_in_one_place():
    assert environment_readers() - _OWN_ENVIRONMENT_READERS == set()


MAX_FUNCTION_LINES = 80  # the guide's limit: a function longer than a screen or so is split


def test_no_function_is_over_the_line_limit():
    long = {}
    for name, path in project_modules().items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{name}.{node.name}"] = lines
    assert long == {}


def test_every_package_docstring_names_each_of_its_modules():
    """A package's __init__ says what it holds: a module added or moved without it fails here."""
    root = Path(__file__).resolve().parents[2]
    missing = []
    for init in [*sorted((root / "tabletop").glob("*/__init__.py")), root / "cogs" / "__init__.py"]:
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        for module in sorted(init.parent.glob("*.py")):
            if module.stem != "__init__" and not re.search(rf"\b{module.stem}\b", doc):
                missing.append(f"{init.parent.name}/{module.name}")
    assert not missing
