"""PyEvALL's files and conventions in read_evaluation_files: formats read by content,
multi-label records refused, and a missing prediction counted as wrong."""

import json

import numpy as np
import pandas as pd
import pytest

from sklearn_ordinal.evaluation import read_evaluation_files

GOLD = [{"test_case": "t1", "id": str(i), "value": v}
        for i, v in enumerate(["low", "mid", "high", "mid", "low", "high"])]


def _write(path, records, file_format):
    table = pd.DataFrame.from_records(records)
    if file_format == "json":
        path.write_text(json.dumps(records), encoding="utf-8")
    else:
        table.to_csv(path, sep="\t" if file_format == "tsv" else ",", index=False)
    return path


@pytest.mark.parametrize("file_format", ["json", "tsv", "csv"])
@pytest.mark.parametrize("name", ["gold.txt", "gold"])
def test_txt_and_extensionless_files_are_read_by_content(tmp_path, file_format, name):
    gold = _write(tmp_path / name, GOLD, file_format)
    system = _write(tmp_path / "system.txt", GOLD[::-1], "json")
    data = read_evaluation_files(gold, [system])
    assert data.formats == {str(gold): file_format, str(system): "json"}
    assert data.y_true.tolist() == [record["value"] for record in GOLD]
    assert data.y_pred["system"].tolist() == data.y_true.tolist()  # matched by id
    assert f"{name} as {file_format.upper()}, system.txt as JSON" in data.note


def test_explicit_extensions_are_not_sniffed(tmp_path):
    # A .csv holding JSON is read as CSV, as its name says (and fails clearly).
    path = tmp_path / "gold.csv"
    path.write_text(json.dumps(GOLD), encoding="utf-8")
    with pytest.raises(ValueError, match="gold.csv: the file has no rows"):
        read_evaluation_files(path, [path])


def test_multi_label_records_are_refused_naming_the_first(tmp_path):
    records = [dict(record) for record in GOLD]
    records[3]["value"] = ["mid", "high"]
    records[5]["value"] = ["low"]
    gold = _write(tmp_path / "GOLD_MULTI.txt", records, "json")
    with pytest.raises(ValueError, match=r"2 items with several labels \(a multi-label "
                       r"file\), the first id '3' with \['mid', 'high'\]"):
        read_evaluation_files(gold, [gold])


def test_missing_wrong_gives_the_farthest_class_and_counts_it(tmp_path):
    gold = _write(tmp_path / "gold.txt", GOLD, "json")
    # The system lacks the items 0 (low), 1 (mid) and 2 (high).
    system = _write(tmp_path / "system.txt", GOLD[3:], "json")
    with pytest.raises(ValueError, match="missing='wrong' .* needs the order"):
        read_evaluation_files(gold, [system], missing="wrong")
    data = read_evaluation_files(gold, [system], missing="wrong",
                                 labels=["low", "mid", "high"])
    # Farthest from low is high, from high is low; mid is a tie: the lowest class.
    assert data.y_pred["system"].tolist() == ["high", "low", "low", "mid", "low", "high"]
    assert data.filled["class_given"].tolist() == ["high", "low", "low"]
    assert data.filled["id"].tolist() == ["0", "1", "2"]
    assert data.left_out.empty
    assert "counted as wrong" in data.note and "3 (system, item) pair(s)" in data.note
    # Accuracy counts them wrong, as PyEvALL does: 3 right of 6.
    assert np.mean(data.y_pred["system"] == data.y_true) == 0.5


def test_missing_wrong_on_numbers_and_the_other_conventions(tmp_path):
    records = [{"id": str(i), "value": v} for i, v in enumerate([1, 2, 3, 4, 5])]
    gold = _write(tmp_path / "gold.json", records, "json")
    system = _write(tmp_path / "system.json", records[1:] + [{"id": "x", "value": 3}],
                    "json")
    data = read_evaluation_files(gold, [system], missing="wrong")
    assert data.y_pred["system"].tolist() == [5, 2, 3, 4, 5]
    assert data.y_pred["system"].dtype.kind == "i"
    assert data.left_out["reason"].tolist() == ["not in the gold file"]
    dropped = read_evaluation_files(gold, [system], missing="drop")
    assert dropped.y_true.tolist() == [2, 3, 4, 5] and dropped.filled.empty
    assert "dropped (--missing drop): 4 of the 5 gold items" in dropped.note
    with pytest.raises(ValueError, match="missing='wrong' \\(--missing wrong\\)"):
        read_evaluation_files(gold, [system])
    with pytest.raises(ValueError, match="contradicts"):
        read_evaluation_files(gold, [system], allow_missing=True, missing="wrong")
