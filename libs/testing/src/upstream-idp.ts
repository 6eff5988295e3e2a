import { generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

// A REAL upstream OpenID Connect provider for the social sign-in tests:
// oidc-provider on loopback with its development login and consent pages
// (any login name is an account; `accounts` gives its claims). Hooks let a
// test tamper with what it answers (another signing key, another nonce).

export interface UpstreamAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  birthdate?: string;
  locale?: string;
}

export interface UpstreamIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Claims of each login name (the login name is the subject). */
  accounts: Map<string, UpstreamAccount>;
  /** Tampering for the failure tests; reset between tests. */
  tamper: { jwksOfAnotherKey?: boolean; nonce?: string; down?: boolean };
  close(): Promise<void>;
}

const rsaJwk = () => ({
  ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }),
  kid: randomUUID(),
  use: "sig",
  alg: "RS256",
});

const publicPart = (jwk: Record<string, unknown>) => ({
  kty: jwk.kty,
  n: jwk.n,
  e: jwk.e,
  kid: jwk.kid,
  use: "sig",
  alg: "RS256",
});

/** Starts the provider on 127.0.0.1 with one confidential client whose redirect URIs are `redirectUris`. */
export async function startUpstreamIdp(redirectUris: string[]): Promise<UpstreamIdp> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_q, r) => void r.end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, UpstreamAccount>();
  const tamper: UpstreamIdp["tamper"] = {};
  const clientId = `gatehouse-${randomUUID().slice(0, 8)}`;
  const clientSecret = randomUUID() + randomUUID();
  const other = rsaJwk();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [rsaJwk()] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["given_name", "family_name", "birthdate", "locale"],
    },
    // The claims ride in the ID token, as Google's and Apple's do.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, sub: string) {
      return { accountId: sub, claims: async () => ({ sub, ...(accounts.get(sub) ?? {}) }) };
    },
  });
  provider.use(async (ctx, next) => {
    if (tamper.down) {
      ctx.status = 503;
      ctx.body = "down";
      return;
    }
    if (ctx.path === "/jwks" && tamper.jwksOfAnotherKey) {
      ctx.set("content-type", "application/json");
      ctx.body = { keys: [publicPart(other)] };
      return;
    }
    if (ctx.path === "/auth" && tamper.nonce && ctx.query.nonce) ctx.query = { ...ctx.query, nonce: tamper.nonce };
    await next();
  });
  handler = provider.callback();
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    tamper,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
