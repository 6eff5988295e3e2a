import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { formBody, isCleanForm } from "./form-body.ts";
import { inspectBody } from "./text.ts";

// The edge skips its walk of schema-less bodies for forms this parser made
// (isCleanForm): every form it accepts must be one that walk finds clean,
// and every form the walk would refuse must be refused by the parser.

const app = Fastify();
app.register(formBody);
app.post("/form", async (req) => ({
  clean: isCleanForm(req.body),
  problem: inspectBody(req.body) ?? null,
  body: req.body,
}));
afterAll(() => app.close());

const post = (payload: string | Buffer) =>
  app.inject({
    method: "POST",
    url: "/form",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload,
  });

describe("form bodies", () => {
  it("accepts only forms that are clean text throughout, and marks them so", async () => {
    const accepted = [
      "a=1&b=2&b=3",
      "token=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln&token_type_hint=access_token",
      "name=%C3%A9t%C3%A9+%F0%9F%98%80&x=%2B%26%3D",
      "=empty-name&novalue&&a=",
      Buffer.from("raw=été 😀", "utf8").toString("latin1"),
    ];
    for (const payload of accepted) {
      const res = await post(Buffer.from(payload, "latin1"));
      expect(res.statusCode, payload).toBe(200);
      expect(res.json(), payload).toMatchObject({ clean: true, problem: null });
    }
    expect((await post("a=%C3%A9&a=x+y")).json().body).toEqual({ a: ["é", "x y"] });
  });

  it("refuses what the walk would refuse: NUL, bad escapes, encoded surrogates, bad UTF-8", async () => {
    for (const payload of [
      "a=%00",
      "a%00=1",
      "a=%E2%82",
      "a=%E2%82=%AC",
      "a=%ED%A0%80",
      "a=%zz",
      Buffer.from([0x61, 0x3d, 0xff]),
      Buffer.from([0x61, 0x3d, 0x00]),
    ]) {
      expect((await post(payload)).statusCode, String(payload)).toBe(400);
    }
  });
});
