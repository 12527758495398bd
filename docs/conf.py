"""Sphinx configuration: API reference, user guide and example gallery.

The build needs no network, neither to build nor to view: MathJax is copied into
the build from the sphinx-mathjax-offline package, the examples run on data that
ship with scikit-learn or statsmodels, and references to other projects' objects become plain
links (see ``_external_reference`` below) instead of intersphinx look-ups.
"""

import importlib
import os

# The examples run in this process. Their models are tiny: multi-threaded BLAS only
# adds start-up costs, and on a busy machine oversubscribed threads make the grid
# searches several times slower. Set before NumPy is first imported.
for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import sklearn_ordinal  # noqa: E402 (after the thread limits)

project = "sklearn-ordinal"
author = "sklearn-ordinal developers"
copyright = "2026, sklearn-ordinal developers"
release = sklearn_ordinal.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    # Copies MathJax 3 into _build/html/_static/mathjax: formulas render offline.
    "sphinx-mathjax-offline",
    "numpydoc",
    # Figures drawn at build time, so they cannot drift from the code.
    "matplotlib.sphinxext.plot_directive",
    "sphinx_gallery.gen_gallery",
    # The changelog page includes CHANGELOG.md, the one copy of it.
    "myst_parser",
]

# Relative to _static; the file is the one sphinx-mathjax-offline copies there.
mathjax_path = "mathjax/tex-chtml.js"

autosummary_generate = True
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
templates_path = ["_templates"]
exclude_patterns = ["_build"]

# Every cross-reference must resolve, here or through _external_reference.
nitpicky = True
# The numpydoc Parameters sections give the types in words; the hints (for type
# checkers, the package ships py.typed) would repeat them in every signature.
autodoc_typehints = "none"
# A signature longer than this puts one parameter per line instead of overflowing.
python_maximum_signature_line_length = 80
# "plot()" rather than "RocSurfaceDisplay.plot()" in the page's table of contents.
toc_object_entries_show_parents = "hide"

html_theme = "pydata_sphinx_theme"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_title = f"sklearn-ordinal {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "header_links_before_dropdown": 4,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# The top bar already links every page; without the left sidebar the text gets the
# width that 100-character code lines need.
html_sidebars = {"**": []}

# Figures of the plot directive: PNG only, no links to source files.
plot_formats = [("png", 100)]
plot_html_show_formats = False
plot_html_show_source_link = False

sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    # Every example runs (a fresh build runs all, a later one those that changed);
    # a failing example fails the build.
    "filename_pattern": "/plot_",
    "abort_on_example_error": True,
    # Sections of the gallery, in this order; a new folder of examples/ must be added
    # here (sphinx-gallery refuses folders it is not told about).
    "subsection_order": [
        "../examples/baselines",
        "../examples/model_selection",
        "../examples/measures",
        "../examples/uncertainty",
        "../examples/evaluation",
    ],
    "within_subsection_order": "FileNameSortKey",
    # Which examples use which object, for the minigallery at the end of each API page.
    "backreferences_dir": "generated/backreferences",
    "doc_module": ("sklearn_ordinal",),
    "download_all_examples": False,
    "remove_config_comments": True,
    # Timing pages vary between builds and tell readers nothing.
    "write_computation_times": False,
}

# Where the documentation of other projects' objects lives, by top-level module:
# the base URL, the page of a module, the page of any other object (named after its
# full dotted name on all these sites), and whether methods and attributes are
# anchors on their class's page (scikit-learn) rather than pages of their own.
_EXTERNAL_DOCS = {
    "sklearn": (
        "https://scikit-learn.org/stable/",
        "api/{name}.html",
        "modules/generated/{page}.html",
        True,
    ),
    "numpy": (
        "https://numpy.org/doc/stable/reference/",
        "routines.html",
        "generated/{page}.html",
        False,
    ),
    "scipy": (
        "https://docs.scipy.org/doc/scipy/reference/",
        "{short}.html",
        "generated/{page}.html",
        False,
    ),
    "pandas": (
        "https://pandas.pydata.org/docs/reference/",
        "index.html",
        "api/{page}.html",
        False,
    ),
    "matplotlib": (
        "https://matplotlib.org/stable/api/",
        "{short}_api.html",
        "_as_gen/{page}.html",
        False,
    ),
    "mpl_toolkits": (
        "https://matplotlib.org/stable/api/",
        "toolkits/index.html",
        "_as_gen/{page}.html",
        False,
    ),
}


def _import_target(name, members_on_class_page):
    """The module, the object and the name of its page, or None if nothing is there."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            obj = module = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        path = [module.__name__]
        for attr in parts[split:]:
            if not hasattr(obj, attr):
                return None
            parent, obj = obj, getattr(obj, attr)
            if not (members_on_class_page and isinstance(parent, type)):
                path.append(attr)
        return module, obj, ".".join(path)
    return None


def _external_reference(app, env, node, contnode):
    """Link references to objects of scikit-learn, NumPy, SciPy, pandas and matplotlib.

    Sphinx calls this for a reference it cannot resolve in this project. The name
    must import: a misspelt ``sklearn.metrics.acuracy_score`` stays unresolved, and
    ``nitpicky`` turns it into a build error.
    """
    from docutils import nodes

    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    site = _EXTERNAL_DOCS.get(target.split(".")[0])
    if site is None:
        return None
    base, module_page, object_page, members_on_class_page = site
    found = _import_target(target, members_on_class_page)
    if found is None:
        return None
    module, obj, page = found
    short = module.__name__.split(".", 1)[-1]
    if obj is module:
        url = base + module_page.format(name=module.__name__, short=short)
    else:
        url = base + object_page.format(page=page)
        if page != target:
            url += "#" + target
    reference = nodes.reference("", "", internal=False, refuri=url, reftitle=target)
    reference += contnode
    return reference


def setup(app):
    app.connect("missing-reference", _external_reference)
