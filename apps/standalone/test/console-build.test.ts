import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { consoleStale, ensureConsoleBuilt } from "../src/console-build.ts";

// npm start builds the console once: when dist is missing or older than a source.

describe("the console build at start", () => {
  it("is stale without dist/index.html and when a source is newer than it", () => {
    const root = mkdtempSync(join(tmpdir(), "gh-console-src-"));
    mkdirSync(join(root, "src", "screens"), { recursive: true });
    writeFileSync(join(root, "src", "screens", "App.tsx"), "x");
    expect(consoleStale(root)).toBe(true);
    mkdirSync(join(root, "dist"));
    writeFileSync(join(root, "dist", "index.html"), "<!doctype html>");
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(root, "src", "screens", "App.tsx"), past, past);
    expect(consoleStale(root)).toBe(false);
    writeFileSync(join(root, "src", "screens", "App.tsx"), "changed");
    utimesSync(join(root, "src", "screens", "App.tsx"), new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));
    expect(consoleStale(root)).toBe(true);
  });

  it("a build that fails is logged and start goes on (/console then says how to build it)", () => {
    const root = mkdtempSync(join(tmpdir(), "gh-console-broken-"));
    mkdirSync(join(root, "src"));
    writeFileSync(join(root, "index.html"), '<script type="module" src="./src/missing.tsx"></script>');
    const warnings: string[] = [];
    ensureConsoleBuilt(
      { info: () => undefined, warn: (_facts: unknown, msg?: string) => void warnings.push(String(msg)) },
      root,
    );
    expect(warnings).toEqual([expect.stringContaining("the console did not build")]);
  });
});
