/**
 * chrome.storage.local as the worker uses it, with what the worker wrote or read kept in memory:
 * a save must turn into "Saved" within 50 ms, and each storage round trip costs a few. Only the
 * worker writes its keys; settings written by the options page arrive through rememberChanges.
 */

const memo = new Map();

export const storage = {
  async get(key) {
    if (!memo.has(key)) memo.set(key, (await chrome.storage.local.get(key))[key]);
    return structuredClone(memo.get(key));
  },
  async set(key, value) {
    memo.set(key, structuredClone(value));
    await chrome.storage.local.set({ [key]: value });
  },
};

/** chrome.storage.onChanged: keep the memory in step with what others wrote. */
export function rememberChanges(changes, area) {
  if (area !== "local") return;
  for (const [key, { newValue }] of Object.entries(changes)) memo.set(key, newValue);
}
