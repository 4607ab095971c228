"""BibTeX and BibLaTeX export and BibTeX import, over the ugly corpus."""

from __future__ import annotations

import bibtexparser
import pybtex.database
import pybtex.errors
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from papershelf.domain.latex import as_exported, decode_latex, encode_latex, encode_title
from papershelf.domain.names import name_parts, parse_bibtex_names
from papershelf.formats import FormatError, annotation_text
from papershelf.formats.bibtex_read import read_bibtex
from papershelf.formats.bibtex_write import write_biblatex, write_bibtex
from tests.fixtures.records import ugly_records

WRITERS = {"bibtex": write_bibtex, "biblatex": write_biblatex}
OPTIONS = [
    {},
    {"encoding": "utf8"},
    {"abstract": False, "notes_field": "note"},
]


def export(records=None, fmt="bibtex", **options) -> str:
    return "".join(WRITERS[fmt](ugly_records() if records is None else records, **options))


def pybtex_parse(text: str):
    pybtex.errors.set_strict_mode(True)
    return pybtex.database.parse_string(text, "bibtex")


def bibtexparser_parse(text: str):
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    return {e.key: {k.lower(): f.value for k, f in e.fields_dict.items()} for e in library.entries}


def one(record: dict, **options) -> dict:
    """The fields (raw values) of ``record``'s entry, as bibtexparser reads them."""
    entries = bibtexparser_parse(export([record], **options))
    assert len(entries) == 1
    return next(iter(entries.values()))


def by_key(key: str) -> dict:
    return next(r for r in ugly_records() if r["citation_key"] == key)


@pytest.mark.parametrize("fmt", WRITERS)
@pytest.mark.parametrize("options", OPTIONS)
def test_every_export_parses_with_pybtex_strict_and_bibtexparser(fmt, options):
    text = export(fmt=fmt, **options)
    assert len(pybtex_parse(text).entries) == len(ugly_records())
    assert sorted(bibtexparser_parse(text)) == sorted(r["citation_key"] for r in ugly_records())


@pytest.mark.parametrize("fmt", WRITERS)
@pytest.mark.parametrize("options", OPTIONS[:2])
def test_decoded_fields_equal_the_stored_text(fmt, options):
    entries = bibtexparser_parse(export(fmt=fmt, **options))
    for record in ugly_records():
        fields = entries[record["citation_key"]]
        assert decode_latex(fields["title"]) == as_exported(record["title"])
        if record["abstract"]:
            assert decode_latex(fields["abstract"]) == as_exported(record["abstract"])
        else:
            assert "abstract" not in fields
        names, more = parse_bibtex_names(fields.get("author", ""))
        # the same people, name by name; "Smith, John" comes back as "John Smith"
        assert [name_parts(n) for n in names] == [name_parts(a) for a in record["authors"]]
        assert more == (1 if record["authors_more"] else 0)
        expected_annote = annotation_text(record)
        assert decode_latex(fields.get("annote", "")) == as_exported(expected_annote)


def test_decoding_with_plain_latex2text_gives_the_stored_text_for_every_ascii_special():
    from pylatexenc.latex2text import LatexNodes2Text

    text = "a & b % c $ d # e _ f -- g --- h '' i"
    assert LatexNodes2Text().latex_to_text(encode_latex(text)) == text


@pytest.mark.parametrize("fmt", WRITERS)
@pytest.mark.parametrize("options", OPTIONS)
def test_export_import_export_is_byte_identical(fmt, options):
    first = export(fmt=fmt, **options)
    records, skipped = read_bibtex(first)
    assert skipped == []
    assert "".join(WRITERS[fmt](records, **options)) == first


def test_export_is_deterministic():
    assert export() == export()
    assert export().encode("utf-8") == export().encode("utf-8")


def test_arxiv_preprint_is_misc_with_eprint_fields():
    fields = one(by_key("jiang2026asymmetric"))
    assert fields["eprint"] == "2603.01234"  # no version
    assert fields["archiveprefix"] == "arXiv"
    assert fields["primaryclass"] == "cs.LG"
    assert fields["doi"] == "10.48550/arXiv.2603.01234"
    assert fields["url"] == "https://arxiv.org/abs/2603.01234"
    assert fields["year"] == "2026"
    assert fields["month"] == "mar"
    assert export([by_key("jiang2026asymmetric")]).startswith("@misc{jiang2026asymmetric,\n")


def test_old_style_arxiv_id_keeps_its_slash():
    fields = one(by_key("perelman2003entropy"))
    assert fields["eprint"] == "math/0309136"
    assert fields["doi"] == "10.48550/arXiv.math/0309136"


def test_journal_doi_makes_an_article_with_the_journal():
    text = export([by_key("jumper2021highly")])
    assert text.startswith("@article{jumper2021highly,")
    fields = one(by_key("jumper2021highly"))
    assert fields["doi"] == "10.1038/s41586-021-03819-2"
    assert decode_latex(fields["journal"]) == "Nature 596, 583–589 (2021)"
    assert fields["eprint"] == "2107.00001"


def test_authors_are_last_first_and_a_cut_list_ends_in_and_others():
    fields = one(by_key("jiang2026asymmetric"))
    assert fields["author"] == "Jiang, Wei and Li, Bo and van Beethoven, Ludwig and others"


def test_organisations_are_braced_whole():
    fields = one(by_key("x2026accurate"))
    assert fields["author"] == "{Qwen Team} and {OpenAI} and {Google DeepMind}"


def test_pybtex_reads_the_names_as_people_and_organisations():
    persons = pybtex_parse(export([by_key("jiang2026asymmetric")])).entries[
        "jiang2026asymmetric"].persons["author"]
    assert [(p.first_names, p.prelast_names, p.last_names) for p in persons[:3]] == [
        (["Wei"], [], ["Jiang"]), (["Bo"], [], ["Li"]), (["Ludwig"], ["van"], ["Beethoven"])]
    assert str(persons[3]) == "others"


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("LLM agents", "{LLM} agents"),
        ("Scaling GRPO", "Scaling {GRPO}"),
        ("SWE-bench Verified", "{SWE-bench} Verified"),
        ("τ²-Bench", "{{\\ensuremath{\\tau}}{\\texttwosuperior}-Bench}"),
        ("Plain title case Words", "Plain title case Words"),
    ],
)
def test_title_capitals_and_acronyms_are_protected(title, expected):
    assert encode_title(title) == expected
    assert decode_latex(encode_title(title)) == title


def test_utf8_option_keeps_non_ascii_text():
    fields = one(by_key("barres2026bench"), encoding="utf8")
    assert fields["title"].startswith("{τ²-Bench:}")
    assert "Über-naïve café" in fields["abstract"]
    assert "Über" not in one(by_key("barres2026bench"))["abstract"]


def test_abstract_can_be_left_out():
    assert "abstract" not in one(by_key("jiang2026asymmetric"), abstract=False)


def test_notes_and_highlights_go_into_one_annote_field_or_note():
    record = by_key("jiang2026asymmetric")
    text = export([record])
    assert text.count("annote = {") == 1
    fields = one(record)
    assert decode_latex(fields["annote"]) == (
        "Read **twice**.\n\n- check Table 2\n\nSecond note\n\n“LLM agents”\n\n"
        "“proximal policy” — the key idea"
    )
    fields = one(record, notes_field="note")
    assert "annote" not in fields and decode_latex(fields["note"]).startswith("Read **twice**.")


def test_keywords_come_from_tags():
    assert one(by_key("jiang2026asymmetric"))["keywords"] == "rl, agents"


@pytest.mark.parametrize("evil", [
    "}", "{", "}}}}", "{{{{", "\\", "\\}", "\\{", "%", "@misc{x,", "\n@misc{x, title={y}}\n",
    "\n  @comment{", "\\end{document}", "\"", "}\n}\n@misc{evil,", "#", "x = {y}", "\\\\}",
])
@pytest.mark.parametrize("field", ["title", "abstract", "note", "author", "tag", "comment"])
def test_nothing_a_user_types_unbalances_or_ends_an_entry(evil, field):
    record = by_key("jiang2026asymmetric")
    if field == "note":
        record["notes"][0]["body"] = evil
    elif field == "author":
        record["authors"][0] = evil
    elif field == "tag":
        record["tags"] = [evil]
    elif field == "comment":
        record["highlights"][0]["comment"] = evil
    else:
        record[field] = evil
    other = by_key("perelman2003entropy")
    text = export([record, other])
    assert list(pybtex_parse(text).entries) == ["jiang2026asymmetric", "perelman2003entropy"]
    assert sorted(bibtexparser_parse(text)) == ["jiang2026asymmetric", "perelman2003entropy"]
    records, _ = read_bibtex(text)
    assert "".join(write_bibtex(records)) == text


_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=60)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=_text.filter(lambda t: t.strip()), abstract=_text, note=_text, comment=_text)
def test_any_text_survives_export_and_decodes_to_itself(title, abstract, note, comment):
    record = by_key("jiang2026asymmetric")
    record.update(title=title, abstract=abstract)
    record["notes"][0]["body"] = note
    record["highlights"][0]["comment"] = comment
    text = export([record])
    pybtex_parse(text)
    fields = bibtexparser_parse(text)["jiang2026asymmetric"]
    assert decode_latex(fields["title"]) == title
    assert decode_latex(fields.get("abstract", "")) == abstract
    assert decode_latex(fields["annote"]) == annotation_text(record)


def test_plain_ascii_text_takes_the_fast_path():
    text = "A plain abstract, with nothing LaTeX would read as syntax."
    assert encode_latex(text) is text


# --- reading ---------------------------------------------------------------------------------

ZOTERO = r"""
@article{vaswani_attention_2017,
	title = {Attention {Is} {All} {You} {Need}},
	url = {http://arxiv.org/abs/1706.03762},
	doi = {10.48550/arXiv.1706.03762},
	abstract = {The dominant sequence transduction models {\textendash} based on RNNs.},
	urldate = {2024-01-01},
	publisher = {arXiv},
	author = {Vaswani, Ashish and Shazeer, Noam and Gomez, Aidan N. and Kaiser, {\L}ukasz},
	month = dec,
	year = {2017},
	note = {arXiv:1706.03762 [cs]},
	keywords = {Computer Science - Computation and Language, Computer Science - Machine Learning},
}

@inproceedings{noarxiv,
  title = "A {DOI} only paper",
  author = "M{\"u}ller, J{\"o}rg",
  booktitle = {Proc. Things},
  year = 2020,
  doi = {https://doi.org/10.1145/1234.5678},
}

@comment{ignored}
@misc{notitle, author = {Nobody}}
"""


def test_reads_a_zotero_export():
    records, skipped = read_bibtex(ZOTERO)
    assert skipped == [{"key": "notitle", "reason": "no title"}]
    first, second = records
    assert first["title"] == "Attention Is All You Need"
    assert first["entry_type"] == "article" and second["entry_type"] == "inproceedings"
    assert first["arxiv_id"] == "1706.03762"
    assert first["doi"] is None  # the arXiv DOI is implied by the id
    assert first["url"] is None
    assert first["authors"] == ["Ashish Vaswani", "Noam Shazeer", "Aidan N. Gomez", "Łukasz Kaiser"]
    assert (first["published"], first["published_precision"]) == ("2017-12-01", "month")
    assert first["abstract"] == "The dominant sequence transduction models – based on RNNs."
    assert first["tags"] == ["Computer Science - Computation and Language",
                             "Computer Science - Machine Learning"]
    assert first["citation_key"] == "vaswani_attention_2017"
    # a BibTeX note is part of the reference (styles print it): it stays a field, not a note
    assert first["notes"] == []
    assert first["extra"] == {"urldate": "2024-01-01", "note": "arXiv:1706.03762 [cs]"}
    assert first["publisher"] == "arXiv"
    assert first["verbatim"]["title"][0] == "Attention {Is} {All} {You} {Need}"  # braces kept
    assert second["authors"] == ["Jörg Müller"]
    assert second["doi"] == "10.1145/1234.5678"
    assert (second["published"], second["published_precision"]) == ("2020-01-01", "year")
    assert second["booktitle"] == "Proc. Things"
    assert second["arxiv_id"] is None


def test_reads_versioned_eprints_and_biblatex_dates():
    records, _ = read_bibtex(
        "@online{k, title={T}, eprint={arXiv:2603.01234v3}, eprinttype={arxiv}, date={2026-03-02}}"
    )
    assert (records[0]["arxiv_id"], records[0]["arxiv_version"]) == ("2603.01234", 3)
    assert records[0]["published"] == "2026-03-02"


def test_entries_sharing_a_key_are_both_read():
    # (the import gives the second a key of its own and says so)
    records, skipped = read_bibtex("@misc{a, title={One}}\n@misc{a, title={Two}}\n")
    assert [(r["citation_key"], r["title"]) for r in records] == [("a", "One"), ("a", "Two")]
    assert skipped == []


def test_an_entry_that_does_not_parse_costs_only_itself():
    records, problems = read_bibtex(
        "@misc{a, title = {x}}\n@misc{b, title = {y\n@misc{c, title={z}}")
    assert [r["citation_key"] for r in records] == ["a", "c"]
    assert problems == [{"key": "b", "reason": "the entry starting on line 2 does not parse"}]


@pytest.mark.parametrize("text", [
    "@misc{a, title = {unclosed\n",
    "this is not bibtex at all",
    '{"items": []}',
])
def test_a_malformed_file_raises_a_clear_error(text):
    with pytest.raises(FormatError) as info:
        read_bibtex(text)
    assert "BibTeX" in info.value.message


def test_an_empty_file_reads_as_nothing():
    assert read_bibtex("  \n") == ([], [])


_name = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
                max_size=30).filter(lambda n: n.strip())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(_name, min_size=1, max_size=4), tags=st.lists(_name, max_size=3))
def test_any_author_names_and_tags_survive_export_and_import(names, tags):
    record = by_key("jiang2026asymmetric")
    record.update(authors=names, tags=tags)
    text = export([record])
    pybtex_parse(text)
    bibtexparser_parse(text)
    (back,), skipped = read_bibtex(text)
    assert skipped == []
    assert [name_parts(n) for n in back["authors"]] == [name_parts(n) for n in names]
    assert back["tags"] == [" ".join(t.split()) for t in tags]
    assert "".join(write_bibtex([back])) == text


def read_one(text: str) -> tuple[dict, list[dict]]:
    records, problems = read_bibtex(text)
    assert len(records) == 1
    return records[0], problems


def test_string_macros_and_concatenation_resolve_as_bibtex_resolves_them():
    record, problems = read_one('@string{jgr = "J. Geophys. Res."}\n@STRING(sep = {: })\n'
                                "@article{k, title = {T}, journal = jgr # sep # {Atmospheres},"
                                " month = jan # {~1}, year = 2019}")
    assert problems == []
    assert record["journal"] == "J. Geophys. Res.: Atmospheres"
    assert (record["published"], record["published_precision"]) == ("2019-01-01", "month")


def test_an_undefined_macro_is_kept_as_its_name_and_reported():
    record, (problem,) = read_one("@article{k, title = {T}, journal = jcp}")
    assert record["journal"] == "jcp"
    assert problem["imported"] is True and "jcp" in problem["fields"]["@string"][0]


def test_a_repeated_field_keeps_the_first_as_bibtex_does():
    record, (problem,) = read_one("@misc{k, title = {First}, title = {Second}, year = 2020,"
                                  " year = 2020}")
    assert record["title"] == "First"
    assert list(problem["fields"]) == ["title"]  # the same value twice says nothing new


def test_biblatex_fields_and_a_cut_list_are_read():
    record, _ = read_one("@article{k, title = {T}, author = {A, B and others}, editor = {C, D},"
                         " journaltitle = {J}, date = {2020-02-30}, url = {www.example.org/p}}")
    assert (record["authors"], record["authors_more"], record["editors"]) == (["B A"], 1, ["D C"])
    assert record["journal"] == "J"
    # (February has no 30th: the month is what the date says for sure)
    assert (record["published"], record["published_precision"]) == ("2020-02-01", "month")
    assert record["url"] == "http://www.example.org/p"


def test_a_field_kept_as_written_is_written_back_only_while_it_holds():
    record, _ = read_one("@article{k, title = {Measurement of $\\PQb$-tagged jets in {pp}},"
                         " year = {2019a}}")
    text = export([record])
    assert "title = {Measurement of $\\PQb$-tagged jets in {pp}}" in text
    assert "year = {2019a}" in text  # the file's own year (an alpha-style suffix)
    record["title"] = "Edited"
    record["published"] = "2020-01-01"
    text = export([record])
    assert "title = {Edited}" in text and "year = {2020}" in text and "2019a" not in text


def test_other_fields_come_back_in_one_order_and_never_break_an_entry():
    record, _ = read_one("@book{k, title = {T}, series = {S}, address = {A}, isbn = {1}}")
    assert list(record["extra"]) == ["series", "address", "isbn"]
    record["extra"]["note"] = "}\n@misc{evil, title={x}}"  # as a careless API client could set
    text = export([record])
    fields = bibtexparser_parse(text)["k"]
    assert [f for f in fields if f in ("address", "isbn", "series", "note")] == [
        "address", "isbn", "series", "note"]
    pybtex_parse(text)
