"""End to end: the command line on PyEvALL's kind of files agrees with PyEvALL.

The numbers below are PyEvALL's own (PyEvALL 0.1.78, the repository's newest commit
e2bb3f1), recorded by ``tools/record_pyevall.py`` on the files that its ``make_cases``
writes, which this test writes again: the shipped example (TSV, text grades, 5 test
cases) and the same items as PyEvALL's ``.txt`` files holding JSON, the systems
lacking some items. PyEvALL is not needed to run this test.

PyEvALL's headline is the mean over the test cases; ours is pooled over the items,
and the report gives both (``per_group``, "Pooled and mean over groups"). Under
``--missing wrong`` a gold item without a prediction counts as wrong, as in PyEvALL:
accuracy and the recall of each gold class agree; F-measure and kappa do not (the
class given in its place gains a false positive; PyEvALL computes precision over the
predicted items only, and kappa's chance agreement from them), so only the former are
compared there (tests/test_trust_fourth.py checks kappa's difference against PyEvALL
0.2.11).
"""

import contextlib
import importlib.util
import io
import json
from pathlib import Path

import pytest

from sklearn_ordinal.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("record_pyevall",
                                               ROOT / "tools" / "record_pyevall.py")
record_pyevall = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record_pyevall)

GRADES = "very_low,low,moderate,high,very_high"

# PyEvALL's measure -> ours, and how ours gives PyEvALL's value.
OURS = {
    "Accuracy": ("accuracy", lambda value: value),
    "FMeasure": ("macro_f1", lambda value: value),
    "Kappa": ("cohen_kappa", lambda value: value),
    # Mean recall over the gold classes: 1 - the macro-averaged zero-one error.
    "Recall": ("macro_mean_zero_one_error", lambda value: 1 - value),
}

PYEVALL = {'example': {'logistic': {'Accuracy': {'mean': 0.4546220633299285,
                                           'test_cases': {'fold1': 0.5280898876404494,
                                                          'fold2': 0.43820224719101125,
                                                          'fold3': 0.48863636363636365,
                                                          'fold4': 0.36363636363636365,
                                                          'fold5': 0.45454545454545453}},
                              'FMeasure': {'mean': 0.31519918693043775,
                                           'test_cases': {'fold1': 0.34856499636891797,
                                                          'fold2': 0.34095975232198145,
                                                          'fold3': 0.34186011246603903,
                                                          'fold4': 0.23427131782945737,
                                                          'fold5': 0.3103397556657931}},
                              'Kappa': {'mean': 0.24086324668780876,
                                        'test_cases': {'fold1': 0.34775780841039955,
                                                       'fold2': 0.22257162823200557,
                                                       'fold3': 0.28584310189359785,
                                                       'fold4': 0.11239193083573489,
                                                       'fold5': 0.23575176406730597}},
                              'Recall': {'mean': 0.3888981054787507,
                                         'test_cases': {'fold1': 0.3994444444444445,
                                                        'fold2': 0.42000000000000004,
                                                        'fold3': 0.41,
                                                        'fold4': 0.27123655913978495,
                                                        'fold5': 0.4438095238095238}}},
                 'ridge': {'Accuracy': {'mean': 0.5157048008171603,
                                        'test_cases': {'fold1': 0.6404494382022472,
                                                       'fold2': 0.449438202247191,
                                                       'fold3': 0.5113636363636364,
                                                       'fold4': 0.4318181818181818,
                                                       'fold5': 0.5454545454545454}},
                           'FMeasure': {'mean': 0.29984177389115485,
                                        'test_cases': {'fold1': 0.37041514041514045,
                                                       'fold2': 0.2621840882215439,
                                                       'fold3': 0.28779904306220094,
                                                       'fold4': 0.2504423113118765,
                                                       'fold5': 0.3283682864450128}},
                           'Kappa': {'mean': 0.2787366106452363,
                                     'test_cases': {'fold1': 0.4634513941220799,
                                                    'fold2': 0.19731271857169147,
                                                    'fold3': 0.26992089523442026,
                                                    'fold4': 0.14596273291925474,
                                                    'fold5': 0.31703531237873495}},
                           'Recall': {'mean': 0.33231182795698927,
                                      'test_cases': {'fold1': 0.4094444444444444,
                                                     'fold2': 0.2922222222222222,
                                                     'fold3': 0.31166666666666665,
                                                     'fold4': 0.27322580645161293,
                                                     'fold5': 0.375}}}},
     'txt_missing': {'logistic': {'Accuracy': {'mean': 0.3867466802860061,
                                               'test_cases': {'fold1': 0.449438202247191,
                                                              'fold2': 0.38202247191011235,
                                                              'fold3': 0.4090909090909091,
                                                              'fold4': 0.29545454545454547,
                                                              'fold5': 0.3977272727272727}},
                                  'Recall': {'mean': 0.3271203277009729,
                                             'test_cases': {'fold1': 0.3472222222222222,
                                                            'fold2': 0.3155555555555556,
                                                            'fold3': 0.35277777777777775,
                                                            'fold4': 0.20123655913978497,
                                                            'fold5': 0.41880952380952385}}},
                     'ridge': {'Accuracy': {'mean': 0.4795454545454545,
                                            'test_cases': {'fold1': 0.5842696629213483,
                                                           'fold2': 0.4157303370786517,
                                                           'fold3': 0.5,
                                                           'fold4': 0.38636363636363635,
                                                           'fold5': 0.5113636363636364}},
                               'Recall': {'mean': 0.3063297491039426,
                                          'test_cases': {'fold1': 0.36222222222222217,
                                                         'fold2': 0.2772222222222222,
                                                         'fold3': 0.305,
                                                         'fold4': 0.24887096774193548,
                                                         'fold5': 0.3383333333333333}}}}}


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    return record_pyevall.make_cases(tmp_path_factory.mktemp("pyevall"))


def _report(gold, systems, *options):
    output, errors = io.StringIO(), io.StringIO()
    measures = "accuracy,macro_f1,cohen_kappa,neg_macro_mean_zero_one_error"
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(errors):
        code = main(["evaluate", str(gold), *map(str, systems), "--labels", GRADES,
                     "--measures", measures, "--format", "json", "--n-resamples", "199",
                     "--seed", "0", *options])
    assert code == 0, errors.getvalue()
    return json.loads(output.getvalue()), errors.getvalue()


@pytest.mark.parametrize("case, options", [("example", []),
                                           ("txt_missing", ["--missing", "wrong"])])
def test_the_command_line_agrees_with_pyevall(cases, case, options):
    gold, systems = cases[case]
    content, errors = _report(gold, systems.values(), *options)
    per_group = {(row["system"], row["group"]): row for row in content["per_group"]}
    for system, metrics in PYEVALL[case].items():
        for metric, recorded in metrics.items():
            name, as_pyevall = OURS[metric]
            values = {group: as_pyevall(per_group[system, group][name])
                      for group in recorded["test_cases"]}
            assert values == pytest.approx(recorded["test_cases"], abs=1e-12), metric
            mean = sum(values.values()) / len(values)
            assert mean == pytest.approx(recorded["mean"], abs=1e-12), metric
    if case == "txt_missing":
        # Read by content, the convention and the items it affected, in the header.
        note = content["input_note"]
        assert "gold.txt as JSON, logistic.txt as JSON, ridge.txt as JSON" in note
        assert "counted as wrong (--missing wrong" in note
        assert "103 (system, item) pair(s) without a prediction (logistic: 63, ridge: 40)" in note
        assert note in errors  # said on standard error too


def test_pooled_differs_from_pyevall_mean_and_both_are_reported(cases):
    # The numbers: macro F1 of logistic, 0.3232 pooled, 0.3152 mean over groups.
    gold, systems = cases["example"]
    content, _ = _report(gold, systems.values())
    pooled = next(record["estimate"] for record in content["scores"]
                  if record["system"] == "logistic" and record["measure"] == "macro_f1")
    assert round(pooled, 4) == 0.3232
    assert round(PYEVALL["example"]["logistic"]["FMeasure"]["mean"], 4) == 0.3152


def test_macro_f1_over_gold_and_predicted_classes_not_pyevalls_gold_classes():
    # Recorded with PyEvALL on three items of gold class A predicted A, A, B: its
    # FMeasure averages over the gold classes (0.8); ours over gold and predicted
    # classes, as scikit-learn's (0.4), as the user guide says.
    from sklearn.metrics import f1_score

    from sklearn_ordinal.metrics import get_scorer

    y_true, y_pred = ["A", "A", "A"], ["A", "A", "B"]
    pyevall_fmeasure = 0.8
    ours = get_scorer("macro_f1").score_func(y_true, y_pred)
    assert ours == pytest.approx(0.4) == f1_score(y_true, y_pred, average="macro")
    assert f1_score(y_true, y_pred, labels=["A"], average="macro") == pytest.approx(
        pyevall_fmeasure)
