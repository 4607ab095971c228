"""The BibTeX export of the ugly corpus compiles: bibtex and pdflatex run on it without errors."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from papershelf.formats.bibtex import write_bibtex
from tests._require import require_or_skip
from tests.fixtures.records import ugly_records

DOCUMENT = r"""\documentclass{article}
\usepackage[T1]{fontenc}
%(declarations)s
\begin{document}
Citing everything.\nocite{*}
\bibliographystyle{%(style)s}
\bibliography{refs}
\end{document}
"""


def _declarations(bib: str) -> str:
    """Characters the export keeps as UTF-8 (CJK, emoji) need a font a test machine lacks; a
    real document loads one (CJKutf8, xeCJK). Here each prints as ``?``: what is tested is that
    BibTeX and LaTeX read the file, not the glyphs."""
    chars = sorted({c for c in bib if ord(c) > 127})
    return "\n".join(rf"\DeclareUnicodeCharacter{{{ord(c):04X}}}{{?}}" for c in chars)


def _run(args, cwd):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, errors="replace",
                          timeout=120)


@pytest.mark.parametrize("style", ["plain", "unsrt", "alpha", "abbrv"])
def test_the_bibtex_export_compiles(tmp_path, style):
    if not (shutil.which("bibtex") and shutil.which("pdflatex")):
        require_or_skip("latex", "bibtex and pdflatex are not installed")
    bib = "".join(write_bibtex(ugly_records()))
    (tmp_path / "refs.bib").write_text(bib, encoding="utf-8")
    (tmp_path / "doc.tex").write_text(
        DOCUMENT % {"declarations": _declarations(bib), "style": style}, encoding="utf-8")
    latex = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]

    first = _run(latex, tmp_path)
    assert first.returncode == 0, first.stdout[-3000:]
    bibtex = _run(["bibtex", "doc"], tmp_path)
    log = (tmp_path / "doc.blg").read_text(errors="replace")
    assert bibtex.returncode == 0, log
    assert "error message" not in log, log
    bbl = (tmp_path / "doc.bbl").read_text(errors="replace")
    assert len(re.findall(r"\\bibitem", bbl)) == len(ugly_records())
    for _ in range(2):
        final = _run(latex, tmp_path)
        assert final.returncode == 0, final.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 0
    assert "Citation" not in final.stdout or "undefined" not in final.stdout
