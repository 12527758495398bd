"""Type hints of the public API (the package ships ``py.typed``).

Every public function, method and property is annotated in full, so a type checker
sees the package as its docstrings describe it; and mypy, run on code that misuses
the API, reports each misuse (a hint that is ``Any`` in disguise would not).
"""

import importlib
import inspect
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SUBPACKAGES = ["dummy", "evaluation", "metaeval", "metrics", "model_selection", "stats"]


def _own_members(cls):
    """``(name, function)`` of the public methods and properties, and ``__init__``, that
    ``cls`` and its bases of this package define (scikit-learn's are typed or not
    by scikit-learn)."""
    for base in cls.__mro__:
        if not base.__module__.startswith("sklearn_ordinal"):
            continue
        for name, value in vars(base).items():
            if name.startswith("_") and name != "__init__":
                continue
            if isinstance(value, property):
                yield f"{base.__name__}.{name}", value.fget
            elif isinstance(value, (staticmethod, classmethod)):
                yield f"{base.__name__}.{name}", value.__func__
            elif inspect.isfunction(value):
                yield f"{base.__name__}.{name}", value


def _public_callables():
    found = {}
    for subpackage in SUBPACKAGES:
        module = importlib.import_module(f"sklearn_ordinal.{subpackage}")
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value):
                for member, function in _own_members(value):
                    found[f"{subpackage}.{member}"] = function
            elif callable(value):
                found[f"{subpackage}.{name}"] = value
    return found


PUBLIC = _public_callables()


def _unannotated(function):
    """The parameters (and ``"return"``) of ``function`` that have no annotation."""
    signature = inspect.signature(function)  # follows the decorators' __wrapped__
    missing = [
        parameter.name
        for parameter in signature.parameters.values()
        if parameter.annotation is inspect.Parameter.empty
        and parameter.name not in ("self", "cls")
    ]
    if signature.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def test_the_public_callables_are_found():
    # The walk reaches functions, classes' methods, class methods and properties.
    for name in [
        "stats.score_interval",
        "stats.AcrossDatasetsComparison.n_systems",
        "stats.CriticalDifferenceDisplay.from_scores",
        "evaluation.EvaluationReport.to_json",
        "evaluation.EvaluationReport.from_json",
        "dummy._ConstantPredictionMixin.predict",
        "model_selection.TunedThresholdsClassifierCV.__init__",
        "metrics.OrdinalConfusion.weights",
        "metaeval.score_systems",
    ]:
        assert name in PUBLIC
    assert len(PUBLIC) > 90


def test_the_check_sees_a_missing_hint():
    def half_typed(x: int, y) -> int:
        return x

    def no_return(x: int):
        return x

    assert _unannotated(half_typed) == ["y"]
    assert _unannotated(no_return) == ["return"]


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_public_callable_is_annotated(name):
    missing = _unannotated(PUBLIC[name])
    assert not missing, f"{name} has no type hint for {missing}"


# Each line that misuses the API, with the error code mypy must report on it.
MISUSES = {
    'low: str = score_interval("mae", [0, 1], [0, 1]).confidence_interval.low': "assignment",
    "error: str = mean_absolute_error([0, 1], [0, 1])": "assignment",
    "per_class: float = mean_absolute_error([0, 1], [0, 1], average=None)": "assignment",
    'cem_score([0, 1], [0, 1], scale="ordnal")': "arg-type",
    'report: int = evaluate([0, 1], {"a": [0, 1]})': "assignment",
    'written: str = EvaluationReport.from_json("{}").to_json("report.json")': "assignment",
    "n_systems: str = compare_across_datasets([[1.0, 2.0], [3.0, 4.0]]).n_systems":
        "assignment",
    "uir: str = unanimous_improvement_ratio([[1.0]], [[0.0]])": "assignment",
    "table: dict = score_systems(mean_absolute_error, [[0, 1]], [[[0, 1]]])": "assignment",
    'TrivialOrdinalClassifier(greater_is_better="yes")': "arg-type",
    "cuts: str = optimal_thresholds([0, 1], [0.2, 0.7], scoring=mean_absolute_error)":
        "assignment",
    "names: str = get_scorer_names()": "assignment",
    "confusion: str = OrdinalConfusion.from_predictions([0, 1], [0, 1]).score(cem_score)":
        "assignment",
    'compare_to_trivial(None, [[0.0]], [0], scoring="mae", error_score="warn")': "arg-type",
}

# Ordinary use, which must type-check without a complaint.
USES = '''
error: float = mean_absolute_error([0, 1], [0, 1])
per_class = mean_absolute_error([0, 1], [0, 1], average=None)
shape = per_class.shape
low: float = score_interval("mae", [0, 1], [0, 1]).confidence_interval.low
report = evaluate([0, 1], {"a": [0, 1]}, measures=["mae", cem_score])
text: str = report.to_json() + report.to_markdown() + report.to_string()
lines = report.to_csv().splitlines()
frame = report.to_frame()
confusion = OrdinalConfusion.from_predictions([0, 1], [0, 1])
total = confusion + OrdinalConfusion.from_predictions([1], [1], labels=[0, 1])
value: float = total.score(cem_score)
scorers = get_scorers(["mae", "cem_ord"])
table = score_systems({"mae": mean_absolute_error}, [[0, 1]], [[[0, 1]]])
mae_table = table["mae"]
comparison = compare_across_datasets({"a": [1.0, 2.0, 3.0], "b": [2.0, 3.0, 1.0]})
summary = comparison.summary()
'''

HEADER = '''
from sklearn_ordinal.dummy import TrivialOrdinalClassifier
from sklearn_ordinal.evaluation import EvaluationReport, evaluate
from sklearn_ordinal.metaeval import score_systems, unanimous_improvement_ratio
from sklearn_ordinal.metrics import (
    OrdinalConfusion,
    cem_score,
    get_scorer_names,
    get_scorers,
    mean_absolute_error,
    optimal_thresholds,
)
from sklearn_ordinal.model_selection import compare_to_trivial
from sklearn_ordinal.stats import compare_across_datasets, score_interval
'''


@pytest.fixture(scope="module")
def mypy_output(tmp_path_factory):
    """mypy's report on a file of misuses and a file of ordinary uses of the API."""
    pytest.importorskip("mypy")
    folder = tmp_path_factory.mktemp("typing")
    header = textwrap.dedent(HEADER).strip()
    (folder / "misuses.py").write_text(header + "\n\n" + "\n".join(MISUSES) + "\n")
    (folder / "uses.py").write_text(header + "\n" + textwrap.dedent(USES))
    # From the repository root, so that mypy reads this checkout and its settings
    # (pyproject.toml); the package's own errors are another test's business.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent",
         "--cache-dir", str(folder / "cache"), "--no-error-summary",
         "--hide-error-context", "--show-error-codes",
         str(folder / "misuses.py"), str(folder / "uses.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    shutil.rmtree(folder / "cache", ignore_errors=True)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout, len(header.splitlines()) + 2


def test_mypy_reports_every_misuse(mypy_output):
    output, first_line = mypy_output
    errors = [line for line in output.splitlines() if "misuses.py:" in line]
    for number, (code, expected) in enumerate(MISUSES.items(), start=first_line):
        on_line = [error for error in errors if f"misuses.py:{number}:" in error]
        assert any(f"[{expected}]" in error for error in on_line), (
            f"mypy did not report [{expected}] on {code!r}; it said {on_line}"
        )


def test_mypy_accepts_ordinary_use(mypy_output):
    output, _ = mypy_output
    errors = [line for line in output.splitlines() if "uses.py:" in line
              and "misuses.py:" not in line]
    assert not errors
