import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { consoleRoutes } from "./console.ts";
import { errorHandling } from "./errors.ts";
import { requestContext } from "./request-context.ts";

// /console: the built app with its caching and CSP, the SPA fallback, and
// without a build a page that says how to make one (never a 500).

async function gateway(dir: string | undefined) {
  const app = Fastify();
  await app.register(requestContext);
  await app.register(errorHandling);
  await app.register(consoleRoutes, { dir, origins: ["https://id.example.com", "https://auth.example.com/"] });
  return app;
}

const built = mkdtempSync(join(tmpdir(), "gh-console-"));
mkdirSync(join(built, "assets"));
writeFileSync(
  join(built, "index.html"),
  '<!doctype html><script type="module" src="/console/assets/index-AbCdEf12.js"></script>',
);
writeFileSync(join(built, "assets", "index-AbCdEf12.js"), "console.log(1)");
const apps: Awaited<ReturnType<typeof gateway>>[] = [];
afterAll(async () => Promise.all(apps.map((a) => a.close())));

describe("the console's static files", () => {
  it("serves index.html at /console and every client route, never cached, under a CSP without inline script that cannot be framed", async () => {
    const app = await gateway(built);
    apps.push(app);
    for (const url of ["/console", "/console/", "/console/apps/123_shop", "/console/callback?code=x&state=y"]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.body).toContain("/console/assets/index-AbCdEf12.js");
      expect(res.headers["cache-control"]).toBe("no-store");
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("connect-src 'self' https://id.example.com https://auth.example.com");
      expect(csp).not.toContain("unsafe-inline");
    }
  });

  it("caches hashed assets for a year; a missing asset is a 404 in the envelope, not the page", async () => {
    const app = await gateway(built);
    apps.push(app);
    const js = await app.inject({ url: "/console/assets/index-AbCdEf12.js" });
    expect(js.statusCode).toBe(200);
    expect(js.headers["content-type"]).toMatch(/javascript/);
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const missing = await app.inject({ url: "/console/assets/index-Zz9Zz9Zz.js" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors.code).toBeTruthy();
    const traversal = await app.inject({ url: "/console/assets/..%2F..%2Fetc%2Fpasswd" });
    expect(traversal.statusCode).toBe(404);
  });

  it("without a build, /console says how to build it (503 page, en and es)", async () => {
    for (const dir of [undefined, mkdtempSync(join(tmpdir(), "gh-console-empty-"))]) {
      const app = await gateway(dir);
      apps.push(app);
      const en = await app.inject({ url: "/console/users" });
      expect(en.statusCode).toBe(503);
      expect(en.headers["content-type"]).toMatch(/^text\/html/);
      expect(en.body).toContain("npm run build:console");
      const es = await app.inject({ url: "/console", headers: { "accept-language": "es" } });
      expect(es.statusCode).toBe(503);
      expect(es.body).toContain("La consola aún no está compilada");
    }
  });
});
