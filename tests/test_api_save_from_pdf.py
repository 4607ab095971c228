"""A save from a paper's PDF (the toolbar's "Save this page" on a PDF tab, the reader) merges into
the paper its landing page or arXiv saved without replacing that paper's title: the PDF tab's
title is its file's name, the identity the extension titles it by, or what the PDF's tool wrote.
A real title still replaces a stand-in one, whichever comes first. Both stores."""

import json
from pathlib import Path

import pytest

from papershelf.domain.record import is_stand_in_title

ROOT = Path(__file__).resolve().parent
ACM = "https://dl.acm.org/doi/10.1145/3442188.3445922"
ACM_PDF = "https://dl.acm.org/doi/pdf/10.1145/3442188.3445922"
DOI = "10.1145/3442188.3445922"
TITLE = "On the Dangers of Stochastic Parrots: Can Language Models Be Too Big?"
IEEE = "https://ieeexplore.ieee.org/document/7780459"
IEEE_PDF = "https://ieeexplore.ieee.org/stamp/stamp.jsp?tp=&arnumber=7780459"


def _save(client, headers, **body):
    r = client.post("/api/papers", json=body, headers=headers)
    assert r.status_code in (200, 201), r.json
    return r


def _one_paper(client, headers):
    [paper] = client.get("/api/papers", headers=headers).json["items"]
    return paper


@pytest.mark.parametrize(("landing", "pdf_save"), [
    # the toolbar on ACM's PDF: the tab's title is the file's name
    ({"url": ACM, "doi": DOI},
     {"title": "3442188.3445922.pdf", "url": ACM_PDF, "doi": DOI, "pdf_url": ACM_PDF}),
    # a tab with no title: the extension titles the save by the identity
    ({"url": ACM, "doi": DOI},
     {"title": f"doi:{DOI}", "url": ACM_PDF, "doi": DOI, "pdf_url": ACM_PDF}),
    # IEEE's PDF frame: a real-looking title that is the viewer's, not the paper's
    ({"url": IEEE},
     {"title": "IEEE Xplore Full-Text PDF:", "url": IEEE_PDF, "pdf_url": IEEE_PDF}),
    # the reader: the PDF's metadata title, written by the authors' word processor
    ({"url": ACM, "doi": DOI},
     {"title": "Microsoft Word - FAccT21-final.docx", "url": ACM_PDF, "source_url": ACM_PDF,
      "pdf_url": ACM_PDF, "doi": DOI}),
    # the reader on a PDF whose metadata has another title (the proceedings' name)
    ({"url": ACM, "doi": DOI},
     {"title": "FAccT '21: Proceedings of the 2021 ACM Conference", "url": ACM_PDF,
      "source_url": ACM_PDF, "pdf_url": ACM_PDF, "doi": DOI}),
])
def test_a_save_from_the_pdf_keeps_the_landing_pages_title(client, alice, landing, pdf_save):
    first = _save(client, alice, title=TITLE, source_url=landing["url"], **landing)
    again = _save(client, alice, **pdf_save)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json["id"] == first.json["id"]
    assert again.json["title"] == TITLE
    assert again.json["pdf_url"] == pdf_save["url"]  # what the PDF save knew is kept
    assert _one_paper(client, alice)["title"] == TITLE
    found = client.post("/api/papers/lookup", json={"urls": [pdf_save["url"]]},
                        headers=alice).json["papers"]
    assert found[pdf_save["url"]]["id"] == first.json["id"]


def test_an_arxiv_papers_title_is_not_replaced_from_its_pdf_in_the_reader(client, alice):
    abs_page = _save(client, alice, arxiv_id="2603.01234", title="A Real Title From the Page",
                     url="https://arxiv.org/abs/2603.01234")
    pdf = "https://arxiv.org/pdf/2603.01234v2"
    again = _save(client, alice, arxiv_id="2603.01234", arxiv_version=2, title="main.pdf",
                  source_url=pdf + "#page=3", pdf_url=pdf)
    assert again.json["id"] == abs_page.json["id"]
    assert again.json["title"] == "A Real Title From the Page"
    again = _save(client, alice, arxiv_id="2603.01234", title="Preprint. Under review.",
                  source_url=pdf, pdf_url=pdf)
    assert again.json["title"] == "A Real Title From the Page"


@pytest.mark.parametrize("stand_in", ["3442188.3445922.pdf", f"doi:{DOI}", f"https://doi.org/{DOI}"])
def test_a_real_title_replaces_a_stand_in_whichever_save_comes_first(client, alice, stand_in):
    first = _save(client, alice, title=stand_in, url=ACM_PDF, doi=DOI, pdf_url=ACM_PDF)
    assert first.status_code == 201 and first.json["title"] == stand_in  # nothing better yet
    # a later PDF save with a stand-in too changes nothing
    assert _save(client, alice, title="3442188.3445922(1).pdf", url=ACM_PDF,
                 pdf_url=ACM_PDF).json["title"] == stand_in
    # the PDF's own title (the reader) is better than a file's name
    from_reader = _save(client, alice, title="Stochastic Parrots", url=ACM_PDF,
                        source_url=ACM_PDF, pdf_url=ACM_PDF)
    assert from_reader.json["id"] == first.json["id"]
    assert from_reader.json["title"] == "Stochastic Parrots"
    # and the landing page's title is the paper's
    landing = _save(client, alice, title=TITLE, url=ACM, doi=DOI, source_url=ACM)
    assert landing.json["id"] == first.json["id"] and landing.json["title"] == TITLE
    assert _one_paper(client, alice)["title"] == TITLE


def test_a_later_landing_page_save_still_refreshes_the_title(client, alice):
    """A save that is not from the PDF keeps today's rule: the page's title is the newer one."""
    _save(client, alice, title="On the Dangers of Stochastic Parrots", url=ACM, doi=DOI)
    again = _save(client, alice, title=TITLE, url=ACM, doi=DOI, pdf_url=ACM_PDF)
    assert again.json["title"] == TITLE


def test_an_edited_title_stays_whatever_is_saved(client, alice):
    pid = _save(client, alice, title="3442188.3445922.pdf", url=ACM_PDF, pdf_url=ACM_PDF).json["id"]
    r = client.patch(f"/api/papers/{pid}", json={"title": "My Own Title"}, headers=alice)
    assert r.status_code == 200
    assert _save(client, alice, title=TITLE, url=ACM, doi=DOI).json["title"] == "My Own Title"


def test_stand_in_titles_are_those_of_the_shared_cases():
    cases = json.loads((ROOT / "shared" / "titles.json").read_text(encoding="utf-8"))
    for title in cases["file_names"] + cases["identities"]:
        assert is_stand_in_title(title), title
    for title in cases["titles"]:
        assert not is_stand_in_title(title), title
