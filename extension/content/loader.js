// Content scripts cannot be ES modules in a manifest; this classic script loads the module
// (listed in web_accessible_resources) and starts it. Safe to run twice.
(async () => {
  try {
    const { start } = await import(chrome.runtime.getURL("content/main.js"));
    start();
  } catch (err) {
    console.warn("papershelf: could not start", err);
  }
})();
