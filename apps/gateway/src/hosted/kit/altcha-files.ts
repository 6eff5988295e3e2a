import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ALTCHA_STATIC_PATH } from "../paths.ts";

// The ALTCHA widget (npm `altcha`, its strict-CSP "external" build) served
// from this origin: no CDN, no inline script. The widget finds its SHA-256
// worker through $altcha.algorithms, which SETUP registers; SETUP then starts
// the search on every widget of the page, so the user never waits at submit.

const SETUP = `// Gatehouse: the SHA-256 search runs in a worker from this origin (worker-src 'self').
globalThis.$altcha.algorithms.set("SHA-256", () => new Worker(${JSON.stringify(`${ALTCHA_STATIC_PATH}/sha.js`)}));
for (const widget of document.querySelectorAll("altcha-widget")) widget.verify();
`;

const JS = "text/javascript; charset=utf-8";
/** The files by name: a path in the package's dist folder, or our own text. */
const FILES: Record<string, { type: string; dist?: string; text?: string }> = {
  "altcha.js": { type: JS, dist: "external/altcha.min.js" },
  "altcha.css": { type: "text/css; charset=utf-8", dist: "external/altcha.css" },
  "es-es.js": { type: JS, dist: "i18n/es-es.js" },
  "sha.js": { type: JS, dist: "workers/sha.js" },
  "setup.js": { type: JS, text: SETUP },
};

/** The widget's package folder (its exports map names no package.json: from the "external" entry). */
const distDir = () => dirname(dirname(createRequire(import.meta.url).resolve("altcha/external")));

const loaded = new Map<string, Promise<string>>();

/** One of the widget's files, read once; undefined for any other name. */
export async function altchaAsset(name: string): Promise<{ type: string; body: string } | undefined> {
  const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!file) return undefined;
  let body = loaded.get(name);
  if (!body) {
    body = file.text !== undefined ? Promise.resolve(file.text) : readFile(join(distDir(), file.dist!), "utf8");
    loaded.set(name, body);
  }
  return { type: file.type, body: await body };
}

/** What a page with the widget loads, in order: the widget, its Spanish texts when needed, then SETUP. */
export function altchaScripts(lang: string): string[] {
  return [
    `${ALTCHA_STATIC_PATH}/altcha.js`,
    ...(lang === "es" ? [`${ALTCHA_STATIC_PATH}/es-es.js`] : []),
    `${ALTCHA_STATIC_PATH}/setup.js`,
  ];
}

export const ALTCHA_STYLESHEET = `${ALTCHA_STATIC_PATH}/altcha.css`;
