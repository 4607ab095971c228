"""The library page through Flask's test client: signing in, the session cookie, Origin checks,
isolation between users, and that user text is escaped and notes are sanitized."""

from html.parser import HTMLParser

import pytest

from papershelf.web import render

ORIGIN = {"Origin": "http://localhost"}


def token_of(headers: dict) -> str:
    return headers["Authorization"].split(" ", 1)[1]


def sign_in(client, headers, **extra):
    return client.post("/signin", data={"token": token_of(headers), **extra}, headers=ORIGIN)


class Collect(HTMLParser):
    """Every start tag with its attributes, and the page's text."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.tags, self.text = [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def hrefs(self):
        return [a["href"] for t, a in self.tags if t == "a" and a.get("href")]

    def event_handlers(self):
        return [(t, k) for t, a in self.tags for k in a if k.lower().startswith("on")]


# ---- signing in and out --------------------------------------------------------------------


def test_library_sends_a_signed_out_visitor_to_signin(client):
    r = client.get("/")
    assert r.status_code == 302
    assert r.headers["Location"].startswith("/signin")


def test_signin_page_renders(client):
    r = client.get("/signin")
    assert r.status_code == 200
    assert b'name="token"' in r.data


def test_signin_with_token_sets_an_httponly_samesite_strict_cookie(client, alice):
    r = sign_in(client, alice)
    assert r.status_code == 302 and r.headers["Location"] == "/"
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith("papershelf_session=")
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    assert client.get("/").status_code == 200


def test_signin_with_a_wrong_token_is_refused(client, alice):
    r = client.post("/signin", data={"token": "ps_wrong"}, headers=ORIGIN)
    assert r.status_code == 401
    assert b"not valid" in r.data
    assert client.get("/").status_code == 302


@pytest.mark.parametrize("headers", [{}, {"Origin": "http://evil.example"}, {"Origin": "null"}])
def test_signin_from_another_origin_is_refused(client, alice, headers):
    r = client.post("/signin", data={"token": token_of(alice)}, headers=headers)
    assert r.status_code == 403
    assert client.get("/").status_code == 302


def test_signin_goes_back_to_a_local_next_only(client, alice):
    r = sign_in(client, alice, next="/?tag=rl")
    assert r.headers["Location"] == "/?tag=rl"
    client.post("/signout", headers=ORIGIN)
    for evil in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        r = sign_in(client, alice, next=evil)
        assert r.headers["Location"] == "/"


def test_signout_needs_our_origin_and_ends_the_session(client, alice):
    sign_in(client, alice)
    assert client.post("/signout", headers={"Origin": "http://evil.example"}).status_code == 403
    assert client.get("/").status_code == 200
    assert client.post("/signout", headers=ORIGIN).status_code == 302
    assert client.get("/").status_code == 302
    assert client.get("/api/papers").status_code == 401


def test_revoking_the_token_signs_the_page_out(app, client, alice):
    from papershelf.store.models import ApiToken

    sign_in(client, alice)
    with app.extensions["papershelf_db"].connection_context():
        ApiToken.update(revoked=True).execute()
    assert client.get("/").status_code == 302


# ---- the session against the JSON API ------------------------------------------------------


def test_session_reads_the_api_without_origin(client, alice, saved):
    sign_in(client, alice)
    r = client.get("/api/papers")
    assert r.status_code == 200
    assert [p["id"] for p in r.json["items"]] == [saved["id"]]


@pytest.mark.parametrize("headers", [{}, {"Origin": "http://evil.example"}, {"Origin": "null"}])
def test_session_writes_need_our_origin(client, alice, saved, headers):
    sign_in(client, alice)
    url = f"/api/papers/{saved['id']}"
    assert client.patch(url, json={"tags": ["x"]}, headers=headers).status_code == 403
    assert client.delete(url, headers=headers).status_code == 403
    assert client.post(f"{url}/notes", json={"body": "hi"}, headers=headers).status_code == 403
    assert client.get(url).json["tags"] == []


def test_session_writes_from_our_origin_work(client, alice, saved):
    sign_in(client, alice)
    url = f"/api/papers/{saved['id']}"
    assert client.patch(url, json={"tags": ["rl"]}, headers=ORIGIN).status_code == 200
    assert client.post(f"{url}/notes", json={"body": "hi"}, headers=ORIGIN).status_code == 201


# ---- what a user sees ----------------------------------------------------------------------


def test_other_users_papers_never_appear(client, alice, bob, saved):
    client.post(f"/api/papers/{saved['id']}/notes", json={"body": "alice's secret plan"}, headers=alice)
    sign_in(client, bob)
    page = client.get("/").get_data(as_text=True)
    assert saved["title"] not in page
    page = client.get("/?q=secret").get_data(as_text=True)
    assert saved["title"] not in page and "secret plan" not in page
    r = client.get(f"/papers/{saved['id']}")
    assert r.status_code == 404
    assert saved["title"] not in r.get_data(as_text=True)
    assert client.get(f"/api/papers/{saved['id']}").status_code == 404
    assert client.delete(f"/api/papers/{saved['id']}", headers=ORIGIN).status_code == 404


def test_list_shows_a_paper_with_its_counts_tags_and_topics(client, alice, saved):
    client.post(f"/api/papers/{saved['id']}/notes", json={"body": "n1"}, headers=alice)
    client.patch(f"/api/papers/{saved['id']}", json={"tags": ["to-read"]}, headers=alice)
    sign_in(client, alice)
    page = client.get("/").get_data(as_text=True)
    assert "Asymmetric Actor-Critic for Multi-turn LLM Agents" in page
    assert "+3" in page
    assert "1 note" in page
    assert "to-read" in page and "LLM Agent Training" in page


def test_search_marks_the_matching_words_and_finds_notes(client, alice, saved):
    client.post(f"/api/papers/{saved['id']}/notes", json={"body": "compare with the baseline"},
                headers=alice)
    sign_in(client, alice)
    page = client.get("/?q=baseline").get_data(as_text=True)
    assert '<mark class="match">baseline</mark>' in page
    assert "1 paper" in page
    page = client.get("/?q=actor").get_data(as_text=True)
    assert '<mark class="match">Actor</mark>' in page
    assert "No saved paper matches" in client.get("/?q=zebra").get_data(as_text=True)


def test_filters_by_tag_and_topic(client, alice, saved, paper_data):
    other = dict(paper_data, arxiv_id="2603.29002", title="Another paper", topics=["Other"])
    client.post("/api/papers", json=other, headers=alice)
    client.patch(f"/api/papers/{saved['id']}", json={"tags": ["rl"]}, headers=alice)
    sign_in(client, alice)
    page = client.get("/?tag=rl").get_data(as_text=True)
    assert saved["title"] in page and "Another paper" not in page
    page = client.get("/?topic=Other").get_data(as_text=True)
    assert "Another paper" in page and saved["title"] not in page
    # The export form exports the same selection.
    assert '<input type="hidden" name="topic" value="Other">' in page
    bib = client.get("/api/export?format=bibtex&topic=Other").get_data(as_text=True)
    assert "Another paper" in bib and "Asymmetric" not in bib


def test_bad_cursor_is_dropped_with_a_notice(client, alice, saved):
    sign_in(client, alice)
    r = client.get("/?cursor=nonsense")
    assert r.status_code == 200
    assert "not understood" in r.get_data(as_text=True)


def test_paper_page_shows_links_highlights_and_notes(client, alice, saved):
    abstract = render.normalized(saved["abstract"])
    quote = "reliable behavior"
    start = abstract.index(quote)
    client.post(f"/api/papers/{saved['id']}/highlights", headers=alice, json={
        "exact": quote, "start": start, "end": start + len(quote), "color": "green",
        "comment": "the point"})
    client.post(f"/api/papers/{saved['id']}/notes", json={"body": "**bold** idea"}, headers=alice)
    sign_in(client, alice)
    r = client.get(f"/papers/{saved['id']}")
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert 'class="hl hl-green"' in page and 'title="the point"' in page
    assert "<strong>bold</strong>" in page
    hrefs = Collect(page).hrefs()
    assert "https://arxiv.org/abs/2603.29001" in hrefs
    assert "https://arxiv.org/pdf/2603.29001" in hrefs
    assert saved["source_url"] in hrefs


def test_pages_send_a_strict_content_security_policy(client, alice):
    sign_in(client, alice)
    csp = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert client.get("/signin").headers["X-Frame-Options"] == "DENY"


# ---- user text is data ---------------------------------------------------------------------

EVIL = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '"><svg onload=alert(1)>',
    "javascript:alert(1)",
]


@pytest.mark.parametrize("evil", EVIL)
def test_user_text_is_escaped_on_every_page(client, alice, paper_data, evil):
    paper = dict(paper_data, title=f"T {evil}", authors=[f"A {evil}"], tags=[f"t{evil}"],
                 topics=[f"o{evil}"], abstract=f"The abstract {evil} ends.",
                 affiliations=[evil])
    saved = client.post("/api/papers", json=paper, headers=alice).json
    client.post(f"/api/papers/{saved['id']}/notes", json={"body": evil}, headers=alice)
    exact = render.normalized(saved["abstract"])[:12]
    client.post(f"/api/papers/{saved['id']}/highlights", headers=alice, json={
        "exact": exact, "start": 0, "end": len(exact), "comment": evil})
    sign_in(client, alice)
    for url in ("/", f"/?q={saved['title'][:1]}", f"/?tag=t{evil}", f"/papers/{saved['id']}"):
        page = client.get(url).get_data(as_text=True)
        parsed = Collect(page)
        assert "<script>alert" not in page, url
        assert not [t for t, a in parsed.tags if t in ("img", "svg")], url
        assert not parsed.event_handlers(), url
        assert all(h.startswith(("/", "https://", "http://", "#")) for h in parsed.hrefs()), url
        assert evil in "".join(parsed.text) or url.startswith("/?q"), url


MARKDOWN_TRICKS = [
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](java&#x09;script:alert(1))",
    "[x](<javascript:alert(1)>)",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[x](vbscript:msgbox(1))",
    "[x](//evil.example/path)",
    "[x](/api/papers)",
    "[x][r]\n\n[r]: javascript:alert(1)",
    "<javascript:alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "![x](https://evil.example/track.png)",
    '[x](https://ok.example "title" onmouseover="alert(1)")',
    "<details open ontoggle=alert(1)>",
    "`<script>`",
]


@pytest.mark.parametrize("source", MARKDOWN_TRICKS)
def test_markdown_keeps_only_http_links_and_no_markup_from_the_source(source):
    html = str(render.render_markdown(source))
    parsed = Collect(html)
    assert {t for t, _ in parsed.tags} <= render.NOTE_TAGS
    assert not parsed.event_handlers()
    for href in parsed.hrefs():
        assert href.startswith(("http://", "https://")), href
    assert "<script" not in html and "<img" not in html


def test_markdown_renders_the_usual_things():
    html = str(render.render_markdown(
        "# H\n\n**b** *i* `c`\n\n- one\n- two\n\n[ok](https://arxiv.org/abs/1)\n\n> q"))
    assert "<h1>H</h1>" in html and "<strong>b</strong>" in html and "<em>i</em>" in html
    assert "<code>c</code>" in html and "<li>one</li>" in html and "<blockquote>" in html
    assert 'href="https://arxiv.org/abs/1"' in html and 'rel="noopener noreferrer nofollow"' in html


# ---- highlights and search marks -----------------------------------------------------------


def test_paint_uses_utf16_offsets():
    text = "𝛼-decay 😀 matters here"
    quote = "matters"
    start16 = len(text[: text.index(quote)].encode("utf-16-le")) // 2
    painted = render.paint(text, [{"id": 1, "exact": quote, "start": start16,
                                   "end": start16 + 7, "color": "blue"}])
    marked = [s.text for s in painted.segments if s.top]
    assert marked == [quote]
    assert "".join(s.text for s in painted.segments) == text


def test_paint_finds_a_moved_quote_and_keeps_orphans():
    text = "alpha beta gamma beta delta"
    hs = [
        {"id": 1, "exact": "beta", "start": 0, "end": 4, "prefix": "gamma ", "suffix": ""},
        {"id": 2, "exact": "omega", "start": 0, "end": 5},
        {"id": 3, "exact": "deltas", "start": 22, "end": 28, "prefix": "beta ", "suffix": ""},
    ]
    painted = render.paint(text, hs)
    assert [h["id"] for h in painted.orphaned] == [2]
    # An edited quote is placed by the same fuzzy match as in the extension, not listed as orphaned.
    assert [h["id"] for h in painted.placed] == [1, 3]
    assert (painted.segments[-1].text, painted.segments[-1].top["id"]) == ("delta", 3)
    before = "".join(s.text for s in painted.segments[: next(
        i for i, s in enumerate(painted.segments) if s.top)])
    assert before == "alpha beta gamma "


def test_paint_splits_overlaps_and_shows_the_latest_on_top():
    text = "one two three"
    painted = render.paint(text, [
        {"id": 1, "exact": "one two", "start": 0, "end": 7, "color": "yellow"},
        {"id": 2, "exact": "two three", "start": 4, "end": 13, "color": "pink"},
    ])
    assert [(s.text, s.top and s.top["id"]) for s in painted.segments] == [
        ("one ", 1), ("two", 2), (" three", 2)]


def test_mark_terms_escapes_and_marks_word_prefixes():
    out = str(render.mark_terms("<b>Agents</b> & agentic", ["agent"]))
    assert out == ('&lt;b&gt;<mark class="match">Agents</mark>&lt;/b&gt; &amp; '
                   '<mark class="match">agentic</mark>')


@pytest.mark.parametrize("url", ["javascript:alert(1)", "data:text/html,x", "//evil", "/local",
                                 "https://x .y", None, ""])
def test_safe_href_refuses_what_is_not_absolute_http(url):
    assert render.safe_href(url) is None


def test_search_excerpts_of_notes_drop_markdown_syntax_but_stay_escaped(client, alice, saved):
    client.post(f"/api/papers/{saved['id']}/notes", headers=alice,
                json={"body": "the **critic** & [PPO](https://x.org) <b>raw</b>"})
    sign_in(client, alice)
    page = client.get("/?q=critic").get_data(as_text=True)
    assert 'the <mark class="match">critic</mark> &amp; PPO &lt;b&gt;raw&lt;/b&gt;' in page


def test_a_paper_page_shows_its_venue_and_a_year_only_date_as_a_year(client, alice):
    bib = (b"@incollection{ch, title={A chapter}, booktitle={The Book}, pages={1--10},"
           b" publisher={MIT Press}, editor={Arbib, Michael}, year={1998}}")
    assert client.post("/api/import", data=bib, headers=alice).json["created"] == 1
    paper = client.get("/api/papers", headers=alice).json["items"][0]
    sign_in(client, alice)
    page = client.get(f"/papers/{paper['id']}").get_data(as_text=True)
    assert '<time datetime="1998" title="Published">1998</time>' in page
    assert "The Book, pp. 1–10; MIT Press" in page and "Michael Arbib" in page


# ---- one set of limits, one highlight rule -------------------------------------------------


def test_every_input_takes_what_the_server_keeps(client, alice, saved):
    from papershelf.domain import validation
    from papershelf.services import auth, groups

    client.post(f"/api/papers/{saved['id']}/notes", json={"body": "a note"}, headers=alice)
    client.post(f"/api/papers/{saved['id']}/highlights", headers=alice,
                json={"exact": "Large", "start": 0, "end": 5})
    gid = client.post("/api/groups", json={"name": "Lab"}, headers=alice).json["id"]
    sign_in(client, alice)
    expected = {  # an input's name → the limit it takes
        "title": validation.TITLE_MAX, "citation_key": validation.CITATION_KEY_LEN,
        "tag": validation.TAG_LEN, "comment": validation.COMMENT_MAX, "body": validation.NOTE_MAX,
        "q": validation.QUERY_MAX, "user": validation.USER_NAME_MAX,
        "abstract": validation.ABSTRACT_MAX, "doi": 300, "url": 2000,
        **dict.fromkeys(("journal", "booktitle", "publisher"), validation.VENUE_MAX),
        **dict.fromkeys(("volume", "number", "pages", "edition"), validation.NUMBER_MAX),
    }
    names = {"/groups": groups.NAME_MAX, "/tokens": auth.TOKEN_NAME_MAX}
    seen = set()
    for path in ("/", f"/papers/{saved['id']}", "/groups", f"/groups/{gid}", "/tokens"):
        page = Collect(client.get(path).get_data(as_text=True))
        for tag, attrs in page.tags:
            if tag in ("input", "textarea") and "maxlength" in attrs:
                want = names[path] if attrs["name"] == "name" else expected[attrs["name"]]
                assert attrs["maxlength"] == str(want), (path, attrs)
                seen.add(attrs["name"])
        for tag, attrs in page.tags:
            if tag == "form" and attrs.get("id") == "highlight-form":
                assert attrs["data-exact-max"] == str(validation.EXACT_MAX)
                seen.add("exact")
    assert seen == set(expected) | {"name", "exact"}  # the comment and note boxes included


def test_no_template_writes_a_limit_of_its_own():
    from pathlib import Path

    templates = Path(render.__file__).parent / "templates"
    for template in templates.glob("*.html"):
        assert 'maxlength="' not in template.read_text("utf-8").replace('maxlength="{{', ""), template


def test_the_page_serves_the_extensions_anchoring_module(client):
    from pathlib import Path

    lib = Path(__file__).parents[1] / "extension" / "lib"
    for name in ("anchoring.js", "approx.js"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and "javascript" in r.headers["Content-Type"]
        assert r.data == (lib / name).read_bytes()
        r.close()


# ---- what no store can search for ----------------------------------------------------------

NUL = "a\x00b"
ROUTES = [  # (path, its parameters); each also takes one it does not know
    ("/", ["q", "tag", "topic", "cursor", "sort"]),
    ("/signin", ["next"]),
    ("/papers/{paper}", []),
    ("/groups", []),
    ("/groups/{group}", ["cursor"]),
    ("/tokens", []),
    ("/palette.css", []),
]
PARAMETERS = [pytest.param(path, param, id=f"{path}?{param}")
              for path, params in ROUTES for param in [*params, "other"]]


@pytest.fixture
def signed_in_with_a_group(client, alice, saved):
    gid = client.post("/api/groups", json={"name": "Lab"}, headers=alice).json["id"]
    sign_in(client, alice)
    return {"paper": saved["id"], "group": gid}


@pytest.mark.parametrize(("path", "param"), PARAMETERS)
def test_a_nul_in_any_parameter_is_refused_with_a_page(client, signed_in_with_a_group, path, param):
    url = path.format(**signed_in_with_a_group)
    r = client.get(url, query_string={param: NUL})
    assert r.status_code == 422
    assert r.mimetype == "text/html"
    assert "NUL" in r.get_data(as_text=True) and f"“{param}”" in r.get_data(as_text=True)
    r = client.get(url, query_string={f"x{NUL}": "1"})  # in a parameter's name too
    assert r.status_code == 422 and "NUL" in r.get_data(as_text=True)
    assert client.get(url).status_code in (200, 302)  # and the page itself answers as usual


@pytest.mark.parametrize("path", [path for path, _ in ROUTES])
def test_a_nul_is_refused_before_signing_in_too(client, alice, saved, path):
    url = path.format(paper=saved["id"], group=1)
    r = client.get(url, query_string={"tag": NUL})
    assert r.status_code == 422 and "NUL" in r.get_data(as_text=True)


@pytest.mark.parametrize("field", ["token", "next", "other"])
def test_a_nul_in_the_signin_form_is_refused(client, alice, field):
    data = {"token": token_of(alice), "next": "/", field: NUL}
    r = client.post("/signin", data=data, headers=ORIGIN)
    assert r.status_code == 422 and "NUL" in r.get_data(as_text=True)
    assert client.get("/").status_code == 302  # not signed in


@pytest.mark.parametrize("raw", ["tag=a%ED%A0%80b", "q=%ED%A0%80", "tag=%F0%9F%98", "topic=%FF"])
def test_bytes_that_are_no_text_are_taken_as_written(client, signed_in_with_a_group, raw):
    # The server reads such escapes as the characters they are written with (never a lone
    # surrogate), and the library answers as for any other filter.
    r = client.get("/?" + raw)
    assert r.status_code == 200
    assert "0 papers" in r.get_data(as_text=True)
