"""Pytest collects the doctests of the user guide here, not the built gallery.

sphinx-gallery copies the examples into docs/auto_examples/ when the docs are
built; --doctest-modules would import (and so run) each of those copies.
"""

collect_ignore_glob = ["auto_examples/*", "_build/*"]
