/**
 * `npm run build`: the installable extension, one zip per browser, versioned with the server
 * package. pyproject.toml's `version` is the one number: it is stamped into the zipped
 * manifest.json (extension/manifest.json carries the same, a test holds them together, so that an
 * unpacked extension agrees). Both zips hold the same files and the same manifest, packed by
 * web-ext build: dist/papershelf-chromium-<version>.zip (Chrome Web Store, or unzip and "Load
 * unpacked") and dist/papershelf-firefox-<version>.zip (addons.mozilla.org, `web-ext sign`, or
 * about:debugging for a temporary add-on).
 *
 * Usage: node scripts/build.mjs [--out DIR]   (default: dist/ at the repo top)
 */

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import webExt from "web-ext";

const top = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const BROWSERS = ["chromium", "firefox"];

/** The `version` of pyproject.toml's [project] table. */
export function packageVersion(pyproject = readFileSync(join(top, "pyproject.toml"), "utf8")) {
  const project = pyproject.split(/^\[/m).find((table) => table.startsWith("project]"));
  const found = project && project.match(/^version\s*=\s*"([^"]+)"/m);
  if (!found) throw new Error("pyproject.toml has no [project] version");
  return found[1];
}

function outDir(argv) {
  const i = argv.indexOf("--out");
  return i >= 0 && argv[i + 1] ? resolve(argv[i + 1]) : join(top, "dist");
}

async function build(argv = process.argv.slice(2)) {
  const version = packageVersion();
  const out = outDir(argv);
  const stage = mkdtempSync(join(tmpdir(), "papershelf-build-"));
  try {
    cpSync(join(top, "extension"), stage, { recursive: true });
    const manifestPath = join(stage, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    manifest.version = version;
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    for (const browser of BROWSERS) {
      const filename = `papershelf-${browser}-${version}.zip`;
      await webExt.cmd.build(
        { sourceDir: stage, artifactsDir: out, filename, overwriteDest: true, ignoreFiles: ["README.md"] },
        { shouldExitProgram: false },
      );
      console.log(join(out, filename));
    }
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build().catch((err) => {
    console.error(`build failed: ${err.message}`);
    process.exit(1);
  });
}
