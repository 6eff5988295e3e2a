import { CONSOLE_CLIENT_ID } from "@gatehouse/rpc";
import type { PageContext } from "../journey/context.ts";
import { callerOf } from "../journey/context.ts";
import { PASSKEY_SCRIPTS } from "../paths.ts";
import { PASSKEY_TEXTS } from "./texts.ts";

/**
 * The passkey part of a login page (contract section 12), when the users
 * service's passkeys are wired and the entry point is not the console's
 * (operators sign in with password and TOTP): request options and their
 * token (BeginPasskeySignIn, bound to this entry point, 5 minutes) for the
 * button and the autofill, and the scripts that use them.
 */
export async function passkeySignInPart(ctx: PageContext) {
  const passkeys = ctx.h.deps.passkeys;
  if (!passkeys || ctx.ep.id === CONSOLE_CLIENT_ID) return undefined;
  const res = await passkeys.beginPasskeySignIn({ caller: callerOf(ctx) });
  const t = PASSKEY_TEXTS[ctx.lang];
  return {
    passkey: {
      options: JSON.stringify(res.publicKey),
      token: res.token,
      label: t.signInWithPasskey,
      failed: t.cancelled,
    },
    scripts: PASSKEY_SCRIPTS,
  };
}

/** The autocomplete of the identifier input when passkeys are offered in the autofill (conditional mediation). */
export const PASSKEY_AUTOCOMPLETE = "username webauthn";
