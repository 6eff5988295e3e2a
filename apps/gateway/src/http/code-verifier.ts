import { createHash, timingSafeEqual } from "node:crypto";
import type { Principal } from "@gatehouse/rpc";

/**
 * CHALLENGE_CODE_TOKEN (contract section 4): an access token from the
 * authorization code grant carries its PKCE challenge (`code_challenge`
 * claim). The caller proves it holds the verifier with `?code_verifier=`:
 * BASE64URL(SHA256(verifier)) must equal the challenge (constant time).
 * "none": an ordinary token (a verifier sent with it is ignored);
 * "verified": the password may be omitted; "refused": answer 401.
 */
export function checkCodeVerifier(
  principal: Principal,
  verifier: string | undefined,
  required: boolean,
): "none" | "verified" | "refused" {
  const challenge = principal.claims.code_challenge;
  if (typeof challenge !== "string" || challenge === "") return "none";
  if (verifier === undefined || verifier === "") return required ? "refused" : "none";
  const computed = createHash("sha256").update(verifier).digest();
  const expected = Buffer.from(challenge, "base64url");
  return expected.length === computed.length && timingSafeEqual(computed, expected) ? "verified" : "refused";
}
