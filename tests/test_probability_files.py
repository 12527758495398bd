"""Class probabilities in prediction files (``proba_<class>`` columns) and in
``evaluate(y_proba=...)``: the same numbers as the measures called on the arrays, and
every bad file refused with its message (exit code 2 and one line on the command line)."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sklearn_ordinal.__main__ import main
from sklearn_ordinal.evaluation import EvaluationReport, evaluate, read_evaluation_files
from sklearn_ordinal.metrics import (
    mean_absolute_error,
    ranked_probability_score_loss,
    vus_score,
)
from sklearn_ordinal.metrics._scorer import _expected_class

N_ITEMS, CLASSES = 40, [1, 2, 3]
QUICK = {"n_resamples": 99, "random_state": 0}
# 99 resamples of 40 items: BCa's tails are thin, which is not what is tested here.
pytestmark = pytest.mark.filterwarnings("ignore:.*while resampling:UserWarning")
MEASURES = ["neg_mean_absolute_error", "neg_ranked_probability_score", "vus"]


def _task(seed=0):
    """Gold classes 1..3, a system's probabilities leaning to the truth, its labels."""
    rng = np.random.default_rng(seed)
    y = rng.integers(1, 4, N_ITEMS)
    y[:3] = CLASSES  # every class in the gold file
    proba = rng.dirichlet(np.ones(3), N_ITEMS)
    proba[np.arange(N_ITEMS), y - 1] += 1.0
    proba /= proba.sum(axis=1, keepdims=True)
    labels = np.where(rng.random(N_ITEMS) < 0.7, y, rng.integers(1, 4, N_ITEMS))
    return y, proba, labels


def _write(table, path):
    path = Path(path)
    if path.suffix == ".parquet":
        table.to_parquet(path)
    elif path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(record) + "\n"
                                for record in table.to_dict(orient="records")))
    else:
        # 17 significant digits: the file holds exactly the floats written.
        table.to_csv(path, sep="\t" if path.suffix == ".tsv" else ",", index=False,
                     float_format="%.17g")
    return path


def _files(tmp_path, suffix, y, proba, labels=None, classes=CLASSES, name="system"):
    """A gold file and a prediction file with proba_ columns (rows shuffled, class
    columns in reverse order: both are matched by name, never by position)."""
    ids = [f"i{k}" for k in range(len(y))]
    gold = _write(pd.DataFrame({"id": ids, "value": y}), tmp_path / "gold.csv")
    table = pd.DataFrame({"id": ids})
    if labels is not None:
        table["value"] = labels
    for k in reversed(range(len(classes))):
        table[f"proba_{classes[k]}"] = proba[:, k]
    order = np.random.default_rng(1).permutation(len(y))
    system = _write(table.iloc[order], tmp_path / f"{name}{suffix}")
    return gold, system


def _estimates(report, system):
    return {measure: report.scores.loc[system, (measure, "estimate")]
            for measure in report.measures}


def _cli(capsys, *argv):
    """(exit code, stdout, stderr) of ``python -m sklearn_ordinal evaluate ARGV``."""
    try:
        code = main(["evaluate", *map(str, argv)])
    except SystemExit as exit_info:
        code = exit_info.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("suffix", [".csv", ".tsv", ".parquet", ".jsonl"])
@pytest.mark.parametrize("with_labels", [True, False])
def test_round_trip_gives_the_measures_of_the_arrays(tmp_path, suffix, with_labels):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    y, proba, labels = _task()
    gold, system = _files(tmp_path, suffix, y, proba, labels if with_labels else None)
    data = read_evaluation_files(gold, [system])
    np.testing.assert_array_equal(data.y_proba["system"].to_numpy(), proba)
    assert data.y_proba["system"].columns.tolist() == CLASSES
    assert list(data.y_pred.columns) == (["system"] if with_labels else [])
    assert data.systems == ["system"]

    code = main(["evaluate", str(gold), str(system), "--format", "json",
                 "--output", str(tmp_path / "report.json"), "--n-resamples", "99",
                 "--seed", "0", "--measures", ",".join(MEASURES)])
    assert code == 0
    content = json.loads((tmp_path / "report.json").read_text())
    scores = {row["measure"]: row["estimate"] for row in content["scores"]
              if row["system"] == "system"}
    assert scores["ranked_probability_score"] == pytest.approx(
        ranked_probability_score_loss(y, proba), rel=1e-12)
    # The ranking measures read the expected class, sum_k k p_k.
    assert scores["vus"] == pytest.approx(vus_score(y, proba @ np.array(CLASSES)), rel=1e-12)
    if with_labels:
        assert scores["mean_absolute_error"] == pytest.approx(mean_absolute_error(y, labels))
        assert content["systems"] == [{"name": "system", "kind": "labels"}]
    else:
        assert scores["mean_absolute_error"] is None
        assert content["systems"] == [{"name": "system", "kind": "probabilities"}]
    assert content["settings"]["probabilities_given"] == ["system"]
    assert "Class probabilities given by system" in content["probabilities_note"]


def test_evaluate_with_y_proba_is_what_the_files_give(tmp_path):
    y, proba, labels = _task(seed=2)
    gold, both = _files(tmp_path, ".csv", y, proba, labels, name="both")
    _, only = _files(tmp_path, ".csv", y, proba, name="only")
    data = read_evaluation_files(gold, [both, only])
    from_files = evaluate(data.y_true, {"both": data.y_pred["both"],
                                        "only": data.y_proba["only"].to_numpy()},
                          y_proba={"both": data.y_proba["both"].to_numpy()},
                          measures=MEASURES, **QUICK)
    direct = evaluate(y, {"both": labels}, y_proba={"both": proba, "only": proba},
                      measures=MEASURES, **QUICK)
    pd.testing.assert_frame_equal(from_files.scores, direct.scores)
    assert direct.systems == {"both": "labels", "only": "probabilities"}
    assert direct.settings["probabilities_given"] == ["both", "only"]
    estimates = _estimates(direct, "both")
    assert estimates["mean_absolute_error"] == pytest.approx(mean_absolute_error(y, labels))
    assert estimates["ranked_probability_score"] == pytest.approx(
        ranked_probability_score_loss(y, proba))
    assert estimates["vus"] == pytest.approx(vus_score(y, proba @ np.arange(3)))
    # A 2-D array in predictions is a system of probabilities alone, as before.
    as_output = evaluate(y, {"only": proba}, measures=MEASURES, **QUICK)
    pd.testing.assert_series_equal(as_output.scores.loc["only"], direct.scores.loc["only"])


def test_a_system_of_probabilities_alone_has_no_class_derived(tmp_path):
    y, proba, _ = _task(seed=3)
    report = evaluate(y, {}, y_proba={"only": proba},
                      measures=["neg_mean_absolute_error", "accuracy",
                                "neg_ranked_probability_score"], **QUICK)
    estimates = _estimates(report, "only")
    # Not the most probable class's accuracy: no value at all, and a note saying why.
    assert np.isnan(estimates["mean_absolute_error"]) and np.isnan(estimates["accuracy"])
    argmax_accuracy = np.mean(proba.argmax(axis=1) + 1 == y)
    assert argmax_accuracy > 0  # the number a silent argmax would have shown
    notes = report.notes.set_index("measure")["reason"]
    assert "gave only class probabilities" in notes["accuracy"]
    assert "no class is derived" in notes["mean_absolute_error"]
    sentence = "only gave only probabilities: the measures of classes are n/a for them"
    for text in (report.to_string(width=1000), report.to_markdown(), report.to_html()):
        assert "Class probabilities given by only" in text
        assert sentence in text
    again = EvaluationReport.from_json(report.to_json())
    assert again.probabilities_note == report.probabilities_note
    assert json.loads(report.to_json())["probabilities_note"] == report.probabilities_note
    # A report of labels alone says nothing of probabilities.
    plain = evaluate(y, {"labels": proba.argmax(axis=1) + 1}, measures=["accuracy"], **QUICK)
    assert plain.probabilities_note == "" and "probabilities" not in plain.to_string()


def test_expected_class_is_the_scorers_and_ranks_like_it():
    _, proba, _ = _task()
    positions = np.array([0.0, 1.0, 2.0])
    np.testing.assert_allclose(_expected_class(proba), proba @ positions)
    # Brute force: sum over k of k p_k.
    brute = [sum(k * p for k, p in enumerate(row)) for row in proba]
    np.testing.assert_allclose(_expected_class(proba), brute)


@pytest.mark.parametrize("excess, ok", [(1e-7, True), (1e-5, False)])
def test_a_row_may_miss_1_by_1e_6(tmp_path, excess, ok):
    y, proba, labels = _task()
    proba = proba.copy()
    proba[5, 2] += excess
    gold, system = _files(tmp_path, ".csv", y, proba, labels)
    if ok:
        data = read_evaluation_files(gold, [system])
        assert data.y_proba["system"].to_numpy()[5].sum() == pytest.approx(1 + excess)
        return
    with pytest.raises(ValueError, match=r"the first, id 'i5': its probabilities sum to "
                       r"1\.00001\d*, not 1\. .*\(within 1e-6\).*divide each row by its sum"):
        read_evaluation_files(gold, [system])


def _cells(proba, labels):
    """A prediction file's table, every cell as the text a CSV file holds."""
    table = pd.DataFrame({"id": [f"i{k}" for k in range(N_ITEMS)], "value": labels})
    for k, label in enumerate(CLASSES):
        table[f"proba_{label}"] = [repr(float(p)) for p in proba[:, k]]
    return table


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t.drop(columns="proba_2"),
         "system.csv: no probability column for the class(es) [2] (proba_2); give exactly "
         "one column per class (proba_1, proba_2, proba_3), a probability of 0 included."),
        (lambda t: t.assign(proba_4="0"),
         "system.csv: the column(s) 'proba_4' name no class of the class order [1, 2, 3]; "
         "give exactly one column per class (proba_1, proba_2, proba_3), or give every "
         "class in labels= (--labels) when the gold file lacks one."),
        (lambda t: t.assign(**{"proba_2.0": t["proba_2"]}),
         "system.csv: more than one proba_ column for the class(es) [2]"),
        (lambda t: t.assign(proba_2=t["proba_2"].where(t.index != 7, "high")),
         "system.csv: 1 row of class probabilities is not valid; the first, id 'i7': "
         "proba_2 holds 'high', not a number."),
        (lambda t: t.assign(proba_3=t["proba_3"].where(t.index != 9, "")),
         "the first, id 'i9': proba_3 is missing (NaN or an empty cell)."),
        (lambda t: t.assign(proba_3=t["proba_3"].where(t.index != 9, "nan")),
         "the first, id 'i9': proba_3 is missing (NaN or an empty cell)."),
        (lambda t: t.assign(proba_1=t["proba_1"].where(t.index != 4, "inf")),
         "the first, id 'i4': proba_1 is inf."),
        (lambda t: t.assign(proba_1=t["proba_1"].where(t.index != 4, "-0.5"),
                            proba_2=t["proba_2"].where(t.index != 4, "1.5"),
                            proba_3=t["proba_3"].where(t.index != 4, "0")),
         "the first, id 'i4': proba_1 is negative (-0.5)."),
        # Two bad rows: the message counts them and names the first in the file.
        (lambda t: t.assign(proba_1=t["proba_1"].where(~t.index.isin([3, 11]), "0.9")),
         "2 rows of class probabilities are not valid; the first, id 'i3': its "
         "probabilities sum to"),
    ],
)
def test_bad_probability_columns_are_refused(tmp_path, capsys, change, message):
    y, proba, labels = _task()
    gold = _write(pd.DataFrame({"id": [f"i{k}" for k in range(N_ITEMS)], "value": y}),
                  tmp_path / "gold.csv")
    system = tmp_path / "system.csv"
    change(_cells(proba, labels)).to_csv(system, index=False)
    with pytest.raises(ValueError) as error:
        read_evaluation_files(gold, [system])
    assert "\n" not in str(error.value)
    assert message in str(error.value)
    assert str(system) in str(error.value)
    code, out, err = _cli(capsys, gold, system)
    assert (code, out) == (2, "")
    assert err.startswith("python -m sklearn_ordinal evaluate: error: ")
    assert err.count("\n") == 1 and message in err


TEXT_CLASSES = ["very_low", "low", "high"]


def test_text_classes_need_and_follow_labels(tmp_path, capsys):
    y, proba, labels = _task(seed=4)
    names = np.array(TEXT_CLASSES, dtype=object)
    gold, system = _files(tmp_path, ".tsv", names[y - 1], proba, names[labels - 1],
                          classes=TEXT_CLASSES)
    # Without the order, the columns cannot be put in class order: refused, not sorted.
    code, out, err = _cli(capsys, gold, system, "--measures", "accuracy")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "system.tsv gives class probabilities (proba_ columns), which need the order" in err
    assert "--labels" in err
    code, out, err = _cli(capsys, gold, system, "--labels", ",".join(TEXT_CLASSES),
                          "--format", "json", "--n-resamples", "99", "--seed", "0",
                          "--measures", ",".join(MEASURES))
    assert code == 0, err
    content = json.loads(out)
    scores = {row["measure"]: row["estimate"] for row in content["scores"]
              if row["system"] == "system"}
    assert scores["ranked_probability_score"] == pytest.approx(
        ranked_probability_score_loss(y, proba))
    assert scores["vus"] == pytest.approx(vus_score(y, proba @ np.arange(3)))
    data = read_evaluation_files(gold, [system], labels=TEXT_CLASSES)
    assert data.y_proba["system"].columns.tolist() == TEXT_CLASSES
    # A class of --labels that the gold file lacks still needs its column.
    code, out, err = _cli(capsys, gold, system, "--labels", "very_low,low,mid,high")
    assert code == 2 and "no probability column for the class(es) ['mid'] (proba_mid)" in err


def test_labels_name_a_class_the_gold_file_lacks(tmp_path):
    y, proba, labels = _task(seed=5)
    wide = np.column_stack([proba, np.zeros(N_ITEMS)])
    gold, system = _files(tmp_path, ".csv", y, wide, labels, classes=[1, 2, 3, 4])
    with pytest.raises(ValueError, match="'proba_4' name no class of the class order"):
        read_evaluation_files(gold, [system])
    data = read_evaluation_files(gold, [system], labels=["1", "2", "3", "4"])
    assert data.y_proba["system"].columns.tolist() == [1, 2, 3, 4]
    report = evaluate(data.y_true, data.y_pred, labels=[1, 2, 3, 4],
                      y_proba={"system": data.y_proba["system"].to_numpy()},
                      measures=["neg_ranked_probability_score"], **QUICK)
    assert _estimates(report, "system")["ranked_probability_score"] == pytest.approx(
        ranked_probability_score_loss(y, wide, labels=[1, 2, 3, 4]))


def test_pyevall_columns_with_probabilities_and_groups(tmp_path):
    y, proba, labels = _task(seed=6)
    cases = np.repeat(["t1", "t2"], N_ITEMS // 2)
    ids = [str(k % (N_ITEMS // 2)) for k in range(N_ITEMS)]  # unique within a test case
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"test_case": c, "id": i, "value": int(v)}
                                for c, i, v in zip(cases, ids, y)]))
    system = tmp_path / "system.json"
    system.write_text(json.dumps([
        {"test_case": c, "id": i, "value": int(v),
         **{f"proba_{label}": float(p[k]) for k, label in enumerate(CLASSES)}}
        for c, i, v, p in zip(cases, ids, labels, proba)][::-1]))
    data = read_evaluation_files(gold, [system])
    np.testing.assert_array_equal(data.y_proba["system"].to_numpy(), proba)
    report = evaluate(data.y_true, data.y_pred, groups=data.groups,
                      y_proba={"system": data.y_proba["system"].to_numpy()},
                      measures=MEASURES, **QUICK)
    first = cases == "t1"
    assert report.per_group.loc[("system", "t1"), "ranked_probability_score"] == \
        pytest.approx(ranked_probability_score_loss(y[first], proba[first]))


def test_missing_wrong_gives_all_the_probability_to_the_farthest_class(tmp_path):
    y, proba, _ = _task(seed=7)
    gold, system = _files(tmp_path, ".csv", y, proba)
    table = pd.read_csv(system)
    table[table["id"] != "i0"].to_csv(system, index=False)  # i0 is of class 1
    data = read_evaluation_files(gold, [system], missing="wrong")
    filled = data.y_proba["system"].loc["i0"].tolist()
    assert filled == [0.0, 0.0, 1.0]
    assert data.filled["class_given"].tolist() == [3]


def test_evaluate_refuses_bad_probabilities_naming_the_system():
    y, proba, labels = _task()
    bad = proba.copy()
    bad[2] *= 1.1
    with pytest.raises(ValueError, match=r"System 'a' gives class probabilities: Each row "
                       r"of y_proba must sum to 1 \(within 1e-06\); row 2"):
        evaluate(y, {"a": labels}, y_proba={"a": bad}, **QUICK)
    with pytest.raises(ValueError, match=r"System 'a' gives class probabilities with 2 "
                       r"columns, but there are 3 classes"):
        evaluate(y, {"a": labels}, y_proba={"a": proba[:, :2] / proba[:, :2].sum(1)[:, None]})
    with pytest.raises(ValueError, match=r"System 'a' gives 39 predictions for 40"):
        evaluate(y, {"a": labels}, y_proba={"a": proba[1:]})
    with pytest.raises(ValueError, match=r"y_proba\['a'\] has shape \(40,\)"):
        evaluate(y, {"a": labels}, y_proba={"a": proba[:, 0]})
    with pytest.raises(ValueError, match="predictions holds no system"):
        evaluate(y, {}, y_proba={})


def test_help_explains_the_probability_columns(capsys):
    with pytest.raises(SystemExit):
        main(["evaluate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert re.search(r"one column per class named proba_<class> \(proba_3 for the class 3, "
                     r"proba_very_low for very_low\)", text)
    assert "within 1e-6" in text and "no class is derived from the probabilities" in text


def test_the_user_guides_example_error_is_the_commands(tmp_path, capsys):
    guide = Path(__file__).resolve().parents[1] / "docs" / "user_guide" / "evaluating_files.rst"
    prose = " ".join(guide.read_text(encoding="utf-8").split())
    (tmp_path / "gold.csv").write_text("id,value\na,low\nb,mid\nc,high\nd,mid\n")
    (tmp_path / "model.csv").write_text(
        "id,value,proba_low,proba_mid,proba_high\n"
        "a,low,0.7,0.2,0.1\nb,mid,0.1,0.8,0.1\nc,mid,0.1,0.6,0.4\nd,high,0.2,0.3,0.5\n")
    code, _, err = _cli(capsys, tmp_path / "gold.csv", tmp_path / "model.csv",
                        "--labels", "low,mid,high")
    assert code == 2
    assert err.replace(f"{tmp_path}/", "").strip() in prose
