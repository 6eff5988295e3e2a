import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { faviconRoutes } from "./favicon.ts";

describe("the icon", () => {
  it("is served as SVG at /favicon.svg (linked by the hosted pages) and /favicon.ico (asked by browsers), cached", async () => {
    const app = Fastify();
    await app.register(faviconRoutes);
    for (const url of ["/favicon.svg", "/favicon.ico"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("image/svg+xml");
      expect(res.headers["cache-control"]).toBe("public, max-age=86400");
      expect(res.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
    await app.close();
  });
});
