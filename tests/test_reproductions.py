"""Each paper-reproduction script in benchmarks/ runs end to end on a reduced size.

These are smoke tests that keep the scripts from rotting; the reproduced numbers
themselves are printed by the full runs (see docs/user_guide/reproducing.rst).
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    # Registered, as an import would, so that worker processes can unpickle its functions.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_cem_table3_quick(capsys):
    result = _load("reproduce_cem_table3").main(["--quick", "--seeds", "1"])
    mean = result["mean"].to_numpy(dtype=float)
    assert mean.shape == (15, 6) and len(result["runs"]) == 1
    assert np.isfinite(mean).all() and (mean > 0).all()
    out = capsys.readouterr().out
    assert "CEM-ORD" in out and "(0.91)" in out  # ours beside the paper's
    for reading in ("displacement_overflow='keep_gold'", "displacement_overflow='last_class'",
                    "undefined highest", "read as swapped", "unordered pair"):
        assert reading in out


def test_cem_table3_seeds_in_two_processes_give_the_same_tables(capsys):
    script = _load("reproduce_cem_table3")
    alone = script.main(["--quick", "--seeds", "3"])
    together = script.main(["--quick", "--seeds", "3", "--n-jobs", "2"])
    for run_alone, run_together in zip(alone["runs"], together["runs"], strict=True):
        assert run_alone.keys() == run_together.keys()
        for key, table in run_alone.items():
            if isinstance(table, list):
                assert table == run_together[key]
            else:
                pd.testing.assert_frame_equal(table, run_together[key])
    # Each seed its own draw: the runs are not copies of one another.
    assert not alone["runs"][0]["keep_gold"].equals(alone["runs"][1]["keep_gold"])
    with pytest.raises(SystemExit):
        script.main(["--quick", "--n-jobs", "0"])
    assert "--n-jobs must be" in capsys.readouterr().err


def test_pair_coverage_is_coverage_and_ranks_undefined_highest():
    from scipy.stats import spearmanr

    from sklearn_ordinal.metaeval import coverage
    from sklearn_ordinal.metaeval._uir import _pairwise_uir

    pair_coverage = _load("reproduce_cem_table3").pair_coverage
    rng = np.random.RandomState(0)
    metric, reference = rng.rand(6, 8), rng.rand(6, 8, 3)
    uir = _pairwise_uir(reference)
    assert pair_coverage(metric, uir) == pytest.approx(coverage(metric, reference))

    # System 2 is undefined on one test case: its pairs rank above every other pair.
    metric[2, 5] = np.nan
    mean = metric.mean(axis=1)
    difference = mean[:, None] - mean[None, :]
    off = ~np.eye(6, dtype=bool)
    highest = np.where(np.isnan(difference), 1e9, difference)[off]
    expected = spearmanr(highest, uir[off]).statistic
    assert pair_coverage(metric, uir) == pytest.approx(expected)
    upper = np.triu(np.ones((6, 6), dtype=bool), k=1)
    expected = spearmanr(np.where(np.isnan(difference), 1e9, difference)[upper],
                         uir[upper]).statistic
    assert pair_coverage(metric, uir, pairs="unordered") == pytest.approx(expected)


def test_cem_table2_quick(capsys):
    table = _load("reproduce_cem_table2").main(["--quick"])
    # Even 10 trials find no counterexample for CEM-ORD, and MAE's invariance one; the
    # value-weighted kappa is not ordinal invariant, the positional one is.
    assert table.loc["cem_ord"].all()
    assert not table.loc["neg_mean_absolute_error", "ordinal_invariance"]
    assert not table.loc["linear_weighted_kappa (values)", "ordinal_invariance"]
    assert table.loc["linear_weighted_kappa", "ordinal_invariance"]
    out = capsys.readouterr().out
    assert "agree with the paper" in out
    # The paper's own imbalance example refutes three of its imbalance marks.
    assert ("failing the paper's own example: kendall_tau_b, spearman, mutual_information."
            in out)


def test_waegeman_figures_quick(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    curves, scores = _load("reproduce_waegeman_figures").main(["--quick", "--out", str(tmp_path)])
    assert sorted(path.name for path in tmp_path.glob("*.png")) == [
        "waegeman_fig3_vus_vs_ucons.png",
        "waegeman_fig4_vus_vs_uovo.png",
        "waegeman_fig5_ucons_vs_uovo.png",
        "waegeman_fig6_random_rankings.png",
    ]
    # Perfect separation at d = 5, and U_ovo = U_pairs on balanced data (eq. 19).
    assert all(values[-1] == pytest.approx(1, abs=1e-2) for values in curves.values())
    np.testing.assert_allclose(scores[:, 2], scores[:, 3])
    assert "Lemma 3.3" in capsys.readouterr().out


def test_baccianella_quick(capsys):
    table = _load("reproduce_baccianella").main(["--quick"])
    # The trivial class for the macro MAE (the middle one) scores 1.2 on every fold.
    assert table.loc["Trivial", "MAE^M"] == pytest.approx(1.2)
    assert list(table.index) == ["Trivial", "epsilon-SVR", "epsilon-SVR, balanced weights"]
    out = capsys.readouterr().out
    assert "4 stars, MAE^mu 0.805; majority class 5: 0.905" in out
    assert "prints neither number" in out and "gives 0.631" in out
