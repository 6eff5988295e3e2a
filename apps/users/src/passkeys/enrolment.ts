import { randomBytes } from "node:crypto";
import { domainError, validationError } from "@gatehouse/errors";
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { UserRecord } from "../users/record.ts";
import { webauthn, webauthnHelpers } from "./webauthn-lib.ts";
import { keepEnrolmentChallenge, newChallenge, takeEnrolmentChallenge } from "./challenges.ts";
import { MAX_NAME_LENGTH, MAX_PASSKEYS, PASSKEY_ALGORITHMS, type PasskeyDeps } from "./relying-party.ts";
import type { PasskeyRecord } from "./store.ts";
import { userHandle } from "./user-handle.ts";

/** The name authenticators show for the account: the email, else the phone, else the screen name, else the pulse id. */
function accountName(user: UserRecord): string {
  for (const key of ["email", "phone_number", "screen_name"] as const) {
    const value = user.identifiers.find((i) => i.key === key)?.value;
    if (value) return value;
  }
  return user.pulseId;
}

/**
 * Creation options for a new passkey of `user` (contract section 12):
 * discoverable (resident key required), user verification required,
 * attestation `none`, ES256 and RS256, the user's passkeys excluded; its
 * challenge kept in the kv for 5 minutes.
 */
export async function creationOptions(
  deps: PasskeyDeps,
  user: UserRecord,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await deps.data.passkeys.ofUser(user.id);
  if (existing.length >= MAX_PASSKEYS) throw domainError("PASSKEY_LIMIT");
  const challenge = newChallenge();
  const name = accountName(user);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: deps.rp.name,
    rpID: deps.rp.id,
    userName: name,
    userDisplayName: name,
    userID: userHandle(deps.keys, user.id),
    challenge: Buffer.from(challenge, "base64url"),
    timeout: 300_000,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  });
  await keepEnrolmentChallenge(deps.kv, options.challenge, user.id);
  return options;
}

const invalid = (why: string) => domainError("PASSKEY_INVALID", why);

/** The challenge a registration response signed, read before anything is checked (bad input is PASSKEY_INVALID). */
async function challengeOf(credential: RegistrationResponseJSON): Promise<string> {
  const { decodeClientDataJSON } = await webauthnHelpers();
  try {
    return decodeClientDataJSON(credential.response.clientDataJSON).challenge;
  } catch {
    throw invalid("clientDataJSON cannot be read");
  }
}

/** A passkey's name: given (trimmed, 1–64 characters) or "Passkey". */
export function passkeyName(given: string | undefined, field = "name"): string {
  const name = (given ?? "").trim();
  if ([...name].length > MAX_NAME_LENGTH)
    throw validationError([{ field, code: "too_long", description: `at most ${MAX_NAME_LENGTH} characters` }]);
  return name || "Passkey";
}

/**
 * Verifies a registration response for `userId` against one of its
 * challenges (taken once), the relying party's id and origins, user
 * verification and the algorithms; then stores the passkey. Any failure is
 * PASSKEY_INVALID (the challenge is spent: start again).
 */
export async function enrolPasskey(
  deps: PasskeyDeps,
  userId: string,
  req: { name: string | undefined; credential: RegistrationResponseJSON },
): Promise<PasskeyRecord> {
  const name = passkeyName(req.name);
  const challenge = await challengeOf(req.credential);
  const owner = await takeEnrolmentChallenge(deps.kv, challenge);
  if (owner !== userId) throw invalid("the challenge is unknown, used, expired or another user's");
  let verified;
  try {
    const { verifyRegistrationResponse } = await webauthn();
    verified = await verifyRegistrationResponse({
      response: req.credential,
      expectedChallenge: challenge,
      expectedOrigin: deps.rp.origins,
      expectedRPID: deps.rp.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    });
  } catch (err) {
    throw invalid((err as Error).message);
  }
  if (!verified.verified) throw invalid("the registration response does not verify");
  const info = verified.registrationInfo;
  return deps.data.tx(async (s) => {
    if ((await s.passkeys.count(userId)) >= MAX_PASSKEYS) throw domainError("PASSKEY_LIMIT");
    const record = {
      id: randomBytes(12).toString("hex"),
      userId,
      credentialId: info.credential.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      transports: (req.credential.response.transports ?? []).filter((t) => typeof t === "string").slice(0, 8),
      name,
    };
    const stored = await s.passkeys.insert(record);
    if (!stored) throw domainError("PASSKEY_EXISTS");
    return stored;
  });
}
