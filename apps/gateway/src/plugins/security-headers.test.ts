import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { securityHeaders } from "./security-headers.ts";

// The security headers are computed once by helmet and set on every answer:
// the same set helmet's middleware gives, on routes, on 404s, and under a
// route's own CSP, with HSTS only behind an https public URL.

const apps: ReturnType<typeof Fastify>[] = [];
afterAll(async () => Promise.all(apps.map((a) => a.close())));

async function gateway(publicBaseUrl: string) {
  const app = Fastify();
  apps.push(app);
  await app.register(securityHeaders, { publicBaseUrl, publicGraphUrl: publicBaseUrl, publicAuthUrl: publicBaseUrl });
  app.get("/json", async () => ({ ok: true }));
  app.get("/page", async (_req, reply) =>
    reply
      .header("content-security-policy", "default-src 'none'; style-src 'self'")
      .type("text/html")
      .send("<p>page</p>"),
  );
  return app;
}

const HELMET_SET = {
  "content-security-policy": "default-src 'none';base-uri 'none';frame-ancestors 'none'",
  "cross-origin-resource-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "DENY",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};

describe("security headers", () => {
  it("sets helmet's headers on every answer, a route's own CSP over the default, and no HSTS on http", async () => {
    const app = await gateway("http://id.example.com");
    for (const url of ["/json", "/missing"]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(url === "/json" ? 200 : 404);
      expect(res.headers, url).toMatchObject(HELMET_SET);
      expect(res.headers["strict-transport-security"], url).toBeUndefined();
      expect(res.headers["cross-origin-opener-policy"], url).toBeUndefined();
    }
    const page = await app.inject({ url: "/page" });
    expect(page.headers["content-security-policy"]).toBe("default-src 'none'; style-src 'self'");
    expect(page.headers["x-frame-options"]).toBe("DENY");
  });

  it("adds HSTS (one year, this host only) behind an https public URL", async () => {
    const app = await gateway("https://id.example.com");
    const res = await app.inject({ url: "/json" });
    expect(res.headers).toMatchObject(HELMET_SET);
    expect(res.headers["strict-transport-security"]).toBe("max-age=31536000");
  });
});
