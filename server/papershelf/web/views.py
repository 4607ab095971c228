"""The library page: sign in with a token, the list of saved papers, one paper's page.

Pages are rendered here from the same services the JSON API uses; the page's script changes data
through the JSON API with the session cookie (see ``security.session_user``).
"""

import functools
import json
from urllib.parse import quote, urlencode

from flask import (
    Blueprint,
    current_app,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from marshmallow import ValidationError

from papershelf.domain import identifiers, palette, validation
from papershelf.domain.entry_types import FIELDS_BY_TYPE, VENUE_FIELDS
from papershelf.domain.errors import Invalid, NotFound
from papershelf.formats import FORMATS
from papershelf.http import unstorable
from papershelf.http.errors import RateLimited
from papershelf.http.schemas import PaperQuerySchema
from papershelf.http.security import check_same_origin, refuse_wrong_token, session_user
from papershelf.services import (
    auth,
    duplicates,
    feeds,
    groups,
    listing,
    papers,
    search,
    sessions,
    settings,
)
from papershelf.web import render

bp = Blueprint("web", __name__)

PAGE_SIZE = 25
EXPORT_FORMATS = [(f.name, f.label) for f in FORMATS]
IMPORT_FORMATS = [(f.name, f.import_label or f.label) for f in FORMATS if f.reader]

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)


@bp.after_request
def _page_headers(response):
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"  # "no-referrer" would make Origin "null"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Cache-Control"] = "no-store"
    return response


_ERROR_TITLES = {400: "Bad request", 403: "Not allowed", 404: "Not found",
                 405: "Not allowed here", 413: "Too large", 415: "Not accepted",
                 422: "Not accepted", 429: "Too many requests", 500: "Something went wrong"}
_ERROR_MESSAGES = {404: "There is no such page in papershelf.",
                   500: "Something went wrong on the server; its log says what."}


def error_page(status: int, message: str):
    """An error on the library page's paths, as a page (the API's paths answer JSON)."""
    html = render_template("error.html", title=_ERROR_TITLES.get(status, "Error"),
                           message=_ERROR_MESSAGES.get(status, message))
    return _page_headers(current_app.response_class(html, status=status, mimetype="text/html"))


@bp.before_request
def _refuse_unstorable_parameters():
    """A parameter no store can hold or search for (a NUL character, a lone surrogate) is refused
    with a page before it reaches a query, on every path of the page, as the API refuses it."""
    sent = (request.args, request.form) if request.method == "POST" else (request.args,)
    for params in sent:
        for key in params:
            if unstorable(key) or any(unstorable(v) for v in params.getlist(key)):
                which = "one of its parameters" if unstorable(key) else f"its “{key}”"
                return error_page(422, f"The address holds a character papershelf cannot search "
                                       f"for or keep (a NUL or an unpaired surrogate) in {which}.")
    return None


@bp.record_once
def _register_error_page(state):
    state.app.extensions["papershelf_error_page"] = error_page


@bp.app_template_filter("marked")
def _marked(text, terms):
    return render.mark_terms(text, terms)


# What the page's inputs take: the limits the server checks (never a number of their own).
LIMITS = {**validation.LIMITS, "group_name": groups.NAME_MAX, "token_name": auth.TOKEN_NAME_MAX,
          "venue": validation.VENUE_MAX, "number": validation.NUMBER_MAX,
          "doi": 300, "url": 2000, "citekey_format": 200}


@bp.app_context_processor
def _page_context():
    return {"colors": palette.NAMES, "undo_seconds": current_app.config["LIBRARY_UNDO_SECONDS"],
            "limits": LIMITS}


@bp.get("/palette.css")
def palette_css():
    """The highlight colours for library.css: ``--hl-<name>`` and the ``.hl-<name>`` class, from
    ``domain.palette`` (a stylesheet, since the page's CSP allows no inline style)."""
    css = ":root {\n" + "".join(f"  --hl-{name}: {background};\n"
                                for name, background in palette.BACKGROUNDS.items()) + "}\n"
    css += "".join(f".hl-{name} {{ background: var(--hl-{name}); }}\n" for name in palette.NAMES)
    return current_app.response_class(css, mimetype="text/css")


def _safe_next(target: str | None) -> str:
    """Only a path on this server: never another host (``//evil``, ``/\\evil``, ``https:``)."""
    if (not target or not target.startswith("/") or target.startswith("//")
            or target.startswith("/\\") or any(c in target for c in "\r\n\t")):
        return url_for("web.library")
    return target


def signed_in(view):
    @functools.wraps(view)
    def wrapper(*args, **kwargs):
        user = session_user()
        if user is None:
            session.clear()
            nxt = request.full_path.rstrip("?") if request.query_string else request.path
            return redirect(url_for("web.signin", next=nxt))
        g.user = user
        return view(*args, **kwargs)

    return wrapper


# ---- sign in / out -------------------------------------------------------------------------


@bp.get("/signin")
def signin():
    if session_user() is not None:
        return redirect(_safe_next(request.args.get("next")))
    return render_template("signin.html", next=request.args.get("next", ""), error=None)


@bp.post("/signin")
def signin_post():
    check_same_origin()  # no signing a browser into someone else's library from another site
    nxt = request.form.get("next", "")
    token = request.form.get("token", "").strip()
    user = auth.user_for_token(token)
    if user is None:
        try:
            refuse_wrong_token()
        except RateLimited:
            return render_template("signin.html", next=nxt, error=(
                "Too many failed attempts from here. Wait a minute and try again.")), 429
        return render_template("signin.html", next=nxt,
                               error="That token is not valid (wrong, revoked or mistyped)."), 401
    session.clear()
    session["sid"] = sessions.start(user, auth.hash_token(token))
    auth.touch_token(token)
    return redirect(_safe_next(nxt))


@bp.post("/signout")
def signout():
    check_same_origin()
    sessions.end(session.get("sid"))
    session.clear()
    return redirect(url_for("web.signin"))


# ---- the library list ----------------------------------------------------------------------


def _snippets(rec: dict, terms: list[str]) -> list[tuple[str, str]]:
    """Where a search matched besides the title and authors: (label, excerpt) pairs."""
    if not terms:
        return []
    found = []
    for note in rec["notes"]:
        s = render.snippet(render.markdown_text(note["body"]), terms)
        if s:
            found.append(("Note", s))
            break
    for h in rec["highlights"]:
        s = render.snippet(h["comment"], terms) or render.snippet(h["exact"], terms)
        if s:
            found.append(("Highlight", s))
            break
    s = render.snippet(rec["abstract"], terms)
    if s:
        found.append(("Abstract", s))
    return found[:2]


LIST_PARAMS = ("q", "tag", "topic", "cursor", "sort", "state", "starred", "page")
SORT_LABELS = [("saved", "Newest added"), ("published", "Newest published"), ("title", "Title"),
               ("first_author", "First author"), ("venue", "Venue"),
               ("citation_key", "Citation key"), ("state", "Reading state")]
STATE_LABELS = {"unread": "Unread", "to_read": "To read", "reading": "Reading", "read": "Read"}


def _list_args() -> tuple[dict, str | None]:
    raw = {k: request.args.get(k, "").strip() for k in LIST_PARAMS}
    raw = {k: v for k, v in raw.items() if v}
    try:
        return PaperQuerySchema().load({**raw, "limit": PAGE_SIZE}), None
    except ValidationError as e:
        keep = {k: v for k, v in raw.items() if k not in e.messages}
        return (PaperQuerySchema().load({**keep, "limit": PAGE_SIZE}),
                "Some of the filters were not understood and were left out.")


@bp.get("/")
@signed_in
def library():
    args, problem = _list_args()
    if not args.get("cursor"):
        args["page"] = args.get("page") or 1
    try:
        page = listing.list_papers(g.user, **args)
    except Invalid:  # a cursor that was not ours
        args.pop("cursor", None)
        args["page"] = 1
        problem = "Some of the filters were not understood and were left out."
        page = listing.list_papers(g.user, **args)
    q, tag, topic = args.get("q"), args.get("tag"), args.get("topic")
    state, starred = args.get("state"), args.get("starred")
    total = page["total"]
    terms = search.terms(q)
    items = [{"rec": rec, "snippets": _snippets(rec, terms)} for rec in page["items"]]

    base = {k: v for k, v in (("q", q), ("tag", tag), ("topic", topic), ("state", state))
            if v}
    if starred is not None:
        base["starred"] = "1" if starred else "0"
    if args.get("sort", "saved") != "saved":
        base["sort"] = args["sort"]
    here = url_for("web.library")
    if args.get("cursor"):
        older, first = _pager(here, base, page["next_cursor"], args.get("cursor"))
        numbered = None
    else:
        older = first = None
        numbered = _numbered_pages(here, base, page["page"], page["pages"])
    all_ids = []
    if 0 < total <= papers.BULK_MAX:
        all_ids = listing.matching_ids(g.user, q=q, tag=tag, topic=topic, state=state,
                                       starred=starred)

    export = {k: v for k, v in base.items() if k in ("q", "tag", "topic")}
    if state or starred is not None:  # the export takes no such filter: these very papers
        export = {"ids": ",".join(map(str, all_ids))} if all_ids else {"ids": "0"}
    if tag and q:
        scope = f"tagged “{tag}” matching “{q}”"
    elif tag:
        scope = f"tagged “{tag}”"
    elif q or topic:
        scope = "in this result"
    else:
        scope = "in your library"
    return render_template(
        "library.html", items=items, total=total, q=q or "", tag=tag, topic=topic,
        sort=args.get("sort", "saved"), terms=terms, older=older, first=first,
        state=state, starred=starred, numbered=numbered, all_ids=all_ids,
        sort_labels=SORT_LABELS, state_labels=STATE_LABELS, my_groups=groups.list_groups(g.user),
        tags=listing.tag_counts(g.user), topics=listing.topic_counts(g.user, most=1000),
        problem=problem,
        export=export, export_scope=scope, export_formats=EXPORT_FORMATS,
        feeds=[feeds.feed_record(f, current_app.config["SECRET_KEY"]) for f in feeds.list_feeds(g.user)],
        import_formats=IMPORT_FORMATS, filter_url=lambda **kw: _filter_url(base, **kw),
    )


def _pager(here: str, base: dict, next_cursor, cursor) -> tuple[str | None, str | None]:
    """The pager's links of a list at ``here`` with query ``base``: "Older" (the next page, when
    there is one) and "First page" (when this one is not)."""
    older = here + "?" + urlencode({**base, "cursor": next_cursor}) if next_cursor else None
    first = here + ("?" + urlencode(base) if base else "") if cursor else None
    return older, first


def _numbered_pages(here: str, base: dict, current: int, pages: int) -> dict:
    """The numbered pager: {"current", "pages", "links": [(number or None for a gap, url)],
    "prev", "next"}; the first, last and two pages around the current one are linked."""
    def url(n):
        return here + "?" + urlencode({**base, "page": n}) if n > 1 else \
            here + ("?" + urlencode(base) if base else "")
    shown = sorted({1, pages, *range(max(1, current - 2), min(pages, current + 2) + 1)})
    links, last = [], 0
    for n in shown:
        if n - last > 1:
            links.append((None, None))
        links.append((n, url(n)))
        last = n
    return {"current": current, "pages": pages, "links": links,
            "prev": url(current - 1) if current > 1 else None,
            "next": url(current + 1) if current < pages else None}


def _filter_url(base: dict, **changes) -> str:
    params = dict(base)
    params.pop("page", None)  # another filter: from its first page
    for key, value in changes.items():
        if value is None:
            params.pop(key, None)
        else:
            params[key] = value
    return url_for("web.library") + ("?" + urlencode(params) if params else "")


# ---- one paper -----------------------------------------------------------------------------


def _links(rec: dict) -> list[tuple[str, str]]:
    links = []
    if rec["arxiv_id"]:
        links.append(("arXiv", identifiers.arxiv_abs_url(rec["arxiv_id"])))
        links.append(("PDF", identifiers.arxiv_pdf_url(rec["arxiv_id"])))
    if rec["doi"]:
        links.append(("DOI", "https://doi.org/" + quote(rec["doi"], safe="/:;()._-")))
    url = render.safe_href(rec["url"])
    if url and not any(url == u for _, u in links):
        links.append(("Web page", url))
    source = render.safe_href(rec["source_url"])
    if source:
        links.append(("Saved from", source))
    return links


@bp.get("/papers/<id:paper_id>")
@signed_in
def paper_page(paper_id):
    try:
        paper = papers.get_paper(g.user, paper_id)
    except NotFound:
        return render_template("missing.html"), 404
    rec = papers.paper_detail(paper)
    by_field = {"abstract": [], "title": []}
    for h in rec["highlights"]:
        by_field.setdefault(h["field"], []).append(h)
    abstract = render.paint(render.normalized(rec["abstract"]), by_field["abstract"])
    title = render.paint(render.normalized(rec["title"]), by_field["title"])
    # Number highlights in reading order: title first, then the abstract.
    numbered = title.placed + abstract.placed
    numbers = {h["id"]: i for i, h in enumerate(numbered, 1)}
    notes = [{"rec": n, "html": render.render_markdown(n["body"])} for n in rec["notes"]]
    shared = {g["id"] for g in groups.paper_groups(g.user, paper.id)}
    return render_template(
        "paper.html", p=rec, title=title, abstract=abstract, numbers=numbers,
        numbered=numbered, orphaned=title.orphaned + abstract.orphaned, notes=notes,
        links=_links(rec), full_text=_full_text_sections(rec, by_field.get("body", [])),
        pdf_pages=_pdf_pages(rec, by_field.get("pdf", [])),
        my_groups=[{**grp, "shared": grp["id"] in shared} for grp in groups.list_groups(g.user)],
        entry_types=ENTRY_TYPES, venue_fields=VENUE_FIELDS, state_labels=STATE_LABELS,
        type_fields=_type_fields(rec["entry_type"]),
    )


ENTRY_TYPES = [("", "Not set (derived)"), *((t, t) for t in FIELDS_BY_TYPE)]


def _type_fields(entry_type: str | None) -> str:
    """The venue fields each entry type shows, for the editor (``data-type-fields``): JSON."""
    return json.dumps({"": list(VENUE_FIELDS), **{t: list(f) for t, f in FIELDS_BY_TYPE.items()},
                       "current": entry_type or ""})


def _full_text_sections(rec: dict, highlights: list[dict]) -> list[dict]:
    """The highlights made in the paper's full text (arXiv's HTML view), in reading order, by the
    section they fall under: [{"section", "highlights": [{…, "link"}]}]. Each links to the HTML
    page at that highlight (the extension scrolls to ``#papershelf-highlight=<id>``)."""
    sections: list[dict] = []
    base = identifiers.arxiv_html_url(rec["arxiv_id"]) if rec.get("arxiv_id") else None
    for h in sorted(highlights, key=lambda h: (h["start"], h["id"])):
        if not sections or sections[-1]["section"] != h.get("section", ""):
            sections.append({"section": h.get("section", ""), "highlights": []})
        link = f"{base}#papershelf-highlight={h['id']}" if base else None
        sections[-1]["highlights"].append({**h, "link": link})
    return sections


def _pdf_pages(rec: dict, highlights: list[dict]) -> list[dict]:
    """The highlights made in the paper's PDF (the extension's reader), page by page:
    [{"page", "highlights": [{…, "link"}]}]. Each links to the PDF at its page with the
    highlight's fragment (``#page=N&papershelf-highlight=<id>``): the extension's reader, which
    opens arXiv's PDFs in its place, scrolls to it; a browser's own viewer opens that page."""
    pdf = None
    if rec.get("arxiv_id"):
        pdf = identifiers.arxiv_pdf_url(rec["arxiv_id"])
    elif render.safe_href(rec.get("source_url")):
        pdf = render.safe_href(rec["source_url"])
    pages: list[dict] = []
    for h in sorted(highlights, key=lambda h: (h.get("page") or 0, h["start"], h["id"])):
        if not pages or pages[-1]["page"] != h.get("page"):
            pages.append({"page": h.get("page"), "highlights": []})
        link = f"{pdf}#page={h.get('page')}&papershelf-highlight={h['id']}" if pdf else None
        pages[-1]["highlights"].append({**h, "link": link})
    return pages


# ---- teams: tokens and groups --------------------------------------------------------------


@bp.get("/tokens")
@signed_in
def tokens_page():
    """The user's API tokens: name, created, last used, expiry; a new one's secret once."""
    return render_template("tokens.html",
                           tokens=[auth.token_record(t) for t in auth.list_tokens(g.user)])


@bp.get("/groups")
@signed_in
def groups_page():
    return render_template("groups.html", groups=groups.list_groups(g.user))


@bp.get("/groups/<id:group_id>")
@signed_in
def group_page(group_id):
    """A group's shelf, a page at a time: what members shared, who shared it, their notes and
    highlights; "Older" goes on from the page's last work (the API's cursor)."""
    cursor = request.args.get("cursor", "").strip()[:200] or None
    try:
        try:
            found = groups.shelf(g.user, group_id, limit=PAGE_SIZE, cursor=cursor)
        except Invalid:  # a cursor that was not ours: the first page
            cursor = None
            found = groups.shelf(g.user, group_id, limit=PAGE_SIZE)
    except NotFound:
        return render_template("missing.html", what="group"), 404
    items = [{"rec": rec, "notes": [{**n, "html": render.render_markdown(n["body"])}
                                    for n in rec["notes"]]} for rec in found["items"]]
    older, first = _pager(url_for("web.group_page", group_id=group_id), {},
                          found["next_cursor"], cursor)
    return render_template("group.html", group=found["group"], items=items,
                           older=older, first=first, export_formats=EXPORT_FORMATS)


# ---- settings and duplicates ----------------------------------------------------------------


@bp.get("/settings")
@signed_in
def settings_page():
    """The key formula with a live preview on the user's papers and a re-key's preview, and the
    export defaults."""
    record = settings.settings_record(g.user)
    return render_template("settings.html", s=record,
                           preview=settings.preview(g.user, record["citekey_format"]))


@bp.get("/duplicates")
@signed_in
def duplicates_page():
    return render_template("duplicates.html", groups=duplicates.find_duplicates(g.user))
