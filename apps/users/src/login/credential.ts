import type { JsonObject } from "@bufbuild/protobuf";
import { validationError } from "@gatehouse/errors";
import type { AuthorizationRequest, Entrypoint } from "@gatehouse/proto";
import { authorizationDigest } from "../flow/token.ts";
import { refuseConsoleCode } from "../operators/console-access.ts";
import { canonicalEmail, canonicalPhone } from "../users/identifiers.ts";
import type { OneTimeCodeProof } from "../verifiers/one-time-code/verifier.ts";
import { readValidationData } from "../verifiers/one-time-code/validation-data.ts";
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
  /** Social sign-in: the provider's answer and the transaction the browser kept (hosted login only). */
  upstream?: { transaction: string; callbackUrl: string };
  /** The hosted login's authorization request (an upstream transaction is bound to it). */
  authorization?: AuthorizationRequest;
}

/** The proofs a login takes first (a passkey would join here). */
export type FirstProof = PasswordProof | OneTimeCodeProof | UpstreamProof;

/**
 * The identifier and the proof of a login, read before anything is checked
 * (bad input is a 400 and changes nothing): the email or the phone, not both;
 * a password or a code, not both; `datas` only with a code, and only the
 * entry point's `useForValidation` fields. The console takes no code.
 */
export function readCredential(req: SentCredential, ep: Entrypoint): { id?: LoginIdentifier; proof: FirstProof } {
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
