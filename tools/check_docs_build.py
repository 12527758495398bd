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
- Nothing points outside the repository: no source of the docs, the README, the
  package (docstrings included), the examples, the benchmarks or the tests, and no
  built page, cites the project's planning documents (its specification by file
  name or section number, the ``../shared`` folder), which ship with neither the
  package nor the docs. The docs'
  own pages (``docs/user_guide/conventions.rst`` for the shared rules) are cited
  instead.
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


# A citation of a file that is not in the repository. Written so that this file's own
# text does not match.
_OUTSIDE = re.compile(r"SPEC" r"\.md|\bSPEC" r"(?: section)? \d|\.\./shared" r"/|/work/" r"shared")
SOURCES = ("README.md", "CHANGELOG.md", "docs", "sklearn_ordinal", "examples",
           "benchmarks", "tests", "tools")
_SUFFIXES = {".py", ".rst", ".md", ".txt", ".cfg", ".toml"}
_NOT_SOURCES = {"_build", "auto_examples", "gen_modules", "generated", ".venv"}


def outside_references(text):
    """The references to files outside the repository in a text."""
    return [match.group(0) for match in _OUTSIDE.finditer(text)]


def source_files(root=ROOT):
    """The repository's text files that the reader or the package sees."""
    for name in SOURCES:
        path = root / name
        if path.is_file():
            yield path
        elif path.is_dir():
            for file in sorted(path.rglob("*")):
                parts = set(file.relative_to(root).parts)
                if file.suffix in _SUFFIXES and file.is_file() and not parts & _NOT_SOURCES:
                    yield file


def check_sources(root=ROOT):
    """One problem per source line that points outside the repository."""
    problems = []
    for file in source_files(root):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            for found in outside_references(line):
                problems.append(f"{file.relative_to(root)}:{number}: points outside the "
                                f"repository ({found}); cite the docs' own page instead")
    return problems


def check(build):
    problems = check_sources()
    pages = sorted(build.rglob("*.html"))
    if not pages:
        return [f"{build}: no HTML pages; build the docs first"]
    n_math_pages = 0
    machine_paths = _machine_paths()
    for page in pages:
        tags = _parse(page)
        name = page.relative_to(build)
        text = page.read_text(encoding="utf-8")
        for path in absolute_paths(text, machine_paths):
            problems.append(f"{name}: shows the build machine's path {path}")
        for found in outside_references(text):
            problems.append(f"{name}: points outside the repository ({found})")
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
