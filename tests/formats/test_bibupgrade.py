"""Surgery on any .bib file (formats.bibupgrade): entries found as written, arXiv ids found
where people put them, one entry rewritten and every other byte kept."""

import pytest

from papershelf.formats.bibtex_read import read_bibtex
from papershelf.formats.bibupgrade import arxiv_of, is_preprint, scan, upgrade

NEURIPS = {"entry_type": "inproceedings", "venue": "NeurIPS 2017",
           "booktitle": "Advances in Neural Information Processing Systems 30", "journal": None,
           "year": 2017, "volume": None, "number": None, "pages": "5998\u20136008",
           "publisher": None, "doi": None, "dblp": "conf/nips/VaswaniSPUJGKP17",
           "source": "semantic_scholar"}
PRL = {"entry_type": "article", "venue": "Physical Review Letters", "booktitle": None,
       "journal": "Physical Review Letters", "year": 2016, "volume": "116", "number": "6",
       "pages": "061102", "publisher": "American Physical Society (APS)",
       "doi": "10.1103/physrevlett.116.061102", "source": "arxiv"}


@pytest.mark.parametrize("entry,arxiv", [
    ("@article{a, journal={arXiv preprint arXiv:1706.03762}, year={2017}}", "1706.03762"),
    ("@misc{a, eprint={1706.03762v5}, archivePrefix={arXiv}}", "1706.03762"),
    ("@misc{a, eprint = \"1706.03762\", eprinttype = {arxiv}}", "1706.03762"),
    ("@misc{a, note = {arXiv:hep-th/9901001}}", "hep-th/9901001"),
    ("@misc{a, url={https://arxiv.org/abs/1512.03385v1}}", "1512.03385"),
    ("@misc{a, howpublished={\\url{https://arxiv.org/pdf/2301.00001.pdf}}}", "2301.00001"),
    ("@article{a, journal={CoRR}, volume={abs/1412.6980}}", None),
    ("@misc{a, eprint={hal-0123}, archivePrefix={HAL}}", None),
    ("@book{a, title={Deep learning}, publisher={MIT press}}", None),
])
def test_arxiv_ids_where_people_put_them(entry, arxiv):
    assert arxiv_of(scan(entry)[0]) == arxiv


def test_preprints_by_venue_without_an_id():
    assert is_preprint(scan("@misc{a, title={T}, howpublished={arXiv}}")[0])
    assert is_preprint(scan("@article{a, title={T}, journal={CoRR}, volume={abs/1412.6980}}")[0])
    assert not is_preprint(scan("@article{a, title={T}, journal={Nature}}")[0])


UGLY = """% a comment with an @ sign: @misc{not, an entry}
@string{ arx = "arXiv" }
@comment{ @article{commented, title={out}} }
@preamble{ "\\newcommand{\\noop}[1]{}" }

@ARTICLE( vaswani,
  Title = "Attention is {All} You Need",
  author = {Vaswani, Ashish and Shazeer, Noam},
  journal = arx # { preprint arXiv:1706.03762},
  year = 2017,
  abstract = {Braces {inside {nested}} and \\{escaped\\} ones},
  note={arXiv preprint}
)

@misc{last,title={No trailing comma},eprint={1602.03837},archivePrefix={arXiv},year={2016}}
"""


def test_ugly_files_scan_as_written():
    entries = scan(UGLY)
    assert [e.key for e in entries] == ["vaswani", "last"]
    v = entries[0]
    assert v.type == "article" and v.get("title") == "Attention is {All} You Need"
    assert v.get("year") == "2017" and "nested" in v.get("abstract")


def test_upgrading_one_entry_keeps_every_other_byte():
    entries = scan(UGLY)
    out = upgrade(UGLY, entries[0], NEURIPS)
    before, after = UGLY[:entries[0].start], out[:entries[0].start]
    assert before == after  # everything before the entry
    tail = UGLY[entries[0].end:]
    assert out.endswith(tail)  # everything after it
    entry = out[entries[0].start:len(out) - len(tail)]
    assert entry.startswith("@inproceedings( vaswani,") and entry.endswith(")")
    assert "booktitle = {Advances in Neural Information Processing Systems 30}" in entry
    assert "pages = {5998--6008}" in entry and "year = {2017}" in entry
    assert "journal" not in entry and "arXiv preprint" not in entry  # said only "preprint"
    assert 'Title = "Attention is {All} You Need"' in entry  # kept as written
    assert "Braces {inside {nested}}" in entry
    records, _ = read_bibtex(out)
    assert [r["citation_key"] for r in records] == ["vaswani", "last"]
    assert records[0]["entry_type"] == "inproceedings"


def test_upgrading_to_a_journal_article_adds_its_fields_after_the_others():
    entries = scan(UGLY)
    out = upgrade(UGLY, entries[1], PRL)
    entry = out[entries[1].start:]
    assert entry.startswith("@article{last,title={No trailing comma},eprint={1602.03837}")
    assert "journal = {Physical Review Letters}" in entry and "volume = {116}" in entry
    assert "doi = {10.1103/physrevlett.116.061102}" in entry and "year = {2016}" in entry
    assert read_bibtex(out)[0][1]["journal"] == "Physical Review Letters"


def test_short_venue_names():
    entries = scan(UGLY)
    assert "booktitle = {NeurIPS 2017}" in upgrade(UGLY, entries[0], NEURIPS, venue="short")


@pytest.mark.parametrize("text", [
    "", "@", "@misc{", "@misc{a, title={unclosed", "no entries at all", "@misc{a}",
    "@misc{a,,,, title = {T},, }", "@misc{a, = {no name}}", "@{nokind, title={T}}",
])
def test_broken_files_never_raise(text):
    for entry in scan(text):
        assert upgrade(text, entry, NEURIPS)
