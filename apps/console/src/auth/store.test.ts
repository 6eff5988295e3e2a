import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SESSION_KEY } from "./session.ts";

// The session store refreshes with the refresh token at the token endpoint
// (public client: client_id, no secret) and signs out when that is refused.

function storage(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: () => null,
    get length() {
      return m.size;
    },
  };
}

describe("the console's session", () => {
  const calls: { url: string; body: string }[] = [];
  let tokenAnswer: () => Response;
  beforeEach(() => {
    vi.resetModules();
    calls.length = 0;
    vi.stubGlobal("sessionStorage", storage());
    vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
      calls.push({ url, body: String(init?.body ?? "") });
      if (url.endsWith("/.well-known/openid-configuration"))
        return Response.json({
          authorization_endpoint: "https://id.example.com/oauth2/authorize",
          token_endpoint: "https://id.example.com/oauth2/token",
        });
      return tokenAnswer();
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("refreshes an access token about to expire with the refresh token, and keeps the new pair", async () => {
    sessionStorage.setItem(
      SESSION_KEY,
      JSON.stringify({ accessToken: "old", refreshToken: "r1", idToken: "id1", expiresAt: Date.now() + 5_000 }),
    );
    tokenAnswer = () =>
      Response.json({ access_token: "new", refresh_token: "r2", expires_in: 300, token_type: "Bearer" });
    const store = await import("./store.ts");
    expect(await store.accessToken()).toBe("new");
    const body = Object.fromEntries(new URLSearchParams(calls.find((c) => c.url.endsWith("/oauth2/token"))!.body));
    expect(body).toEqual({ client_id: "gatehouse-console", grant_type: "refresh_token", refresh_token: "r1" });
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEY)!)).toMatchObject({
      accessToken: "new",
      refreshToken: "r2",
      idToken: "id1",
    });
  });

  it("a refused refresh signs the operator out", async () => {
    sessionStorage.setItem(
      SESSION_KEY,
      JSON.stringify({ accessToken: "old", refreshToken: "reused", expiresAt: Date.now() - 1 }),
    );
    tokenAnswer = () => Response.json({ error: "invalid_grant" }, { status: 400 });
    const store = await import("./store.ts");
    expect(await store.accessToken()).toBeUndefined();
    expect(store.getSession()).toBeUndefined();
    expect(sessionStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it("a token with time left is used as it is, without a call", async () => {
    sessionStorage.setItem(
      SESSION_KEY,
      JSON.stringify({ accessToken: "fresh", refreshToken: "r", expiresAt: Date.now() + 600_000 }),
    );
    const store = await import("./store.ts");
    expect(await store.accessToken()).toBe("fresh");
    expect(calls).toEqual([]);
  });
});
