import { test } from "node:test";
import assert from "node:assert/strict";
import { createPortClient } from "../../extension/lib/port.js";

/** A fake port: answers with `answer(msg)`, or disconnects when told to. */
function fakeConnect(answer) {
  const ports = [];
  const connect = () => {
    const listeners = { message: [], disconnect: [] };
    const port = {
      onMessage: { addListener: (f) => listeners.message.push(f) },
      onDisconnect: { addListener: (f) => listeners.disconnect.push(f) },
      postMessage(msg) {
        queueMicrotask(() => {
          const reply = answer(msg, port);
          if (reply === "disconnect") listeners.disconnect.forEach((f) => f());
          else listeners.message.forEach((f) => f({ id: msg.id, ...reply }));
        });
      },
    };
    ports.push(port);
    return port;
  };
  return { connect, ports };
}

test("a request gets its own answer, on one port", async () => {
  const { connect, ports } = fakeConnect((msg) => ({ ok: true, result: { echo: msg.type, n: msg.payload.n } }));
  const { request } = createPortClient(connect);
  const [a, b] = await Promise.all([request("lookup", { n: 1 }), request("save", { n: 2 })]);
  assert.deepEqual(a, { echo: "lookup", n: 1 });
  assert.deepEqual(b, { echo: "save", n: 2 });
  assert.equal(ports.length, 1);
});

test("the worker went away mid-request: asked once more on a new port", async () => {
  let calls = 0;
  const { connect, ports } = fakeConnect(() => (++calls === 1 ? "disconnect" : { ok: true, result: "second" }));
  const { request } = createPortClient(connect);
  assert.equal(await request("note", { body: "x" }), "second");
  assert.equal(ports.length, 2);
});

test("an error answer throws with its code", async () => {
  const { connect } = fakeConnect(() => ({ ok: false, error: { message: "refused", code: "forbidden" } }));
  const { request } = createPortClient(connect);
  await assert.rejects(request("note"), (err) => err.message === "refused" && err.code === "forbidden");
});
