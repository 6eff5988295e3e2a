import type { JsonObject } from "@bufbuild/protobuf";
import { validationError } from "@gatehouse/errors";
import type { AuthorizationRequest, Entrypoint } from "@gatehouse/proto";
import { authorizationDigest } from "../flow/token.ts";
import { refuseConsoleCode } from "../operators/console-access.ts";
import { canonicalEmail, canonicalPhone } from "../users/identifiers.ts";
import type { OneTimeCodeProof } from "../verifiers/one-time-code/verifier.ts";
import { readValidationData } from "../verifiers/one-time-code/validation-data.ts";
import type { PasskeyProof } from "../verifiers/passkey/verifier.ts";
import type { PasswordProof } from "../verifiers/password/verifier.ts";
import type { UpstreamProof } from "../verifiers/upstream/verifier.ts";
import type { LoginIdentifier } from "../verifiers/verifier.ts";

/** What a login request may carry to prove who signs in. */
export interface SentCredential {
  email: string;
  /** The phone instead of the email (an entry point whose main id is the phone). */
  phoneNumber?: string;
  password: string;
  /** A one-time code instead of the password (code sign-in). */
  code?: string;
  /** `object.datas`: the `useForValidation` values code sign-in repeats. */
  datas?: JsonObject;
  /** A passkey assertion instead of the password: its token and AuthenticationResponseJSON; the identifier is then optional. */
  passkey?: { token: string; credential: JsonObject | undefined } | undefined;
  /** Social sign-in: the provider's answer and the transaction the browser kept (hosted login only). */
  upstream?: { transaction: string; callbackUrl: string };
  /** The hosted login's authorization request (an upstream transaction is bound to it). */
  authorization?: AuthorizationRequest;
}

/** The proofs a login takes first. */
export type FirstProof = PasswordProof | OneTimeCodeProof | PasskeyProof | UpstreamProof;

/**
 * The identifier and the proof of a login, read before anything is checked
 * (bad input is a 400 and changes nothing): the email or the phone, not both;
 * a password or a code, not both; `datas` only with a code, and only the
 * entry point's `useForValidation` fields. The console takes no code. A
 * passkey stands alone (no password, code or datas) and may come without an
 * identifier: the credential names its user.
 */
export function readCredential(req: SentCredential, ep: Entrypoint): { id?: LoginIdentifier; proof: FirstProof } {
  if (req.passkey) return readPasskey(req, ep);
  const violations = [];
  if (req.upstream) {
    // The provider names the user: nothing else is read, and only a hosted login (the callback) sends it.
    if (req.email || req.phoneNumber || req.password || req.code || !req.authorization)
      throw validationError([{ field: "object", code: "not_allowed", description: "an upstream answer comes alone" }]);
    const { transaction, callbackUrl } = req.upstream;
    return {
      proof: { kind: "upstream", transaction, callbackUrl, authorization: authorizationDigest(req.authorization) },
    };
  }
  if (req.email && req.phoneNumber) violations.push({ field: "object.ids.phone_number", code: "not_allowed" });
  if (req.code && req.password) violations.push({ field: "object.code", code: "not_allowed" });
  if (!req.code && req.datas && Object.keys(req.datas).length)
    violations.push({ field: "object.datas", code: "not_allowed" });
  if (violations.length) throw validationError(violations);
  const id: LoginIdentifier = req.phoneNumber
    ? { key: "phone_number", value: canonicalPhone(req.phoneNumber) }
    : { key: "email", value: canonicalEmail(req.email) };
  if (!req.code) return { id, proof: { kind: "password", password: req.password } };
  refuseConsoleCode(ep.id, "object.code");
  return { id, proof: { kind: "one-time-code", code: req.code, datas: readValidationData(ep, req.datas) } };
}

function readPasskey(req: SentCredential, ep: Entrypoint): { id?: LoginIdentifier; proof: PasskeyProof } {
  const violations = [];
  if (req.password) violations.push({ field: "object.password", code: "not_allowed" });
  if (req.code) violations.push({ field: "object.code", code: "not_allowed" });
  if (req.datas && Object.keys(req.datas).length) violations.push({ field: "object.datas", code: "not_allowed" });
  if (req.email && req.phoneNumber) violations.push({ field: "object.ids.phone_number", code: "not_allowed" });
  if (!req.passkey!.token) violations.push({ field: "object.passkey.token", code: "required" });
  const credential = req.passkey!.credential;
  if (!credential || typeof credential.id !== "string" || typeof credential.response !== "object")
    violations.push({ field: "object.passkey.credential", code: "invalid_format" });
  if (violations.length) throw validationError(violations);
  refuseConsoleCode(ep.id, "object.passkey");
  const proof: PasskeyProof = {
    kind: "passkey",
    token: req.passkey!.token,
    credential: credential as unknown as PasskeyProof["credential"],
  };
  if (req.phoneNumber) return { id: { key: "phone_number", value: canonicalPhone(req.phoneNumber) }, proof };
  if (req.email) return { id: { key: "email", value: canonicalEmail(req.email) }, proof };
  return { proof };
}
