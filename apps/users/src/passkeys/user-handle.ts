import type { KeyRing } from "@gatehouse/secrets";

/**
 * The WebAuthn user handle of a user: opaque (no id or identifier an
 * authenticator could leak), stable, and kept nowhere: an HMAC of the user
 * id under a key of its own.
 */
export function userHandle(keys: KeyRing, userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(keys.mac("webauthn-user-handle")(userId), "base64url"));
}
