import { test } from "node:test";
import assert from "node:assert/strict";
import { Outbox, SendError, backoffDelay, memoryStorage, isRetryableStatus } from "../../extension/lib/outbox.js";

function setup() {
  let clock = 1000;
  let n = 0;
  const box = new Outbox({
    storage: memoryStorage(),
    now: () => clock,
    uuid: () => `uuid-${++n}`,
    backoff: (attempts) => 1000 * attempts,
  });
  return { box, tick: (ms) => (clock += ms) };
}

test("queued items keep their client_id and order", async () => {
  const { box } = setup();
  const a = await box.add({ kind: "save", payload: { title: "A" }, dedupe_key: "save:1" });
  const b = await box.add({ kind: "note", payload: { body: "n" } });
  assert.equal(a.client_id, "uuid-1");
  assert.equal(b.client_id, "uuid-2");
  assert.deepEqual((await box.items()).map((i) => i.kind), ["save", "note"]);
});

test("saving the same paper twice while offline queues it once", async () => {
  const { box } = setup();
  await box.add({ kind: "save", payload: { title: "A" }, dedupe_key: "save:2603.00001" });
  const again = await box.add({ kind: "save", payload: { title: "A", tags: ["x"] }, dedupe_key: "save:2603.00001" });
  assert.equal(await box.count(), 1);
  assert.equal(again.client_id, "uuid-1");
  assert.deepEqual((await box.items())[0].payload, { title: "A", tags: ["x"] });
});

test("server down: the first failure stops the run and schedules a retry with backoff", async () => {
  const { box, tick } = setup();
  await box.add({ kind: "save", payload: { title: "A" } });
  await box.add({ kind: "save", payload: { title: "B" } });
  let calls = 0;
  const down = async () => {
    calls++;
    throw new SendError("connection refused");
  };
  const r = await box.flush(down);
  assert.equal(calls, 1);
  assert.equal(r.remaining, 2);
  const [first] = await box.items();
  assert.equal(first.attempts, 1);
  assert.equal(first.next_at, 1000 + 1000);
  // Not due yet: nothing is sent.
  assert.equal((await box.flush(down)).sent.length, 0);
  assert.equal(calls, 1);
  tick(1000);
  await box.flush(down);
  assert.equal((await box.items())[0].attempts, 2);
  assert.equal((await box.items())[0].next_at, 2000 + 2000);
});

test("server back: everything is sent once, in order, with the same client_id", async () => {
  const { box, tick } = setup();
  await box.add({ kind: "save", payload: { title: "A" } });
  await box.add({ kind: "save", payload: { title: "B" } });
  await box.flush(async () => {
    throw new SendError("down");
  });
  tick(5000);
  const seen = [];
  const r = await box.flush(async (item) => {
    seen.push(item.client_id);
    return { id: seen.length };
  });
  assert.deepEqual(seen, ["uuid-1", "uuid-2"]);
  assert.equal(r.sent.length, 2);
  assert.equal(await box.count(), 0);
});

test("concurrent flushes share one run: no item is sent twice", async () => {
  const { box } = setup();
  await box.add({ kind: "save", payload: { title: "A" } });
  let calls = 0;
  const slow = async () => {
    calls++;
    await new Promise((r) => setTimeout(r, 20));
    return {};
  };
  await Promise.all([box.flush(slow), box.flush(slow), box.flush(slow)]);
  assert.equal(calls, 1);
});

test("a permanent error moves the item aside instead of retrying forever", async () => {
  const { box } = setup();
  await box.add({ kind: "save", payload: { title: "" } });
  await box.add({ kind: "save", payload: { title: "ok" } });
  const sent = [];
  const r = await box.flush(async (item) => {
    if (!item.payload.title) throw new SendError("validation_error", { retryable: false, status: 422 });
    sent.push(item.payload.title);
  });
  assert.deepEqual(sent, ["ok"]);
  assert.equal(r.failed.length, 1);
  assert.equal(await box.count(), 0);
  assert.equal((await box.failed()).length, 1);
});

test("force ignores the schedule", async () => {
  const { box } = setup();
  await box.add({ kind: "save", payload: {} });
  await box.flush(async () => {
    throw new SendError("down");
  });
  const r = await box.flush(async () => ({}), { force: true });
  assert.equal(r.sent.length, 1);
});

test("backoff grows, is capped and jittered", () => {
  const fixed = { random: () => 0.5 };
  assert.equal(backoffDelay(1, fixed), 5000);
  assert.equal(backoffDelay(2, fixed), 10000);
  assert.equal(backoffDelay(30, fixed), 300000);
  assert.ok(backoffDelay(1, { random: () => 0 }) >= 4000);
  assert.ok(backoffDelay(1, { random: () => 0.999 }) <= 6000);
});

test("retryable statuses", () => {
  for (const s of [0, 408, 429, 500, 502, 503]) assert.ok(isRetryableStatus(s), String(s));
  for (const s of [400, 401, 403, 404, 409, 413, 422]) assert.ok(!isRetryableStatus(s), String(s));
});
