import { describe, expect, it } from "vitest";
import { ApiError, errorOf, query } from "./client.ts";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("the admin API client", () => {
  it("reads the contract's error envelope: code, localized message, details and items", async () => {
    const err = await errorOf(
      json(400, {
        result: { status: 400, elapsed: 1 },
        errors: {
          code: "invalid_request",
          message: "La petición no es válida",
          details: "d",
          items: [{ field: "redirectUris.0", code: "invalid_url", message: "URL no válida" }],
        },
      }),
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 400,
      code: "invalid_request",
      message: "La petición no es válida",
      details: "d",
      items: [{ field: "redirectUris.0", code: "invalid_url", message: "URL no válida" }],
    });
  });

  it("names an answer without an envelope by its status", async () => {
    expect(await errorOf(new Response("<html>", { status: 502 }))).toMatchObject({
      status: 502,
      code: "unavailable",
      message: "HTTP 502",
    });
    expect(await errorOf(new Response("", { status: 404 }))).toMatchObject({ status: 404, code: "http_error" });
  });

  it("builds a query of the members that are set", () => {
    expect(query({ q: "shop", cursor: undefined, limit: 25, since: "" })).toBe("?q=shop&limit=25");
    expect(query({ q: "" })).toBe("");
    expect(query({ q: "a b&c" })).toBe("?q=a+b%26c");
  });
});
