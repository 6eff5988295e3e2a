import { ConfigError } from "./config-error.ts";

/** The WebAuthn relying party of passkeys (contract section 12). */
export interface WebAuthnConfig {
  /** WEBAUTHN_RP_ID, else the host of {auth_url}. */
  rpId: string;
  /** {auth_url}'s origin, then WEBAUTHN_ORIGINS (comma-separated origins). */
  origins: string[];
}

function originOf(name: string, raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`${name} holds "${raw}", which is not an origin (https://host[:port])`);
  }
  if (u.protocol !== "https:" && u.protocol !== "http:")
    throw new ConfigError(`${name}: origins use https (or http for development), got "${raw}"`);
  return u;
}

/**
 * Browsers only accept an RP id that is the origin's host or a registrable
 * suffix of it: an RP id no accepted origin can use would make every passkey
 * fail, so it is refused at start-up instead.
 */
export function webauthnConfig(env: Record<string, string | undefined>, publicAuthUrl: string): WebAuthnConfig {
  const auth = new URL(publicAuthUrl);
  const rpId = (env.WEBAUTHN_RP_ID || auth.hostname).toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(rpId) || rpId.startsWith(".") || rpId.endsWith("."))
    throw new ConfigError(`WEBAUTHN_RP_ID must be a domain name (no scheme or port), got "${rpId}"`);
  const extra = (env.WEBAUTHN_ORIGINS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((raw) => originOf("WEBAUTHN_ORIGINS", raw));
  for (const u of [auth, ...extra]) {
    if (u.hostname !== rpId && !u.hostname.endsWith(`.${rpId}`))
      throw new ConfigError(`WEBAUTHN_RP_ID "${rpId}" is not ${u.origin}'s host or a suffix of it`);
  }
  return { rpId, origins: [...new Set([auth.origin, ...extra.map((u) => u.origin)])] };
}
