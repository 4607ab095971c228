"""Names by BibTeX's rules: reading a BibTeX name, the display forms, writing it back, keys."""

from __future__ import annotations

import pybtex.database
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from papershelf.domain.citekey import make_citation_key
from papershelf.domain.latex import decode_latex
from papershelf.domain.names import (
    NameParts,
    bibtex_name,
    display_name,
    format_bibtex_name,
    is_organisation,
    last_name,
    name_parts,
    parse_bibtex_name,
    parse_bibtex_names,
)

# (as a .bib file writes it, the display name papershelf keeps, how the BibTeX export writes it)
NAMES = [
    ("Ai, Tao", "Tao Ai", "Ai, Tao"),
    ("Den Hertog, M I", "Den Hertog, M I", "Den Hertog, M I"),
    ("Guzm{\\'a}n Cervantes, Jos{\\'e}", "Guzmán Cervantes, José", "Guzm{\\'a}n Cervantes, Jos{\\'e}"),
    ("Da Lozzo, Giordano", "Da Lozzo, Giordano", "Da Lozzo, Giordano"),
    ("van Beethoven, Ludwig", "Ludwig van Beethoven", "van Beethoven, Ludwig"),
    ("Ludwig van Beethoven", "Ludwig van Beethoven", "van Beethoven, Ludwig"),
    ("de la Fuente, Juan", "Juan de la Fuente", "de la Fuente, Juan"),
    ("King, Jr., Martin Luther", "Martin Luther King Jr.", "King, Jr., Martin Luther"),
    ("{Qwen Team}", "Qwen Team", "{Qwen Team}"),
    ("{European Space Agency}", "European Space Agency", "{European Space Agency}"),
    ("{Nicolas Bourbaki}", "{Nicolas Bourbaki}", "{Nicolas Bourbaki}"),  # one unit, not a person
    ("Kaiser, {\\L}ukasz", "Łukasz Kaiser", "Kaiser, {\\L}ukasz"),
    ("M{\\\"u}ller, J{\\\"o}rg", "Jörg Müller", "M{\\\"u}ller, J{\\\"o}rg"),
    ("Viktorov, Michail~Markovitch", "Michail Markovitch Viktorov", "Viktorov, Michail Markovitch"),
    ("danah boyd", "danah boyd", "danah boyd"),
    # a braced surname can only be written back as read from the file (a paper keeps that)
    ("{de Souza}, Xavier", "de Souza, Xavier", "de Souza, Xavier"),
    ("Perelman", "Perelman", "{Perelman}"),  # one word, no given name: one unit
    ("Press, Ofir", "Ofir Press", "Press, Ofir"),
    ("{OpenAI}", "OpenAI", "{OpenAI}"),
]


@pytest.mark.parametrize(("bib", "display", "written"), NAMES)
def test_a_bibtex_name_keeps_its_surname_through_import_and_export(bib, display, written):
    (name,), more = parse_bibtex_names(bib)
    assert (name, more) == (display, 0)
    assert bibtex_name(name) == written


def pybtex_parts(bib: str) -> NameParts:
    person = pybtex.database.Person(bib)

    def text(words):
        return " ".join(" ".join(decode_latex(w).split()) for w in words)

    return NameParts(text(person.first_names + person.middle_names), text(person.prelast_names),
                     text(person.last_names), text(person.lineage_names))


@pytest.mark.parametrize(("bib", "display", "written"), [n for n in NAMES if not n[0].startswith("{")])
def test_names_split_as_pybtex_splits_them(bib, display, written):
    assert parse_bibtex_name(bib) == pybtex_parts(bib)
    assert parse_bibtex_name(written) == pybtex_parts(written)


# (display name, its citation key, its BibTeX author): people whose names are also a company's or
# a common word are people; organisations are known by the form of their name
PEOPLE = [
    ("Meta Kowalski", "kowalski2024scaling", "Kowalski, Meta"),
    ("Ofir Press", "press2024scaling", "Press, Ofir"),
    ("Apple Xu", "xu2024scaling", "Xu, Apple"),
    ("Amazon Smith", "smith2024scaling", "Smith, Amazon"),
    ("Ai Nakamura", "nakamura2024scaling", "Nakamura, Ai"),
    ("Li Ai", "ai2024scaling", "Ai, Li"),
    ("Tao Ai", "ai2024scaling", "Ai, Tao"),
    ("Van Nguyen", "nguyen2024scaling", "Nguyen, Van"),
    ("Google Chen", "chen2024scaling", "Chen, Google"),
    ("Hope Open", "open2024scaling", "Open, Hope"),
    ("AJ Smith", "smith2024scaling", "Smith, AJ"),
    ("J. R. R. Tolkien", "tolkien2024scaling", "Tolkien, J. R. R."),
    ("José María Álvarez de la Fuente", "delafuente2024scaling",
     "de la Fuente, Jos{\\'e} Mar{\\'{i}}a {\\'A}lvarez"),
    ("ZHANG, Wei", "zhang2024scaling", "ZHANG, Wei"),  # Last, First: a person's
    # a surname written in capitals after the given names is a surname, not an acronym
    ("Wei ZHANG", "zhang2024scaling", "ZHANG, Wei"),
    ("Kaiming HE", "he2024scaling", "HE, Kaiming"),
    ("J. R. R. TOLKIEN", "tolkien2024scaling", "TOLKIEN, J. R. R."),
    ("Jörg MÜLLER", "muller2024scaling", "M{\\\"U}LLER, J{\\\"o}rg"),
    # ... and before them (as Chinese, Korean and Japanese names are often written)
    ("ZHANG Wei", "zhang2024scaling", "ZHANG, Wei"),
    ("HE Kaiming", "he2024scaling", "HE, Kaiming"),
    ("LI Fei-Fei", "li2024scaling", "LI, Fei-Fei"),
    ("KIM Min-jun", "kim2024scaling", "KIM, Min-jun"),
    ("ZHANG Xiao Ming", "zhang2024scaling", "ZHANG, Xiao Ming"),
    ("MÜLLER Jörg", "muller2024scaling", "M{\\\"U}LLER, J{\\\"o}rg"),
    ("ED Smith", "smith2024scaling", "Smith, ED"),  # two capitals, a vowel first: initials
]
ORGANISATIONS = [
    ("OpenAI", "openai2024scaling", "{OpenAI}"),
    ("DeepSeek-AI", "deepseekai2024scaling", "{DeepSeek-AI}"),
    ("The ATLAS Collaboration", "theatlascollaboration2024scaling", "{The ATLAS Collaboration}"),
    ("Google DeepMind Team", "googledeepmindteam2024scaling", "{Google DeepMind Team}"),
    ("LIGO Scientific Collaboration", "ligoscientificcollaboration2024scaling",
     "{LIGO Scientific Collaboration}"),
    ("Meta AI", "metaai2024scaling", "{Meta AI}"),
    ("Qwen Team", "qwenteam2024scaling", "{Qwen Team}"),
    ("NVIDIA Corporation", "nvidiacorporation2024scaling", "{NVIDIA Corporation}"),
    ("Allen Institute for AI", "alleninstituteforai2024scaling", "{Allen Institute for AI}"),
    ("Johnson & Johnson", "johnsonjohnson2024scaling", "{Johnson \\& Johnson}"),
    ("University of California, Berkeley", "universityofcaliforniaberkeley2024scaling",
     "{University of California, Berkeley}"),
    ("DeepMind Technologies Ltd", "deepmindtechnologiesltd2024scaling",
     "{DeepMind Technologies Ltd}"),
    ("IBM Research", "ibmresearch2024scaling", "{IBM Research}"),
    ("Baidu NLP", "baidunlp2024scaling", "{Baidu NLP}"),  # an acronym has no vowel, or none else
    ("Mistral AI", "mistralai2024scaling", "{Mistral AI}"),
    ("World Health Organization", "worldhealthorganization2024scaling",
     "{World Health Organization}"),
    ("ATLAS Collaboration", "atlascollaboration2024scaling", "{ATLAS Collaboration}"),
    ("CERN Council", "cerncouncil2024scaling", "{CERN Council}"),
    ("ZHANG Lab", "zhanglab2024scaling", "{ZHANG Lab}"),
]


@pytest.mark.parametrize(("name", "key", "written"), PEOPLE + ORGANISATIONS)
def test_people_are_people_and_organisations_are_known_by_their_form(name, key, written):
    organisation = (name, key, written) in ORGANISATIONS
    assert is_organisation(name) is organisation
    assert name_parts(name).literal is organisation
    record = {"authors": [name], "published": "2024-05-01", "title": "Scaling laws"}
    assert make_citation_key(record, set()) == key
    assert bibtex_name(name) == written
    (back,), _ = parse_bibtex_names(written)  # and the export reads back to the same name
    assert name_parts(back) == name_parts(name)


@pytest.mark.parametrize(("family_first", "given_first"), [
    ("ZHANG Wei", "Wei ZHANG"), ("HE Kaiming", "Kaiming HE"), ("LI Fei-Fei", "Fei-Fei LI"),
    ("ZHANG Xiao Ming", "Xiao Ming ZHANG"), ("MÜLLER Jörg", "Jörg MÜLLER"),
])
def test_a_surname_in_capitals_is_the_surname_before_or_after_the_given_names(family_first,
                                                                              given_first):
    assert name_parts(family_first) == name_parts(given_first)
    assert not name_parts(family_first).literal
    assert bibtex_name(family_first) == bibtex_name(given_first)
    assert last_name(family_first) == last_name(given_first)


@pytest.mark.parametrize(("author", "key"), [
    ("Den Hertog, M I", "denhertog2020title"),
    ("Da Lozzo, Giordano", "dalozzo2020title"),
    ("Guzmán Cervantes, José", "guzmancervantes2020title"),
    ("Tao Ai", "ai2020title"),
    ("Ludwig van Beethoven", "vanbeethoven2020title"),
    ("{Nicolas Bourbaki}", "nicolasbourbaki2020title"),
])
def test_citation_keys_take_the_same_surname(author, key):
    assert last_name(author)
    record = {"authors": [author], "published": "2020-01-01", "title": "Title"}
    assert make_citation_key(record, set()) == key


_word = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Z")),
                min_size=1, max_size=8)
_display = st.one_of(
    st.lists(_word, min_size=1, max_size=4).map(" ".join),
    st.tuples(st.lists(_word, min_size=1, max_size=3), st.lists(_word, min_size=1, max_size=2))
    .map(lambda t: " ".join(t[0]) + ", " + " ".join(t[1])),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=_display)
def test_any_name_reads_back_into_the_same_parts(name):
    parts = name_parts(name)
    assert parts is not None
    written = format_bibtex_name(parts)
    assert parse_bibtex_name(written) == parts
    assert parse_bibtex_name(format_bibtex_name(parts, utf8=True)) == parts
    assert name_parts(display_name(parts)) == parts or "{" in name or "}" in name
    assert bibtex_name(name) == written  # (its fast path for "Wei Jiang" gives the same)


@pytest.mark.parametrize("name", ["Wei Jiang", "Aidan N. Gomez", "Martin Luther King Jr.",
                                  "Meta AI", "Ludwig van Beethoven", "A B C D", "Smith, John",
                                  "Ofir Press", "Qwen Team", "The Lab", "Wei Zhang42",
                                  "José García", "Ólafur Arnalds", "Zoë Yılmaz42", "Иван Петров",
                                  "And Smith", "Wei And", "Wei Team(x", "Anna Lab,", "Tom & Jerry",
                                  "Li Wang Jr", "Ana O'neil", "Ana D_x", "山田 太郎"])
def test_the_fast_path_for_plain_names_writes_what_the_rules_write(name):
    assert bibtex_name(name) == format_bibtex_name(name_parts(name))
    assert bibtex_name(name, True) == format_bibtex_name(name_parts(name), True)


# words shaped as given names are ("Zoë", "Yılmaz42", "O'neil"), the shape the fast path takes
_capitalized_word = st.builds(
    lambda head, rest: head + rest,
    st.characters(categories=("Lu",)),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Z", "Lu", "Lt")),
            max_size=7))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(_capitalized_word, min_size=1, max_size=4))
def test_the_fast_path_agrees_with_the_rules_on_any_capitalized_name(words):
    name = " ".join(words)
    parts = name_parts(name)
    assume(parts is not None)
    assert bibtex_name(name) == format_bibtex_name(parts)
    assert bibtex_name(name, True) == format_bibtex_name(parts, True)
