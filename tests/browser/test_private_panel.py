"""Private by construction ("private text stays out of the page"): a hostile page script
on an arXiv/alphaXiv page tries each way in, and achieves nothing and learns no note text.

The hostile script is a page script (it runs in the page's own world, before the page's scripts, as
any script of the site could): it spies on every DOM change and every window message, and offers
the attacks below, which each test runs. After each attack the server is asked what it holds.
The user's own actions are Playwright's, which are trusted input events, as a real user's are.
"""

import json

import pytest

from conftest import (
    TOPIC_URL,
    expected_papers,
    note_shown,
    notes_frame,
    open_notes,
    wait_saved,
    wait_until,
)

pytestmark = pytest.mark.browser

PAPERS = expected_papers()
NOTE = "my unpublished idea: swap the critic for a verifier"
COMMENT = "reviewer 2 will ask about this claim"

HOSTILE = r"""
(() => {
  const spy = { mutations: [], messages: [], keys: [] };
  window.__spy = spy;
  const seen = (s) => { if (typeof s === 'string' && s) spy.mutations.push(s); };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'characterData') seen(r.target.data);
      if (r.type === 'attributes') seen(r.target.getAttribute(r.attributeName));
      for (const n of r.addedNodes) seen(n.nodeType === 1 ? n.outerHTML : n.textContent);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  addEventListener('message', (ev) => spy.messages.push(JSON.stringify(ev.data)), true);
  for (const t of ['keydown', 'keypress', 'input']) {
    addEventListener(t, (ev) => spy.keys.push(ev.key || ev.data || t), true);
  }

  const buttons = (action) => [...document.querySelectorAll(`[data-papershelf-action="${action}"]`)];
  const panelFrame = () => document.querySelector('iframe[data-papershelf-frame]');

  window.hostile = {
    /** Every string the page can reach: text, attributes, form values, every open shadow root,
     *  and whatever it can reach through the frames. */
    harvest() {
      const out = [];
      const walk = (node) => {
        if (node.nodeType === 1) {
          for (const a of node.attributes) out.push(a.value);
          if (typeof node.value === 'string') out.push(node.value);
          if (node.shadowRoot) walk(node.shadowRoot);
          if (node.tagName === 'IFRAME') {
            try { const d = node.contentDocument; if (d) walk(d); } catch (e) { /* cross-origin */ }
          }
        } else if (node.nodeType === 3) {
          out.push(node.data);
        }
        for (const c of node.childNodes) walk(c);
      };
      walk(document);
      for (let i = 0; i < frames.length; i++) {
        try { out.push(frames[i].document.documentElement.outerHTML); } catch (e) { /* cross-origin */ }
      }
      out.push(document.documentElement.outerHTML, document.title, getSelection().toString());
      return out.join('\n');
    },
    /** What the page gets when it reaches for the panel frame's document. */
    frameAccess() {
      const f = panelFrame();
      const r = { frame: Boolean(f) };
      if (!f) return r;
      r.src = f.src;
      r.contentDocument = f.contentDocument === null ? 'null' : 'readable';
      try {
        r.windowDocument = f.contentWindow.document ? 'readable' : 'none';
      } catch (e) { r.windowDocument = e.name; }
      try { r.location = f.contentWindow.location.href; } catch (e) { r.location = e.name; }
      return r;
    },
    /** Click every Save and Note button every way a script can. */
    clickEverything() {
      for (const action of ['save', 'note']) {
        for (const b of buttons(action)) {
          b.click();
          b.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true }));
          for (const t of ['pointerdown', 'mousedown', 'pointerup', 'mouseup']) {
            b.dispatchEvent(new PointerEvent(t, { bubbles: true }));
          }
          b.focus();
          for (const key of ['Enter', ' ']) {
            b.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
            b.dispatchEvent(new KeyboardEvent('keyup', { key, bubbles: true }));
          }
        }
      }
      for (const t of ['keydown', 'keyup']) {
        document.dispatchEvent(new KeyboardEvent(t, {
          key: 'S', code: 'KeyS', altKey: true, shiftKey: true, bubbles: true }));
      }
      return buttons('save').length;
    },
    /** Select words of an abstract and pretend the mouse was released there. */
    fakeSelection(id, quote) {
      const el = document.querySelector(`[data-papershelf-paper="${id}"]`);
      const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n; n = w.nextNode()) {
        const i = n.data.indexOf(quote);
        if (i >= 0 && n.parentElement.tagName === 'P') {
          const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + quote.length);
          getSelection().removeAllRanges(); getSelection().addRange(r);
          n.parentElement.dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
          document.dispatchEvent(new KeyboardEvent('keyup', {
            key: 'ArrowRight', shiftKey: true, bubbles: true }));
          return true;
        }
      }
      return false;
    },
    toolbarVisible() {
      const host = document.querySelector('[data-papershelf-ui="highlight-toolbar"]');
      return Boolean(host && !host.hidden);
    },
    /** Press the highlight toolbar's buttons through its open shadow root. */
    clickToolbar() {
      const host = document.querySelector('[data-papershelf-ui="highlight-toolbar"]');
      const root = host && host.shadowRoot;
      if (!root) return 0;
      const bs = [...root.querySelectorAll('button')];
      for (const b of bs) {
        b.click();
        b.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
      }
      return bs.length;
    },
    /** Messages shaped like the extension's, to the panel frame and to the page's window. */
    postEverywhere(noteId) {
      const shapes = [
        { type: 'note', payload: { body: 'written by the page' } },
        { id: 1, type: 'note', payload: { body: 'written by the page' } },
        { type: 'delete-note', payload: { id: noteId } },
        { id: 2, type: 'update-note', payload: { id: noteId, body: 'changed by the page' } },
        { type: 'panel-state' }, { type: 'close-panel' }, { type: 'export', payload: { format: 'bibtex' } },
        { type: 'panel-changed', payload: { tabId: null, frameId: null } },
        { papershelfTicket: '00000000000000000000000000000000' },
        { papershelfTicket: 'ffffffffffffffffffffffffffffffff' },
      ];
      const f = panelFrame();
      let n = 0;
      for (const m of shapes) {
        if (f && f.contentWindow) { f.contentWindow.postMessage(m, '*'); n++; }
        for (let i = 0; i < frames.length; i++) { frames[i].postMessage(m, '*'); n++; }
        window.postMessage(m, '*'); n++;
      }
      return n;
    },
    /** Reach the extension the way a page could, if it were let in. */
    async messageExtension(extId) {
      const out = [];
      const rt = typeof chrome !== 'undefined' && chrome && chrome.runtime;
      out.push(`runtime: ${rt ? typeof rt.sendMessage : 'absent'}`);
      for (const msg of [{ type: 'status' }, { type: 'export', payload: { format: 'bibtex' } },
                         { type: 'note', payload: { body: 'written by the page' } }]) {
        try {
          const answer = await chrome.runtime.sendMessage(extId, msg);
          out.push(`answered: ${JSON.stringify(answer)}`);
        } catch (e) {
          out.push(`refused: ${e.name}`);
        }
      }
      try {
        const port = chrome.runtime.connect(extId, { name: 'papershelf' });
        port.postMessage({ id: 1, type: 'note', payload: { body: 'written by the page' } });
        out.push('connected');
      } catch (e) {
        out.push(`refused: ${e.name}`);
      }
      return out;
    },
    /** Navigate our panel frame to a page of the site's own (a fake panel). */
    navigateFrame(url) {
      const f = panelFrame();
      f.contentWindow.location = url;
      return new Promise((resolve) => f.addEventListener('load', () => resolve(true), { once: true }));
    },
    /** A panel frame of the page's own (panel.html is web-accessible; the URL is our frame's src). */
    ownPanel(src) {
      const f = document.createElement('iframe');
      f.id = 'hostile-panel';
      f.src = src;
      f.style.cssText = 'position:fixed;left:0;top:0;width:380px;height:600px;';
      document.body.append(f);
      return new Promise((resolve) => f.addEventListener('load', () => {
        f.contentWindow.postMessage({ papershelfTicket: '00000000000000000000000000000000' }, '*');
        resolve(true);
      }));
    },
  };
})();
"""


def hostile_page(context, url=TOPIC_URL):
    page = context.new_page()
    page.add_init_script(HOSTILE)
    page.goto(url)
    page.wait_for_selector('[data-papershelf-paper] [data-papershelf-action="save"]')
    assert page.evaluate("() => typeof window.hostile.harvest") == "function"
    return page


def paper_el(page, arxiv_id):
    return page.locator(f'[data-papershelf-paper="{arxiv_id}"]').first


def panel_open(page):
    return page.evaluate("""() => {
        const host = document.querySelector('[data-papershelf-ui="panel"]');
        return Boolean(host && !host.hidden);
    }""")


def seed(server, target, note=NOTE, comment=COMMENT):
    """A saved paper with one note and one commented highlight, made through the API."""
    status, paper = server.call("POST", "/api/papers", {
        "arxiv_id": target["arxiv_id"], "title": target["title"], "abstract": target["abstract"],
        "authors": target["authors"], "published": target["published"]})
    assert status == 201, paper
    status, n = server.call("POST", f"/api/papers/{paper['id']}/notes", {"body": note})
    assert status == 201, n
    text = target["abstract"]
    quote = text[text.index(" ", 20) + 1:text.index(" ", 60)]
    start = text.index(quote)
    status, h = server.call("POST", f"/api/papers/{paper['id']}/highlights", {
        "field": "abstract", "exact": quote, "prefix": text[max(0, start - 32):start],
        "suffix": text[start + len(quote):start + len(quote) + 32], "start": start,
        "end": start + len(quote), "color": "pink", "comment": comment})
    assert status == 201, h
    return paper, n, h


def server_state(server):
    """Everything the server holds that an attack could change."""
    out = []
    for p in server.papers():
        status, full = server.call("GET", f"/api/papers/{p['id']}")
        assert status == 200, full
        out.append({"arxiv_id": full["arxiv_id"],
                    "notes": [(n["id"], n["body"]) for n in full["notes"]],
                    "highlights": [(h["id"], h["comment"]) for h in full["highlights"]]})
    return out


def assert_private(page, *secrets):
    harvest = page.evaluate("() => window.hostile.harvest()")
    spied = page.evaluate("() => JSON.stringify(window.__spy)")
    for secret in secrets:
        assert secret not in harvest, f"{secret!r} is readable in the page"
        assert secret not in spied, f"{secret!r} went past the page's spy"


def test_page_script_clicks_and_dispatched_events_do_nothing(connected):
    context, _sw, server = connected
    page = hostile_page(context)
    clicked = page.evaluate("() => window.hostile.clickEverything()")
    assert clicked == len(PAPERS)
    page.wait_for_timeout(800)
    assert not panel_open(page), "a script's click opened the notes panel"
    assert page.locator('[data-papershelf-action="save"][aria-pressed="true"]').count() == 0
    assert page.locator('[data-papershelf-action="note"][aria-expanded="true"]').count() == 0
    assert page.locator('[data-papershelf-action="save"][data-papershelf-state="saving"]').count() == 0
    assert server.papers() == [], "a script's click saved a paper"
    # The user's own click still works, on the same page.
    paper_el(page, PAPERS[0]["arxiv_id"]).locator('[data-papershelf-action="save"]').click()
    wait_saved(page, PAPERS[0]["arxiv_id"])
    assert [p["arxiv_id"] for p in server.papers()] == [PAPERS[0]["arxiv_id"]]


def test_page_script_cannot_highlight(connected):
    context, _sw, server = connected
    page = hostile_page(context)
    target = PAPERS[1]
    assert page.evaluate("([id, q]) => window.hostile.fakeSelection(id, q)",
                         [target["arxiv_id"], "unified infrastructure"])
    page.wait_for_timeout(300)
    assert not page.evaluate("() => window.hostile.toolbarVisible()"), "a fake mouseup showed the toolbar"
    # The user selects (trusted mouseup): the toolbar shows; the page presses its buttons.
    page.mouse.move(5, 5)
    page.mouse.up()
    wait_until(lambda: page.evaluate("() => window.hostile.toolbarVisible()"), what="toolbar")
    assert page.evaluate("() => window.hostile.clickToolbar()") >= 3
    page.wait_for_timeout(600)
    assert page.locator("[data-papershelf-highlight]").count() == 0
    assert not panel_open(page)
    assert server.papers() == []
    # The user's click does highlight.
    page.locator('[data-papershelf-action="highlight"]').click()
    paper_el(page, target["arxiv_id"]).locator("[data-papershelf-highlight]").first.wait_for()
    (state,) = server_state(server)
    assert len(state["highlights"]) == 1


def test_no_note_or_comment_text_reaches_the_page(connected):
    context, _sw, server = connected
    target = PAPERS[2]
    _paper, note, highlight = seed(server, target)
    page = hostile_page(context)
    page.wait_for_selector(f'[data-papershelf-paper="{target["arxiv_id"]}"] [data-papershelf-highlight]')
    status = paper_el(page, target["arxiv_id"]).locator("[data-papershelf-status]")
    wait_until(lambda: status.inner_text() == "1 note", what="the note count")
    assert_private(page, NOTE, COMMENT)
    mark = page.locator(f'[data-papershelf-highlight="{highlight["id"]}"]')
    assert mark.get_attribute("title") is None
    # Hovering the mark shows nothing of the comment in the page.
    mark.hover()
    page.wait_for_timeout(200)
    assert_private(page, NOTE, COMMENT)

    # The user opens the panel: the note and comment are on screen, in the frame.
    frame = open_notes(page, target["arxiv_id"])
    frame.locator("[data-papershelf-note-body]", has_text=NOTE).wait_for()
    assert frame.locator("[data-papershelf-comment]").inner_text() == COMMENT
    access = page.evaluate("() => window.hostile.frameAccess()")
    assert access["contentDocument"] == "null"
    assert access["windowDocument"] == "SecurityError"
    assert access["location"] == "SecurityError"
    assert_private(page, NOTE, COMMENT)

    # The user types a new note in the frame: the page sees no key and no text.
    secret = "second private thought"
    frame.locator("textarea[data-papershelf-note-input]").press_sequentially(secret)
    frame.locator('[data-papershelf-action="save-note"]').click()
    frame.locator("[data-papershelf-note-body]", has_text=secret).wait_for()
    assert page.evaluate("() => window.__spy.keys") == []
    wait_until(lambda: status.inner_text() == "2 notes", what="the new count")
    assert_private(page, NOTE, COMMENT, secret)
    assert [n for _, n in server_state(server)[0]["notes"]] == [NOTE, secret]
    assert note["id"] in [i for i, _ in server_state(server)[0]["notes"]]


def test_messages_to_the_frame_and_the_window_change_nothing(connected):
    context, _sw, server = connected
    target = PAPERS[3]
    _paper, note, _h = seed(server, target)
    page = hostile_page(context)
    frame = open_notes(page, target["arxiv_id"])
    frame.locator("[data-papershelf-note-body]", has_text=NOTE).wait_for()
    before = server_state(server)
    sent = page.evaluate("(id) => window.hostile.postEverywhere(id)", note["id"])
    assert sent > 20
    page.wait_for_timeout(1000)
    assert server_state(server) == before, "a posted message changed the server"
    assert panel_open(page)
    assert frame.locator("[data-papershelf-note]").count() == 1
    assert frame.locator("#paper-title").inner_text() == target["title"]
    # The panel still works for the user.
    frame.locator("textarea[data-papershelf-note-input]").fill("still mine")
    frame.locator('[data-papershelf-action="save-note"]').click()
    frame.locator("[data-papershelf-note-body]", has_text="still mine").wait_for()
    # The ticket that made our frame the tab's panel went to the frame alone, never to the page.
    spied = page.evaluate("() => window.__spy.messages")
    assert not any("papershelfTicket" in m and "0000" not in m and "ffff" not in m for m in spied), spied
    assert_private(page, NOTE, "still mine")


def test_a_panel_frame_the_page_makes_shows_nothing_and_changes_nothing(connected):
    context, _sw, server = connected
    target = PAPERS[4]
    seed(server, target)
    page = hostile_page(context)
    open_notes(page, target["arxiv_id"]).locator("[data-papershelf-note-body]", has_text=NOTE).wait_for()
    src = page.get_attribute("iframe[data-papershelf-frame]", "src")
    assert page.evaluate("(src) => window.hostile.ownPanel(src)", src)
    own = page.frame_locator("#hostile-panel")
    own.locator("textarea[data-papershelf-note-input]").wait_for()
    page.wait_for_timeout(500)
    assert own.locator("#paper-title").inner_text() == "Open a paper's notes with its Note button."
    assert own.locator("[data-papershelf-note]").count() == 0
    assert own.locator("[data-papershelf-comment]").count() == 0
    # Even a user fooled into writing in it saves nothing.
    before = server_state(server)
    own.locator("textarea[data-papershelf-note-input]").fill("typed into the page's frame")
    own.locator('[data-papershelf-action="save-note"]').click()
    own.locator("#note-msg", has_text="open it from a paper's Note button").wait_for()
    assert server_state(server) == before
    # Our panel is still the tab's panel.
    ours = notes_frame(page)
    assert ours.locator("[data-papershelf-note-body]").inner_text() == NOTE


def test_a_frame_the_page_navigated_is_never_shown_as_the_panel(connected):
    context, _sw, server = connected
    target = PAPERS[7]
    seed(server, target)
    page = hostile_page(context)
    frame = open_notes(page, target["arxiv_id"])
    frame.locator("[data-papershelf-note-body]", has_text=NOTE).wait_for()
    assert page.evaluate("(u) => window.hostile.navigateFrame(u)", "https://www.alphaxiv.org/fake-notes")
    wait_until(lambda: not panel_open(page), what="the navigated frame hidden")
    assert page.locator("iframe[data-papershelf-frame]").count() == 0, "the navigated frame is dropped"
    # The next Note shows a fresh panel of ours, with the paper's notes.
    frame = open_notes(page, target["arxiv_id"])
    frame.locator("[data-papershelf-note-body]", has_text=NOTE).wait_for()
    assert page.locator("iframe[data-papershelf-frame]").count() == 1
    assert_private(page, NOTE, COMMENT)


def panel_document_text(page):
    """The text of the tab's panel frame (hidden or not), read by the test, not by the page. (Found
    from its element: Playwright may list a hidden extension frame without its URL for a while.)"""
    element = page.query_selector("iframe[data-papershelf-frame]")
    frame = element.content_frame() if element else None
    try:
        return frame.evaluate("() => document.body ? document.body.textContent : ''") if frame else None
    except Exception:  # between two documents
        return None


def test_the_next_page_in_the_tab_starts_with_an_empty_panel(connected):
    context, _sw, server = connected
    target = PAPERS[8]
    seed(server, target)
    page = hostile_page(context)
    open_notes(page, target["arxiv_id"]).locator("[data-papershelf-note-body]", has_text=NOTE).wait_for()
    page.goto(f"https://arxiv.org/abs/{PAPERS[0]['arxiv_id']}")
    page.wait_for_selector('[data-papershelf-paper] [data-papershelf-action="save"]')
    wait_until(lambda: "Open a paper's notes" in (panel_document_text(page) or ""),
               what="the new page's panel made and claimed")
    page.wait_for_timeout(300)
    assert NOTE not in panel_document_text(page), "the last page's notes followed the tab"
    assert not panel_open(page)
    frame = open_notes(page, PAPERS[0]["arxiv_id"])
    frame.locator("#paper-title", has_text=PAPERS[0]["title"][:20]).wait_for()
    assert frame.locator("[data-papershelf-note]").count() == 0


def test_the_page_cannot_message_the_extension(connected):
    context, sw, server = connected
    ext_id = sw.url.split("/")[2]
    page = hostile_page(context)
    before = server_state(server)
    tried = page.evaluate("(id) => window.hostile.messageExtension(id)", ext_id)
    assert tried[0] == "runtime: absent", tried  # no externally_connectable: no chrome.runtime here
    assert tried[1:] == ["refused: TypeError"] * 4, tried
    assert not any(t.startswith(("answered", "connected")) for t in tried)
    page.wait_for_timeout(300)
    assert server_state(server) == before


SENDERS = {
    "content": lambda ext: {"id": ext, "url": TOPIC_URL, "origin": "https://www.alphaxiv.org",
                            "frameId": 0, "tab": {"id": 1}},
    # The content scripts run on every http(s) page but the loopback server's own.
    "unlisted page": lambda ext: {"id": ext, "url": "http://127.0.0.1:5180/library",
                                  "origin": "http://127.0.0.1:5180", "frameId": 0, "tab": {"id": 1}},
    "sub-frame": lambda ext: {"id": ext, "url": TOPIC_URL, "origin": "https://www.alphaxiv.org",
                              "frameId": 3, "tab": {"id": 1}},
    "other extension": lambda ext: {"id": "a" * 32, "url": f"chrome-extension://{'a' * 32}/x.html"},
    "extension page": lambda ext: {"id": ext, "url": f"chrome-extension://{ext}/popup/popup.html",
                                   "origin": f"chrome-extension://{ext}"},
}


@pytest.mark.parametrize("who,msg,allowed", [
    ("content", {"type": "note", "payload": {"body": "from a page"}}, False),
    ("content", {"type": "update-note", "payload": {"id": "1", "body": "x"}}, False),
    ("content", {"type": "delete-note", "payload": {"id": "1"}}, False),
    ("content", {"type": "update-highlight", "payload": {"id": "1", "comment": "x"}}, False),
    ("content", {"type": "panel-state"}, False),
    ("content", {"type": "bibtex"}, False),
    ("content", {"type": "export", "payload": {"format": "bibtex"}}, False),
    ("content", {"type": "status"}, False),
    ("content", {"type": "test-connection",
                 "payload": {"serverUrl": "http://127.0.0.1:9", "token": "x"}}, False),
    ("content", {"type": "flush"}, False),
    ("content", {"type": "save-page"}, False),
    ("content", {"type": "claim-panel", "payload": {"ticket": "0" * 32}}, False),
    ("content", {"type": "lookup", "payload": {"keys": []}}, True),
    ("unlisted page", {"type": "lookup", "payload": {"keys": []}}, False),
    ("sub-frame", {"type": "lookup", "payload": {"keys": []}}, False),
    ("other extension", {"type": "status"}, False),
    ("extension page", {"type": "status"}, True),
])
def test_the_router_answers_each_sender_only_what_it_may_ask(connected, who, msg, allowed):
    _context, sw, server = connected
    ext_id = sw.url.split("/")[2]
    before = server_state(server)
    answer = sw.evaluate("([msg, sender]) => papershelf.route(msg, sender)",
                         [msg, SENDERS[who](ext_id)])
    if allowed:
        assert answer["ok"], answer
    else:
        assert answer == {"ok": False, "error": {
            "message": f"refused: {msg['type']} is not for this sender", "code": "forbidden",
            "status": 0}}, answer
    assert server_state(server) == before


def test_user_adds_edits_and_deletes_a_note_through_the_frame_on_a_hostile_page(connected):
    context, _sw, server = connected
    target = PAPERS[5]
    page = hostile_page(context)
    frame = open_notes(page, target["arxiv_id"])
    assert page.evaluate("() => document.activeElement.matches('iframe[data-papershelf-frame]')")

    frame.locator("textarea[data-papershelf-note-input]").fill("draft one")
    frame.locator('[data-papershelf-action="save-note"]').click()
    note_shown(frame, "draft one")
    (state,) = wait_until(lambda: server_state(server), what="the note saved")
    assert state["arxiv_id"] == target["arxiv_id"], "a note on an unsaved paper saves it"
    assert [n for _, n in state["notes"]] == ["draft one"]
    wait_saved(page, target["arxiv_id"])

    item = frame.locator("[data-papershelf-note]").first
    item.locator('[data-papershelf-action="edit-note"]').click()
    item.locator("textarea").fill("draft one, revised")
    item.locator('[data-papershelf-action="update-note"]').click()
    note_shown(frame, "revised")
    assert [n for _, n in server_state(server)[0]["notes"]] == ["draft one, revised"]

    delete = frame.locator('[data-papershelf-action="delete-note"]')
    delete.click()
    assert delete.inner_text() == "Delete for good?"
    assert [n for _, n in server_state(server)[0]["notes"]] == ["draft one, revised"], "confirm first"
    delete.click()
    wait_until(lambda: frame.locator("[data-papershelf-note]").count() == 0, what="deleted")
    assert server_state(server)[0]["notes"] == []
    status = paper_el(page, target["arxiv_id"]).locator("[data-papershelf-status]")
    wait_until(lambda: status.inner_text() == "", what="the count gone")
    assert_private(page, "draft one")


def test_keyboard_opens_types_and_closes_the_panel(connected):
    """Focus moves into the panel on open, Escape closes it and focus is back on Note; the panel's
    controls have names a screen reader can say."""
    context, _sw, server = connected
    target = PAPERS[6]
    page = hostile_page(context)
    note = paper_el(page, target["arxiv_id"]).locator('[data-papershelf-action="note"]')
    note.focus()
    page.keyboard.press("Enter")
    frame = notes_frame(page)
    frame.locator("textarea[data-papershelf-note-input]").wait_for()
    wait_until(lambda: frame.locator("textarea[data-papershelf-note-input]").evaluate(
        "t => document.activeElement === t"), what="focus in the note box")
    assert note.get_attribute("aria-expanded") == "true"
    page.evaluate("() => { window.__spy.keys.length = 0; }")  # the Enter on Note was the page's
    page.keyboard.type("typed with the keyboard")
    page.keyboard.press("Control+Enter")
    note_shown(frame, "typed with the keyboard")
    # Back to the note's Edit button, edit it, save with Ctrl+Enter: focus stays on Edit.
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    edit = frame.locator('[data-papershelf-note] [data-papershelf-action="edit-note"]')
    assert edit.evaluate("b => document.activeElement === b")
    page.keyboard.press("Enter")
    page.keyboard.press("End")
    page.keyboard.type(", then edited")
    page.keyboard.press("Control+Enter")
    note_shown(frame, "then edited")
    page.wait_for_timeout(300)  # the panel reloads its state after a change
    assert edit.evaluate("b => document.activeElement === b"), "focus kept on the note's Edit"
    assert page.evaluate("() => window.__spy.keys") == []
    page.keyboard.press("Escape")
    wait_until(lambda: not panel_open(page), what="closed")
    assert note.get_attribute("aria-expanded") == "false"
    assert note.evaluate("b => document.activeElement === b")
    names = frame.locator("textarea, button").evaluate_all("""els => els.map(e =>
        e.getAttribute('aria-label') || (e.labels && e.labels[0] && e.labels[0].textContent) ||
        e.textContent.trim())""")
    assert all(n and n.strip() for n in names), names
    assert [n for _, n in server_state(server)[0]["notes"]] == ["typed with the keyboard, then edited"]


def test_copy_key_and_copy_bibtex_from_the_panel(connected):
    context, _sw, server = connected
    target = PAPERS[0]
    paper, _n, _h = seed(server, target)
    page = hostile_page(context)
    frame = open_notes(page, target["arxiv_id"])
    frame.locator("#citation-key", has_text=paper["citation_key"]).wait_for()
    reader = context.new_page()
    context.grant_permissions(["clipboard-read"], origin=server.base)
    reader.goto(server.base + "/api/health")

    def clipboard():
        reader.bring_to_front()
        text = reader.evaluate("() => navigator.clipboard.readText()")
        page.bring_to_front()
        return text

    frame.locator('[data-papershelf-action="copy-key"]').click()
    frame.locator("#cite-msg", has_text="Key copied.").wait_for()
    assert clipboard() == paper["citation_key"] == "jiang2026asymmetric"
    frame.locator('[data-papershelf-action="copy-bibtex"]').click()
    frame.locator("#cite-msg", has_text="BibTeX copied.").wait_for()
    import urllib.request

    req = urllib.request.Request(f"{server.base}/api/export?format=bibtex&ids={paper['id']}",
                                 headers={"Authorization": f"Bearer {server.token}"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        expected = resp.read().decode("utf-8")
    copied = clipboard()
    assert copied == expected
    assert copied.startswith("@misc{jiang2026asymmetric,")
    assert json.dumps(page.evaluate("() => window.__spy.messages")).count("jiang2026asymmetric") == 0


def test_the_panel_takes_a_comment_and_a_note_as_long_as_the_server_keeps(connected):
    """The panel's boxes take the server's limits (lib/limits.js): a 30,000-character comment,
    more than the panel used to allow, is kept whole, and stays out of the page."""
    from papershelf.domain.validation import COMMENT_MAX, NOTE_MAX

    context, _sw, server = connected
    target = PAPERS[2]
    paper, _note, h = seed(server, target)
    page = hostile_page(context)
    wait_saved(page, target["arxiv_id"])
    frame = open_notes(page, target["arxiv_id"])
    assert frame.locator("textarea[data-papershelf-note-input]").get_attribute("maxlength") == str(NOTE_MAX)
    item = frame.locator(f'[data-papershelf-highlight-item="{h["id"]}"]')
    item.locator('[data-papershelf-action="edit-comment"]').click()
    box = frame.locator("[data-papershelf-comment-input]")
    assert box.get_attribute("maxlength") == str(COMMENT_MAX)
    long_comment = ("why this claim holds, and where it would not " * 700)[:30_000]
    box.fill(long_comment)
    frame.locator('[data-papershelf-action="save-comment"]').click()
    frame.locator("[data-papershelf-comment]", has_text=long_comment[:40]).wait_for()
    status, full = server.call("GET", f"/api/papers/{paper['id']}")
    assert [x["comment"] for x in full["highlights"]] == [long_comment]
    assert_private(page, long_comment[:60])
