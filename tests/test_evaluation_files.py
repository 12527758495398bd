"""read_evaluation_files: every format, items matched by id, and every bad file's error."""

import json
import re
import runpy
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sklearn_ordinal.evaluation import read_evaluation_files

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "sklearn_ordinal" / "evaluation" / "data"

GOLD = pd.DataFrame({"test_case": ["t1"] * 4 + ["t2"] * 4,
                     "id": [f"i{k}" for k in range(8)],
                     "value": [1, 2, 3, 3, 1, 2, 2, 3]})
SYSTEM = GOLD.assign(value=[1, 3, 3, 2, 2, 2, 2, 3])


def _write(table, path):
    """``table`` in the format of ``path``'s extension, as a user's tool would write it."""
    path = Path(path)
    suffix = path.suffix
    if suffix in (".csv", ".tsv"):
        table.to_csv(path, sep="," if suffix == ".csv" else "\t", index=False)
    elif suffix == ".json":  # PyEvALL's own layout: one list of records
        path.write_text(json.dumps(table.to_dict(orient="records"), indent=2))
    elif suffix == ".jsonl":
        path.write_text("".join(json.dumps(record) + "\n"
                                for record in table.to_dict(orient="records")))
    elif suffix == ".parquet":
        table.to_parquet(path)
    else:
        path.write_text(table.to_csv(index=False))
    return path


def _error(tmp_path, gold, *systems, **kwargs):
    """The one-line message read_evaluation_files raises on these tables."""
    gold_path = _write(gold, tmp_path / "gold.csv") if isinstance(gold, pd.DataFrame) else gold
    paths = [_write(table, tmp_path / f"system{k}.csv") if isinstance(table, pd.DataFrame)
             else table for k, table in enumerate(systems)]
    with pytest.raises(ValueError) as error:
        read_evaluation_files(gold_path, paths, **kwargs)
    message = str(error.value)
    assert "\n" not in message
    return message


FORMATS = [".csv", ".tsv", ".json", ".jsonl", ".parquet"]


@pytest.mark.parametrize("gold_format", FORMATS)
@pytest.mark.parametrize("system_format", FORMATS)
def test_every_format_and_mix_reads_the_same_items(tmp_path, gold_format, system_format):
    # Shuffled rows: items are matched by id, never by position.
    gold = _write(GOLD, tmp_path / f"gold{gold_format}")
    system = _write(SYSTEM.iloc[::-1], tmp_path / f"system{system_format}")
    data = read_evaluation_files(gold, [system])
    assert data.y_true.tolist() == GOLD["value"].tolist()
    assert data.y_true.dtype == np.int64
    assert data.y_pred.columns.tolist() == ["system"]
    assert data.y_pred["system"].tolist() == SYSTEM["value"].tolist()
    assert data.groups.tolist() == GOLD["test_case"].tolist()
    assert data.y_true.index.names == ["test_case", "id"]
    assert data.y_pred.index.equals(data.y_true.index)
    assert data.left_out.empty


def test_csv_without_groups_and_named_columns(tmp_path):
    gold = _write(pd.DataFrame({"item": [3, 1, 2], "grade": ["low", "high", "mid"]}),
                  tmp_path / "gold.csv")
    system = _write(pd.DataFrame({"item": [1, 2, 3], "guess": ["mid", "mid", "low"]}),
                    tmp_path / "run.tsv")
    data = read_evaluation_files(gold, system, id_column="item", label_column="grade",
                                 prediction_column="guess")
    assert data.groups is None
    assert data.y_true.index.tolist() == ["3", "1", "2"]
    assert data.y_true.tolist() == ["low", "high", "mid"]
    assert data.y_pred["run"].tolist() == ["low", "mid", "mid"]
    assert read_evaluation_files(gold, system, id_column="item", label_column="grade",
                                 prediction_column="guess", group_column=None).groups is None


@pytest.mark.parametrize("suffix", [".csv", ".tsv"])
def test_scores_written_with_repr_read_back_exactly(tmp_path, suffix):
    # Text numbers are read to the nearest float: pd.to_numeric of pandas 2.1 lands
    # one unit in the last place away from most of these.
    rng = np.random.default_rng(0)
    scores = rng.random(200) * 4
    ids = np.arange(200)
    gold = _write(pd.DataFrame({"id": ids, "value": rng.integers(0, 5, 200)}),
                  tmp_path / f"gold{suffix}")
    text = pd.DataFrame({"id": ids, "value": [repr(float(x)) for x in scores]})
    system = _write(text, tmp_path / f"ranker{suffix}")
    data = read_evaluation_files(gold, system)
    np.testing.assert_array_equal(data.y_pred["ranker"].to_numpy(), scores)


class _PathLike:
    """A path-like object that is no ``pathlib.Path`` (as ``os.DirEntry`` or a
    library's own path class)."""

    def __init__(self, path):
        self._path = path

    def __fspath__(self):
        return str(self._path)


def test_one_path_like_prediction_file_is_one_system(tmp_path):
    # A single path-like was iterated as if it were a list of files (a TypeError);
    # the signature promises str, path-like or a sequence of them.
    gold = _write(GOLD, tmp_path / "gold.csv")
    system = _write(SYSTEM, tmp_path / "system.csv")
    data = read_evaluation_files(_PathLike(gold), _PathLike(system))
    assert data.y_pred.columns.tolist() == ["system"]
    assert data.y_pred["system"].tolist() == SYSTEM["value"].tolist()


def test_ids_are_compared_as_written(tmp_path):
    # 1 in a CSV file, 1 and "1" in JSON all match; "1.0" is another id, and the
    # error says why the numbers look alike.
    _write(pd.DataFrame({"id": [1, 2], "value": [1, 2]}), tmp_path / "gold.csv")
    (tmp_path / "a.jsonl").write_text('{"id": 1, "value": 2}\n{"id": "2", "value": 2}\n')
    data = read_evaluation_files(tmp_path / "gold.csv", [tmp_path / "a.jsonl"])
    assert data.y_pred["a"].tolist() == [2, 2]
    (tmp_path / "b.csv").write_text("id,value\n1.0,2\n2,2\n")
    message = _error(tmp_path, tmp_path / "gold.csv", tmp_path / "b.csv")
    assert "lacks 1 id of the gold file" in message and "'1'" in message
    assert "has 1 id that the gold file" in message and "'1.0'" in message
    assert "compared as text" in message


def test_numeric_text_labels_are_numbers(tmp_path):
    (tmp_path / "gold.csv").write_text("id,value\na,1\nb,2.0\nc, 3\n")
    (tmp_path / "s.json").write_text('[{"id": "a", "value": "2"}, {"id": "b", "value": 2.0},'
                                     ' {"id": "c", "value": 3}]')
    data = read_evaluation_files(tmp_path / "gold.csv", tmp_path / "s.json")
    assert data.y_true.dtype == data.y_pred["s"].dtype == np.int64
    assert data.y_true.tolist() == [1, 2, 3] and data.y_pred["s"].tolist() == [2, 2, 3]
    # A regressor's real-valued predictions stay real.
    (tmp_path / "r.csv").write_text("id,value\na,1.5\nb,2\nc,3\n")
    data = read_evaluation_files(tmp_path / "gold.csv", tmp_path / "r.csv")
    assert data.y_pred["r"].tolist() == [1.5, 2.0, 3.0]


def test_text_labels_named_na_are_labels(tmp_path):
    (tmp_path / "gold.tsv").write_text("id\tvalue\na\tNA\nb\tnull\n")
    data = read_evaluation_files(tmp_path / "gold.tsv", tmp_path / "gold.tsv")
    assert data.y_true.tolist() == ["NA", "null"]


def test_ordered_categorical_parquet_keeps_its_order(tmp_path):
    grades = pd.Categorical(["high", "low", "mid"], categories=["low", "mid", "high"],
                            ordered=True)
    gold = _write(pd.DataFrame({"id": ["a", "b", "c"], "value": grades}),
                  tmp_path / "gold.parquet")
    system = _write(pd.DataFrame({"id": ["a", "b", "c"], "value": ["mid", "low", "mid"]}),
                    tmp_path / "s.csv")
    data = read_evaluation_files(gold, system)
    assert data.y_true.cat.ordered
    assert data.y_true.cat.categories.tolist() == ["low", "mid", "high"]


def test_shipped_example_is_what_the_script_writes():
    make_example = runpy.run_path(str(ROOT / "tools" / "make_evaluation_example.py"))[
        "make_example"]
    tables = make_example()
    assert sorted(path.name for path in DATA.iterdir()) == sorted(
        f"{name}.tsv" for name in tables)
    for name, table in tables.items():
        assert (DATA / f"{name}.tsv").read_text() == table.to_csv(
            sep="\t", index=False, lineterminator="\n")
    data = read_evaluation_files(DATA / "gold.tsv", [DATA / "logistic.tsv", DATA / "ridge.tsv"])
    assert data.y_pred.columns.tolist() == ["logistic", "ridge"]
    assert len(data.y_true) == 442
    assert data.groups.value_counts().sort_index().tolist() == [89, 89, 88, 88, 88]


# --- Items that do not match -----------------------------------------------------------


def test_missing_ids_are_named_and_counted(tmp_path):
    message = _error(tmp_path, GOLD, SYSTEM.drop(index=[0, 2, 3, 4, 5, 6, 7]))
    assert re.search(r"system0\.csv lacks 7 ids of the gold file \S*gold\.csv: "
                     r"'i0' \(group 't1'\), 'i2' \(group 't1'\), 'i3' \(group 't1'\), "
                     r"'i4' \(group 't2'\), 'i5' \(group 't2'\) and 2 more", message)
    assert "missing='drop' (--missing drop, or --allow-missing)" in message
    assert "missing='wrong' (--missing wrong)" in message


def test_extra_ids_are_named(tmp_path):
    extra = pd.concat([SYSTEM, SYSTEM.iloc[:1].assign(id="new")])
    message = _error(tmp_path, GOLD, extra)
    assert "system0.csv has 1 id that the gold file" in message
    assert "'new' (group 't1')" in message and not re.search(r"lacks \d", message)


def test_every_system_is_checked(tmp_path):
    message = _error(tmp_path, GOLD, SYSTEM, SYSTEM.iloc[1:])
    assert "system1.csv lacks 1 id" in message and "system0" not in message


@pytest.mark.parametrize("where", ["gold", "system"])
def test_duplicated_ids_are_errors(tmp_path, where):
    twice = pd.concat([SYSTEM, SYSTEM.iloc[[2, 2, 5]]])
    tables = (twice, SYSTEM) if where == "gold" else (GOLD, twice)
    message = _error(tmp_path, *tables)
    name = "gold.csv" if where == "gold" else "system0.csv"
    assert re.search(rf"{name} has 2 duplicated ids within a 'test_case' group: "
                     r"'i2' \(group 't1'\), 'i5' \(group 't2'\); every item needs its own id",
                     message)
    # allow_missing never hides a duplicate.
    assert _error(tmp_path, *tables, allow_missing=True) == message


def test_ids_unique_only_within_groups(tmp_path):
    # PyEvALL: ids are unique within a test case, not across them.
    gold = GOLD.assign(id=["a", "b", "c", "d"] * 2)
    system = SYSTEM.assign(id=["a", "b", "c", "d"] * 2)
    data = read_evaluation_files(_write(gold, tmp_path / "gold.csv"),
                                 [_write(system.iloc[::-1], tmp_path / "s.csv")])
    assert data.y_pred["s"].tolist() == SYSTEM["value"].tolist()
    # Without the group column a system's ids cannot tell the items apart.
    message = _error(tmp_path, gold, system.drop(columns="test_case"))
    assert "gold.csv has 4 duplicated ids" in message
    assert "system0.csv has no column 'test_case' to tell them apart" in message
    # Without the group column, unique gold ids are enough.
    data = read_evaluation_files(_write(GOLD, tmp_path / "gold.csv"),
                                 [_write(SYSTEM.drop(columns="test_case"), tmp_path / "s.csv")])
    assert data.y_pred["s"].tolist() == SYSTEM["value"].tolist()


def test_item_in_the_wrong_group_does_not_match(tmp_path):
    moved = SYSTEM.copy()
    moved.loc[0, "test_case"] = "t2"
    message = _error(tmp_path, GOLD, moved)
    assert "lacks 1 id of the gold file" in message and "'i0' (group 't1')" in message
    assert "has 1 id that the gold file" in message and "'i0' (group 't2')" in message


def test_allow_missing_scores_the_common_items(tmp_path):
    gold = _write(GOLD, tmp_path / "gold.csv")
    fewer = _write(SYSTEM.drop(index=[1, 6]), tmp_path / "fewer.csv")
    more = _write(pd.concat([SYSTEM, SYSTEM.iloc[:1].assign(id="x")]), tmp_path / "more.json")
    data = read_evaluation_files(gold, [fewer, more], allow_missing=True)
    kept = GOLD.drop(index=[1, 6])
    assert data.y_true.index.get_level_values("id").tolist() == kept["id"].tolist()
    assert data.y_true.tolist() == kept["value"].tolist()
    assert data.y_pred["more"].tolist() == SYSTEM.drop(index=[1, 6])["value"].tolist()
    assert data.left_out.to_dict(orient="list") == {
        "file": [str(fewer)] * 2 + [str(more)],
        "id": ["i1", "i6", "x"],
        "test_case": ["t1", "t2", "t1"],
        "reason": ["missing", "missing", "not in the gold file"],
    }


def test_allow_missing_needs_an_item_in_common(tmp_path):
    message = _error(tmp_path, GOLD, SYSTEM.assign(id="other" + SYSTEM["id"]),
                     allow_missing=True)
    assert message == "The files have no item in common: nothing to score."


# --- Files that cannot be read --------------------------------------------------------


@pytest.mark.parametrize(
    "columns, option",
    [({"id": "item"}, "id_column"), ({"value": "label"}, "label_column"),
     ({"test_case": "fold"}, None)],
)
def test_missing_column_names_the_columns_and_the_option(tmp_path, columns, option):
    system = SYSTEM.rename(columns=columns)
    if option is None:
        # A system without the group column is matched on the id alone.
        read_evaluation_files(_write(GOLD, tmp_path / "gold.csv"),
                              _write(system, tmp_path / "s.csv"))
        message = _error(tmp_path, GOLD.rename(columns=columns), SYSTEM,
                         group_column="test_case")
        assert "gold.csv: no group column 'test_case'" in message
        assert "with group_column (--group-column on the command line)" in message
        return
    message = _error(tmp_path, GOLD, system)
    what = option.split("_")[0]
    assert f"system0.csv: no {what} column '{columns.popitem()[0]}'" in message
    assert "the file has the columns 'test_case', " in message
    assert f"with {option}" in message


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("empty.csv", "", "the file is empty"),
        ("header.tsv", "test_case\tid\tvalue\n", "the file has no rows"),
        ("empty.json", " \n", "the file is empty"),
        ("empty.jsonl", "\n\n", "the file is empty"),
        ("list.json", "[]", "the file has no rows"),
        ("gold.xlsx", "id,value\n1,1\n", "unknown file type '.xlsx'; the extension must be "
         "one of .csv, .tsv, .tab, .json, .jsonl, .ndjson, .parquet, .pq, or .txt (or none)"),
        ("gold.txt", "id value\n1 1\n", "the format cannot be read from the content"),
        ("gold", " \n", "the file is empty"),
        ("bad.jsonl", '{"id": 1, "value": 2}\n{"id": 2, value: 2}\n',
         "bad.jsonl, line 2: not a JSON record"),
        ("bad.json", '[{"id": 1, "value": 2},', "bad.json: not valid JSON"),
        ("numbers.json", "[1, 2]", "numbers.json, record 1: not a JSON object but 1"),
        ("ragged.csv", 'id,value\n1,2\n3,4,5,6\n', "not a readable CSV file"),
        ("latin.csv", "id,value\n\xe9,1\n", "latin.csv: not UTF-8 text"),
        ("binary.parquet", "not parquet", "binary.parquet: not a readable Parquet file"),
    ],
)
def test_unreadable_gold_file(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_bytes(text.encode("latin-1"))
    assert message in _error(tmp_path, path, _write(SYSTEM, tmp_path / "s.csv"))


def test_no_such_file(tmp_path):
    assert "nowhere.csv: no such file" in _error(tmp_path, tmp_path / "nowhere.csv", SYSTEM)


def test_no_prediction_file(tmp_path):
    assert "No prediction file given" in _error(tmp_path, GOLD)


def test_parquet_without_pyarrow(tmp_path, monkeypatch):
    path = _write(GOLD, tmp_path / "gold.parquet")

    def no_engine(*args, **kwargs):
        raise ImportError("Unable to find a usable engine; tried using: 'pyarrow'")

    monkeypatch.setattr(pd, "read_parquet", no_engine)
    message = _error(tmp_path, path, SYSTEM)
    assert message.endswith("gold.parquet: reading Parquet files needs pyarrow: "
                            "pip install pyarrow")


def test_item_without_a_label(tmp_path):
    message = _error(tmp_path, GOLD, SYSTEM.assign(value=[1, None, 3, 3, None, 2, 2, 3]))
    assert re.search(r"system0\.csv: 2 items without a label: ids 'i1' \(group 't1'\), "
                     r"'i4' \(group 't2'\); every item needs a label", message)
    (tmp_path / "null.jsonl").write_text('{"id": "a", "value": null}\n')
    assert "1 item without a label: ids 'a'" in _error(tmp_path, tmp_path / "null.jsonl",
                                                       SYSTEM)


def test_row_without_an_id(tmp_path):
    (tmp_path / "gold.csv").write_text("id,value\na,1\n,2\n")
    assert "gold.csv: line 3 without an id;" in _error(tmp_path, tmp_path / "gold.csv",
                                                         SYSTEM)


def test_numbers_against_text(tmp_path):
    message = _error(tmp_path, GOLD, SYSTEM.assign(value=["1", "2", "high", 3, 1, 2, 2, 3]))
    assert re.search(r"The gold labels of \S*gold\.csv are numbers and the predicted labels "
                     r"of \S*system0\.csv are texts \(for example 'high'\)", message)


def test_true_false_labels(tmp_path):
    (tmp_path / "gold.jsonl").write_text('{"id": "a", "value": true}\n')
    assert "the labels are true/false" in _error(tmp_path, tmp_path / "gold.jsonl", SYSTEM)


def test_systems_named_after_their_files(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    gold = _write(GOLD, tmp_path / "gold.csv")
    first, second = _write(SYSTEM, tmp_path / "a" / "run.csv"), _write(SYSTEM,
                                                                       tmp_path / "b" / "run.csv")
    data = read_evaluation_files(gold, [first, second])
    assert data.y_pred.columns.tolist() == [str(first), str(second)]
    assert "The same prediction file is given twice" in _error(tmp_path, gold, first, first)


def test_one_test_case_is_no_grouping(tmp_path):
    # PyEvALL files often hold a single test case: nothing to score per group.
    gold = _write(GOLD.assign(test_case="EXIST2023"), tmp_path / "gold.csv")
    system = _write(SYSTEM.assign(test_case="EXIST2023"), tmp_path / "s.csv")
    data = read_evaluation_files(gold, system)
    assert data.groups is None and data.y_true.index.name == "id"
    named = read_evaluation_files(gold, system, group_column="test_case")
    assert named.groups.unique().tolist() == ["EXIST2023"]
