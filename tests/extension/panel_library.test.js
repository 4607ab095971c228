/** The notes panel's library controls, as the worker holds them: the recent tags, tags as typed,
 * the library's address, and who may ask for them. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { READING_STATES, cleanTags, recentTags } from "../../extension/background/panels.js";
import { libraryUrl } from "../../extension/lib/api.js";
import { CONTENT_SCRIPT_TYPES, MessageType, READER_TYPES } from "../../extension/lib/messages.js";

test("recent tags: the newest paper's first, each once whatever its case, at most eight", () => {
  const papers = [
    { tags: ["agents", "RL"] },
    { tags: [] },
    { tags: ["rl", "Surveys", "agents"] },
    {},
    { tags: ["a", "b", "c", "d", "e", "f", "g"] },
  ];
  assert.deepEqual(recentTags(papers), ["agents", "RL", "Surveys", "a", "b", "c", "d", "e"]);
  assert.deepEqual(recentTags([]), []);
  assert.deepEqual(recentTags(undefined), []);
});

test("tags as typed: spaces folded, blanks dropped, each once; too long or too many refused", () => {
  assert.deepEqual(cleanTags(["  RL  fine-tuning ", "", "   ", "rl fine-tuning", "agents"]), ["RL fine-tuning", "agents"]);
  assert.deepEqual(cleanTags([]), []);
  assert.throws(() => cleanTags(["x".repeat(101)]), /at most 100 characters/);
  assert.throws(() => cleanTags(Array.from({ length: 101 }, (_, i) => `t${i}`)), /At most 100 tags/);
  assert.throws(() => cleanTags("agents"), /list/);
  assert.throws(() => cleanTags([1]), /text/);
  assert.equal(cleanTags(["x".repeat(100)])[0].length, 100);
});

test("the reading states are the server's", () => {
  assert.deepEqual(READING_STATES, ["unread", "to_read", "reading", "read"]);
});

test("the library's address: the list, or a paper's page", () => {
  assert.equal(libraryUrl("http://127.0.0.1:5180/"), "http://127.0.0.1:5180/");
  assert.equal(libraryUrl("https://papers.lab.example/api", 42), "https://papers.lab.example/papers/42");
  assert.equal(libraryUrl("", 7), "http://127.0.0.1:5180/papers/7");
});

test("a page's script and the reader cannot ask for tags, groups, or change a paper", () => {
  for (const t of [MessageType.PANEL_CHOICES, MessageType.PANEL_SAVE, MessageType.PANEL_PATCH]) {
    assert.ok(!CONTENT_SCRIPT_TYPES.includes(t) && !READER_TYPES.includes(t), t);
  }
});
