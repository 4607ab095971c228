"""RIS export."""

from __future__ import annotations

from papershelf.formats.ris import write_ris
from tests.fixtures.records import ugly_records


def export(**options):
    return "".join(write_ris(ugly_records(), **options))


def records_of(text):
    return [block.lstrip() for block in text.split("ER  - \r\n") if block.strip()]


def test_one_record_per_paper_every_line_a_tag():
    text = export()
    assert len(records_of(text)) == len(ugly_records())
    for line in text.split("\r\n"):
        assert line == "" or (line[:2].isalnum() and line[2:6] == "  - "), line


def test_a_preprint_and_a_journal_paper():
    text = export()
    jiang = next(b for b in records_of(text) if "ID  - jiang2026asymmetric" in b)
    assert jiang.startswith("TY  - UNPB\r\n")
    assert "AU  - van Beethoven, Ludwig\r\n" in jiang
    assert "DA  - 2026/03/02/\r\n" in jiang and "PY  - 2026\r\n" in jiang
    assert "M1  - arXiv:2603.01234\r\n" in jiang
    assert "KW  - rl\r\nKW  - agents\r\n" in jiang
    assert "N1  - Read **twice**. - check Table 2\r\n" in jiang
    jumper = next(b for b in records_of(text) if "ID  - jumper2021highly" in b)
    assert jumper.startswith("TY  - JOUR\r\n")
    assert "JO  - Nature\r\nVL  - 596\r\nSP  - 583\r\nEP  - 589\r\n" in jumper
    assert "PB  - arXiv" not in jumper


def test_line_breaks_in_values_cannot_start_new_tags():
    text = export()
    assert "\n@misc" not in text and "\nER  - \r\n" not in text.replace("\r\nER  - \r\n", "")


def test_abstract_can_be_left_out():
    assert "\r\nAB  - " not in export(abstract=False)
