"""Issue #28, items 7 and 8 on the command line: --labels holds any class name, the
messages name the options (not Python arguments), and a file read as scores is said."""

import json

import pytest

from sklearn_ordinal.__main__ import main

from _cli_runs import run_main as _run


def _write(path, values):
    path.write_text("id,value\n" + "".join(
        f'{i},"{value}"\n' for i, value in enumerate(values)), encoding="utf-8")
    return path


@pytest.fixture
def comma_classes(tmp_path):
    gold = _write(tmp_path / "gold.csv", ["low, really", "mid", "high", "mid", "high"])
    pred = _write(tmp_path / "pred.csv", ["low, really", "high", "high", "mid", "mid"])
    return gold, pred


def _estimate(path, measure):
    rows = json.loads(path.read_text())["scores"]
    return {row["system"]: row["estimate"] for row in rows if row["measure"] == measure}


@pytest.mark.parametrize("how", ["json", "file", "json file"])
def test_labels_with_a_comma_from_a_json_list_or_a_file(tmp_path, comma_classes, how):
    gold, pred = comma_classes
    classes = ["low, really", "mid", "high"]
    if how == "json":
        option = json.dumps(classes)
    else:
        listing = tmp_path / "classes.txt"
        listing.write_text(json.dumps(classes) if how == "json file" else
                           "\n".join(classes) + "\n", encoding="utf-8")
        option = f"@{listing}"
    out = tmp_path / "report.json"
    code = main(["evaluate", str(gold), str(pred), "--labels", option, "--measures",
                 "mean_absolute_error", "--n-resamples", "99", "--seed", "0",
                 "--output", str(out)])
    assert code == 0
    # Errors of 0, 1, 0, 0, 1 class steps over five items.
    assert _estimate(out, "mean_absolute_error")["pred"] == pytest.approx(2 / 5)


def test_a_bad_json_list_of_labels_is_named(comma_classes, capsys):
    gold, pred = comma_classes
    with pytest.raises(SystemExit):
        main(["evaluate", str(gold), str(pred), "--labels", '["low", "mid"'])
    assert "--labels: not a JSON list" in capsys.readouterr().err


def test_text_labels_without_an_order_get_the_options_advice(comma_classes, capsys):
    gold, pred = comma_classes
    code = main(["evaluate", str(gold), str(pred), "--n-resamples", "99"])
    err = capsys.readouterr().err
    assert code == 2
    assert "--labels LOW,...,HIGH" in err and "--measures" in err
    assert "labels=[" not in err and "pd.Categorical" not in err


def test_order_free_measures_need_no_order_for_text_labels(tmp_path, comma_classes):
    gold, pred = comma_classes
    out = tmp_path / "report.json"
    code = main(["evaluate", str(gold), str(pred), "--measures", "accuracy,macro_f1",
                 "--n-resamples", "99", "--seed", "0", "--output", str(out)])
    assert code == 0
    assert _estimate(out, "accuracy")["pred"] == pytest.approx(3 / 5)


def test_unordered_numeric_labels_get_no_class_values_advice(tmp_path, capsys):
    gold = _write(tmp_path / "gold.csv", [1, 3, 2, 2])
    pred = _write(tmp_path / "pred.csv", [1, 3, 3, 2])
    code = main(["evaluate", str(gold), str(pred), "--labels", "3,2,1", "--n-resamples", "99"])
    err = capsys.readouterr().err
    assert code == 2
    assert "class_values" not in err
    assert "increasing order with --labels" in err


def test_a_file_read_as_scores_is_said_with_a_value_that_is_no_class(tmp_path, capsys):
    gold = _write(tmp_path / "gold.csv", [1, 1.5, 2, 2.5, 1.5, 2])
    halves = _write(tmp_path / "halves.csv", [1, 1.5, 2, 2, 1.5, 2.5])
    regressor = _write(tmp_path / "regressor.csv", [1, 1.25, 2, 2, 1.5, 2.5])
    out = tmp_path / "report.json"
    code = main(["evaluate", str(gold), str(halves), str(regressor), "--n-resamples", "99",
                 "--seed", "0", "--output", str(out)])
    err = capsys.readouterr().err
    assert code == 0
    assert "regressor: read as real-valued scores" in err
    assert "(e.g. 1.25)" in err and "1.0, 1.5, 2.0, 2.5" in err
    # Half-steps of the gold file are classes: that file is read as classes, unsaid.
    assert "halves: read as" not in err
    kinds = {row["system"]: row["kind"] for row in json.loads(out.read_text())["scores"]}
    assert kinds["halves"] == "labels" and kinds["regressor"] == "scores"


@pytest.mark.parametrize("how", ["commas", "json", "file"])
def test_every_command_reads_labels_alike(tmp_path, capsys, how):
    # One parser of --labels for evaluate, agreement and quantification: commas, a
    # JSON list (names with commas) or @FILE, and the same refusal of an empty name.
    if how == "commas":
        option = "-1,0,1"
    elif how == "json":
        option = '["-1", "0", "1"]'
    else:
        (tmp_path / "classes.txt").write_text("-1\n0\n1\n", encoding="utf-8")
        option = f"@{tmp_path / 'classes.txt'}"
    ratings = tmp_path / "ratings.csv"
    ratings.write_text("a,b\n-1,-1\n0,1\n1,1\n0,0\n1,0\n-1,0\n")
    lines = [f"{i}\ttopic {i % 3}\t{[-1, 0, 1][i % 3 - (i % 2)]}" for i in range(12)]
    (tmp_path / "gold.tsv").write_text("\n".join(lines) + "\n")
    (tmp_path / "team.txt").write_text("".join(f"topic {t}\t.2\t.3\t.5\n" for t in range(3)))
    runs = {
        "agreement": ["agreement", ratings, "--level", "ordinal", "--n-resamples", "99"],
        "quantification": ["quantification", tmp_path / "gold.tsv", tmp_path / "team.txt",
                           "--n-resamples", "99", "--measures", "emd"],
    }
    for command, argv in runs.items():
        code, out, err = _run(capsys, *argv, "--labels", option, "--seed", "0")
        assert code == 0, (command, err)
        # The same numbers as the plain comma list.
        _, plain, _ = _run(capsys, *argv, "--labels", "-1,0,1", "--seed", "0")
        assert out == plain, command
        code, _, err = _run(capsys, *argv, "--labels", "-1,,1")
        assert code == 2 and "an empty name in '-1,,1'" in err, (command, err)
        code, _, err = _run(capsys, *argv, "--labels", '["-1", "0"')
        assert code == 2 and "--labels: not a JSON list" in err, (command, err)
