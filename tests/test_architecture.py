"""The import graph of the package: layers that only point down, and no circle.

Read from the source with :mod:`ast` (no import is run), counting every import
statement wherever it stands: a lazy import inside a function is still an edge, so
that no circle can hide behind one. The floors below are the layers of
``docs/architecture.rst``; a module may import its own floor or a lower one.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "sklearn_ordinal"

# Lowest first. A module not listed takes the floor of its subpackage.
FLOORS = {
    "sklearn_ordinal._version": 0,
    "sklearn_ordinal._compat": 0,
    "sklearn_ordinal._records": 0,
    "sklearn_ordinal._blocks": 0,
    "sklearn_ordinal._warnings": 0,
    "sklearn_ordinal._command_line": 0,
    "sklearn_ordinal._markdown": 0,
    "sklearn_ordinal._json_values": 0,
    "sklearn_ordinal._array_api": 0,
    "sklearn_ordinal._validation": 1,
    "sklearn_ordinal._table_files": 1,
    "sklearn_ordinal._counting": 2,
    "sklearn_ordinal._dask": 2,
    "sklearn_ordinal._device_counting": 2,
    "sklearn_ordinal._confusion": 3,
    "sklearn_ordinal._score_table": 3,
    "sklearn_ordinal.metrics": 4,
    "sklearn_ordinal.stats": 5,
    "sklearn_ordinal.dummy": 5,
    "sklearn_ordinal.metaeval": 5,
    "sklearn_ordinal.model_selection": 6,
    "sklearn_ordinal.evaluation": 7,
    "sklearn_ordinal.__main__": 8,
    "sklearn_ordinal": 8,
}


def _module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _modules():
    return {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(name, path, modules):
    """Every module of the package that ``name`` imports, at any depth of its code."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # ``from . import _dask`` imports the submodule ``_dask`` (the package
            # itself only for a name that is no submodule).
            submodules = [f"{target}.{alias.name}" for alias in node.names]
            targets = submodules + [target] * any(s not in modules for s in submodules)
        else:
            continue
        found.update(t for t in targets if t in modules and t != name)
    return found


def _graph():
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _floor(module):
    while module not in FLOORS:
        module = module.rsplit(".", 1)[0]
    return FLOORS[module]


def _cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in graph[node]:
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    return components


def test_the_graph_is_read(tmp_path):
    graph = _graph()
    assert "sklearn_ordinal._confusion" in graph["sklearn_ordinal.metrics._error"]
    assert "sklearn_ordinal._dask" in graph["sklearn_ordinal._confusion"]  # from . import _dask
    # An import inside a function counts.
    lazy = tmp_path / "_lazy.py"
    lazy.write_text("def f():\n    from .metrics import _registry\n    return _registry\n")
    modules = {"sklearn_ordinal.metrics", "sklearn_ordinal.metrics._registry"}
    found = _imports("sklearn_ordinal._lazy", lazy, modules)
    assert found == {"sklearn_ordinal.metrics._registry"}


def test_nothing_imports_the_root_package():
    # The root loads its subpackages on first use (importlib, which the graph cannot
    # see); that can close no circle as long as nothing below imports the root.
    assert all("sklearn_ordinal" not in targets for targets in _graph().values())


def test_no_import_circle():
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_every_import_points_down():
    upward = [
        f"{module} (floor {_floor(module)}) imports {target} (floor {_floor(target)})"
        for module, targets in _graph().items()
        for target in sorted(targets)
        if _floor(target) > _floor(module)
    ]
    assert upward == []


@pytest.mark.parametrize("module", sorted(_modules()))
def test_every_module_has_a_floor(module):
    assert _floor(module) is not None
