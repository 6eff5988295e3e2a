import type { Locale } from "@gatehouse/errors";
import { boundTokens } from "../kit/bound-tokens.ts";
import { DEVICE_PATH } from "../paths.ts";

/**
 * What the /device pages carry from one request to the next, signed and
 * bound to this browser's cookie (path /device, so the hosted login's
 * callback there reads it too): the enter form, the sign-in started for a
 * user code (the `state` of its authorization request), the decision form.
 */
export type DeviceStep =
  | { step: "enter"; lang: Locale }
  | { step: "sign-in"; lang: Locale; userCode: string; clientId: string; sourceId: string; n: string }
  | { step: "decide"; lang: Locale; userCode: string; clientId: string; sourceId: string; userId: string };

export const DEVICE_COOKIE = "gh_device_csrf";
// Long enough to sign in (or register and confirm an email) between the code and the decision.
const TTL_SECONDS = 15 * 60;

export function deviceTokens(mac: (data: string) => string, opts: { secureCookie: boolean }) {
  const tokens = boundTokens<DeviceStep>(mac, {
    cookie: DEVICE_COOKIE,
    path: DEVICE_PATH,
    purpose: "device",
    ttlSeconds: TTL_SECONDS,
    secureCookie: opts.secureCookie,
  });
  return {
    ...tokens,
    /**
     * The PKCE verifier of a sign-in, derived from its token's nonce: never
     * in a URL, so a code leaked from the callback's URL cannot be redeemed.
     */
    verifierOf: (n: string) => mac(`device-pkce.${n}`),
  };
}

export type DeviceTokens = ReturnType<typeof deviceTokens>;
