"""The evaluation report as people read it: text within 80 columns, the HTML page,
and the modules' imports pointing down (the chart never imports the report)."""

import ast
from pathlib import Path

import sklearn_ordinal.evaluation as evaluation_package

EVALUATION = Path(evaluation_package.__file__).parent


def _imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.module for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module is not None
    }


def test_the_chart_does_not_import_the_report():
    # _report imports _plot (report.plot draws with it); the other way would be a circle.
    assert "_report" not in _imported_modules(EVALUATION / "_plot.py")
    assert "_trivial_row" in _imported_modules(EVALUATION / "_plot.py")
    assert "_plot" in _imported_modules(EVALUATION / "_report.py")
