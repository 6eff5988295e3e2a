import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The hosted pages' scripts, served from this origin (no CDN) under their CSP
// (script-src 'self'): @simplewebauthn/browser's browser bundle, from the npm
// package, and ours (../static). Read once; small and immutable per release.

const STATIC_DIR = fileURLToPath(new URL("../static", import.meta.url));

function simpleWebAuthnBundle(): string {
  // The package's exports name only its modules; its browser bundle sits beside them.
  const entry = createRequire(import.meta.url).resolve("@simplewebauthn/browser");
  return join(dirname(entry), "..", "dist", "bundle", "index.umd.min.js");
}

const FILES: Record<string, () => string> = {
  "simplewebauthn-browser.js": simpleWebAuthnBundle,
  "passkeys.js": () => join(STATIC_DIR, "passkeys.js"),
};

const loaded = new Map<string, string>();

/** A static script by its name, or undefined. */
export function staticScript(name: string): string | undefined {
  const path = FILES[name];
  if (!path) return undefined;
  let body = loaded.get(name);
  if (body === undefined) {
    body = readFileSync(path(), "utf8");
    loaded.set(name, body);
  }
  return body;
}
