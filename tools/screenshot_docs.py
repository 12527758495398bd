"""Screenshot key pages of the built documentation with headless Chromium.

Not run by CI: it is for a person to look at the pages (math rendered, nothing
overflowing, figures present) without a browser at hand. Needs Debian's Chromium
(``apt-get update && apt-get install -y chromium``) and a built documentation
(``python -m sphinx -b html docs docs/_build/html``)::

    python tools/screenshot_docs.py [--build docs/_build/html] [--out docs/_build/screenshots]

Each page becomes a PNG of 1280 x 2000 pixels; the command prints their paths. The
pages load from file:// into a fresh profile with Chromium's own background traffic
(updates, sync) off; since no page loads anything remote (tools/check_docs_build.py
checks that), what shows is what an offline reader sees.
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The pages that show the most at risk: formulas, wide signatures and code, figures.
PAGES = (
    "index.html",
    "quick_start.html",
    "user_guide/choosing.html",
    "user_guide/conventions.html",
    "benchmarks.html",
    "user_guide/error_measures.html",
    "user_guide/closeness.html",
    "api.html",
    "generated/sklearn_ordinal.metrics.cem_score.html",
    "generated/sklearn_ordinal.metrics.RocSurfaceDisplay.html",
    "generated/sklearn_ordinal.dummy.TrivialOrdinalClassifier.html",
    "auto_examples/index.html",
    "auto_examples/baselines/plot_trivial_baseline.html",
    "auto_examples/measures/plot_roc_surface.html",
)

FLAGS = (
    "--headless",
    "--no-sandbox",  # Chromium refuses to run as root with its sandbox
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--window-size=1280,2000",
    # MathJax typesets after the page loads; give it time before the shot.
    "--virtual-time-budget=5000",
)


def _browser():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("Chromium not found: apt-get update && apt-get install -y chromium")


def screenshot(browser, page, png):
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [browser, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={png}",
             page.as_uri()],
            check=True,
            capture_output=True,
            timeout=120,
        )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=Path, default=ROOT / "docs" / "_build" / "html")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "_build" / "screenshots")
    args = parser.parse_args(argv)
    browser = _browser()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in PAGES:
        page = (args.build / name).resolve()
        if not page.is_file():
            sys.exit(f"{page} does not exist: build the documentation first")
        png = args.out.resolve() / (name.replace("/", "__").removesuffix(".html") + ".png")
        screenshot(browser, page, png)
        print(png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
