"""The compatibility layer: its shims, and that it stays the one door to private API."""

import ast
import doctest
import importlib
import pkgutil
import re
import sys
import tomllib
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from packaging.version import Version
from sklearn.exceptions import UndefinedMetricWarning

import sklearn_ordinal
from sklearn_ordinal._compat import check_matplotlib_support
from sklearn_ordinal.metrics._agreement import _cohen_kappa

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "sklearn_ordinal"

# --- Cohen's kappa, its undefined case decided by the package on every version -------------------------------------------------------------------


def _kappa_by_definition(y1, y2, n_classes, weights, sample_weight):
    """Kappa from its definition, cell by cell; None where it is undefined."""
    observed = np.zeros((n_classes, n_classes))
    for a, b, w in zip(y1, y2, sample_weight):
        observed[a, b] += w
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    if observed.sum() > 0:
        expected /= observed.sum()
    distance = np.abs(np.subtract.outer(np.arange(n_classes), np.arange(n_classes)))
    disagreement = {None: distance > 0, "linear": distance, "quadratic": distance**2}[weights]
    if np.sum(disagreement * expected) == 0:
        return None
    return 1 - np.sum(disagreement * observed) / np.sum(disagreement * expected)


@st.composite
def _kappa_inputs(draw):
    n_classes = draw(st.integers(1, 4))
    n = draw(st.integers(1, 12))
    # Few classes and items, so that the undefined case (one shared class) is common.
    codes = st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)
    weights = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=n,
                                     max_size=n)))
    weights[0] = 1.0  # scikit-learn refuses all-zero weights
    return n_classes, draw(codes), draw(codes), weights


@given(_kappa_inputs(), st.sampled_from([None, "linear", "quadratic"]))
def test_kappa_matches_its_definition_and_flags_the_undefined_case(inputs, weights):
    n_classes, y1, y2, sample_weight = inputs
    expected = _kappa_by_definition(y1, y2, n_classes, weights, sample_weight)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kappa = _cohen_kappa(
            y1, y2, labels=np.arange(n_classes), weights=weights, sample_weight=sample_weight
        )
    undefined = [w for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    if expected is None:
        assert kappa == 0.0
        assert len(undefined) == 1
        assert "no disagreement is expected" in str(undefined[0].message)
    else:
        assert kappa == pytest.approx(expected)
        assert not undefined


def test_kappa_with_one_constant_side_is_defined():
    # Only one side is constant: chance disagreement is possible, and kappa is 0.
    assert _cohen_kappa([0, 0, 1], [0, 0, 0]) == pytest.approx(0.0)


# --- check_matplotlib_support ------------------------------------------------------------


def test_missing_matplotlib_names_the_plot_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    with pytest.raises(ImportError, match=r"RocSurfaceDisplay\.plot requires matplotlib.*\[plot\]"):
        check_matplotlib_support("RocSurfaceDisplay.plot")


def test_present_matplotlib_passes():
    pytest.importorskip("matplotlib")
    check_matplotlib_support("RocSurfaceDisplay.plot")


# --- private scikit-learn API only through _compat ---------------------------------------

# Private imports made outside _compat.py: none. It must match exactly.
_KNOWN_OUTSIDE_COMPAT = set()


def _is_private(dotted):
    return any(part.startswith("_") for part in dotted.split("."))


def _private_sklearn_imports(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] == "sklearn" and _is_private(name):
                yield name


def test_private_scikit_learn_api_is_imported_only_in_compat():
    found = {
        (path.relative_to(PACKAGE).as_posix(), name)
        for path in PACKAGE.rglob("*.py")
        if path.name != "_compat.py"
        for name in _private_sklearn_imports(path)
    }
    assert found == _KNOWN_OUTSIDE_COMPAT, (
        "import private scikit-learn API from sklearn_ordinal._compat, with a comment "
        "saying why it is worth it and since which version it exists"
    )


def test_the_inventory_sees_private_imports():
    # The scan itself must find what _compat imports, or the test above proves nothing.
    found = set(_private_sklearn_imports(PACKAGE / "_compat.py"))
    assert "sklearn.utils._param_validation.validate_params" in found
    assert "sklearn.base._fit_context" in found


# --- doctests do not depend on NumPy's scalar repr ---------------------------------------

# NumPy 2 prints np.int64(4) where NumPy 1 prints 4: expected output must not hold either.
_NUMPY_SCALAR_REPR = re.compile(r"\bnp\.(u?int|float|complex|bool|str_)\w*\(")


def _doctest_outputs():
    finder = doctest.DocTestFinder()
    for info in pkgutil.walk_packages(sklearn_ordinal.__path__, "sklearn_ordinal."):
        for test in finder.find(importlib.import_module(info.name)):
            for example in test.examples:
                yield test.name, example.want
    for path in (ROOT / "docs").rglob("*.rst"):
        for example in doctest.DocTestParser().get_examples(path.read_text()):
            yield path.name, example.want


def test_doctest_outputs_hold_no_numpy_scalar_repr():
    offending = sorted({name for name, want in _doctest_outputs()
                        if _NUMPY_SCALAR_REPR.search(want)})
    assert not offending, f"print() or convert NumPy scalars in the doctests of {offending}"


def test_the_repr_check_sees_doctest_outputs():
    wants = [want for _, want in _doctest_outputs()]
    assert len(wants) > 20
    assert _NUMPY_SCALAR_REPR.search("(np.int64(3), -1.2)\n")


# --- declared floors are the tested ones -------------------------------------------------


def test_every_dependency_floor_is_pinned_in_the_minimum_constraints():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    requirements += project["optional-dependencies"]["tests"]
    requirements += project["optional-dependencies"]["plot"]
    floors = {}
    for requirement in requirements:
        # A name, its extras if any, and the floor.
        pattern = r"([A-Za-z0-9_.-]+)(?:\[[a-z,]+\])?>=([0-9.]+)"
        name, floor = re.fullmatch(pattern, requirement).groups()
        floors[name] = Version(floor)
    pins = {}
    for line in (ROOT / ".ci" / "minimum-constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, pin = line.split("==")
            pins[name] = Version(pin)
    assert floors == pins
