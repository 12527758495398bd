"""Issue #46, "Trust, fifth pass": each wrong number or false refusal at the doors
of the quantification and agreement measures, tested at the Python door and at the
command line; the one file reader run through every command that reads that kind
of file; the three tests that the deliberate faults showed missing."""

import re
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from sklearn_ordinal.metrics import match_distance

from _cli_runs import run_main as _run

LABELS = ["-2", "-1", "0", "1", "2"]


# --- item 1: a subtask E file written with three decimals ------------------------------


def _three_decimal_rows(n_topics, n_off, seed):
    """``(text rows, Decimal rows)``: five shares a row written with three decimals,
    as SemEval-2016 subtask E's submissions are; ``n_off`` rows sum to 0.999 or 1.001
    (alternately), the others to 1.000. Built for the test, not a team's file."""
    rng = np.random.default_rng(seed)
    rows = []
    for topic in range(n_topics):
        thousandths = rng.multinomial(1000, rng.dirichlet(np.ones(5)))
        if topic < n_off:
            # Take or give one thousandth on a share that can spare it.
            k = int(np.argmax(thousandths))
            thousandths[k] += -1 if topic % 2 == 0 else 1
        rows.append([Decimal(int(t)) / 1000 for t in thousandths])
    text = [[f"{share:.3f}" for share in row] for row in rows]
    return text, rows


def _write_rows(path, topics, text):
    path.write_text("".join(f"{topic}\t" + "\t".join(row) + "\n"
                            for topic, row in zip(topics, text)), encoding="utf-8")


def _paper_emd(gold, pred):
    """The task paper's EMD on the rows as written, in exact decimals."""
    total = Decimal(0)
    for true_row, pred_row in zip(gold, pred):
        cumulative_true = cumulative_pred = Decimal(0)
        for j in range(len(true_row) - 1):
            cumulative_true += true_row[j]
            cumulative_pred += pred_row[j]
            total += abs(cumulative_pred - cumulative_true)
    return float(total / len(gold))


SUBMISSION, SUBMISSION_ROWS = _three_decimal_rows(100, 41, seed=2016)
GOLD, GOLD_ROWS = _three_decimal_rows(100, 0, seed=4)
TOPICS = [f"topic {t:03d}" for t in range(100)]


def test_the_test_file_has_the_stated_properties_and_floats_that_round_both_ways():
    sums = [sum(row) for row in SUBMISSION_ROWS]
    assert sorted({str(s) for s in sums}) == ["0.999", "1.000", "1.001"]
    assert sum(s != 1 for s in sums) == 41
    # As floats, some of these rows miss 1 by more than 0.001 and some by less: the
    # test the Perl scorer (and this package before #46) made on the float sum.
    float_sums = np.array([[float(v) for v in row] for row in SUBMISSION_ROWS]).sum(axis=1)
    beyond = np.abs(float_sums - 1) > 1e-3
    assert 0 < beyond.sum() < 41


def test_match_distance_scores_three_decimal_rows_as_written():
    gold = np.array(GOLD_ROWS, dtype=np.float64)
    pred = np.array(SUBMISSION_ROWS, dtype=np.float64)
    # Failed before #46: "Each row of p_pred must sum to 1 (within 0.001); row 0
    # sums to 0.9989999999999999".
    assert match_distance(gold, pred) == pytest.approx(_paper_emd(GOLD_ROWS,
                                                                  SUBMISSION_ROWS), abs=1e-12)


def test_rows_beyond_what_three_decimals_allow_are_refused_at_the_python_door():
    with pytest.raises(ValueError, match=r"must sum to 1 within 0.001; row 0 sums to 0.997"):
        match_distance([[0.2, 0.2, 0.2, 0.2, 0.2]], [[0.2, 0.2, 0.2, 0.2, 0.197]])


def test_the_command_scores_the_file_as_written_and_says_how_many_rows_were_off(
        tmp_path, capsys):
    _write_rows(tmp_path / "gold.txt", TOPICS, GOLD)
    _write_rows(tmp_path / "team.txt", TOPICS, SUBMISSION)
    argv = ["quantification", tmp_path / "gold.txt", tmp_path / "team.txt",
            "--measures", "match_distance", "--n-resamples", "99"]
    # Failed before #46: exit code 2, "the prevalences [...] sum to 0.999; they must be
    # non-negative and sum to 1 (within 0.001)".
    code, out, err = _run(capsys, *argv)
    assert (code, err) == (0, "")
    as_written = _paper_emd(GOLD_ROWS, SUBMISSION_ROWS)
    printed = float(re.search(r"^team +(\d\.\d{4})", out, re.M).group(1))
    assert printed == pytest.approx(as_written, abs=5e-5)
    assert ("Rows whose shares do not sum to 1 exactly: team: 41 of 100 (|sum - 1| up "
            "to 0.001); scored as written") in out
    # --normalize rescales each row first, and says so.
    code, out, err = _run(capsys, *argv, "--normalize")
    assert code == 0
    normalized = np.array(SUBMISSION_ROWS, dtype=float)
    normalized /= normalized.sum(axis=1, keepdims=True)
    expected = match_distance(np.array(GOLD_ROWS, dtype=float), normalized)
    printed = float(re.search(r"^team +(\d\.\d{4})", out, re.M).group(1))
    assert printed == pytest.approx(expected, abs=5e-5)
    assert "rescaled to sum to 1 before scoring (--normalize)" in out


@pytest.mark.parametrize("row, allowed", [
    (["0.200", "0.200", "0.200", "0.200", "0.198"], True),    # 5 x 0.0005 = 0.0025
    (["0.200", "0.200", "0.200", "0.200", "0.197"], False),
    (["0.20", "0.20", "0.20", "0.20", "0.18"], True),         # 5 x 0.005 = 0.025
    ([".2", ".2", ".2", ".2", ".1"], True),                   # 5 x 0.05 = 0.25
    (["0.2000", "0.2000", "0.2000", "0.2000", "0.1985"], False),  # 0.001 at least
])
def test_the_command_allows_what_the_written_decimals_allow(tmp_path, capsys, row, allowed):
    _write_rows(tmp_path / "gold.txt", ["a", "b"], [["0.2"] * 5, ["0.2"] * 5])
    _write_rows(tmp_path / "team.txt", ["a", "b"], [row, ["0.2"] * 5])
    code, _, err = _run(capsys, "quantification", tmp_path / "gold.txt",
                        tmp_path / "team.txt", "--n-resamples", "99")
    assert code == (0 if allowed else 2), err
    if not allowed:
        assert "line 1 (topic 'a') sums to" in err and "K x 0.5 x 10^-d" in err


# --- item 2: the scale of the prevalences is the gold's --------------------------------


def _topics_with_an_out_of_scale_system():
    rng = np.random.default_rng(7)
    groups = np.repeat([f"t{g}" for g in range(25)], 8)
    y_true = rng.integers(0, 5, groups.size)
    near = np.clip(y_true + rng.choice([-1, 0, 1], groups.size), 0, 4)
    wild = near.copy()
    wild[3] = 9   # one prediction off the 0-4 scale
    return y_true, near, wild, groups


def test_an_out_of_scale_prediction_is_refused_by_quantification_error():
    from sklearn_ordinal.metrics import quantification_error

    y_true, near, wild, groups = _topics_with_an_out_of_scale_system()
    # Before #46: the scale became 0-4 and 9 (K = 6), a silent other number.
    with pytest.raises(ValueError, match=r"y_pred predicts the label\(s\) \[9\], outside "
                       r"the gold labels' scale \[0, 1, 2, 3, 4\]"):
        quantification_error(y_true, wild, groups, measure="nmd")
    # With the scale given, the label is still not on it: refused.
    with pytest.raises(ValueError, match=r"\[9\]"):
        quantification_error(y_true, wild, groups, measure="nmd", labels=[0, 1, 2, 3, 4])


def test_an_out_of_scale_system_changes_no_other_systems_number_in_evaluate():
    from sklearn_ordinal import evaluate

    y_true, near, wild, groups = _topics_with_an_out_of_scale_system()
    alone = evaluate(y_true, {"near": near}, groups=groups, measures=["nmd"],
                     n_resamples=99, random_state=0)
    with pytest.raises(ValueError, match=r"System 'wild' predicts the label\(s\) \[9\]"):
        evaluate(y_true, {"near": near, "wild": wild}, groups=groups, measures=["nmd"],
                 n_resamples=99, random_state=0)
    # The scale given with labels= (here wider, on purpose) is the scale used.
    wide = evaluate(y_true, {"near": near, "wild": wild}, groups=groups,
                    measures=["nmd"], labels=[0, 1, 2, 3, 4, 9], n_resamples=99,
                    random_state=0)
    # NMD divides by K - 1: 5 on the wider scale, 4 on the gold's.
    assert wide.scores.loc["near", ("nmd", "estimate")] == pytest.approx(
        alone.scores.loc["near", ("nmd", "estimate")] * 4 / 5)


def test_an_out_of_scale_prediction_file_is_refused_by_the_evaluate_command(tmp_path,
                                                                            capsys):
    y_true, near, wild, groups = _topics_with_an_out_of_scale_system()
    for name, labels in (("gold", y_true), ("near", near), ("wild", wild)):
        (tmp_path / f"{name}.csv").write_text("test_case,id,value\n" + "".join(
            f"{g},{i},{label}\n" for i, (g, label) in enumerate(zip(groups, labels))))
    code, out, err = _run(capsys, "evaluate", tmp_path / "gold.csv", tmp_path / "near.csv",
                          tmp_path / "wild.csv", "--measures", "nmd", "--n-resamples", "99")
    assert code == 2 and out == ""
    assert "System 'wild' predicts the label(s) [9], outside the gold labels' scale" in err


# --- item 3: an item gold's repeated ids --------------------------------------------


@pytest.mark.parametrize("repeat", ["the same label", "another label"])
def test_repeated_ids_in_an_item_gold_are_refused_with_their_lines(tmp_path, capsys,
                                                                   repeat):
    lines = [f"{i}\ttopic {i % 2}\t{LABELS[i % 5]}" for i in range(10)]
    # Before #46 the item was counted twice (match distance 0.2425 became 0.2952 in
    # the file).
    lines.append(lines[3] if repeat == "the same label" else "3\ttopic 1\t2")
    (tmp_path / "gold.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "team.txt").write_text("topic 0\t.2\t.2\t.2\t.2\t.2\n"
                                       "topic 1\t.2\t.2\t.2\t.2\t.2\n", encoding="utf-8")
    code, out, err = _run(capsys, "quantification", tmp_path / "gold.tsv",
                          tmp_path / "team.txt", "--n-resamples", "99")
    assert code == 2 and out == ""
    assert "gold.tsv: the id '3' is given on lines 4, 11; give each item once." in err


# --- item 4: unit ids are no annotator ----------------------------------------------

from sklearn_ordinal.metrics import krippendorff_alpha  # noqa: E402
from sklearn_ordinal.stats import krippendorff_alpha_interval  # noqa: E402

nan = float("nan")
# Krippendorff (2011), the worked example: 4 observers, 12 units.
WORKED_EXAMPLE = np.array([
    [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
])
PUBLISHED = {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}


def _alphas(out):
    return {line.split()[0]: float(line.split()[1]) for line in out.splitlines()
            if line.split() and line.split()[0] in PUBLISHED}


def _wide_text(unit_column, missing="", separator=","):
    header = separator.join([unit_column] + [f"obs{i}" for i in range(4)])
    rows = [separator.join([f"u{u + 1}"] + [missing if np.isnan(v) else f"{v:g}"
                                            for v in WORKED_EXAMPLE[:, u]])
            for u in range(12)]
    return header + "\n" + "\n".join(rows) + "\n"


@pytest.mark.parametrize("unit_column", ["Unit", "ID", "item", " unit", "UNITS"])
def test_a_first_column_of_unit_ids_is_read_as_the_units(tmp_path, capsys, unit_column):
    path = tmp_path / "hayes.csv"
    path.write_text(_wide_text(unit_column))
    # Before #46 "Unit" was a fifth annotator: .448/.343/.038/.324, without a word.
    code, out, err = _run(capsys, "agreement", path, "--n-resamples", "999", "--seed", "0")
    assert (code, err) == (0, "")
    assert {level: round(alpha, 3) for level, alpha in _alphas(out).items()} == PUBLISHED
    assert "4 annotators as columns, 12 units as rows" in out


def test_a_column_of_distinct_values_in_every_row_is_warned_about(tmp_path, capsys):
    path = tmp_path / "ids.csv"
    path.write_text(_wide_text("number"))  # the units' names under another name
    code, out, err = _run(capsys, "agreement", path, "--n-resamples", "999", "--seed", "0")
    assert code == 0
    assert ("column 'number' holds a different value in each of its 12 rows, as the "
            "units' names do") in err


@pytest.mark.parametrize("header", ["Annotator,Unit,Value", "annotator, unit, value",
                                    " ANNOTATOR ,unit , Value"])
def test_a_long_file_is_told_by_its_columns_whatever_their_case_and_spaces(
        tmp_path, capsys, header):
    lines = [header] + [f"obs{i}, u{u}, {v:g}" for i, row in enumerate(WORKED_EXAMPLE)
                        for u, v in enumerate(row) if not np.isnan(v)]
    path = tmp_path / "long.csv"
    path.write_text("\n".join(lines) + "\n")
    # Before #46: read as wide with three annotators (nominal 0.004).
    code, out, err = _run(capsys, "agreement", path, "--n-resamples", "999", "--seed", "0")
    assert (code, err) == (0, "")
    assert "long (annotator, unit, value): 4 annotators, 12 units" in out
    assert {level: round(alpha, 3) for level, alpha in _alphas(out).items()} == PUBLISHED


def test_a_dataframe_is_turned_by_its_labelled_axes():
    import pandas as pd

    by_unit = pd.DataFrame(WORKED_EXAMPLE.T, columns=[f"obs{i}" for i in range(4)],
                           index=pd.Index([f"u{u}" for u in range(12)]))
    # Before #46: a wrong number (nominal 0.094 for 0.743) and a warning only.
    with pytest.raises(ValueError, match="12 rows and 4 columns with unnamed axes"):
        krippendorff_alpha(by_unit, level="nominal")
    for labelled in (by_unit.rename_axis(columns="annotator"),
                     by_unit.rename_axis(index="Unit"),
                     by_unit.T.rename_axis(index="coder")):
        assert round(krippendorff_alpha(labelled, level="nominal"), 3) == 0.743
    with pytest.raises(ValueError, match="12 rows and 4 columns"):
        krippendorff_alpha_interval(by_unit, level="nominal", n_resamples=99)


def test_a_single_unit_raises_no_transpose_alarm():
    import warnings

    with warnings.catch_warnings():
        # Before #46: "more annotators than units ... pass its transpose", whose
        # transpose would have one annotator.
        warnings.simplefilter("error")
        # o_12 = o_21 = o_22 = 1, n = (1, 2): alpha = 1 - 2 * 2 / 4 = 0.
        assert krippendorff_alpha([[1], [2], [2]], level="interval") == pytest.approx(0.0)


# --- item 5: the ratio level takes non-negative values ----------------------------


def test_the_ratio_level_refuses_negative_values_at_both_doors(tmp_path, capsys):
    data = [[-1, 1, 2, 3], [1, -1, 2, 3]]
    # Before #46: 1.000 for annotators who disagree on the first two units.
    for door in (krippendorff_alpha, krippendorff_alpha_interval):
        with pytest.raises(ValueError, match=r"ratio level needs non-negative values \(amounts "
                           r"with a true zero\); the values include \[-1\.0\]"):
            door(data, level="ratio")
    path = tmp_path / "signed.csv"
    path.write_text("a,b\n-1,1\n1,-1\n2,2\n3,3\n")
    code, out, err = _run(capsys, "agreement", path, "--level", "ratio",
                          "--n-resamples", "999")
    assert code == 2 and "ratio level needs non-negative values" in err
    # By default the levels the values allow: not ratio, with a note.
    code, out, err = _run(capsys, "agreement", path, "--n-resamples", "999", "--seed", "0")
    assert code == 0 and list(_alphas(out)) == ["nominal", "ordinal", "interval"]
    assert "the ratio level needs non-negative values" in out


# --- item 6: missing markers, inf --------------------------------------------------


@pytest.mark.parametrize("marker", [".", "NA", "nan", "NULL", "#N/A"])
def test_the_usual_missing_markers_are_missing(tmp_path, capsys, marker):
    path = tmp_path / "spss.csv"
    path.write_text(_wide_text("unit", missing=marker))
    # Before #46 "." and "NA" made the values text: a nominal alpha only (0.577).
    code, out, err = _run(capsys, "agreement", path, "--n-resamples", "999", "--seed", "0")
    assert (code, err) == (0, "")
    assert {level: round(alpha, 3) for level, alpha in _alphas(out).items()} == PUBLISHED
    # --no-missing-markers reads them as values (then text: nominal only).
    code, out, err = _run(capsys, "agreement", path, "--n-resamples", "999",
                          "--no-missing-markers")
    assert code == 0 and list(_alphas(out)) == ["nominal"]


def test_inf_is_refused_alike_at_both_doors(tmp_path, capsys):
    with pytest.raises(ValueError, match="infinite"):
        krippendorff_alpha([[1.0, 2.0, np.inf], [1.0, 2.0, 3.0]])
    path = tmp_path / "inf.csv"
    path.write_text("a,b\n1,1\n2,2\ninf,3\n")
    # Before #46 the command read the table as text (a nominal alpha).
    code, out, err = _run(capsys, "agreement", path, "--n-resamples", "999")
    assert code == 2 and out == ""
    assert "inf.csv: line 4, column 'a': 'inf' is infinite" in err


# --- One reader: each file-reading defect through every command that reads files ----


def _evaluate_files(folder, header="id,value", first=None):
    gold = folder / "gold.csv"
    gold.write_text((first or header) + "\n" + "".join(
        f"i{i},{i % 3}\n" for i in range(12)), encoding="utf-8")
    system = folder / "system.csv"
    system.write_text(header + "\n" + "".join(f"i{i},{(i + i // 4) % 3}\n"
                                              for i in range(12)), encoding="utf-8")
    return ["evaluate", gold, system, "--n-resamples", "99", "--labels", "0,1,2",
            "--seed", "0"], gold


def _compare_files(folder, header="dataset,A,B,C", first=None):
    path = folder / "scores.csv"
    rng = np.random.default_rng(0)
    path.write_text((first or header) + "\n" + "".join(
        f"d{d}," + ",".join(f"{v:.3f}" for v in rng.random(3)) + "\n" for d in range(8)),
        encoding="utf-8")
    return ["compare", path, "--measure", "accuracy"], path


def _quantification_files(folder, header=None, first=None):
    gold, team = folder / "gold.txt", folder / "team.txt"
    gold.write_text("".join(f"{first or ''}topic {t}\t.2\t.2\t.2\t.2\t.2\n"
                            for t in range(3)), encoding="utf-8")
    team.write_text("".join(f"topic {t}\t.1\t.3\t.2\t.2\t.2\n" for t in range(3)),
                    encoding="utf-8")
    return ["quantification", gold, team, "--n-resamples", "99"], gold


def _agreement_files(folder, header="unit,a,b,c", first=None):
    path = folder / "annotations.csv"
    path.write_text((first or header) + "\n" + "".join(
        f"u{u},{u % 3},{u % 3},{(u + u // 5) % 3}\n" for u in range(10)), encoding="utf-8")
    return ["agreement", path, "--n-resamples", "999", "--seed", "0"], path


COMMANDS = {"evaluate": _evaluate_files, "compare": _compare_files,
            "quantification": _quantification_files, "agreement": _agreement_files}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_byte_order_mark_is_no_part_of_the_first_name(tmp_path, capsys, command):
    argv, first_file = COMMANDS[command](tmp_path)
    code, expected, _ = _run(capsys, *argv)
    assert code == 0
    first_file.write_bytes(b"\xef\xbb\xbf" + first_file.read_bytes())
    # Before #46 the quantification command read '\ufefftopic 0' as an unknown topic.
    code, out, err = _run(capsys, *argv)
    assert code == 0 and ": error:" not in err
    assert out == expected


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_that_is_not_utf8_is_named(tmp_path, capsys, command):
    argv, first_file = COMMANDS[command](tmp_path)
    first_file.write_bytes(first_file.read_bytes().replace(b"2", b"\xe9", 1))
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{first_file}: not UTF-8 text" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_line_beyond_the_bound_is_refused_by_every_command(tmp_path, capsys, command,
                                                             monkeypatch):
    from sklearn_ordinal import _table_files

    monkeypatch.setattr(_table_files, "MAX_LINE_BYTES", 200)
    argv, first_file = COMMANDS[command](tmp_path)
    lines = first_file.read_text(encoding="utf-8").splitlines()
    lines[2] += " " * 300
    first_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert "line 3 is longer than 200 bytes" in err


@pytest.mark.parametrize("command, header", [
    ("evaluate", " ID , Value"),
    ("compare", "Dataset, A , B,C"),    # the wide layout: names as written, stripped
    ("agreement", "Unit, a, b, c"),
])
def test_column_names_are_matched_ignoring_case_and_spaces(tmp_path, capsys, command,
                                                           header):
    argv, _ = COMMANDS[command](tmp_path)
    code, expected, _ = _run(capsys, *argv)
    argv, _ = COMMANDS[command](tmp_path, header=header)
    code, out, err = _run(capsys, *argv)
    assert code == 0, err
    assert out == expected


def test_long_score_tables_are_matched_ignoring_case_and_spaces(tmp_path, capsys):
    rows = [f"d{d},{s},{v:.3f}" for d in range(8) for s, v in
            zip("ABC", np.random.default_rng(d).random(3))]
    outputs = []
    for header in ("dataset,system,score", "Dataset, System ,SCORE"):
        path = tmp_path / "long.csv"
        path.write_text(header + "\n" + "\n".join(rows) + "\n")
        code, out, err = _run(capsys, "compare", path, "--measure", "accuracy")
        assert code == 0, err
        outputs.append(out)
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("cell, message", [
    ("nan", "the share nan is not a finite number"),
    ("NA", "are not all numbers"),
    ("-0.2", "the share -0.2 is negative"),
])
def test_a_bad_share_is_named_with_its_line(tmp_path, capsys, cell, message):
    argv, _ = _quantification_files(tmp_path)
    (tmp_path / "team.txt").write_text(f"topic 0\t.2\t.2\t.2\t.2\t.2\ntopic 1\t{cell}\t.4"
                                       "\t.4\t.2\t.2\ntopic 2\t.2\t.2\t.2\t.2\t.2\n")
    code, out, err = _run(capsys, *argv)
    assert code == 2 and "team.txt line 2 (topic 'topic 1')" in err and message in err


def test_a_missing_score_is_named_with_its_line_by_compare(tmp_path, capsys):
    argv, path = _compare_files(tmp_path)
    lines = path.read_text().splitlines()
    lines[3] = "d2,0.5,oops,0.7"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = _run(capsys, *argv)
    assert code == 2 and "scores.csv: line 4, column 'B': 'oops' is not a number" in err


def test_an_item_gold_with_numeric_topics_is_no_prevalence_file(tmp_path, capsys):
    # Two classes: "id<TAB>topic<TAB>label" has three fields, as "topic<TAB>p<TAB>q".
    (tmp_path / "gold.tsv").write_text("".join(f"{i}\t{2016 + i % 2}\t{i % 3 % 2}\n"
                                               for i in range(8)))
    (tmp_path / "team.txt").write_text("2016\t0.5\t0.5\n2017\t0.25\t0.75\n")
    code, out, err = _run(capsys, "quantification", tmp_path / "gold.tsv",
                          tmp_path / "team.txt", "--labels", "0,1", "--n-resamples", "99")
    # Before #46: "the prevalences ['2016', '0'] sum to 2016".
    assert (code, err) == (0, ""), err
    assert "gold from items" in out


# --- Smaller: negative labels on the command line ------------------------------------


def test_a_label_list_that_starts_with_a_negative_class_is_taken_as_written(tmp_path,
                                                                            capsys):
    from sklearn_ordinal._command_line import joined_label_lists

    assert joined_label_lists(["evaluate", "--labels", "-1,0,1", "--seed", "-3"]) == [
        "evaluate", "--labels=-1,0,1", "--seed", "-3"]
    lines = [f"{i}\ttopic {i % 3}\t{[-1, 0, 1][i % 3 - (i % 2)]}" for i in range(12)]
    (tmp_path / "gold.tsv").write_text("\n".join(lines) + "\n")
    (tmp_path / "team.txt").write_text("".join(f"topic {t}\t.2\t.3\t.5\n" for t in range(3)))
    outputs = []
    for form in (["--labels", "-1,0,1"], ["--labels=-1,0,1"]):
        # Before #46 the first form failed: "argument --labels: expected one argument".
        code, out, err = _run(capsys, "quantification", tmp_path / "gold.tsv",
                              tmp_path / "team.txt", *form, "--n-resamples", "99")
        assert code == 0, err
        outputs.append(out)
    assert outputs[0] == outputs[1]
    path = tmp_path / "signed.csv"
    path.write_text("a,b\n-1,-1\n0,1\n1,1\n0,0\n")
    code, out, err = _run(capsys, "agreement", path, "--labels", "-1,0,1",
                          "--n-resamples", "999", "--seed", "0")
    assert code == 0, err
    argv, _ = _evaluate_files(tmp_path)
    argv[argv.index("--labels") + 1] = "-1,0,1,2"
    code, out, err = _run(capsys, *argv)
    assert code == 0, err
    code, out, _ = _run(capsys, "evaluate", "--help")
    assert "--labels -1,0,1" in " ".join(out.split())


# --- Test strength: the faults no test caught ----------------------------------------


def _middle_class_of_one(seed=0):
    """Four classes of 30, 1, 30 and 30 items: most resamples lack class 1."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2, 3], [30, 1, 30, 30])
    return y, y + rng.normal(0, 0.8, y.size)


def test_batched_ranking_resamples_that_lack_a_middle_class_are_scored_alone():
    import warnings

    from sklearn_ordinal.metrics._registry import resolve
    from sklearn_ordinal.stats._intervals import _data_statistic, _layout

    y, score = _middle_class_of_one()
    units, parts = _layout(resolve("u_cons"), y, [score], None, None, None, None)
    statistic = _data_statistic(parts)
    rng = np.random.default_rng(1)
    stack = rng.multinomial(units.counts.sum(), units.counts / units.counts.sum(), 300)
    lacking = stack[:, 30] == 0  # the cells are in class order: the 31st is class 1
    # A fault that checks "some class present" for "every class present" scores the
    # lacking resamples with an empty class kept (#46: [0.9336, 0.9835] for
    # [0.9340, 0.9872]); they must be left undefined, for the statistic alone.
    assert 0 < lacking.sum() < 300
    batched = statistic.batched(stack.astype(float))
    assert np.isnan(batched[lacking]).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        alone = np.array([statistic(row.astype(float)) for row in stack])
    np.testing.assert_allclose(batched[~lacking], alone[~lacking], rtol=1e-12)


def test_the_ranking_interval_is_that_of_resamples_scored_one_at_a_time():
    import warnings

    from sklearn_ordinal.metrics._registry import resolve
    from sklearn_ordinal.stats import score_interval
    from sklearn.utils import check_random_state

    from sklearn_ordinal.stats._intervals import _bootstrap, _layout
    from sklearn_ordinal.stats._resampling import complete

    y, score = _middle_class_of_one()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = score_interval("u_cons", y, score, n_resamples=999, random_state=0)
        units, parts = _layout(resolve("u_cons"), y, [score], None, None, None, None)
        batched = parts[0].statistic

        def one_at_a_time(x):  # no batched form: every resample scored alone
            return batched(x)

        # The same draws as score_interval's (the same seed, as it checks it).
        alone = complete(_bootstrap(units, [parts[0]._replace(statistic=one_at_a_time)],
                                    result.estimate, 999, "bca", 0.95,
                                    check_random_state(0)))
    np.testing.assert_allclose(result.confidence_interval, alone["confidence_interval"],
                               rtol=1e-12)


def test_every_unit_of_a_randomization_is_exchanged_half_the_time():
    from sklearn.utils import check_random_state

    from sklearn_ordinal.stats._resampling import _INDEX_DRAW_FROM_CELLS, _draw_randomization

    # One unit a cell (a regressor's values): one random bit each, eight a byte. A
    # count that is no multiple of 8, so that a byte short would leave the last
    # units never exchanged (an overall mean would not see it).
    n_cells = max(_INDEX_DRAW_FROM_CELLS, 1000) + 3
    draws = np.vstack(list(_draw_randomization(np.ones(n_cells, dtype=np.int64), 4000,
                                               check_random_state(0))))
    assert draws.shape == (4000, n_cells)
    rate = draws.mean(axis=0)
    # 4000 fair bits: sd 0.0079; 0.45-0.55 is more than 6 sd for every one of the
    # ~1000 units.
    assert rate.min() > 0.45 and rate.max() < 0.55, (rate.argmin(), rate.min())


def test_markdown_writes_an_ampersand_as_an_entity():
    import pandas as pd

    from sklearn_ordinal import evaluate
    from sklearn_ordinal.stats import compare_across_datasets

    # "R&D" as written; "a&lt;b" must show "a&lt;b" too, not the "a<b" a renderer
    # makes of an unescaped entity.
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 60)
    report = evaluate(y, {"R&D": np.clip(y + rng.integers(-1, 2, 60), 0, 2),
                          "a&lt;b": rng.integers(0, 3, 60)},
                      measures=["neg_mean_absolute_error"], n_resamples=99, random_state=0)
    text = report.to_markdown()
    assert "R&amp;D" in text and "a&amp;lt;b" in text
    assert "R&D" not in text and "a&lt;b" not in text.replace("a&amp;lt;b", "")
    table = pd.DataFrame({"R&D": [0.5, 0.6, 0.7, 0.8, 0.9], "Q&A": [0.4, 0.5, 0.6, 0.7, 0.8]})
    text = compare_across_datasets(table, "accuracy").to_markdown()
    assert "R&amp;D" in text and "Q&amp;A" in text and "R&D" not in text


# --- The docs: the subtask E example, values listed but never given -------------------

DOCS = Path(__file__).resolve().parents[1] / "docs" / "user_guide"


def _block(page, after):
    """The indented literal block that follows the text ``after``."""
    lines = page.split(after, 1)[1].split("\n")[2:]
    block = []
    for line in lines:
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    return "\n".join(block).strip("\n")


def test_the_user_guide_scores_a_three_decimal_subtask_e_file_as_shown(tmp_path, capsys,
                                                                      monkeypatch):
    page = (DOCS / "quantification.rst").read_text(encoding="utf-8")
    team = _block(page, "as\n``team.txt``::")
    gold = _block(page, "against the true prevalences ``gold-E.txt``::")
    rows = [line.split("\t")[1:] for line in team.splitlines()]
    sums = {str(sum(Decimal(v) for v in row)) for row in rows}
    assert {"0.999", "1.001"} <= sums
    assert all(len(v.split(".")[1]) == 3 for row in rows for v in row)
    (tmp_path / "team.txt").write_text(team + "\n", encoding="utf-8")
    (tmp_path / "gold-E.txt").write_text(gold + "\n", encoding="utf-8")
    command = ("$ python -m sklearn_ordinal quantification gold-E.txt team.txt "
               "--measures match_distance --n-resamples 999")
    shown = page.split(command + "\n", 1)[1].split("\n\n(The file is built", 1)[0]
    monkeypatch.chdir(tmp_path)  # the report names the files as given
    code, out, err = _run(capsys, "quantification", "gold-E.txt", "team.txt",
                          "--measures", "match_distance", "--n-resamples", "999")
    assert (code, err) == (0, "")
    assert [line[4:] for line in shown.splitlines()] == [line.rstrip()
                                                         for line in out.splitlines()]
    # The number shown is the task paper's formula on the rows as written.
    expected = _paper_emd([[Decimal(v) for v in line.split("\t")[1:]]
                           for line in gold.splitlines()],
                          [[Decimal(v) for v in row] for row in rows])
    assert f"team       {expected:.4f}" in out


def test_a_text_value_listed_but_never_given_changes_only_the_interval_alpha():
    names = [["neg", "neu", "pos", None], ["neg", "pos", "pos", "neu"]]
    for labels in (["neg", "neu", "pos"], ["neg", "neu", "meh", "pos"]):
        position = {label: float(k) for k, label in enumerate(labels)}
        numbers = [[nan if v is None else position[v] for v in row] for row in names]
        # Text at the interval level: the positions in labels, as numbers.
        assert krippendorff_alpha(names, level="interval", labels=labels) == pytest.approx(
            krippendorff_alpha(numbers, level="interval"), abs=1e-12)
    assert krippendorff_alpha(names, level="interval", labels=["neg", "neu", "pos"]) != \
        pytest.approx(krippendorff_alpha(names, level="interval",
                                         labels=["neg", "neu", "meh", "pos"]))
    for level in ("nominal", "ordinal"):
        assert krippendorff_alpha(names, level=level, labels=["neg", "neu", "pos"]) == \
            pytest.approx(krippendorff_alpha(names, level=level,
                                             labels=["neg", "neu", "meh", "pos"]), abs=1e-12)


# --- The reader itself ----------------------------------------------------------------


def test_the_reader_numbers_rows_by_line_and_clears_only_whole_markers(tmp_path):
    import pandas as pd

    from sklearn_ordinal._table_files import ONLY_EMPTY, read_table, refuse_repeated

    path = tmp_path / "t.csv"
    path.write_bytes(b"\xef\xbb\xbfUnit , Value\n\nu1, NA\nu2,NAN\nu1,.\nu3,1.5\n")
    table = read_table(path)
    assert list(table.frame.columns) == ["Unit", "Value"]
    assert table.find("unit", " VALUE ") == ["Unit", "Value"]
    assert table.find("annotator") is None
    # A blank line keeps the numbering: the rows stand on lines 3 to 6.
    assert table.frame.index.tolist() == [3, 4, 5, 6]
    assert table.frame["Value"].tolist() == [None, "NAN", None, "1.5"]
    assert read_table(path, missing_markers=ONLY_EMPTY).frame["Value"].tolist() == [
        "NA", "NAN", ".", "1.5"]
    assert table.rows(table.frame["Value"].isna()) == "lines 3, 5"
    with pytest.raises(ValueError, match=r"t.csv: the unit 'u1' is given on lines 3, 5; "
                       "name each once"):
        refuse_repeated(table, ["Unit"], what="unit", advice="name each once")
    with pytest.raises(ValueError, match=r"no id column 'id'; the file has the columns "
                       r"'Unit', 'Value'\. Name the column with --id-column\."):
        table.column("id", what="id column", option="--id-column")
    records = tmp_path / "t.json"
    records.write_text('[{"a": 1}, {"a": null}, {"a": "NA"}]')
    table = read_table(records)
    assert table.row_name == "record" and table.frame.index.tolist() == [1, 2, 3]
    assert table.frame["a"].isna().tolist() == [False, True, True]
    lines = tmp_path / "t.jsonl"
    lines.write_text('{"a": 1}\n\n{"a": 2}\n')
    assert read_table(lines).frame.index.tolist() == [1, 3]
    frame = pd.DataFrame({"a": [1, 2]})
    frame.to_parquet(tmp_path / "t.parquet")
    table = read_table(tmp_path / "t.parquet")
    assert (table.row_name, table.frame.index.tolist()) == ("row", [1, 2])


@pytest.mark.parametrize("command, content, message", [
    ("evaluate", "id,value\na,1\nb,2\na,1\n", "has 1 duplicated id: 'a'"),
    ("compare", "dataset,system,score\nd1,A,.5\nd1,B,.6\nd2,A,.5\nd2,B,.7\nd1,A,.9\n",
     "the data set and system ('d1', 'A') is given on lines 2, 6"),
    ("compare", "dataset,A,B\nd1,.5,.6\nd2,.5,.7\nd1,.9,.1\n",
     "the data set 'd1' is given on lines 2, 4"),
    ("quantification", "t1\t.2\t.2\t.2\t.2\t.2\nt1\t.2\t.2\t.2\t.2\t.2\n",
     "the topic 't1' is given on lines 1, 2"),
    ("agreement", "annotator,unit,value\nx,1,2\ny,1,2\nx,1,3\n",
     "the annotator and unit ('x', '1') is given on lines 2, 4"),
    ("agreement", "item,a,b\n1,2,2\n2,3,3\n1,2,3\n", "the unit '1' is given on lines 2, 4"),
])
def test_a_repeated_key_is_refused_by_every_command(tmp_path, capsys, command, content,
                                                     message):
    path = tmp_path / ("file.txt" if command == "quantification" else "file.csv")
    path.write_text(content)
    other = tmp_path / "other.txt"
    other.write_text("t1\t.2\t.2\t.2\t.2\t.2\nt2\t.2\t.2\t.2\t.2\t.2\n")
    argv = {"evaluate": ["evaluate", path, path],
            "compare": ["compare", path, "--measure", "accuracy"],
            "quantification": ["quantification", other, path],
            "agreement": ["agreement", path]}[command]
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == "" and message in err, err


def test_the_few_groups_note_is_given_below_the_measured_threshold():
    from sklearn_ordinal.evaluation._quantification import FEW_GROUPS, records_from_prevalences

    # benchmarks/bench_quantification_groups.py: 0.92-0.93 coverage at 20 groups.
    assert FEW_GROUPS == 100
    rng = np.random.default_rng(0)
    for n_groups, noted in ((20, True), (99, True), (100, False)):
        gold = rng.dirichlet(np.ones(5), n_groups)
        result = records_from_prevalences(
            gold, {"s": rng.dirichlet(np.ones(5), n_groups)}, gold.mean(axis=0),
            list(range(n_groups)), ["s"], {"nmd": "nmd"}, 0.95, 99, 0)
        few = [note for note in result.notes if "too narrow" in note["reason"]]
        assert bool(few) == noted
