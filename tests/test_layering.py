"""The package layering of docs/design.md ("Layering"), checked on the import graph.

compiler/ is the ground floor: it imports nothing of oracle/, fuzz/, equivalence/ or
bench/; oracle/ and equivalence/ use only the compiler; fuzz/ may use all three; bench/
sits on top and may use all four, and nothing imports it; no two packages import each
other in a cycle; and no module uses another module's `_private` name. Imports are read
from the source with `ast` (lazy imports inside functions count).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("compiler", "oracle", "fuzz", "equivalence", "bench")


def _modules() -> dict[str, ast.Module]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            out[name] = ast.parse(path.read_text(), str(path))
    return out


def _imports(tree: ast.Module) -> list[tuple[str, list[str]]]:
    """(imported module, names taken from it) for every import statement in the tree."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


MODULES = _modules()


#: docs/design.md's layering: the packages each package may import besides itself
MAY_USE = {
    "compiler": frozenset(),
    "oracle": frozenset({"compiler"}),
    "equivalence": frozenset({"compiler"}),
    "fuzz": frozenset({"compiler", "oracle", "equivalence"}),
    "bench": frozenset({"compiler", "oracle", "equivalence", "fuzz"}),
}


def _wrong_imports(package: str) -> list[str]:
    """`module imports target` for every import of `package`'s modules that the layering forbids."""
    return [
        f"{name} imports {target}"
        for name, tree in MODULES.items()
        if name.split(".")[0] == package
        for target, _names in _imports(tree)
        if target.split(".")[0] in PACKAGES and target.split(".")[0] not in MAY_USE[package] | {package}
    ]


def test_layering_names_every_package() -> None:
    assert set(MAY_USE) == set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_each_package_imports_only_what_the_layering_allows(package: str) -> None:
    wrong = _wrong_imports(package)
    assert not wrong, wrong


def test_the_layering_check_sees_a_forbidden_import(monkeypatch: pytest.MonkeyPatch) -> None:
    """A translation-validation benchmark in equivalence/ once took its strategy from fuzz/: the check must catch that."""
    tree = ast.parse("def f():\n    from fuzz.strategies import callgraph\n")
    monkeypatch.setitem(MODULES, "equivalence.planted", tree)
    assert _wrong_imports("equivalence") == ["equivalence.planted imports fuzz.strategies"]


def test_no_import_cycle_between_packages() -> None:
    edges: dict[str, set[str]] = {p: set() for p in PACKAGES}
    for name, tree in MODULES.items():
        for target, _names in _imports(tree):
            top, mine = target.split(".")[0], name.split(".")[0]
            if top in PACKAGES and top != mine:
                edges[mine].add(top)
    # Kahn: a DAG empties completely
    indegree = {p: sum(p in targets for targets in edges.values()) for p in PACKAGES}
    ready = [p for p, d in indegree.items() if d == 0]
    seen = 0
    while ready:
        p = ready.pop()
        seen += 1
        for q in edges[p]:
            indegree[q] -= 1
            if indegree[q] == 0:
                ready.append(q)
    assert seen == len(PACKAGES), f"import cycle among packages: {edges}"


def test_no_private_name_used_across_modules() -> None:
    wrong = []
    for name, tree in MODULES.items():
        for target, names in _imports(tree):
            wrong += [f"{name}: from {target} import {n}" for n in names if n.startswith("_") and not n.startswith("__")]
        for node in ast.walk(tree):
            # module.attribute where `module` is one of ours imported by name: compiler.backend.split._x
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                base = node.value
                if isinstance(base, ast.Name) and base.id in _imported_module_names(tree):
                    wrong.append(f"{name}: {base.id}.{node.attr}")
    assert not wrong, wrong


def _imported_module_names(tree: ast.Module) -> set[str]:
    """Local names bound to one of our modules (`from compiler.backend import split` binds `split`)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PACKAGES:
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                if candidate in MODULES:
                    names.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES and alias.asname:
                    names.add(alias.asname)
    return names


#: The only top-level folders that may hold Python: the five packages, the tests, lit's config.
PYTHON_HOMES = (*PACKAGES, "tests", "lit-tests")


def test_benchmarks_and_scripts_live_inside_the_product() -> None:
    """Every Python file is in a package (runnable as `python -m`), the tests or lit's config;
    no folder of scripts with its own import path."""
    stray = [
        str(path.relative_to(ROOT))
        for path in ROOT.rglob("*.py")
        if not any(part.startswith(".") for part in path.relative_to(ROOT).parts)
        and path.relative_to(ROOT).parts[0] not in PYTHON_HOMES
        and "build" not in path.relative_to(ROOT).parts[:1]
    ]
    assert not stray, stray


def test_no_module_edits_the_import_path() -> None:
    """Modules import each other as installed packages; a `sys.path` edit hides a layering
    problem (and makes a benchmark depend on the folder it is started from)."""
    edits = []
    for home in PYTHON_HOMES:
        for path in sorted((ROOT / home).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr == "path"
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "sys"
                ):
                    edits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not edits, edits


def test_benchmarks_live_in_bench_and_nothing_imports_them() -> None:
    """One bench package: no module elsewhere is a benchmark, and the product never imports one."""
    elsewhere = [name for name in MODULES if name.split(".")[0] != "bench" and "bench" in name.rsplit(".", 1)[-1]]
    assert not elsewhere, f"benchmarks outside bench/ (move each to bench/NAME.py on bench.runner and bench.report): {elsewhere}"
    users = [name for name, tree in MODULES.items() if name.split(".")[0] != "bench"
             for target, _names in _imports(tree) if target.split(".")[0] == "bench"]
    assert not users, users
