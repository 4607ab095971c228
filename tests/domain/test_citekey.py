"""Citation keys: last name + year + first significant title word, lower-case ASCII, a/b/… on clash."""

from __future__ import annotations

import pytest

from papershelf.domain.citekey import make_citation_key


def rec(authors, year, title):
    return {"authors": authors, "published": f"{year}-03-02" if year else None, "title": title}


@pytest.mark.parametrize(("record", "key"), [
    (rec(["Wei Jiang"], 2026, "Asymmetric Proximal Policy Optimization"), "jiang2026asymmetric"),
    (rec(["Wei Jiang"], 2026, "The Case for a Better LLM"), "jiang2026case"),
    (rec(["Jürgen Schmidhuber"], 1997, "On Long Short-Term Memory"), "schmidhuber1997long"),
    (rec(["Ludwig van Beethoven"], 1808, "Symphony No. 5"), "vanbeethoven1808symphony"),
    (rec(["Qwen Team"], 2025, "Qwen3 Technical Report"), "qwenteam2025qwen3"),
    (rec(["Paweł Łukasiewicz-Øster"], 2020, "Ærodynamics"), "lukasiewiczoster2020aerodynamics"),
    (rec(["張偉"], 2026, "τ²-Bench: agents"), "anon2026bench"),
    (rec([], None, "A"), "anon"),
    (rec(["Grisha Perelman"], 2003, "The entropy formula for the Ricci flow"), "perelman2003entropy"),
])
def test_key_is_last_name_year_and_first_significant_word(record, key):
    assert make_citation_key(record, set()) == key


def test_clashes_get_a_b_and_so_on():
    record = rec(["Wei Jiang"], 2026, "Asymmetric PPO")
    taken: set[str] = set()
    keys = []
    for _ in range(28):
        key = make_citation_key(record, taken)
        taken.add(key)
        keys.append(key)
    assert keys[:3] == ["jiang2026asymmetric", "jiang2026asymmetrica", "jiang2026asymmetricb"]
    assert keys[26:] == ["jiang2026asymmetricz", "jiang2026asymmetricaa"]


def test_keys_are_lower_case_ascii():
    key = make_citation_key(rec(["Élodie Müller"], 2026, "Über Alles"), set())
    assert key == "muller2026uber" and key.isascii() and key == key.lower()
