"""Validate the docstrings of the public API with numpydoc; exit 1 on any error.

The public API is what the public subpackages export in ``__all__``, plus the
public methods those classes define themselves (methods inherited from
scikit-learn, such as ``get_params`` or ``set_fit_request``, are scikit-learn's
to document). Run from anywhere, with the package installed::

    python tools/validate_docstrings.py

The checks are numpydoc's (``python -m numpydoc --help``; codes in
numpydoc.validate.ERROR_MSGS). All of them apply except ``IGNORED`` below.
"""

import importlib
import inspect
import sys

from numpydoc.validate import ERROR_MSGS, validate

PUBLIC_MODULES = (
    "sklearn_ordinal.metrics",
    "sklearn_ordinal.dummy",
    "sklearn_ordinal.model_selection",
    "sklearn_ordinal.metaeval",
    "sklearn_ordinal.evaluation",
    "sklearn_ordinal.stats",
)

# Each check left out, and why. Every other check of numpydoc applies, among them:
# a summary line, every parameter documented with a type and in order, sections in
# numpydoc order, and an Examples section (EX01) on every object.
IGNORED = {
    "ES01": "an extended summary: short functions say all in the summary and Parameters, "
    "and the user guide explains the measures",
    "SA01": "a See Also section: not every object has a close relative",
    "SA04": "a description of each See Also entry: a sibling such as mean_absolute_error "
    "in mean_squared_error's See Also explains itself",
    "RT02": "the type alone on the first line of Returns: returns are named as in "
    "scikit-learn (``score : float``)",
    "SS05": "a summary starting with an infinitive verb: the check flags any first word "
    "ending in 's', and a measure's summary names what it is (\"Kendall's tau-a ...\", "
    "\"Points of the ROC surface ...\")",
}


def public_objects():
    """Dotted names of the public functions, classes and their own public methods."""
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            yield f"{module_name}.{name}"
            if not inspect.isclass(obj):
                continue
            for attr in sorted(dir(obj)):
                member = getattr(obj, attr)
                if not attr.startswith("_") and callable(member) and is_ours(member):
                    yield f"{module_name}.{name}.{attr}"


def is_ours(member):
    # scikit-learn adds set_{method}_request to our classes, and documents them
    return getattr(member, "__module__", "").startswith("sklearn_ordinal")


def main():
    checks = set(ERROR_MSGS) - set(IGNORED)
    n_objects, failures = 0, []
    for name in public_objects():
        n_objects += 1
        for code, message in validate(name)["errors"]:
            if code in checks:
                failures.append(f"{name}: {code} {message}")
    for failure in failures:
        print(failure)
    print(f"numpydoc validation: {n_objects} public objects, {len(failures)} errors "
          f"(all checks except {', '.join(sorted(IGNORED)) or 'none'})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
