import { test } from "node:test";
import assert from "node:assert/strict";
import { findPaperElements, findPapersOnPage, describePaper, parseDate, readCitationMeta, toSavePayload } from "../../extension/lib/adapters/index.js";
import { loadPage, htmlDocument, expectedPapers } from "./helpers.js";

const TOPIC = "https://www.alphaxiv.org/topics/llm-agent-training";
const expected = expectedPapers();

function shown(p) {
  // The Cards view shows three authors and folds the rest into "+N".
  return { authors: p.authors.slice(0, 3), authors_more: p.authors_more + Math.max(0, p.authors.length - 3) };
}

test("Cards view: every paper, with all its fields", () => {
  const doc = loadPage("topic_cards.html", TOPIC);
  const papers = findPapersOnPage(doc);
  assert.equal(papers.length, expected.length);
  for (const [i, p] of papers.entries()) {
    const want = expected[i];
    assert.equal(p.arxiv_id, want.arxiv_id);
    assert.equal(p.version, want.version);
    assert.equal(p.title, want.title);
    assert.deepEqual({ authors: p.authors, authors_more: p.authors_more }, shown(want), want.title);
    assert.equal(p.abstract, want.abstract);
    assert.equal(p.published, want.published);
    assert.deepEqual(p.affiliations, want.affiliations, want.title);
    assert.deepEqual(p.topics, want.topics);
    assert.equal(p.element.getAttribute("tabindex"), "0", "the card itself is the paper's element");
    assert.ok(p.fields.abstract, "the abstract element is known for highlights");
  }
});

test("KaTeX formulas are read once, as the reader sees them", () => {
  const doc = loadPage("topic_cards.html", TOPIC);
  const first = findPapersOnPage(doc)[0];
  assert.match(first.abstract, / τ-bench and UserBench/);
  const act = findPapersOnPage(doc).find((p) => p.title === "Agentic Critical Training");
  assert.match(act.abstract, /over IL→RL without ACT/);
});

test("List view: one entry per row plus the detail panel", () => {
  const doc = loadPage("topic_list.html", TOPIC);
  const entries = findPaperElements(doc);
  assert.equal(entries.length, expected.length + 1);
  const ids = entries.map((e) => e.arxiv_id);
  assert.deepEqual(ids.slice(0, expected.length), expected.map((p) => p.arxiv_id));
  const panel = entries.find((e) => e.element.tagName === "ASIDE");
  assert.ok(panel, "the detail panel is a paper element");
  assert.equal(panel.arxiv_id, expected[0].arxiv_id);
  const d = describePaper(panel);
  assert.equal(d.title, expected[0].title);
  assert.deepEqual(d.authors, expected[0].authors);
  assert.equal(d.authors_more, expected[0].authors_more);
  assert.equal(d.abstract, expected[0].abstract);
  assert.equal(d.version, expected[0].version);
  assert.deepEqual(d.topics, expected[0].topics);
  const row = describePaper(entries[2]);
  assert.equal(row.title, expected[2].title);
  assert.equal(row.published, expected[2].published);
  assert.deepEqual(row.authors, shown(expected[2]).authors);
  assert.deepEqual(row.topics, expected[2].topics.slice(0, 2));
  assert.ok(row.affiliations.length >= 1);
});

test("late-loading page: cards added after load are found on the next scan, once", () => {
  const doc = loadPage("topic_cards_late.html", TOPIC);
  assert.equal(findPaperElements(doc).length, 10);
  const grid = doc.querySelector('[data-testid="paper-grid"]');
  const more = loadPage("topic_cards.html", TOPIC).querySelector('[data-testid="paper-grid"]');
  for (const card of Array.from(more.children).slice(10)) grid.appendChild(card);
  const again = findPaperElements(doc);
  assert.equal(again.length, expected.length);
  assert.equal(new Set(again.map((e) => e.element)).size, expected.length);
});

test("our own controls inside a card do not change what is found", () => {
  const doc = loadPage("topic_cards.html", TOPIC);
  const before = findPapersOnPage(doc).map(({ element, fields, ...rest }) => rest);
  for (const e of findPaperElements(doc)) {
    const ui = doc.createElement("span");
    ui.setAttribute("data-papershelf-ui", "");
    ui.innerHTML = '<a href="https://arxiv.org/abs/2601.00001">Saved</a> Jane Doe, John Roe';
    e.element.appendChild(ui);
  }
  const after = findPapersOnPage(doc).map(({ element, fields, ...rest }) => rest);
  assert.deepEqual(after, before);
});

test("alphaXiv paper page: JSON-LD", () => {
  const [p] = findPapersOnPage(loadPage("alphaxiv_paper.html", `https://www.alphaxiv.org/abs/${expected[0].arxiv_id}`));
  assert.equal(p.arxiv_id, expected[0].arxiv_id);
  assert.equal(p.version, expected[0].version);
  assert.equal(p.title, expected[0].title);
  assert.deepEqual(p.authors, expected[0].authors);
  assert.equal(p.abstract, expected[0].abstract);
  assert.equal(p.published, expected[0].published);
  assert.deepEqual(p.topics, expected[0].topics);
  assert.equal(p.fields.abstract.tagName, "P");
});

test("arXiv /abs/ page: citation_* meta tags", () => {
  const [p] = findPapersOnPage(loadPage("arxiv_abs.html", `https://arxiv.org/abs/${expected[0].arxiv_id}`));
  assert.equal(p.arxiv_id, expected[0].arxiv_id);
  assert.equal(p.title, expected[0].title);
  assert.deepEqual(p.authors, expected[0].authors);
  assert.equal(p.abstract, expected[0].abstract);
  assert.equal(p.published, expected[0].published);
  assert.equal(p.fields.abstract.tagName, "BLOCKQUOTE", "the label 'Abstract:' is not part of the field");
});

test("arXiv /list/ page: one entry per dt/dd", () => {
  const papers = findPapersOnPage(loadPage("arxiv_list.html", "https://arxiv.org/list/cs.CL/new"));
  assert.equal(papers.length, 12);
  for (const [i, p] of papers.entries()) {
    assert.equal(p.arxiv_id, expected[i].arxiv_id);
    assert.equal(p.title, expected[i].title);
    assert.deepEqual(p.authors, expected[i].authors);
    assert.equal(p.abstract, expected[i].abstract);
    assert.equal(p.element.tagName, "DD");
  }
});

test("a link in running text is not a paper", () => {
  const doc = htmlDocument('<p>See <a href="https://arxiv.org/abs/2603.00001">this</a>.</p><p>And <a href="/abs/2603.00002">that</a>.</p>', TOPIC);
  assert.equal(findPaperElements(doc).length, 0);
});

test("dates", () => {
  assert.equal(parseDate("Mar 9, 2026"), "2026-03-09");
  assert.equal(parseDate("2026/03/31"), "2026-03-31");
  assert.equal(parseDate("J/K move"), null);
});

test("save payload carries only contract fields", () => {
  const doc = loadPage("topic_cards.html", TOPIC);
  const body = toSavePayload(findPapersOnPage(doc)[0], TOPIC);
  assert.deepEqual(Object.keys(body).sort(), [
    "abstract", "affiliations", "arxiv_id", "arxiv_version", "authors", "authors_more", "published", "source_url", "title", "topics", "url",
  ]);
});

test("a paper the page gives no title for is sent without one, never with its id as a title", () => {
  const body = toSavePayload({ arxiv_id: "2603.01234", version: 2, title: "", authors: [] }, "https://arxiv.org/pdf/2603.01234v2");
  assert.equal("title" in body, false);
  assert.equal(body.arxiv_id, "2603.01234");
  assert.equal(body.url, "https://arxiv.org/abs/2603.01234");
  assert.equal(toSavePayload({ arxiv_id: "2603.01234", title: "Real" }).title, "Real");
});

test("a page known by its address is keyed by its canonical URL (no fragment, no utm_)", () => {
  const doc = metaPage(TITLE, "https://www.alphaxiv.org/abs/venue-paper?utm_source=x&page=2#section");
  const [entry] = findPaperElements(doc);
  assert.equal(entry.arxiv_id, null);
  assert.equal(entry.url, "https://www.alphaxiv.org/abs/venue-paper?page=2");
  assert.equal(toSavePayload(describePaper(entry, doc)).url, "https://www.alphaxiv.org/abs/venue-paper?page=2");
});

/** A page with these citation_* tags (name → content, or a list of contents). */
function metaPage(tags, url = "https://journal.example/article/5678") {
  const metas = Object.entries(tags)
    .flatMap(([name, content]) => [].concat(content).map((c) => `<meta name="${name}" content="${c}">`))
    .join("\n");
  return htmlDocument(`<html><head>${metas}</head><body><h1>${tags.citation_title || ""}</h1></body></html>`, url);
}

const TITLE = { citation_title: "Asymmetric Actor-Critic for Multi-turn LLM Agents" };

for (const [what, dates, published] of [
  ["citation_publication_date wins over the other two", { citation_publication_date: "2025/12/01", citation_date: "2026/03/31", citation_online_date: "2026/04/15" }, "2025-12-01"],
  ["citation_date (arXiv's first version) wins over citation_online_date (its latest)", { citation_date: "2026/03/31", citation_online_date: "2026/04/15" }, "2026-03-31"],
  ["citation_publication_date wins over citation_online_date", { citation_publication_date: "2025/12/01", citation_online_date: "2026/04/15" }, "2025-12-01"],
  ["citation_online_date when it is the only date", { citation_online_date: "2026/04/15" }, "2026-04-15"],
  ["a month without a day is its first day", { citation_publication_date: "2025/12" }, "2025-12-01"],
  ["a bare year is no date", { citation_publication_date: "2025" }, null],
  ["no date tag, no date", {}, null],
]) {
  test(`citation meta date: ${what}`, () => {
    const doc = metaPage({ ...TITLE, ...dates });
    assert.equal(readCitationMeta(doc).published, published);
  });
}

test("citation meta: the arXiv /abs/ adapter takes the first version's date too", () => {
  const doc = metaPage({ ...TITLE, citation_arxiv_id: "2603.30493", citation_date: "2026/03/31", citation_online_date: "2026/04/15" }, "https://arxiv.org/abs/2603.30493");
  const [p] = findPapersOnPage(doc);
  assert.equal(p.arxiv_id, "2603.30493");
  assert.equal(p.published, "2026-03-31");
});

test("citation meta: fields, authors turned to First Last, DOI lower-cased", () => {
  const doc = metaPage({
    ...TITLE,
    citation_author: ["Jiang, Shuli", "Zhang, Zhaoyang", "Plato"],
    citation_author_institution: ["CMU", "CMU", "MIT"],
    citation_doi: "10.1234/Journal.5678",
    citation_abstract: "  We study agents.  ",
    citation_date: "2026/03/31",
  });
  assert.deepEqual(readCitationMeta(doc), {
    title: TITLE.citation_title,
    authors: ["Shuli Jiang", "Zhaoyang Zhang", "Plato"],
    abstract: "We study agents.",
    published: "2026-03-31",
    doi: "10.1234/journal.5678",
    arxiv_id: null,
    url: "https://journal.example/article/5678",
    affiliations: ["CMU", "MIT"],
  });
});

test("citation meta: a page without citation_title describes no paper", () => {
  assert.equal(readCitationMeta(metaPage({ citation_date: "2026/03/31" })), null);
});

test("citation meta: the reader is self-contained, as executeScript needs", () => {
  // executeScript sends the function's source: rebuilt from it, away from this module's scope,
  // it must read the same paper.
  const injected = new Function(`return (${readCitationMeta.toString()});`)();
  const doc = metaPage({ ...TITLE, citation_author: "Jiang, Shuli", citation_doi: "10.1/X", citation_date: "2026/03/31", citation_online_date: "2026/04/15" });
  assert.deepEqual(injected(doc), readCitationMeta(doc));
  assert.equal(injected(doc).published, "2026-03-31");
});
