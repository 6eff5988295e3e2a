import { describe, expect, it } from "vitest";
import { acceptsJson } from "./accept.ts";

describe("acceptsJson", () => {
  it.each([
    [undefined, true],
    ["", true],
    ["application/json", true],
    ["Application/JSON; charset=utf-8", true],
    ["*/*", true],
    ["text/html, application/*;q=0.8", true],
    ["application/problem+json", true],
    ["text/html", false],
    ["application/xml", false],
    ["application/json;q=0", false],
  ])("%s -> %s", (header, expected) => expect(acceptsJson(header)).toBe(expected));
});
