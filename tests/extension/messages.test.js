import { test } from "node:test";
import assert from "node:assert/strict";
import { CONTENT_SCRIPT_TYPES, MessageType, WORKER_SENDS, resultOf } from "../../extension/lib/messages.js";
import { handlers } from "../../extension/background/router.js";

test("each message type is spelled once and the table cannot change", () => {
  const types = Object.values(MessageType);
  assert.equal(new Set(types).size, types.length);
  assert.ok(types.every((t) => typeof t === "string" && t));
  assert.ok(Object.isFrozen(MessageType));
});

test("the router has one handler for each type the worker is asked, and no other", () => {
  const asked = Object.values(MessageType).filter((t) => !WORKER_SENDS.includes(t));
  assert.deepEqual(Object.keys(handlers).sort(), asked.sort());
});

test("a content script may ask for no note or comment, and the lists name known types", () => {
  for (const t of [...CONTENT_SCRIPT_TYPES, ...WORKER_SENDS]) assert.ok(Object.values(MessageType).includes(t), t);
  for (const t of ["note", "update-note", "delete-note", "update-highlight", "panel-state", "bibtex", "export", "status", "test-connection", "flush", "save-page"]) {
    assert.ok(!CONTENT_SCRIPT_TYPES.includes(t), `${t} is not for pages`);
  }
  assert.ok(Object.isFrozen(CONTENT_SCRIPT_TYPES) && Object.isFrozen(WORKER_SENDS));
});

test("an answer's result is handed back", () => {
  assert.deepEqual(resultOf({ ok: true, result: { status: "sent" } }), { status: "sent" });
});

test("an error answer throws with its message, code and status", () => {
  assert.throws(
    () => resultOf({ ok: false, error: { message: "token refused", code: "unauthorized", status: 401 } }),
    (err) => err.message === "token refused" && err.code === "unauthorized" && err.status === 401,
  );
});

for (const [what, answer] of [["no answer", undefined], ["an error without a message", { ok: false }]]) {
  test(`${what} throws the caller's message`, () => {
    assert.throws(() => resultOf(answer, "The extension did not answer."), { message: "The extension did not answer." });
    assert.throws(() => resultOf(answer), { message: "papershelf extension unavailable" });
  });
}
