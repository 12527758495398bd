"""Warnings that point at the user's line.

A measure is reached through scikit-learn's parameter validation, scorers and
cross-validation, and through this package's own layers, so no fixed ``stacklevel``
names the user's call: the warning is attributed to the first frame outside this
package and outside scikit-learn (and the standard library's ``functools``, which
partials pass through), which is the line the user wrote.
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from types import FrameType

import sklearn

_INTERNAL = tuple(
    os.path.dirname(str(module.__file__)) + os.sep
    for module in (sys.modules[__name__.rpartition(".")[0]], sklearn)
) + (str(functools.__file__),)


def _user_stacklevel() -> int:
    """The ``stacklevel`` of the caller's caller's first frame outside the package."""
    frame: FrameType | None = sys._getframe(2)  # the caller of warn_user
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(_INTERNAL):
        frame = frame.f_back
        level += 1
    return level


def warn_user(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn(message, category)`` attributed to the user's line."""
    warnings.warn(message, category, stacklevel=_user_stacklevel())
