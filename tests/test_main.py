"""``python -m sklearn_ordinal``: the demo runs, prints its tables and explains itself;
``evaluate`` scores files, and bad input exits with code 2 and one line."""

import contextlib
import io
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sklearn_ordinal.__main__ import TRIPADVISOR_SHARES, diabetes_grades, main
from sklearn_ordinal.evaluation import evaluate, read_evaluation_files
from sklearn_ordinal.metrics import (
    cem_score,
    get_scorer_names,
    macro_mean_absolute_error,
    make_ordinal_scorer,
    mean_absolute_error,
    mean_zero_one_error,
)
from sklearn_ordinal.metrics._scorer import _SCORERS


def _run(argv):
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        assert main(argv) == 0
    return output.getvalue()


@pytest.fixture(scope="module")
def demo_output():
    return _run([])  # what the README's first command runs


def _rows(output, measure):
    """The comparison rows of one measure: (model, trivial, trivial class, mean
    difference, skill)."""
    pattern = (rf"^  {measure} +(-?\d+\.\d+) +(-?\d+\.\d+) +(\S+) +([+-]\d+\.\d{{3}})"
               r" +([+-]\d+\.\d{3})$")
    return [
        (float(model), float(trivial), classes, float(difference), float(skill))
        for model, trivial, classes, difference, skill in re.findall(pattern, output, re.M)
    ]


def test_task_has_tripadvisor_class_sizes():
    X, y = diabetes_grades()
    assert X.shape == (442, 10)
    counts = np.bincount(y, minlength=6)[1:]
    assert counts.tolist() == [17, 31, 43, 151, 200]
    np.testing.assert_allclose(counts / counts.sum(), TRIPADVISOR_SHARES, atol=0.01)


def test_demo_prints_selection_and_comparison_tables(demo_output):
    assert "Each measure selects" in demo_output
    assert re.search(r"^  neg_macro_mean_absolute_error +-\d\.\d{3}  C=", demo_output, re.M)
    assert "cem_ord" in demo_output or "cem_ord" not in get_scorer_names()
    # One comparison table per distinct selected model, one row per measure.
    n_models = demo_output.count("cross-validated against the trivial classifier")
    assert n_models >= 1
    micro = _rows(demo_output, "neg_mean_absolute_error")
    macro = _rows(demo_output, "neg_macro_mean_absolute_error")
    assert len(micro) == len(macro) == n_models
    # The trivial baseline on the demo's data: the trivial class for MAE^M is the middle grade with
    # MAE^M 1.2; for MAE^mu it is grade 4, as on TripAdvisor-15763.
    assert all(row[1:3] == (-1.2, "3") for row in macro)
    assert all(row[2] == "4" for row in micro)
    for model, trivial, _, difference, skill in micro + macro:
        assert difference == pytest.approx(model - trivial, abs=2e-3)
        # Errors are perfect at 0: the skill is the relative error reduction.
        assert skill == pytest.approx((model - trivial) / abs(trivial), abs=2e-3)
    assert "improvement" not in demo_output
    assert "Finished in" in demo_output


def test_demo_shows_what_the_readme_says(demo_output):
    # README and user guide: the micro MAE selects a model that loses to the trivial
    # classifier under the macro MAE, and rates the model the macro MAE selects as
    # worse than predicting grade 4 for everyone.
    sections = demo_output.split("\nModel ")[1:]
    by_selector = {}
    for section in sections:
        selector = re.search(r"selected by ([^)]*)\)", section).group(1)
        for name in selector.split(", "):
            by_selector[name] = section
    micro, macro = "neg_mean_absolute_error", "neg_macro_mean_absolute_error"
    assert by_selector[micro] != by_selector[macro]
    assert _rows(by_selector[micro], macro)[0][3] < 0 < _rows(by_selector[micro], micro)[0][3]
    assert _rows(by_selector[macro], micro)[0][3] < 0 < _rows(by_selector[macro], macro)[0][3]


def test_demo_picks_up_new_measures_from_the_registry(monkeypatch):
    # cem_ord is the third measure as soon as the registry holds it.
    fake = make_ordinal_scorer(mean_zero_one_error, greater_is_better=False)
    monkeypatch.setitem(_SCORERS, "cem_ord", fake)
    output = _run(["--cv", "2"])
    assert re.search(r"^\[3/3\] GridSearchCV under cem_ord", output, re.M)
    assert len(_rows(output, "cem_ord")) >= 1


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--cv", "1"], "needs 2 to 17 folds"),
        (["--cv", "1000"], "the smallest grade has 17 patients"),
        (["--cv", "five"], "not a whole number"),
        (["--n-jobs", "0"], "positive number of jobs, or -1"),
        (["--n-jobs", "-3"], "positive number of jobs, or -1"),
    ],
)
def test_bad_option_is_a_usage_error(capsys, argv, message):
    # argparse's exit 2 with a one-line message, never a traceback from deep inside.
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_help_from_the_command_line():
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_ordinal", "--help"],
        capture_output=True, text=True, check=True, timeout=120,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert result.stdout.startswith("usage: python -m sklearn_ordinal")
    assert "trivial classifier" in result.stdout
    assert "TripAdvisor-15763" in result.stdout
    assert "{demo,evaluate,compare,quantification,agreement}" in result.stdout


def test_commands_import_no_part_of_the_demo_or_of_an_extra():
    # evaluate and the other commands pay for the package's import and nothing more
    # (#45): the demo's scikit-learn parts (its data set, estimators and search),
    # matplotlib (--plot) and Dask are imported by the one command or option that
    # needs them. Compared with what the package's evaluate imports, so that it holds
    # whatever the libraries' versions import themselves.
    code = (
        "import sys\n"
        "from sklearn_ordinal import evaluate\n"
        "before = set(sys.modules)\n"
        "from sklearn_ordinal.__main__ import main\n"
        "libraries = ('sklearn', 'scipy', 'numpy', 'pandas', 'pyarrow', 'matplotlib',\n"
        "             'dask', 'threadpoolctl', 'joblib')\n"
        "print(sorted(name for name in set(sys.modules) - before\n"
        "             if name.split('.')[0] in libraries))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, timeout=120, cwd=Path(__file__).resolve().parents[1])
    assert result.stdout.strip() == "[]"


def test_bad_file_from_the_command_line(tmp_path):
    # The exit code and the one line on stderr, as a shell script sees them.
    (tmp_path / "late.tsv").write_text("test_case\tid\tvalue\nfold1\t0\tvery_high\n")
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_ordinal", "evaluate", EXAMPLE[0],
         str(tmp_path / "late.tsv")],
        capture_output=True, text=True, timeout=120,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("python -m sklearn_ordinal evaluate: error: The files "
                                    "do not have the same items: ")
    assert "late.tsv lacks 441 ids of the gold file" in result.stderr
    assert result.stderr.count("\n") == 1


# --- python -m sklearn_ordinal evaluate ------------------------------------------------

DATA = Path(__file__).resolve().parents[1] / "sklearn_ordinal" / "evaluation" / "data"
EXAMPLE = [str(DATA / name) for name in ("gold.tsv", "logistic.tsv", "ridge.tsv")]
# The shipped grades are words: their order is given, as the docs show.
GRADES = ["--labels", "very_low,low,moderate,high,very_high"]
EXAMPLE += GRADES


def _evaluate(capsys, *argv):
    """(exit code, stdout, stderr) of ``python -m sklearn_ordinal evaluate ARGV``."""
    try:
        code = main(["evaluate", *map(str, argv)])
    except SystemExit as exit_info:  # argparse's usage errors
        code = exit_info.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_help_lists_both_commands(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    output = capsys.readouterr().out
    assert "{demo,evaluate,compare,quantification,agreement}" in output
    assert re.search(r"^    demo +run the demo", output, re.M)
    assert re.search(r"^    quantification +score ordinal quantification files", output, re.M)
    assert re.search(r"^    evaluate +score prediction files against a gold file", output, re.M)
    assert re.search(r"^    compare +compare systems across data sets", output, re.M)
    assert re.search(r"^    agreement +how far annotators agree", output, re.M)
    assert "Without a command, the demo runs." in output


def test_demo_options_before_or_after_the_command():
    from sklearn_ordinal.__main__ import _parse

    assert (_parse([]).command, _parse([]).cv) == ("demo", 5)
    assert vars(_parse(["--cv", "3"])) == {"command": "demo", "cv": 3, "n_jobs": None}
    assert vars(_parse(["demo", "--cv", "3"])) == vars(_parse(["--cv", "3"]))
    # The subcommand's defaults never overwrite the options given before it.
    assert vars(_parse(["--cv", "3", "--n-jobs", "2", "demo"])) == {
        "command": "demo", "cv": 3, "n_jobs": 2}


def _gold_and_system(tmp_path, system_ids):
    gold = tmp_path / "gold.csv"
    gold.write_text("id,value\n" + "".join(f"{k},{k % 3 + 1}\n" for k in range(12)))
    system = tmp_path / "system.csv"
    system.write_text("id,value\n" + "".join(f"{k},2\n" for k in system_ids))
    return gold, system


@pytest.mark.parametrize(
    "system_ids, message",
    [
        (range(1, 12), "system.csv lacks 1 id of the gold file"),
        ([*range(12), 12, 13], "system.csv has 2 ids that the gold file"),
        ([*range(12), 4], "system.csv has 1 duplicated id: '4'"),
        (range(10, 30), "lacks 10 ids of the gold file {gold}: '0', '1', '2', '3', '4' "
         "and 5 more"),
    ],
)
def test_unmatched_ids_exit_2_with_one_line(tmp_path, capsys, system_ids, message):
    gold, system = _gold_and_system(tmp_path, system_ids)
    code, out, err = _evaluate(capsys, gold, system)
    assert code == 2 and out == ""
    assert err.startswith("python -m sklearn_ordinal evaluate: error: ")
    assert err.count("\n") == 1
    assert message.format(gold=gold) in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["{tmp}/nowhere.csv", "{system}"], "nowhere.csv: no such file."),
        (["{gold}", "{tmp}/system.xlsx"], "unknown file type '.xlsx'"),
        (["{gold}", "{system}", "--id-column", "item"],
         "gold.csv: no id column 'item'; the file has the columns 'id', 'value'. Name the "
         "column with id_column (--id-column on the command line)."),
        (["{gold}", "{system}", "--labels", "low,mid,high"],
         "--labels: the gold labels are numbers, so the classes must be numbers too; "
         "got 'low'."),
        (["{gold}", "{system}", "--group-column", "fold"], "gold.csv: no group column 'fold'"),
        (["{gold}", "{system}", "--measures", "nonsense"],
         "'nonsense' is not a measure of sklearn_ordinal"),
    ],
)
def test_bad_files_exit_2_with_one_line(tmp_path, capsys, argv, message):
    gold, system = _gold_and_system(tmp_path, range(12))
    (tmp_path / "system.xlsx").write_text("")
    argv = [arg.format(tmp=tmp_path, gold=gold, system=system) for arg in argv]
    code, out, err = _evaluate(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err


@pytest.mark.parametrize(
    "option, message",
    [
        (["--confidence-level", "95"], "needs a number between 0 and 1; got '95'"),
        (["--n-resamples", "0"], "needs a positive whole number; got 0"),
        (["--seed", "x"], "not a whole number: 'x'"),
        (["--labels", "low,,high"], "an empty name in 'low,,high'"),
        (["--format", "pdf"], "invalid choice: 'pdf'"),
        (["--group-column", "g", "--no-groups"], "not allowed with argument"),
    ],
)
def test_bad_options_are_usage_errors(capsys, option, message):
    code, out, err = _evaluate(capsys, *EXAMPLE, *option)
    assert (code, out) == (2, "")
    assert message in err and "Traceback" not in err


def test_evaluate_needs_a_prediction_file(capsys):
    code, _, err = _evaluate(capsys, EXAMPLE[0])
    assert code == 2 and "the following arguments are required: PRED" in err


# Few resamples: these tests check what the command passes on, not the intervals.
QUICK = ["--n-resamples", "99", "--seed", "0"]


def _report(capsys, *argv):
    code, out, err = _evaluate(capsys, *argv, "--format", "json", *QUICK)
    assert code == 0, err
    return json.loads(out), err


def _estimates(content):
    return {(row["system"], row["measure"]): row["estimate"] for row in content["scores"]}


def test_round_trip_gives_the_measures_numbers(capsys):
    # Files -> command -> JSON: the measures' own values on the files, read here
    # without the package's reader and matched on the id.
    content, _ = _report(capsys, *EXAMPLE, "--measures",
                         "neg_macro_mean_absolute_error,neg_mean_absolute_error,cem_ord")
    grades = GRADES[1].split(",")

    def grade_numbers(path):  # the words as the numbers 1..5, in the given order
        table = pd.read_csv(path, sep="\t").set_index("id")
        return table.assign(value=table["value"].map({g: k + 1 for k, g in enumerate(grades)}))

    gold = grade_numbers(EXAMPLE[0])
    estimates = _estimates(content)
    for path in EXAMPLE[1:3]:
        system = grade_numbers(path).loc[gold.index]
        name = Path(path).stem
        assert estimates[name, "macro_mean_absolute_error"] == pytest.approx(
            macro_mean_absolute_error(gold["value"], system["value"]), rel=1e-12)
        assert estimates[name, "mean_absolute_error"] == pytest.approx(
            mean_absolute_error(gold["value"], system["value"], average="micro"), rel=1e-12)
        assert estimates[name, "cem_ord"] == pytest.approx(
            cem_score(gold["value"], system["value"]), rel=1e-12)
    assert content["classes"] == grades
    assert [system["name"] for system in content["systems"]] == ["logistic", "ridge"]
    assert content["settings"]["n_resamples"] == 99
    assert content["settings"]["random_state"] == 0
    # The folds are the test cases: every measure per fold, and resampled by fold.
    assert {row["group"] for row in content["per_group"]} == {f"fold{k}" for k in range(1, 6)}


def _text_task(tmp_path, n_missing=0):
    """Gold and two systems with text labels, a group column named "fold"."""
    rng = np.random.default_rng(0)
    classes = np.array(["low", "mid", "high"])
    gold = pd.DataFrame({"item": [f"x{k}" for k in range(60)], "fold": ["a", "b", "c"] * 20,
                         "grade": classes[rng.integers(0, 3, 60)]})
    paths = [tmp_path / "gold.csv"]
    gold.to_csv(paths[0], index=False)
    for name in ("first", "second"):
        system = gold.assign(grade=classes[rng.integers(0, 3, 60)]).iloc[n_missing:]
        paths.append(tmp_path / f"{name}.jsonl")
        system.to_json(paths[-1], orient="records", lines=True)
    return gold, paths


def test_command_is_evaluate_on_the_read_files(tmp_path, capsys):
    # Every option reaches read_evaluation_files and evaluate: the same report.
    _, paths = _text_task(tmp_path)
    content, _ = _report(capsys, *paths, "--id-column", "item", "--label-column", "grade",
                         "--group-column", "fold", "--labels", "low,mid,high",
                         "--confidence-level", "0.9", "--measures", "cem_ord,accuracy")
    data = read_evaluation_files(paths[0], paths[1:], id_column="item", label_column="grade",
                                 group_column="fold")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # too few resamples, as the command said too
        expected = evaluate(data.y_true, data.y_pred, measures=["cem_ord", "accuracy"],
                            labels=["low", "mid", "high"], groups=data.groups,
                            confidence_level=0.9, n_resamples=99, random_state=0)
    expected.input_note = data.note  # the command puts the files' note in the header
    assert content == json.loads(expected.to_json())
    assert content["classes"] == ["low", "mid", "high"]
    assert content["settings"]["confidence_level"] == 0.9


def test_text_labels_need_their_order(tmp_path, capsys):
    _, paths = _text_task(tmp_path)
    argv = [*paths, "--id-column", "item", "--label-column", "grade"]
    code, out, err = _evaluate(capsys, *argv, *QUICK)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "whose order cannot be guessed" in err and "--labels LOW,...,HIGH" in err
    assert "labels=[" not in err
    # Order-free measures take text labels as a mere set.
    content, _ = _report(capsys, *argv, "--measures", "accuracy")
    assert _estimates(content).keys() == {("first", "accuracy"), ("second", "accuracy"),
                                          ("(trivial)", "accuracy")}
    code, out, err = _evaluate(capsys, *argv, "--labels", "low,high", *QUICK)
    assert code == 2 and "mid" in err and err.count("\n") == 1


def test_allow_missing_says_how_many_were_left_out(tmp_path, capsys):
    gold, paths = _text_task(tmp_path, n_missing=4)
    with open(paths[2], "a") as second:
        second.write('{"item": "new", "fold": "a", "grade": "low"}\n')
    argv = [*paths, "--id-column", "item", "--label-column", "grade", "--group-column",
            "fold", "--labels", "low,mid,high", "--measures", "accuracy"]
    code, _, err = _evaluate(capsys, *argv, *QUICK)
    assert code == 2 and "first.jsonl lacks 4 ids" in err and "second.jsonl lacks 4" in err
    assert "second.jsonl has 1 id that the gold file" in err and "'new' (group 'a')" in err
    content, err = _report(capsys, *argv, "--allow-missing")
    # The 4 items that both systems lack are 4 items left out, not 8.
    note = ("Missing predictions: dropped (--missing drop): 56 of the 60 gold items are in "
            "every file and scored; 4 were left out; 1 item(s) of prediction files that the "
            "gold file lacks were left out.")
    assert err.startswith(note + "\n") and content["input_note"] == note
    first = pd.read_json(paths[1], lines=True)
    assert _estimates(content)["first", "accuracy"] == pytest.approx(
        np.mean(first["grade"].to_numpy() == gold["grade"].iloc[4:].to_numpy()))


@pytest.mark.parametrize(
    "argv, output, start",
    [
        (["--format", "markdown"], None, "# Evaluation report"),
        (["--format", "csv"], None, "system,kind,measure,estimate,low,high"),
        ([], None, "Missing predictions: none allowed (every prediction file has every gold "
         "item).\n\nScores with 95% BCa bootstrap intervals (99 resamples, seed 0); classes"),
        ([], "report.md", "# Evaluation report"),
        ([], "report.json", '{\n  "format": "sklearn_ordinal.evaluation"'),
        (["--format", "text"], "report.json", "Missing predictions: none allowed"),
        ([], "report.html", "<!DOCTYPE html>"),
    ],
)
def test_output_formats(tmp_path, capsys, argv, output, start):
    if output:
        argv = [*argv, "--output", str(tmp_path / output)]
    code, out, err = _evaluate(capsys, *EXAMPLE, "--measures", "cem_ord", *QUICK, *argv)
    assert code == 0 and "error" not in err
    text = (tmp_path / output).read_text() if output else out
    assert text.startswith(start) and text.endswith("\n")
    assert out == "" if output else True


def test_text_report_shows_scores_comparisons_and_groups(capsys):
    code, out, _ = _evaluate(capsys, *EXAMPLE, *QUICK)
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80
    assert re.search(r"^ +logistic +ridge +\\$", out, re.M)
    assert re.search(r"^macro_mean_absolute_error \(lower\) +1\.031 \[\d\.\d{3}, \d\.\d{3}\] +"
                     r"1\.075 \[\d\.\d{3}, \d\.\d{3}\] +$", out, re.M)
    assert re.search(r"^macro_mean_absolute_error \(lower\) +1\.200 \[1\.200, 1\.200\]", out,
                     re.M)
    comparisons = out.split("\nmean_absolute_error (lower):\n", 1)[1]
    assert re.search(r"^logistic +ridge +0\.339 \[", comparisons, re.M)
    assert "Pooled over the items (the scores above, the report's headline) / mean over" in out


def test_plot_and_progress(tmp_path, capsys):
    code, out, err = _evaluate(capsys, *EXAMPLE, "--measures", "cem_ord,accuracy", *QUICK,
                               "--plot", tmp_path / "report.png", "--verbose")
    assert code == 0 and "\nScores with" in out
    assert (tmp_path / "report.png").read_bytes().startswith(b"\x89PNG")
    assert re.findall(r"^\[ *\d+\.\d s\] (\w+)", err, re.M) == ["reading", "scoring", "wrote",
                                                                 "done"]


@pytest.mark.parametrize("option", ["--output", "--plot"])
def test_unwritable_output_exits_2_before_the_work(tmp_path, capsys, monkeypatch, option):
    monkeypatch.setattr("sklearn_ordinal.__main__.read_evaluation_files", None)
    code, _, err = _evaluate(capsys, *EXAMPLE, option, tmp_path / "no" / "report.md")
    assert code == 2 and err.count("\n") == 1
    assert f"error: {option} {tmp_path}/no/report.md: the folder {tmp_path}/no does not " in err


def test_warnings_are_one_line_each(capsys, monkeypatch):
    def warning_twice(*args, **kwargs):
        for _ in range(2):
            warnings.warn("A class has\nno gold item.", UserWarning)
        return evaluate(*args, **kwargs)

    monkeypatch.setattr("sklearn_ordinal.__main__.evaluate", warning_twice)
    # 49 resamples: too few for the ends of a BCa interval, which the package says.
    code, out, err = _evaluate(capsys, *EXAMPLE, "--measures", "cem_ord", "--n-resamples",
                               "49", "--seed", "0")
    assert code == 0 and "\nScores with" in out
    lines = err.splitlines()
    assert all(line.startswith("python -m sklearn_ordinal evaluate: warning: ")
               for line in lines)
    # The resampling's warnings: one summary line per measure.
    summary = [line for line in lines if "BCa-adjusted tail levels" in line]
    assert len(summary) == 1 and "cem_ord: " in summary[0] and "--verbose" in summary[0]
    assert lines.count("python -m sklearn_ordinal evaluate: warning: A class has no gold "
                       "item. (said 2 times)") == 1


def test_numeric_labels_option(tmp_path, capsys):
    # --labels on number labels are numbers: the same report as the numbers' own order.
    grades = {grade: k + 1 for k, grade in enumerate(GRADES[1].split(","))}
    paths = []
    for path in EXAMPLE[:3]:
        table = pd.read_csv(path, sep="\t")
        paths.append(tmp_path / Path(path).name)
        table.assign(value=table["value"].map(grades)).to_csv(paths[-1], sep="\t", index=False)
    argv = [*paths, "--measures", "neg_macro_mean_absolute_error"]
    with_labels, _ = _report(capsys, *argv, "--labels", "1,2,3,4,5")
    without, _ = _report(capsys, *argv)
    assert with_labels["scores"] == without["scores"]
    assert with_labels["classes"] == [1, 2, 3, 4, 5]


@pytest.mark.slow
def test_user_guide_shows_the_commands_output(capsys):
    # The user guide's output of the shipped example is the command's, to the digit.
    page = (Path(__file__).resolve().parents[1] / "docs" / "user_guide"
            / "evaluating_files.rst").read_text()
    command = ("    $ python -m sklearn_ordinal evaluate gold.tsv logistic.tsv ridge.tsv "
               "--seed 0 \\\n          --labels very_low,low,moderate,high,very_high\n")
    shown = page.split(command, 1)[1].split("\n\n(The text fits 80 columns", 1)[0]
    code, out, err = _evaluate(capsys, *EXAMPLE, "--seed", "0")
    assert (code, err) == (0, "")
    assert shown.splitlines() == [("    " + line).rstrip() for line in out.splitlines()]
