"""Reliability diagrams of ordinal class probabilities, one per cumulative forecast."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Optional, Self

import numpy as np
import numpy.typing as npt

from ..._compat import check_matplotlib_support
from .._calibration import OrdinalCalibrationCurve, ordinal_calibration_curve
from .._scorer import _proba_response, _stated_order
from .roc_surface import _call_method

if TYPE_CHECKING:  # matplotlib is optional and imported only to draw
    from matplotlib.axes import Axes
    from matplotlib.collections import PolyCollection
    from matplotlib.figure import Figure, SubFigure
    from matplotlib.lines import Line2D


def _label(name: Optional[str], row: Any) -> str:
    """The legend entry of one threshold: the name and its MCB, DSC and UNC."""
    parts = (f"MCB {row['miscalibration']:.3f}, DSC {row['discrimination']:.3f}, "
             f"UNC {row['uncertainty']:.3f}")
    return f"{name} ({parts})" if name else parts


class OrdinalCalibrationDisplay:
    """CORP reliability diagrams of the cumulative forecasts :math:`P(Y \\le c_k)`.

    One panel per threshold (or all thresholds on one axes), each showing the
    recalibrated forecast against the forecast, the diagonal of a calibrated
    forecast and the consistency band, with the threshold's MCB, DSC and UNC in
    the legend. Use :meth:`from_estimator` or :meth:`from_predictions` to make
    one; the values come from
    :func:`~sklearn_ordinal.metrics.ordinal_calibration_curve`. Drawing needs
    matplotlib (``pip install "sklearn-ordinal[plot]"``).

    Parameters
    ----------
    curve : OrdinalCalibrationCurve
        What :func:`~sklearn_ordinal.metrics.ordinal_calibration_curve` returns.
    name : str, default=None
        Name of the forecaster, shown in the legends.

    Attributes
    ----------
    lines_ : list of matplotlib Line2D
        The recalibrated curve of each threshold.
    bands_ : list of matplotlib PolyCollection or None
        The consistency band of each threshold (None without bands).
    ax_ : ndarray of matplotlib Axes
        The axes of each threshold (the same axes repeated for ``kind="overlay"``).
    figure_ : matplotlib Figure
        The figure of the axes.

    See Also
    --------
    ordinal_calibration_curve : The values drawn.
    ranked_probability_score_decomposition : MCB, DSC and UNC alone.
    sklearn.calibration.CalibrationDisplay : The binned diagram of a binary forecast.

    References
    ----------
    .. [1] T. Dimitriadis, T. Gneiting and A. I. Jordan, "Stable reliability
       diagrams for probabilistic classifiers", PNAS 118(8), 2021, e2016191118.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_ordinal.metrics import OrdinalCalibrationDisplay
    >>> y_true = [0, 0, 1, 2, 2, 2]
    >>> y_proba = [[0.8, 0.2, 0.0], [0.6, 0.2, 0.2], [0.2, 0.6, 0.2],
    ...            [0.0, 0.2, 0.8], [0.2, 0.2, 0.6], [0.6, 0.2, 0.2]]
    >>> display = OrdinalCalibrationDisplay.from_predictions(
    ...     y_true, y_proba, name="model", random_state=0)
    >>> [ax.get_title() for ax in display.ax_]
    ['P(y <= 0)', 'P(y <= 1)']
    >>> display.lines_[0].get_label()
    'model (MCB 0.023, DSC 0.139, UNC 0.222)'
    """

    lines_: list[Line2D]
    bands_: list[Optional[PolyCollection]]
    ax_: npt.NDArray[Any]
    figure_: Figure | SubFigure

    def __init__(self, *, curve: OrdinalCalibrationCurve, name: Optional[str] = None) -> None:
        self.curve = curve
        self.name = name

    def plot(
        self,
        ax: Axes | npt.ArrayLike | None = None,
        *,
        name: Optional[str] = None,
        kind: Literal["panels", "overlay"] = "panels",
        ref_line: bool = True,
        **kwargs: Any,
    ) -> Self:
        """Draw the diagrams.

        Parameters
        ----------
        ax : matplotlib Axes or array-like of them, default=None
            For ``kind="panels"``, one axes per threshold (an axes alone for two
            classes); for ``kind="overlay"``, one axes. None makes a new figure.
        name : str, default=None
            Name shown in the legends; None uses ``self.name``.
        kind : {"panels", "overlay"}, default="panels"
            One panel per threshold, or every threshold on one axes.
        ref_line : bool, default=True
            Draw the diagonal of a calibrated forecast.
        **kwargs
            Passed to :meth:`matplotlib.axes.Axes.plot` for the curves.

        Returns
        -------
        display : OrdinalCalibrationDisplay
            This object, with ``lines_``, ``bands_``, ``ax_`` and ``figure_`` set.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_ordinal.metrics import (
        ...     OrdinalCalibrationDisplay, ordinal_calibration_curve)
        >>> y_true = [0, 0, 1, 2, 2, 2]
        >>> y_proba = [[0.8, 0.2, 0.0], [0.6, 0.2, 0.2], [0.2, 0.6, 0.2],
        ...            [0.0, 0.2, 0.8], [0.2, 0.2, 0.6], [0.6, 0.2, 0.2]]
        >>> curve = ordinal_calibration_curve(y_true, y_proba, n_resamples=0)
        >>> fig, ax = plt.subplots()
        >>> display = OrdinalCalibrationDisplay(curve=curve).plot(ax, kind="overlay")
        >>> len(display.lines_), display.bands_
        (2, [None, None])
        """
        check_matplotlib_support("OrdinalCalibrationDisplay.plot")
        import matplotlib.pyplot as plt

        if kind not in ("panels", "overlay"):
            raise ValueError(f"kind must be 'panels' or 'overlay'; got {kind!r}.")
        curve = self.curve
        n_thresholds = len(curve.thresholds)
        if ax is None:
            if kind == "overlay":
                _, one = plt.subplots()
                axes = np.array([one] * n_thresholds, dtype=object)
            else:
                _, made = plt.subplots(1, n_thresholds, squeeze=False,
                                       figsize=(4 * n_thresholds, 4))
                axes = made.ravel()
        else:
            given = np.ravel(np.asarray(ax, dtype=object))
            if kind == "overlay":
                if len(given) != 1:
                    raise ValueError("kind='overlay' draws on one axes; pass ax=one_axes.")
                axes = np.repeat(given, n_thresholds)
            elif len(given) != n_thresholds:
                raise ValueError(
                    f"kind='panels' draws one axes per threshold: pass {n_thresholds} axes "
                    f"(e.g. plt.subplots(1, {n_thresholds})[1]); got {len(given)}."
                )
            else:
                axes = given
        name = self.name if name is None else name
        table = curve.decomposition.per_threshold
        self.lines_, self.bands_ = [], []
        for k, axes_k in enumerate(axes):
            title = f"P(y <= {curve.thresholds[k]})"
            label = _label(name, table.iloc[k])
            if kind == "overlay":
                label = f"{title}: {label}"
            band = None
            at, low, high = curve.band_forecast, curve.band_low, curve.band_high
            if at is not None and low is not None and high is not None:
                band = axes_k.fill_between(
                    at[k], low[k], high[k],
                    alpha=0.2, linewidth=0,
                    color=None if kind == "overlay" else "tab:blue",
                )
            (line,) = axes_k.plot(curve.forecast[k], curve.recalibrated[k], label=label,
                                  **kwargs)
            if band is not None and kind == "overlay":
                band.set_color(line.get_color())
            if ref_line and (kind == "panels" or k == 0):
                axes_k.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1,
                            label="calibrated")
            axes_k.set(xlim=(0, 1), ylim=(0, 1), xlabel="Forecast probability",
                       ylabel="Recalibrated (CORP)")
            if kind == "panels":
                axes_k.set_title(title)
            axes_k.legend(loc="upper left", fontsize="small")
            self.lines_.append(line)
            self.bands_.append(band)
        self.ax_ = axes
        self.figure_ = axes[0].figure
        return self

    @classmethod
    def from_predictions(
        cls,
        y_true: npt.ArrayLike,
        y_proba: npt.ArrayLike,
        *,
        labels: Optional[npt.ArrayLike] = None,
        sample_weight: Optional[npt.ArrayLike] = None,
        n_resamples: int = 1000,
        confidence_level: float = 0.9,
        random_state: Optional[int | np.random.RandomState] = None,
        name: Optional[str] = None,
        kind: Literal["panels", "overlay"] = "panels",
        ax: Axes | npt.ArrayLike | None = None,
        ref_line: bool = True,
        **kwargs: Any,
    ) -> Self:
        """Draw the reliability diagrams of given class probabilities.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True ordinal labels.
        y_proba : array-like of shape (n_samples, n_classes)
            Predicted probabilities, one column per class in class order.
        labels : array-like of shape (n_classes,), default=None
            The classes in increasing order, one per column of ``y_proba``.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative item weights.
        n_resamples : int, default=1000
            Resamples of the consistency bands; 0 draws none.
        confidence_level : float, default=0.9
            The level of the bands.
        random_state : int, RandomState instance or None, default=None
            Seeds the bands.
        name : str, default=None
            Name shown in the legends.
        kind : {"panels", "overlay"}, default="panels"
            One panel per threshold, or every threshold on one axes.
        ax : matplotlib Axes or array-like of them, default=None
            As in :meth:`plot`.
        ref_line : bool, default=True
            Draw the diagonal of a calibrated forecast.
        **kwargs
            Passed to :meth:`matplotlib.axes.Axes.plot` for the curves.

        Returns
        -------
        display : OrdinalCalibrationDisplay
            The drawn display.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_ordinal.metrics import OrdinalCalibrationDisplay
        >>> display = OrdinalCalibrationDisplay.from_predictions(
        ...     ["low", "high", "mid"], [[0.7, 0.2, 0.1], [0.1, 0.3, 0.6], [0.2, 0.5, 0.3]],
        ...     labels=["low", "mid", "high"], n_resamples=0)
        >>> display.ax_[1].get_title()
        'P(y <= mid)'
        """
        check_matplotlib_support(f"{cls.__name__}.from_predictions")
        curve = ordinal_calibration_curve(
            y_true, y_proba, labels=labels, sample_weight=sample_weight,
            n_resamples=n_resamples, confidence_level=confidence_level,
            random_state=random_state,
        )
        return cls(curve=curve, name=name).plot(ax=ax, kind=kind, ref_line=ref_line, **kwargs)

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: npt.ArrayLike,
        y: npt.ArrayLike,
        *,
        labels: Optional[npt.ArrayLike] = None,
        sample_weight: Optional[npt.ArrayLike] = None,
        n_resamples: int = 1000,
        confidence_level: float = 0.9,
        random_state: Optional[int | np.random.RandomState] = None,
        name: Optional[str] = None,
        kind: Literal["panels", "overlay"] = "panels",
        ax: Axes | npt.ArrayLike | None = None,
        ref_line: bool = True,
        **kwargs: Any,
    ) -> Self:
        """Draw the reliability diagrams of a fitted classifier's ``predict_proba``.

        The columns are put in class order as the probabilistic scorers do: by
        ``labels``, an ordered categorical ``y``, or the classifier's numeric
        ``classes_`` (a class it never saw gets probability 0).

        Parameters
        ----------
        estimator : estimator instance
            A fitted classifier with ``predict_proba`` (or a pipeline ending in one).
        X : array-like of shape (n_samples, n_features)
            Input values.
        y : array-like of shape (n_samples,)
            True ordinal labels.
        labels : array-like of shape (n_classes,), default=None
            The classes in increasing order.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative item weights.
        n_resamples : int, default=1000
            Resamples of the consistency bands; 0 draws none.
        confidence_level : float, default=0.9
            The level of the bands.
        random_state : int, RandomState instance or None, default=None
            Seeds the bands.
        name : str, default=None
            Name shown in the legends; None uses the estimator's class name.
        kind : {"panels", "overlay"}, default="panels"
            One panel per threshold, or every threshold on one axes.
        ax : matplotlib Axes or array-like of them, default=None
            As in :meth:`plot`.
        ref_line : bool, default=True
            Draw the diagonal of a calibrated forecast.
        **kwargs
            Passed to :meth:`matplotlib.axes.Axes.plot` for the curves.

        Returns
        -------
        display : OrdinalCalibrationDisplay
            The drawn display.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_ordinal.metrics import OrdinalCalibrationDisplay
        >>> X, y = [[0], [1], [2], [3], [4], [5]], [1, 1, 2, 2, 3, 3]
        >>> model = LogisticRegression().fit(X, y)
        >>> display = OrdinalCalibrationDisplay.from_estimator(
        ...     model, X, y, n_resamples=0)
        >>> display.lines_[0].get_label().startswith("LogisticRegression (MCB")
        True
        """
        check_matplotlib_support(f"{cls.__name__}.from_estimator")
        classes = _stated_order(estimator, y, labels)
        y_proba, _ = _proba_response(_call_method, estimator, X, classes)
        return cls.from_predictions(
            y, y_proba, labels=classes, sample_weight=sample_weight,
            n_resamples=n_resamples, confidence_level=confidence_level,
            random_state=random_state,
            name=type(estimator).__name__ if name is None else name,
            kind=kind, ax=ax, ref_line=ref_line, **kwargs,
        )
