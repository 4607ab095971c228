"""The exports compile: the BibTeX export of the ugly corpus and of the real-world bibliographies
(tests/fixtures/bib) with bibtex and pdflatex, the BibLaTeX export with biber and pdflatex, in
LaTeX and in UTF-8 encoding, without errors."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from papershelf.formats.bibtex_read import read_bibtex
from papershelf.formats.bibtex_write import write_biblatex, write_bibtex
from tests._require import require_or_skip
from tests.fixtures.records import ugly_records
from tests.test_import_corpus import BIB_FILES, decoded

# hyperref: \href and \url, which imported entries use (their authors' documents load it)
DOCUMENT = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage{hyperref}
\providecommand{\PQb}{b}%% a macro an imported title uses, as the user's document defines it
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
    BibTeX and LaTeX read the file, not the glyphs. Latin letters (U+00A0–U+017F) are left to
    LaTeX's own UTF-8 support, which is what a UTF-8 export relies on."""
    chars = sorted({c for c in bib if ord(c) > 127 and not 0xA0 <= ord(c) <= 0x17F})
    return "\n".join(rf"\DeclareUnicodeCharacter{{{ord(c):04X}}}{{?}}" for c in chars)


def _corpus_records() -> list[dict]:
    """Every entry of the real-world bibliographies, as the reader keeps them, with keys unique
    without regard to case (as the store makes them)."""
    records, seen = [], set()
    for path in BIB_FILES:
        for record in read_bibtex(decoded(path))[0]:
            key = record["citation_key"] or "nokey"
            while key.lower() in seen:
                key += "x"
            seen.add(key.lower())
            records.append({**record, "citation_key": key})
    return sorted(records, key=lambda r: r["citation_key"])


def _document(folder, bib: str, template: str, style: str) -> list[str]:
    """Write refs.bib and doc.tex into ``folder``; the pdflatex command that compiles them."""
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    (folder / "doc.tex").write_text(
        template % {"declarations": _declarations(bib), "style": style}, encoding="utf-8")
    return ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]


def _run(args, cwd):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, errors="replace",
                          timeout=120)


CORPORA = {"ugly records": ugly_records, "real bibliographies": _corpus_records}


@pytest.mark.parametrize("corpus", CORPORA)
@pytest.mark.parametrize("style", ["plain", "unsrt", "alpha", "abbrv"])
def test_the_bibtex_export_compiles(tmp_path, style, corpus):
    if not (shutil.which("bibtex") and shutil.which("pdflatex")):
        require_or_skip("latex", "bibtex and pdflatex are not installed")
    records = CORPORA[corpus]()
    latex = _document(tmp_path, "".join(write_bibtex(records)), DOCUMENT, style)

    first = _run(latex, tmp_path)
    assert first.returncode == 0, first.stdout[-3000:]
    bibtex = _run(["bibtex", "doc"], tmp_path)
    log = (tmp_path / "doc.blg").read_text(errors="replace")
    assert bibtex.returncode == 0, log
    assert "error message" not in log, log
    bbl = (tmp_path / "doc.bbl").read_text(errors="replace")
    assert len(re.findall(r"\\bibitem", bbl)) == len(records)
    for _ in range(2):
        final = _run(latex, tmp_path)
        assert final.returncode == 0, final.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 0
    assert "Citation" not in final.stdout or "undefined" not in final.stdout


BIBLATEX_DOCUMENT = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage[backend=biber,style=%(style)s]{biblatex}
\usepackage{hyperref}
\providecommand{\PQb}{b}%% a macro an imported title uses, as the user's document defines it
%(declarations)s
\addbibresource{refs.bib}
\begin{document}
Citing everything.\nocite{*}
\printbibliography
\end{document}
"""


def _biblatex_installed() -> bool:
    if not (shutil.which("biber") and shutil.which("pdflatex") and shutil.which("kpsewhich")):
        return False
    found = subprocess.run(["kpsewhich", "biblatex.sty"], capture_output=True, text=True)
    return bool(found.stdout.strip())


@pytest.mark.parametrize("corpus", CORPORA)
@pytest.mark.parametrize("encoding", ["latex", "utf8"])
@pytest.mark.parametrize("style", ["numeric", "alphabetic", "authoryear"])
def test_the_biblatex_export_compiles_with_biber(tmp_path, style, encoding, corpus):
    if not _biblatex_installed():
        require_or_skip("latex", "biber, pdflatex or biblatex.sty is not installed")
    records = CORPORA[corpus]()
    latex = _document(tmp_path, "".join(write_biblatex(records, encoding=encoding)),
                      BIBLATEX_DOCUMENT, style)

    first = _run(latex, tmp_path)
    assert first.returncode == 0, first.stdout[-3000:]
    biber = _run(["biber", "doc"], tmp_path)
    assert biber.returncode == 0, biber.stdout[-3000:]
    assert "ERROR" not in biber.stdout, biber.stdout[-3000:]
    # what biber wrote for pdfLaTeX: Aza{\"{i}}s became "Azaïs", never a dotless i and a
    # combining diaeresis (which stops pdfLaTeX)
    bbl = (tmp_path / "doc.bbl").read_text(encoding="utf-8", errors="replace")
    assert "\u0308" not in bbl
    assert bbl.count("\\entry{") == len(records)
    final = _run(latex, tmp_path)
    assert final.returncode == 0, final.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 0
