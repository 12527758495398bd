"""Sphinx configuration: API reference from numpydoc docstrings, and the user guide."""

import sklearn_ordinal

project = "sklearn-ordinal"
author = "sklearn-ordinal developers"
copyright = "2026, sklearn-ordinal developers"
release = sklearn_ordinal.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    # Figures drawn at build time, so they cannot drift from the code.
    "matplotlib.sphinxext.plot_directive",
]

autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
templates_path = ["_templates"]
exclude_patterns = ["_build", "generated/*.examples"]
html_theme = "alabaster"
html_static_path = ["_static"]

# Figures of the plot directive: PNG only, no links to source files.
plot_formats = [("png", 100)]
plot_html_show_formats = False
plot_html_show_source_link = False
