import type { AuditLog } from "@gatehouse/admin";
import type { Kv } from "@gatehouse/kv";
import type { KeyRing } from "@gatehouse/secrets";
import type { AccessCodeOptions } from "../access-code/options.ts";
import type { AccessCodeStore } from "../access-code/store.ts";
import type { Passwords } from "../credentials/passwords.ts";
import type { ConfirmationOptions } from "../confirmation/options.ts";
import type { ConfirmationStore } from "../confirmation/store.ts";
import type { EventStore } from "../events/store.ts";
import type { Transactional } from "../transactional.ts";
import type { UserStore } from "../users/store.ts";
import type { PasskeyStore } from "../passkeys/store.ts";
import type { RelyingParty } from "../passkeys/relying-party.ts";
import { oneTimeCodeVerifier, type OneTimeCodeProof } from "./one-time-code/verifier.ts";
import { passkeyVerifier, type PasskeyProof } from "./passkey/verifier.ts";
import { passwordVerifier, type PasswordProof } from "./password/verifier.ts";
import type { LoginLimits } from "./throttle.ts";
import type { MfaLimits } from "./totp/limits.ts";
import type { TotpStore } from "./totp/store.ts";
import { totpVerifier, type TotpProof } from "./totp/verifier.ts";
import type { Providers } from "./upstream/providers.ts";
import type { IdentityStore } from "./upstream/store.ts";
import { upstreamVerifier, type UpstreamProof, type UpstreamVerifierDeps } from "./upstream/verifier.ts";
import type { Attempt, CredentialVerifier, Verified } from "./verifier.ts";

/** Every proof the users service checks; a new kind (a passkey, an upstream identity) joins here with its verifier. */
export type Proof = PasswordProof | OneTimeCodeProof | TotpProof | PasskeyProof | UpstreamProof;

/** The verifier of each kind of proof. */
export type Verifiers = { [K in Proof["kind"]]: CredentialVerifier<Extract<Proof, { kind: K }>> };

export interface VerifierDeps {
  data: Transactional<{
    users: UserStore;
    accessCodes: AccessCodeStore;
    confirmations: ConfirmationStore;
    totp: TotpStore;
    identities: IdentityStore;
    audit: AuditLog;
    events: EventStore;
    passkeys: PasskeyStore;
  }>;
  kv: Kv;
  keys: KeyRing;
  passwords: Passwords;
  loginLimits: LoginLimits;
  mfaLimits: MfaLimits;
  accessCodes: AccessCodeOptions;
  confirmation: ConfirmationOptions;
  /** The passkeys' relying party. */
  rp: RelyingParty;
  /** Social sign-in: the providers, and the registration of a new identity's user. */
  upstream: { providers: Providers; register: UpstreamVerifierDeps["register"] };
}

export function createVerifiers(deps: VerifierDeps): Verifiers {
  const { data, kv, keys } = deps;
  return {
    password: passwordVerifier({ users: data.users, kv, passwords: deps.passwords, limits: deps.loginLimits }),
    "one-time-code": oneTimeCodeVerifier({
      data,
      kv,
      keys,
      limits: deps.loginLimits,
      accessCodes: deps.accessCodes,
      options: deps.confirmation,
    }),
    totp: totpVerifier({ data, kv, keys, limits: deps.mfaLimits }),
    passkey: passkeyVerifier({
      users: data.users,
      passkeys: data.passkeys,
      kv,
      keys,
      rp: deps.rp,
      limits: deps.loginLimits,
    }),
    upstream: upstreamVerifier({
      keys,
      users: data.users,
      identities: data.identities,
      audit: data.audit,
      linking: data,
      ...deps.upstream,
    }),
  };
}

/** Checks a proof with the verifier of its kind. */
export function verifyProof(verifiers: Verifiers, proof: Proof, attempt: Attempt): Promise<Verified> {
  // One verifier per kind (Verifiers): TypeScript cannot pair the union's members with the map's on its own.
  return (verifiers[proof.kind] as CredentialVerifier<Proof>).verify(proof, attempt);
}
