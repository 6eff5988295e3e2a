// RFC 7636 PKCE with S256, and the random values of a sign-in (Web Crypto).

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** 32 random bytes, base64url (43 characters): verifiers, states, nonces. */
export const randomToken = () => b64url(crypto.getRandomValues(new Uint8Array(32)));

/** BASE64URL(SHA-256(ASCII(verifier))). */
export async function s256(verifier: string): Promise<string> {
  return b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}
