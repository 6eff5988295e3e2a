import type { SigningAlg } from "./keys/key-material.ts";

export interface AuthSettings {
  /** iss of every token (the public auth URL). */
  issuer: string;
  /** aud of every access token (the resource server, the public base URL). */
  audience: string;
  accessTokenTtlSeconds: number;
  signingAlg: SigningAlg;
}
