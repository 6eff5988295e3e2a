import { jwtVerify, SignJWT } from "jose";
import type { KeyRing } from "@gatehouse/secrets";
import type { Principal } from "./principal.ts";
import { INTERNAL_SCOPE } from "./scopes.ts";
import { verifiedTokenCache } from "./verified-tokens.ts";

const ISSUER = "gatehouse-internal";
const LIFETIME_S = 300;

/**
 * Service-to-service bearer tokens: short-lived HS256 JWTs under a key derived
 * from SECRET_KEY, which every service of one deployment shares. Each process
 * mints its own and caches it until shortly before expiry.
 */
export class InternalTokens {
  readonly #key: Uint8Array;
  #cache = new Map<string, { token: string; renewAt: number }>();
  #verified = verifiedTokenCache<Principal>({ maxEntries: 1024, ttlMs: LIFETIME_S * 1000 });
  constructor(keys: KeyRing) {
    this.#key = new Uint8Array(keys.derive("rpc-internal-token"));
  }

  /**
   * A token of `service:<service>` with the internal scope and any `extraScopes`
   * (the CLI reads through the admin RPCs as an operator would, with admin:read).
   */
  async token(service: string, extraScopes: readonly string[] = []): Promise<string> {
    const scope = [INTERNAL_SCOPE, ...extraScopes].join(" ");
    const cacheKey = `${service} ${scope}`;
    const hit = this.#cache.get(cacheKey);
    if (hit && hit.renewAt > Date.now()) return hit.token;
    const token = await new SignJWT({ scope })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(ISSUER)
      .setAudience(ISSUER)
      .setSubject(`service:${service}`)
      .setIssuedAt()
      .setExpirationTime(`${LIFETIME_S}s`)
      .sign(this.#key);
    this.#cache.set(cacheKey, { token, renewAt: Date.now() + (LIFETIME_S - 60) * 1000 });
    return token;
  }

  /**
   * The principal of an internal token, or undefined when it is not one of
   * ours. A caller reuses its token for minutes, so verified ones are
   * remembered until they expire: the HMAC runs once per token, not per call.
   */
  async verify(token: string): Promise<Principal | undefined> {
    const known = this.#verified.get(token);
    if (known) return known;
    const principal = await this.#verify(token);
    if (principal) this.#verified.put(token, principal, principal.claims.exp);
    return principal;
  }

  async #verify(token: string): Promise<Principal | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        issuer: ISSUER,
        audience: ISSUER,
        algorithms: ["HS256"],
      });
      if (typeof payload.sub !== "string" || !payload.sub.startsWith("service:")) return undefined;
      const scopes = new Set(typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : []);
      if (!scopes.has(INTERNAL_SCOPE)) return undefined;
      return {
        subject: payload.sub,
        clientId: undefined,
        scopes,
        internal: true,
        token,
        claims: payload,
      };
    } catch {
      return undefined;
    }
  }
}

/** True when a compact JWT's header names HS256 (so it can only be an internal token). */
export function looksInternal(token: string): boolean {
  const head = token.split(".")[0];
  if (!head) return false;
  try {
    return (JSON.parse(Buffer.from(head, "base64url").toString("utf8")) as { alg?: string }).alg === "HS256";
  } catch {
    return false;
  }
}
