"""Markdown export: one section per paper with metadata, abstract, highlights and notes."""

from __future__ import annotations

from papershelf.formats.markdown import escape_inline, write_markdown
from tests.fixtures.records import ugly_records


def export(**options):
    return "".join(write_markdown(ugly_records(), **options))


def test_one_section_per_paper():
    text = export()
    assert text.startswith("# Papers\n")
    assert text.count("\n## ") == len(ugly_records())


def test_a_paper_section_has_metadata_highlights_in_text_order_and_notes():
    text = export()
    section = text[text.index("## Asymmetric GRPO"):].split("\n## ")[0]
    assert "- **Authors:** Wei Jiang, Bo Li, Ludwig van Beethoven and 3 more" in section
    assert "- **arXiv:** [2603.01234](<https://arxiv.org/abs/2603.01234>)" in section
    assert "- **Tags:** #rl #agents" in section
    assert section.index("> LLM agents") < section.index("> proximal policy")
    assert "> — the key idea" in section
    assert "### Notes\n\nRead **twice**.\n\n- check Table 2\n\nSecond note" in section


def test_titles_cannot_inject_markdown():
    assert escape_inline("**bold** [x](y) <b>") == "\\*\\*bold\\*\\* \\[x\\]\\(y\\) \\<b\\>"
    assert "## @misc\\{inject, title=\\{x\\}\\} % and \\\\\\} \\\\\\{" in export()


def test_abstract_can_be_left_out():
    assert "### Abstract" not in export(abstract=False)
