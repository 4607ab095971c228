"""Citation keys: the user's formula, provisional keys that follow the metadata, fixed keys that
never move by themselves, pinned keys, re-keying, imported keys, on both stores."""

import pytest

from papershelf.domain.citekey import DEFAULT_FORMULA, base_key, parse_formula

RECORD = {"authors": ["Shuli Jiang", "Zhaoyang Zhang"], "published": "2026-03-31",
          "title": "Asymmetric Actor-Critic for Multi-turn LLM Agents", "arxiv_id": "2603.29001"}


@pytest.mark.parametrize(("formula", "key"), [
    (None, "jiang2026asymmetric"),
    (DEFAULT_FORMULA, "jiang2026asymmetric"),
    ("[auth][year][shorttitle]", "jiang2026asymmetricactorcritic"),
    ("[Auth][year][Title:2]", "Jiang2026AsymmetricActor"),
    ("[AUTH]_[year]", "JIANG_2026"),
    ("[authors:2][year]", "jiangzhang2026"),
    ("[auth]:[arxiv]", "jiang:2603.29001"),
    ("[title:3]", "asymmetricactorcritic"),
])
def test_formulas(formula, key):
    assert base_key(RECORD, formula) == key


def test_names_are_split_as_peoples_names_in_keys():
    assert base_key({**RECORD, "authors": ["Ai Nakamura"]}).startswith("nakamura2026")
    assert base_key({**RECORD, "authors": ["Li Ai"]}).startswith("ai2026")


@pytest.mark.parametrize("formula", ["", "   ", "[foo]", "[auth]x y", "[year:3]", "[title:0]",
                                     "plain", "[auth" + "]" * 300, "[auth][year]{x}"])
def test_invalid_formulas_are_refused(formula):
    with pytest.raises(ValueError):
        parse_formula(formula)


def save(client, headers, **fields):
    r = client.post("/api/papers", json=fields, headers=headers)
    assert r.status_code in (200, 201), r.json
    return r.json


def test_settings_read_and_set_the_formula(client, alice, bob):
    assert client.get("/api/settings", headers=alice).json == {
        "citekey_format": DEFAULT_FORMULA, "citekey_default": DEFAULT_FORMULA,
        "export": {"abstract": True, "notes_field": "annote", "encoding": "latex",
                   "cite": "published"}}
    r = client.patch("/api/settings", json={"citekey_format": "[Auth][year]"}, headers=alice)
    assert r.status_code == 200 and r.json["citekey_format"] == "[Auth][year]"
    assert client.get("/api/settings", headers=bob).json["citekey_format"] == DEFAULT_FORMULA
    paper = save(client, alice, title="Attention", authors=["Ashish Vaswani"], published="2017-06-12")
    assert paper["citation_key"] == "Vaswani2017"
    r = client.patch("/api/settings", json={"citekey_format": None}, headers=alice)
    assert r.json["citekey_format"] == DEFAULT_FORMULA


@pytest.mark.parametrize("formula", ["[nope]", "", "a b", 5, "[auth]" * 40])
def test_an_invalid_formula_is_a_422_and_changes_nothing(client, alice, formula):
    client.patch("/api/settings", json={"citekey_format": "[auth][year]"}, headers=alice)
    r = client.patch("/api/settings", json={"citekey_format": formula}, headers=alice)
    if formula == "":  # an empty formula means the default, as null does
        assert r.status_code == 200 and r.json["citekey_format"] == DEFAULT_FORMULA
        return
    assert r.status_code == 422 and r.json["error"]["code"] == "validation_error"
    assert "citekey_format" in r.json["error"]["fields"]
    assert client.get("/api/settings", headers=alice).json["citekey_format"] == "[auth][year]"


def test_a_provisional_key_follows_the_metadata_then_is_fixed(client, alice):
    # Saved from an arXiv /list/ page: no date yet.
    paper = save(client, alice, arxiv_id="2603.29001", title="Some Title of a Paper",
                 authors=["Ada Lovelace"])
    assert paper["citation_key"] == "lovelacesome"
    assert paper["citation_key_fixed"] is False
    # The abstract page gives the date: the key follows and, complete now, is fixed.
    again = save(client, alice, arxiv_id="2603.29001", title="Some Title of a Paper",
                 authors=["Ada Lovelace"], published="2026-03-31")
    assert again["citation_key"] == "lovelace2026some" and again["citation_key_fixed"] is True
    # A fixed key never moves by itself.
    later = client.patch(f"/api/papers/{paper['id']}", json={"title": "Other Words Entirely"},
                         headers=alice).json
    assert later["citation_key"] == "lovelace2026some"


def test_a_pinned_key_is_the_users_and_survives_a_rekey(client, alice):
    paper = save(client, alice, title="Deep Learning", authors=["Yann LeCun"], published="2015-05-28")
    r = client.patch(f"/api/papers/{paper['id']}", json={"citation_key": "lecun-nature"},
                     headers=alice)
    assert r.json["citation_key"] == "lecun-nature" and r.json["citation_key_pinned"] is True
    other = save(client, alice, title="Gradient Learning", authors=["Yann LeCun"],
                 published="1998-11-01")
    client.patch("/api/settings", json={"citekey_format": "[AUTH][year]"}, headers=alice)
    assert client.post("/api/settings/rekey", headers=alice).json == {"rekeyed": 1}
    assert client.get(f"/api/papers/{paper['id']}", headers=alice).json["citation_key"] == \
        "lecun-nature"
    assert client.get(f"/api/papers/{other['id']}", headers=alice).json["citation_key"] == \
        "LECUN1998"


def test_a_new_formula_applies_at_once_to_keys_not_fixed_yet(client, alice):
    fixed = save(client, alice, title="Complete Paper", authors=["Ann Bee"], published="2020-01-01")
    loose = save(client, alice, title="Undated Paper", authors=["Cid Dee"])
    client.patch("/api/settings", json={"citekey_format": "[Auth][Title:1]"}, headers=alice)
    assert client.get(f"/api/papers/{fixed['id']}", headers=alice).json["citation_key"] == \
        fixed["citation_key"] == "bee2020complete"
    assert client.get(f"/api/papers/{loose['id']}", headers=alice).json["citation_key"] == \
        "DeeUndated"


def test_an_exported_key_is_fixed(client, alice):
    paper = save(client, alice, title="Undated Preprint", authors=["Eve Ef"])
    assert paper["citation_key_fixed"] is False
    with client.get("/api/export?format=bibtex", headers=alice) as r:
        assert b"@misc{efundated," in r.get_data()
    again = save(client, alice, title="Undated Preprint", authors=["Eve Ef"], published="2024-02-02",
                 url=None)
    stored = client.get(f"/api/papers/{paper['id']}", headers=alice).json
    assert stored["citation_key"] == "efundated" and stored["citation_key_fixed"] is True
    assert again["id"] != paper["id"] or again["citation_key"] == "efundated"


def test_clashing_keys_get_suffixes_and_stay_unique(client, alice):
    keys = [save(client, alice, title="Same Title", authors=["Sam Same"], published="2024-01-01",
                 url=f"https://example.org/{i}")["citation_key"] for i in range(4)]
    assert keys == ["same2024same", "same2024samea", "same2024sameb", "same2024samec"]


def test_an_imported_key_is_kept_and_pinned_but_never_a_url(client, alice):
    csl = ('[{"id": "http://zotero.org/users/local/abc/items/XYZ", "type": "article-journal",'
           ' "title": "Zotero Paper", "author": [{"family": "Roe", "given": "Rita"}],'
           ' "issued": {"date-parts": [[2023]]}},'
           ' {"id": "roe2022keep", "type": "article-journal", "title": "Kept Key",'
           ' "author": [{"family": "Roe", "given": "Rita"}], "issued": {"date-parts": [[2022]]}}]')
    r = client.post("/api/import?format=csljson", data=csl, content_type="application/json",
                    headers=alice)
    assert r.status_code == 200 and r.json["created"] == 2, r.json
    keys = {p["title"]: p for p in client.get("/api/papers", headers=alice).json["items"]}
    assert keys["Zotero Paper"]["citation_key"] == "roe2023zotero"
    assert keys["Kept Key"]["citation_key"] == "roe2022keep"
    assert keys["Kept Key"]["citation_key_pinned"] is True
