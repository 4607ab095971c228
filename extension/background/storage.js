/**
 * chrome.storage as the worker uses it, with what the worker wrote or read kept in memory: a save
 * must turn into "Saved" within 50 ms, and each storage round trip costs a few. `storage` is
 * chrome.storage.local (settings, the outbox, recent saves): only the worker writes its keys;
 * settings written by the options page arrive through rememberChanges. `sessionStore` is
 * chrome.storage.session, which outlives a stopped worker but not the browser, and which content
 * scripts cannot read: the notes panels' bindings.
 */

function memoized(area) {
  const memo = new Map();
  return {
    memo,
    async get(key) {
      if (!memo.has(key)) {
        const stored = (await area().get(key))[key];
        // A set() (or another read) may have filled the memory while this read was on its way
        // (a fresh worker's first requests come together): what it holds is newer than `stored`.
        if (!memo.has(key)) memo.set(key, stored);
      }
      return structuredClone(memo.get(key));
    },
    async set(key, value) {
      memo.set(key, structuredClone(value));
      await area().set({ [key]: value });
    },
  };
}

export const storage = memoized(() => chrome.storage.local);
export const sessionStore = memoized(() => chrome.storage.session);

/** chrome.storage.onChanged: keep the memory in step with what others wrote. */
export function rememberChanges(changes, area) {
  if (area !== "local") return;
  for (const [key, { newValue }] of Object.entries(changes)) storage.memo.set(key, newValue);
}
