"""Numbers read from the text cells of a file, each to the nearest float64."""

import numpy as np
import pandas as pd


def text_to_numbers(cells):
    """The cells of a column as float64, NaN where a cell is no number.

    A number written with ``repr`` (as NumPy and pandas write floats) reads back
    exactly: NumPy's cast from text rounds each one correctly, where
    ``pd.to_numeric`` before pandas 2.2 can land one unit in the last place away
    (a probability row then no longer sums as written). Only a column holding
    something that is not a number (an empty cell, a word) goes through
    ``pd.to_numeric``, whose NaN marks those cells for the caller's message.
    """
    cells = pd.Series(cells)
    try:
        return cells.to_numpy(dtype=np.float64)
    except (ValueError, TypeError):  # pyarrow's ArrowInvalid is a ValueError
        return pd.to_numeric(cells, errors="coerce").to_numpy(dtype=np.float64)
