"""Check the built HTML documentation; exit 1 with one line per problem.

    python tools/check_docs_build.py [docs/_build/html]

- No page loads a script from elsewhere (``<script src="http...">`` or ``//host``):
  the documentation must work offline, math included.
- The pages with math load MathJax from the build, and the file is there.
- Every example of examples/ has its page, with at least one figure, and every
  image that a gallery page shows exists in the build.
- No page shows an absolute path of the build machine (a warning's
  ``/.../site-packages/...:218: UserWarning``, the repository's own folder): the
  text would say where the docs were built, not what the reader will see.
"""

import re
import site
import sys
import sysconfig
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
MATHJAX = "_static/mathjax/tex-chtml.js"


class _Tags(HTMLParser):
    """The ``src`` of every script and image of a page."""

    def __init__(self):
        super().__init__()
        self.scripts, self.images = [], []

    def handle_starttag(self, tag, attrs):
        src = dict(attrs).get("src")
        if src is None:
            return
        if tag == "script":
            self.scripts.append(src)
        elif tag == "img":
            self.images.append(src)


def _parse(page):
    tags = _Tags()
    tags.feed(page.read_text(encoding="utf-8"))
    return tags


def _is_remote(src):
    return bool(urlsplit(src).scheme) or src.startswith("//")


def _local_file(page, src):
    return (page.parent / unquote(urlsplit(src).path)).resolve()


def _machine_paths():
    """Absolute paths of this machine that a page must never show."""
    paths = {str(ROOT), sys.prefix, sys.base_prefix, *site.getsitepackages(),
             sysconfig.get_paths()["purelib"]}
    return sorted({path for path in paths if path and path != "/"}, key=len, reverse=True)


# A path into an installed package, wherever the environment lives.
_SITE_PACKAGES = re.compile(r"/[^\s\"'<>]*/(?:site|dist)-packages/")


def absolute_paths(text, machine_paths):
    """The absolute paths of the build machine in a page's text."""
    found = [path for path in machine_paths if path in text]
    found += _SITE_PACKAGES.findall(text)
    return found


def check(build):
    problems = []
    pages = sorted(build.rglob("*.html"))
    if not pages:
        return [f"{build}: no HTML pages; build the docs first"]
    n_math_pages = 0
    machine_paths = _machine_paths()
    for page in pages:
        tags = _parse(page)
        name = page.relative_to(build)
        for path in absolute_paths(page.read_text(encoding="utf-8"), machine_paths):
            problems.append(f"{name}: shows the build machine's path {path}")
        for src in tags.scripts:
            if _is_remote(src):
                problems.append(f"{name}: loads a remote script {src}")
            elif urlsplit(src).path.endswith("mathjax/tex-chtml.js"):
                n_math_pages += 1
                if not _local_file(page, src).is_file():
                    problems.append(f"{name}: MathJax script {src} is not in the build")
    if n_math_pages == 0:
        problems.append(f"no page loads {MATHJAX}: is mathjax_path set?")
    if not (build / MATHJAX).is_file():
        problems.append(f"{MATHJAX} is missing from the build")

    examples = sorted((ROOT / "examples").rglob("plot_*.py"))
    for example in examples:
        relative = example.relative_to(ROOT / "examples").with_suffix(".html")
        page = build / "auto_examples" / relative
        if not page.is_file():
            problems.append(f"{relative}: the example has no page in the build")
            continue
        images = _parse(page).images
        figure = re.compile(rf"sphx_glr_{re.escape(example.stem)}_\d+\.png$")
        if not any(figure.search(src) for src in images):
            problems.append(f"{relative}: the example page shows no figure")
    for page in sorted((build / "auto_examples").rglob("*.html")):
        for src in _parse(page).images:
            if not _is_remote(src) and not _local_file(page, src).is_file():
                problems.append(f"{page.relative_to(build)}: image {src} is missing")
    print(
        f"checked {len(pages)} pages: {n_math_pages} load MathJax from the build, "
        f"{len(examples)} examples; {len(problems)} problems"
    )
    return problems


def main(argv):
    build = Path(argv[0]) if argv else ROOT / "docs" / "_build" / "html"
    problems = check(build)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
