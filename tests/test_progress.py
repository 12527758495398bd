"""evaluate(verbose=True)'s progress bar: on a watched terminal only (#45)."""

import os
import pty
import subprocess
import sys
import textwrap

import pytest

from sklearn_ordinal.evaluation._progress import Progress, watched

_SCRIPT = textwrap.dedent("""
    import numpy as np
    from sklearn_ordinal.evaluation import _progress
    from sklearn_ordinal import evaluate
    _progress._SHOW_AFTER = 0.0  # the bar from the first step
    rng = np.random.default_rng(0)
    y = rng.integers(0, 5, 300)
    systems = {"a": np.clip(y + rng.integers(-1, 2, 300), 0, 4)}
    evaluate(y, systems, measures=["neg_mean_absolute_error", "cem_ord"],
             n_resamples=99, random_state=0, verbose=True)
    print("done")
""")


def _environment(ci):
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    return env


def _run_on_a_terminal(ci):
    """The script's standard error on a pseudo-terminal; its stdout."""
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen([sys.executable, "-c", _SCRIPT], stderr=follower,
                                   stdout=subprocess.PIPE, env=_environment(ci))
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            chunks.append(chunk)
        out = process.stdout.read().decode()
        process.wait(timeout=120)
    finally:
        os.close(leader)
    return b"".join(chunks).decode(errors="replace"), out


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_the_bar_appears_on_a_terminal():
    err, out = _run_on_a_terminal(ci=False)
    assert "done" in out
    assert "2/2 measures" in err and "cem_ord" in err
    assert "[" + "#" * 24 + "]" in err


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_the_bar_is_silent_under_ci_even_on_a_terminal():
    err, out = _run_on_a_terminal(ci=True)
    assert "done" in out
    assert "measures" not in err


def test_the_bar_is_silent_when_redirected():
    result = subprocess.run([sys.executable, "-c", _SCRIPT], capture_output=True,
                            text=True, env=_environment(ci=False), check=True)
    assert "done" in result.stdout
    assert "measures" not in result.stderr and "#" not in result.stderr


def test_a_stream_that_is_no_terminal_is_not_watched(tmp_path, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with open(tmp_path / "log", "w") as stream:
        assert not watched(stream)
        progress = Progress(3, "measures", True, stream)
        progress.step("a")
        progress.close()
    assert (tmp_path / "log").read_text() == ""
