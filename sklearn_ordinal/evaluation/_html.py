"""The evaluation report as one self-contained HTML page.

Everything is inline: the style, the script that sorts the leaderboard and the SVG
bars of the intervals. The page loads nothing (no network, no CDN, no font), so it
can be mailed, archived or opened offline and shows the same.
"""

import html
import json

import numpy as np
import pandas as pd

from ._calibration import CALIBRATION_NOTE
from ._trivial_row import TRIVIAL
from ._wording import _intervals_phrase

# Pixels of an interval bar; every bar of a measure shares the measure's scale.
_BAR_WIDTH, _BAR_HEIGHT = 120, 14

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5em;
       color: #1a1a1a; max-width: 1400px; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.8em; }
p.note { color: #444; max-width: 60em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #f2f2f2; } td.name, th.name { text-align: left; }
table.sortable th { cursor: pointer; } table.sortable th:hover { background: #e0e8f0; }
th[aria-sort="ascending"]::after { content: " \\25B2"; }
th[aria-sort="descending"]::after { content: " \\25BC"; }
tr.trivial td { color: #666; font-style: italic; }
span.interval { color: #555; font-size: 0.85em; }
svg.bar { vertical-align: middle; margin-left: 6px; }
td.better { background: #dcefdc; } td.worse { background: #f6dcdc; }
td.same { background: #f4f4f4; color: #666; }
div.wide { overflow-x: auto; }
.matrices { display: flex; flex-wrap: wrap; gap: 1.5em; }
"""

# Sorting the leaderboard by any column: rows carry their numbers in data-value.
_SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  table.querySelectorAll("th[data-column]").forEach(function (header) {
    header.addEventListener("click", function () {
      var column = Number(header.dataset.column);
      var descending = header.getAttribute("aria-sort") !== "descending";
      table.querySelectorAll("th").forEach(function (th) { th.removeAttribute("aria-sort"); });
      header.setAttribute("aria-sort", descending ? "descending" : "ascending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column].dataset.value, y = b.cells[column].dataset.value;
        var p = x === "" ? NaN : Number(x), q = y === "" ? NaN : Number(y);
        if (isNaN(p) || isNaN(q)) {
          if (isNaN(p) && isNaN(q)) { return String(x).localeCompare(String(y)); }
          return isNaN(p) ? 1 : -1;
        }
        return descending ? q - p : p - q;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
document.body.dataset.ready = "yes";
"""


def _escape(value):
    return html.escape(str(value), quote=True)


def _value(value):
    """A number as data-value: repr-exact, so a test can compare it with the JSON."""
    return "" if value is None or pd.isna(value) else repr(float(value))


def _bar(estimate, low, high, lo, hi, is_trivial):
    """An inline SVG: the interval as a bar and the estimate as a tick, on [lo, hi]."""
    if pd.isna(estimate) or not np.isfinite(hi - lo):
        return ""
    span = hi - lo if hi > lo else 1.0

    def x(value):
        return 2 + (_BAR_WIDTH - 4) * (value - lo) / span

    colour = "#999" if is_trivial else "#3465a4"
    return (
        f'<svg class="bar" width="{_BAR_WIDTH}" height="{_BAR_HEIGHT}" '
        f'viewBox="0 0 {_BAR_WIDTH} {_BAR_HEIGHT}" role="img" aria-label="interval">'
        f'<line x1="0" y1="{_BAR_HEIGHT / 2}" x2="{_BAR_WIDTH}" y2="{_BAR_HEIGHT / 2}" '
        'stroke="#ddd"/>'
        f'<rect x="{x(low):.1f}" y="4" width="{max(x(high) - x(low), 1):.1f}" height="6" '
        f'fill="{colour}" opacity="0.45"/>'
        f'<rect x="{x(estimate) - 1:.1f}" y="1" width="2" height="12" fill="{colour}"/>'
        "</svg>"
    )


def _table(header, rows, *, sortable=False, classes=None):
    """rows: lists of (text, data-value, css class) cells; header: column titles."""
    head = "".join(
        f'<th{" class=name" if c == 0 else ""}'
        f'{f" data-column={c}" if sortable else ""} data-value="{_escape(title)}">'
        f"{_escape(title)}</th>"
        for c, title in enumerate(header)
    )
    body = []
    for r, row in enumerate(rows):
        row_class = f' class="{classes[r]}"' if classes and classes[r] else ""
        cells = "".join(
            f'<td class="{css}" data-value="{_escape(value)}">{text}</td>'
            for text, value, css in row
        )
        body.append(f"<tr{row_class}>{cells}</tr>")
    kind = ' class="sortable"' if sortable else ""
    return (f"<table{kind}><thead><tr>{head}</tr></thead><tbody>"
            + "".join(body) + "</tbody></table>")


def fixed(value, digits):
    """``value`` with ``digits`` decimals; a value that rounds to zero shows no sign
    (``-0.000`` would read as a negative number)."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def render_html(report, *, digits=3):
    """The page of an :class:`EvaluationReport` (see :meth:`EvaluationReport.to_html`)."""
    def number(value):
        return "n/a" if pd.isna(value) else fixed(value, digits)

    settings = report.settings
    level = f"{100 * settings['confidence_level']:g}%"
    alpha = f"{1 - settings['confidence_level']:.2g}"
    parts = ["<h1>Evaluation report</h1>"]
    if report.input_note:
        parts.append(f'<p class="note">{_escape(report.input_note)}</p>')
    parts.append(
        f'<p class="note">Scores with {_escape(_intervals_phrase(settings, level))}; '
        f'classes in order: '
        f'{_escape(", ".join(map(str, report.classes.tolist())))}. '
        f"{_escape(report.resampling_note)} Click a column title to sort by it.</p>"
    )
    if report.probabilities_note:
        parts.append(f'<p class="note">{_escape(report.probabilities_note)}</p>')

    # The leaderboard: a system per row, a measure per column, bars on a common scale.
    header = ["system"] + [report._labelled(measure) for measure in report.measures]
    rows, row_classes = [], []
    for system in report.scores.index:
        is_trivial = system == TRIVIAL
        row = [(_escape(system), system, "name")]
        for measure in report.measures:
            cell = report.scores.loc[system, measure]
            column = report.scores[measure]
            lo = np.nanmin(column[["low", "estimate"]].to_numpy(dtype=float), initial=np.inf)
            hi = np.nanmax(column[["high", "estimate"]].to_numpy(dtype=float), initial=-np.inf)
            text = number(cell["estimate"])
            if not pd.isna(cell["low"]):
                text += (f' <span class="interval">[{number(cell["low"])}, '
                         f'{number(cell["high"])}]</span>')
            text += _bar(cell["estimate"], cell["low"], cell["high"], lo, hi, is_trivial)
            row.append((text, _value(cell["estimate"]), "score"))
        rows.append(row)
        row_classes.append("trivial" if is_trivial else "")
    parts += ["<h2>Leaderboard</h2>",
              '<div class="wide">' + _table(header, rows, sortable=True, classes=row_classes)
              + "</div>",
              f'<p class="note">{_escape(TRIVIAL)}: the trivial classifier of each measure, '
              "one class for every item ("
              + _escape(", ".join(f"{m}: {report.trivial_classes[m]}"
                                  for m in report.measures))
              + f"). {_escape(report.baseline_note)}</p>"]

    if report.per_group_mean is not None:
        pooled = report._pooled_and_mean(number, " / ")
        parts += ["<h2>Pooled and mean over groups</h2>",
                  f'<p class="note">{_escape(report._pooled_note())}</p>',
                  _table(["measure"] + list(pooled.columns),
                         [[(_escape(measure), measure, "name")]
                          + [(_escape(text), "", "") for text in row]
                          for measure, row in pooled.iterrows()])]

    if len(report.comparisons):
        parts += ["<h2>Comparisons</h2>",
                  (f'<p class="note">{_escape(report._comparisons_note(level, alpha))} '
                   "In each matrix, the row system minus the column system; green: the row "
                   "is better, red: worse, grey: no difference.</p>")]
        for measure in report.measures:
            parts.append(_comparison_matrix(report, measure, number))

    if report.per_class.shape[1]:
        parts += ["<h2>Per class</h2>",
                  _table(["system"] + [f"{quantity} {label}"
                                       for quantity, label in report.per_class],
                         [[(_escape(system), system, "name")]
                          + [(number(value), _value(value), "") for value in row]
                          for system, row in report.per_class.iterrows()])]

    if report.confusion_matrices:
        parts.append("<h2>Confusion matrices</h2><p class=note>Rows: the true class; "
                     "columns: the predicted class.</p><div class=matrices>")
        for system, matrix in report.confusion_matrices.items():
            parts.append(f"<div><h3>{_escape(system)}</h3>" + _table(
                ["true \\ predicted"] + [str(label) for label in matrix.columns],
                [[(_escape(true), true, "name")]
                 + [(f"{count:g}", _value(count), "") for count in row]
                 for true, row in matrix.iterrows()]) + "</div>")
        parts.append("</div>")

    if report.calibration is not None:
        parts += _calibration_section(report, number)

    if len(report.notes):
        parts += ["<h2>Notes</h2><ul>"] + [
            f"<li>{_escape(row.system)}, {_escape(row.measure)}: {_escape(row.reason)}.</li>"
            for row in report.notes.itertuples()] + ["</ul>"]
    if len(report.warnings):
        counts = report.warnings.groupby("measure", sort=False).size()
        parts += ["<h2>Warnings</h2><ul>"] + [
            f"<li>{_escape(measure)}: {count} warning(s) while resampling "
            "(report.warnings lists them).</li>" for measure, count in counts.items()
        ] + ["</ul>"]
    settings_text = json.dumps(settings, indent=1, default=str)
    parts.append(f"<details><summary>Settings</summary><pre>{_escape(settings_text)}</pre>"
                 "</details>")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        # No request may leave the page, not even for a favicon.
        "<link rel=\"icon\" href=\"data:,\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>Evaluation report</title><style>{_STYLE}</style></head>\n<body>\n"
        + "\n".join(parts)
        + f"\n<script>{_SCRIPT}</script>\n</body></html>\n"
    )


# The reliability diagrams: pixels of the square plot and its margin, and a colour
# per threshold (matplotlib's tab10, cycled).
_DIAGRAM_SIZE, _DIAGRAM_MARGIN = 200, 34
_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22", "#17becf")


def _calibration_section(report, number):
    """The calibration table (RPS = MCB - DSC + UNC) and each system's diagrams."""
    columns = list(report.calibration.columns)
    header = ["system", "RPS", "MCB (miscalibration)", "DSC (discrimination)",
              "UNC (uncertainty)"]
    rows = [[(_escape(system), system, "name")]
            + [(number(row[column]), _value(row[column]), "") for column in columns]
            for system, row in report.calibration.iterrows()]
    parts = ["<h2>Calibration of the class probabilities</h2>",
             f'<p class="note">{_escape(CALIBRATION_NOTE)}</p>', _table(header, rows),
             '<div class="matrices">']
    for system, diagram in (report.reliability_diagrams or {}).items():
        parts.append(f'<figure>{_reliability_svg(system, diagram)}<figcaption>'
                     f"{_escape(system)}</figcaption></figure>")
    return parts + ["</div>"]


def _reliability_svg(system, diagram):
    """One system's reliability diagrams, every threshold on one square, as SVG."""
    size, margin = _DIAGRAM_SIZE, _DIAGRAM_MARGIN
    n_thresholds = len(diagram["thresholds"])
    width, height = size + 2 * margin, size + 2 * margin + 14 * n_thresholds

    def point(x, y):
        return f"{margin + x * size:.1f},{margin + (1 - y) * size:.1f}"

    shapes = [
        f'<rect x="{margin}" y="{margin}" width="{size}" height="{size}" fill="none" '
        'stroke="#999"/>',
        f'<polyline points="{point(0, 0)} {point(1, 1)}" stroke="#999" '
        'stroke-dasharray="4 3" fill="none"/>',
        f'<text x="{margin + size / 2}" y="{margin + size + 24}" font-size="11" '
        'text-anchor="middle">forecast</text>',
        f'<text x="12" y="{margin + size / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 12 {margin + size / 2})">recalibrated</text>',
    ]
    for k, label in enumerate(diagram["thresholds"]):
        colour = _COLOURS[k % len(_COLOURS)]
        points = " ".join(point(x, y) for x, y in zip(diagram["forecast"][k],
                                                        diagram["recalibrated"][k]))
        shapes.append(f'<polyline class="threshold" points="{points}" stroke="{colour}" '
                      'stroke-width="1.5" fill="none"/>')
        shapes.append(f'<text x="{margin}" y="{size + 2 * margin + 14 * k + 10}" '
                      f'font-size="11" fill="{colour}">P(y &lt;= {_escape(label)})</text>')
    return (f'<svg class="reliability" data-system="{_escape(system)}" width="{width}" '
            f'height="{height}" role="img" aria-label="reliability diagrams of '
            f'{_escape(system)}">' + "".join(shapes) + "</svg>")


def _comparison_matrix(report, measure, number):
    """The systems x systems matrix of one measure: row minus column, coloured."""
    if measure not in report.comparisons.index.get_level_values("measure"):
        return ""
    rows = report.comparisons.loc[measure]
    names = list(dict.fromkeys([a for a, _ in rows.index] + [b for _, b in rows.index]))
    cells = {}
    for (a, b), row in rows.iterrows():
        for first, second, sign in ((a, b, 1), (b, a, -1)):
            difference = sign * row["difference"]
            low, high = sorted((sign * row["low"], sign * row["high"]))
            css = ("same" if row["better"] not in (first, second)
                   else "better" if row["better"] == first else "worse")
            text = (f"{number(difference)} <span class=interval>[{number(low)}, "
                    f"{number(high)}]</span><br><span class=interval>Holm p "
                    f"{number(row['pvalue_holm'])}</span>")
            cells[first, second] = (text, _value(difference), css)
    table_rows = [
        [(_escape(first), first, "name")]
        + [cells.get((first, second), ("", "", "")) for second in names]
        for first in names
    ]
    return (f"<h3>{_escape(report._labelled(measure))}</h3>"
            + _table(["row - column"] + names, table_rows))
