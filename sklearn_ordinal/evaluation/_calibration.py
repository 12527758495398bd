"""The report's calibration of class probabilities: for each system that gives
them, the CORP decomposition of its ranked probability score (MCB, DSC, UNC) and
the points of its reliability diagrams, one per threshold.

Layer: evaluation reports (6).
"""

import numpy as np
import pandas as pd

from ..metrics._calibration import _corp_fits, _decomposition

# A diagram keeps at most this many points per threshold: enough to draw, small
# enough for a JSON report of a million items.
_DIAGRAM_POINTS = 200

CALIBRATION_COLUMNS = ["score", "miscalibration", "discrimination", "uncertainty"]

CALIBRATION_NOTE = (
    "The ranked probability score of each system giving class probabilities, split "
    "exactly into miscalibration (MCB: what recalibrating each cumulative forecast "
    "P(y <= c) by isotonic regression would save), discrimination (DSC: what the "
    "recalibrated forecasts save over the base rates) and uncertainty (UNC: the base "
    "rates' score, the gold standard's alone): RPS = MCB - DSC + UNC (CORP, "
    "Dimitriadis, Gneiting and Jordan 2021). The diagrams plot each threshold's "
    "recalibrated forecast against the forecast; a calibrated forecast lies on the "
    "diagonal."
)


def _thinned(values, recalibrated):
    if len(values) <= _DIAGRAM_POINTS:
        return values, recalibrated
    keep = np.unique(np.linspace(0, len(values) - 1, _DIAGRAM_POINTS).round().astype(int))
    return values[keep], recalibrated[keep]


def calibration_of_systems(y_true, systems, probas, given, labels, sample_weight):
    """``(table, diagrams)`` for the systems ``given`` probabilities: the table of
    their RPS's decomposition (a row per system, :data:`CALIBRATION_COLUMNS`) and
    ``{system: {"thresholds": [...], "forecast": [[...]], "recalibrated": [[...]]}}``;
    ``(None, None)`` when none gives them.

    Read as the report's ranked probability score reads them (the same ``labels``),
    so its ``score`` is that score; where the score is n/a (no class order), so is
    the decomposition, and the report's notes say why.
    """
    rows, diagrams = {}, {}
    for name in given:
        proba = probas[name] if name in probas else systems[name]
        try:
            found, _, _, _, fits = _corp_fits(y_true, proba, labels, sample_weight,
                                              "evaluate")
        except ValueError:
            continue
        rows[name] = _decomposition(found, fits, 1.0)
        points = [_thinned(fit.forecast, fit.recalibrated) for fit in fits]
        diagrams[name] = {
            "thresholds": [str(label) for label in found[:-1].tolist()],
            "forecast": [forecast.tolist() for forecast, _ in points],
            "recalibrated": [recalibrated.tolist() for _, recalibrated in points],
        }
    if not rows:
        return None, None
    table = pd.DataFrame({name: [getattr(result, column) for column in CALIBRATION_COLUMNS]
                          for name, result in rows.items()},
                         index=CALIBRATION_COLUMNS).T
    return table, diagrams
