"""ROC surface display for rankings of three ordered classes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Self

import numpy as np
import numpy.typing as npt

from ..._compat import check_matplotlib_support
from .._ranking import _roc_surface, vus_score
from .._scorer import _scores_response, _stated_order

if TYPE_CHECKING:  # matplotlib is optional and imported only to draw
    from matplotlib.figure import Figure, SubFigure
    from mpl_toolkits.mplot3d import Axes3D
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection


def _call_method(
    estimator: Any, method: str, X: npt.ArrayLike, pos_label: object = None
) -> Any:
    return getattr(estimator, method)(X)


def _check_surface(
    tpr: npt.ArrayLike,
    thresholds: npt.ArrayLike | None,
    class_names: Sequence[Any] | npt.NDArray[Any] | None,
) -> npt.NDArray[Any]:
    """``tpr`` as an (n, 3) array of rates, or a ValueError naming what is wrong."""
    tpr = np.asarray(tpr)
    if tpr.ndim != 2 or tpr.shape[1] != 3 or tpr.dtype.kind not in "biuf":
        raise ValueError(
            f"tpr must be an array of shape (n_points, 3), the true positive rates of the "
            f"three classes, as roc_surface returns; got shape {tpr.shape} of dtype {tpr.dtype}."
        )
    if not (np.isfinite(tpr).all() and (tpr >= 0).all() and (tpr <= 1).all()):
        raise ValueError("tpr must hold rates between 0 and 1.")
    if thresholds is not None and np.shape(thresholds) != (len(tpr), 2):
        raise ValueError(
            f"thresholds must have shape ({len(tpr)}, 2), one pair (b_1, b_2) per point of "
            f"tpr; got shape {np.shape(thresholds)}."
        )
    if class_names is not None and len(class_names) != 3:
        raise ValueError(f"class_names must name the 3 classes; got {list(class_names)}.")
    return tpr


def _surface_triangles(n_points: int) -> npt.NDArray[np.intp]:
    """Triangles of the surface, in the threshold grid ``b_1 <= b_2``.

    :func:`roc_surface` lists the points of the upper triangle of an ``L x L``
    grid of threshold pairs; neighbouring pairs make the facets, so the surface
    keeps its vertical walls where a plain triangulation of the TPR_1-TPR_2
    plane would bridge them.
    """
    size = int(round((np.sqrt(8 * n_points + 1) - 1) / 2))
    if size * (size + 1) // 2 != n_points or size < 2:
        raise ValueError(
            f"tpr has {n_points} points; a ROC surface from roc_surface has L (L + 1) / 2 "
            "points for L >= 2 threshold values."
        )
    lower, upper = np.triu_indices(size)
    point = np.full((size, size), -1)
    point[lower, upper] = np.arange(n_points)
    i, j = np.triu_indices(size - 1)  # cells whose corner (i, j) has b_1 <= b_2
    above = np.column_stack([point[i, j], point[i, j + 1], point[i + 1, j + 1]])
    inside = i < j
    i, j = i[inside], j[inside]
    below = np.column_stack([point[i, j], point[i + 1, j], point[i + 1, j + 1]])
    return np.concatenate([above, below])


class RocSurfaceDisplay:
    """ROC surface of a ranking of three ordered classes.

    Use :meth:`from_estimator` or :meth:`from_predictions` to make one; the points
    come from :func:`~sklearn_ordinal.metrics.roc_surface`. Drawing needs
    matplotlib (``pip install "sklearn-ordinal[plot]"``).

    Parameters
    ----------
    tpr : ndarray of shape (n_points, 3)
        True positive rates ``(TPR_1, TPR_2, TPR_3)``, as returned by
        :func:`~sklearn_ordinal.metrics.roc_surface`.
    thresholds : ndarray of shape (n_points, 2)
        The thresholds ``(b_1, b_2)`` of each point.
    vus : float, default=None
        Volume under the surface, shown in the title. None shows none.
    name : str, default=None
        Name of the ranking, shown in the title.
    class_names : array-like of shape (3,), default=None
        The three classes, in order, for the axis labels.

    Attributes
    ----------
    surface_ : matplotlib Poly3DCollection
        The drawn surface.
    ax_ : matplotlib Axes3D
        The axes of the surface.
    figure_ : matplotlib Figure
        The figure of the axes.

    See Also
    --------
    roc_surface : The points of the surface.
    vus_score : The volume under it.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_ordinal.metrics import RocSurfaceDisplay
    >>> y_true = [0, 0, 1, 1, 2, 2]
    >>> y_score = [0.1, 0.4, 0.3, 0.2, 0.5, 0.6]
    >>> display = RocSurfaceDisplay.from_predictions(y_true, y_score, name="model")
    >>> display.vus
    0.5
    >>> display.ax_.get_title()
    'model (VUS = 0.500)'
    """

    surface_: Poly3DCollection
    ax_: Axes3D
    figure_: Figure | SubFigure

    def __init__(
        self,
        *,
        tpr: npt.NDArray[np.float64],
        thresholds: npt.NDArray[Any],
        vus: float | None = None,
        name: str | None = None,
        class_names: Sequence[Any] | npt.NDArray[Any] | None = None,
    ) -> None:
        self.tpr = tpr
        self.thresholds = thresholds
        self.vus = vus
        self.name = name
        self.class_names = class_names

    def plot(
        self, ax: Axes3D | None = None, *, name: str | None = None, **kwargs: Any
    ) -> Self:
        """Draw the surface.

        Parameters
        ----------
        ax : matplotlib Axes3D, default=None
            Axes with ``projection="3d"`` to draw on; None makes a new figure.
        name : str, default=None
            Name shown in the title; None uses ``self.name``.
        **kwargs
            Passed to :meth:`mpl_toolkits.mplot3d.axes3d.Axes3D.plot_trisurf`.

        Returns
        -------
        display : RocSurfaceDisplay
            This object, with ``surface_``, ``ax_`` and ``figure_`` set.

        Examples
        --------
        Draw points computed elsewhere, here by
        :func:`~sklearn_ordinal.metrics.roc_surface`, on axes of one's own:

        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_ordinal.metrics import RocSurfaceDisplay, roc_surface
        >>> y_true, y_score = [0, 0, 1, 1, 2, 2], [0.1, 0.4, 0.3, 0.2, 0.5, 0.6]
        >>> tpr, thresholds = roc_surface(y_true, y_score)
        >>> display = RocSurfaceDisplay(
        ...     tpr=tpr, thresholds=thresholds, class_names=["low", "mid", "high"]
        ... )
        >>> ax = plt.figure().add_subplot(projection="3d")
        >>> display.plot(ax, name="scores").ax_.get_xlabel()
        'TPR of class low'
        >>> display.ax_.get_title()
        'scores'
        """
        check_matplotlib_support("RocSurfaceDisplay.plot")
        import matplotlib.pyplot as plt

        if ax is None:
            ax = plt.figure().add_subplot(projection="3d")
        elif getattr(ax, "name", None) != "3d":
            raise ValueError(
                "RocSurfaceDisplay draws on 3-D axes; pass "
                "ax=figure.add_subplot(projection='3d')."
            )
        tpr = _check_surface(self.tpr, self.thresholds, self.class_names)
        kwargs = {"cmap": "viridis", "linewidth": 0, **kwargs}
        self.surface_ = ax.plot_trisurf(
            tpr[:, 0], tpr[:, 1], tpr[:, 2], triangles=_surface_triangles(len(tpr)), **kwargs
        )
        classes = ["1", "2", "3"] if self.class_names is None else list(self.class_names)
        ax.set(
            xlabel=f"TPR of class {classes[0]}",
            ylabel=f"TPR of class {classes[1]}",
            zlabel=f"TPR of class {classes[2]}",
            xlim=(0, 1),
            ylim=(0, 1),
            zlim=(0, 1),
        )
        name = self.name if name is None else name
        title = [name] if name is not None else []
        if self.vus is not None:
            title.append(f"(VUS = {self.vus:.3f})" if title else f"VUS = {self.vus:.3f}")
        ax.set_title(" ".join(title))
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    @classmethod
    def from_predictions(
        cls,
        y_true: npt.ArrayLike,
        y_score: npt.ArrayLike,
        *,
        labels: npt.ArrayLike | None = None,
        sample_weight: npt.ArrayLike | None = None,
        max_thresholds: int | None = 100,
        name: str | None = None,
        ax: Axes3D | None = None,
        **kwargs: Any,
    ) -> Self:
        """Draw the ROC surface of given scores.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels of three ordered classes.
        y_score : array-like of shape (n_samples,)
            One real score per item, higher meaning a higher class.
        labels : array-like of shape (3,), default=None
            The three classes in increasing order.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative item weights.
        max_thresholds : int >= 2 or None, default=100
            Draw the points of at most this many values per threshold (see
            :func:`~sklearn_ordinal.metrics.roc_surface`), so that large data
            draw quickly; None draws every point. The VUS in the title is exact.
        name : str, default=None
            Name shown in the title.
        ax : matplotlib Axes3D, default=None
            Axes with ``projection="3d"``; None makes a new figure.
        **kwargs
            Passed to :meth:`mpl_toolkits.mplot3d.axes3d.Axes3D.plot_trisurf`.

        Returns
        -------
        display : RocSurfaceDisplay
            The drawn display; its title gives the exact VUS.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_ordinal.metrics import RocSurfaceDisplay
        >>> y_true = [1, 1, 2, 2, 3, 3]
        >>> y_score = [0.1, 0.4, 0.3, 0.2, 0.5, 0.6]
        >>> display = RocSurfaceDisplay.from_predictions(y_true, y_score, name="scores")
        >>> display.ax_.get_title()
        'scores (VUS = 0.500)'
        >>> len(display.tpr), len(display.thresholds)
        (28, 28)
        """
        check_matplotlib_support(f"{cls.__name__}.from_predictions")
        classes, tpr, thresholds = _roc_surface(
            y_true, y_score, labels, sample_weight, max_thresholds
        )
        vus = vus_score(y_true, y_score, labels=labels, sample_weight=sample_weight)
        display = cls(tpr=tpr, thresholds=thresholds, vus=vus, name=name, class_names=classes)
        return display.plot(ax=ax, **kwargs)

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: npt.ArrayLike,
        y: npt.ArrayLike,
        *,
        labels: npt.ArrayLike | None = None,
        sample_weight: npt.ArrayLike | None = None,
        max_thresholds: int | None = 100,
        name: str | None = None,
        ax: Axes3D | None = None,
        **kwargs: Any,
    ) -> Self:
        """Draw the ROC surface of a fitted estimator's scores on ``X``.

        The scores are those of the ranking scorers: ``decision_function`` when it
        gives one column, else ``predict_proba`` reduced to the expected class
        position, else ``predict`` (mapped to class positions for a classifier).

        Parameters
        ----------
        estimator : estimator instance
            A fitted classifier or regressor (or a pipeline ending in one).
        X : array-like of shape (n_samples, n_features)
            Input values.
        y : array-like of shape (n_samples,)
            True labels of three ordered classes.
        labels : array-like of shape (3,), default=None
            The three classes in increasing order.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative item weights.
        max_thresholds : int >= 2 or None, default=100
            Draw the points of at most this many values per threshold (see
            :func:`~sklearn_ordinal.metrics.roc_surface`), so that large data
            draw quickly; None draws every point. The VUS in the title is exact.
        name : str, default=None
            Name shown in the title; None uses the estimator's class name.
        ax : matplotlib Axes3D, default=None
            Axes with ``projection="3d"``; None makes a new figure.
        **kwargs
            Passed to :meth:`mpl_toolkits.mplot3d.axes3d.Axes3D.plot_trisurf`.

        Returns
        -------
        display : RocSurfaceDisplay
            The drawn display; its title gives the exact VUS.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_ordinal.metrics import RocSurfaceDisplay
        >>> X, y = [[0], [1], [2], [3], [4], [5]], [1, 1, 2, 2, 3, 3]
        >>> model = LogisticRegression().fit(X, y)
        >>> display = RocSurfaceDisplay.from_estimator(model, X, y)
        >>> display.ax_.get_title()
        'LogisticRegression (VUS = 1.000)'
        """
        check_matplotlib_support(f"{cls.__name__}.from_estimator")
        classes = _stated_order(estimator, y, labels)
        y_score = _scores_response(_call_method, estimator, X, classes)
        return cls.from_predictions(
            y,
            y_score,
            labels=classes,  # the order the scores were made in
            sample_weight=sample_weight,
            max_thresholds=max_thresholds,
            name=type(estimator).__name__ if name is None else name,
            ax=ax,
            **kwargs,
        )
