import { domainError, errorFacts } from "@gatehouse/errors";
import { finishUpstream, UpstreamRefused, UpstreamUnavailable, type UpstreamIdentity } from "@gatehouse/idp";
import type { AuditLog } from "@gatehouse/admin";
import type { KeyRing } from "@gatehouse/secrets";
import type { UserRecord } from "../../users/record.ts";
import type { Transactional } from "../../transactional.ts";
import type { UserStore } from "../../users/store.ts";
import type { Attempt, CredentialVerifier, Verified } from "../verifier.ts";
import { linkIdentity, type LinkStores } from "./link.ts";
import type { Providers } from "./providers.ts";
import type { IdentityStore } from "./store.ts";
import {
  openUpstream,
  PENDING_TTL_MS,
  sealUpstream,
  upstreamFailed,
  type PendingIdentity,
  type UpstreamTransaction,
} from "./tokens.ts";

/** The provider's answer at the callback, with the transaction the browser kept. */
export interface UpstreamProof {
  kind: "upstream";
  transaction: string;
  callbackUrl: string;
  /** SHA-256 of the login's authorization request: the transaction is for that request only. */
  authorization: string;
}

export interface UpstreamVerifierDeps {
  keys: KeyRing;
  /** The users service's audit log: every failed social sign-in is recorded (no personal data). */
  audit: Pick<AuditLog, "record">;
  providers: Providers;
  users: Pick<UserStore, "byId" | "byIdentifier">;
  identities: Pick<IdentityStore, "userOf">;
  /** Where a trusted email's identity is linked, with its audit entry, in one transaction. */
  linking: Transactional<LinkStores>;
  /** Registers (and links) the user of a new identity through the attempt's entry point; VALIDATION_FAILED when a page must ask more. */
  register(identity: UpstreamIdentity, attempt: Attempt): Promise<UserRecord>;
}

/** The round trip's end: the provider's answer checked, then who it is (docs/api.md, "Social sign-in"). */
async function verifiedIdentity(deps: UpstreamVerifierDeps, proof: UpstreamProof, attempt: Attempt) {
  const tx = openUpstream<UpstreamTransaction>(deps.keys, "upstream-transaction", proof.transaction);
  const ep = attempt.entrypoint;
  if (!ep || tx.entrypointId !== ep.id || tx.authorization !== proof.authorization)
    throw upstreamFailed("invalid_state");
  if (!ep.identityProviders.includes(tx.provider)) throw upstreamFailed("not_offered", "", tx.provider);
  const { settings, config } = await deps.providers(tx.provider);
  try {
    return { settings, identity: await finishUpstream(config, settings, new URL(proof.callbackUrl), tx), tx };
  } catch (e) {
    if (e instanceof UpstreamRefused) throw upstreamFailed(e.reason, e.message.slice(0, 200), tx.provider);
    if (e instanceof UpstreamUnavailable)
      throw domainError("UPSTREAM_UNAVAILABLE", undefined, { metadata: { provider: tx.provider } });
    throw e;
  }
}

const pending = (identity: UpstreamIdentity, tx: UpstreamTransaction): PendingIdentity => ({
  identity,
  entrypointId: tx.entrypointId,
  authorization: tx.authorization,
  exp: Date.now() + PENDING_TTL_MS,
});

/**
 * Social sign-in as a credential (contract section 11): (1) the user linked
 * to (provider, subject); (2) the holder of the email, linked at once only
 * when the provider is trusted and verified the email, else
 * UPSTREAM_LINK_REQUIRED (a token the login page carries until the user
 * proves the account); (3) a new user of the entry point, or
 * UPSTREAM_SIGNUP_REQUIRED when the registration page must ask more first.
 * Not a second factor: the login's MFA step still applies.
 */
export function upstreamVerifier(deps: UpstreamVerifierDeps): CredentialVerifier<UpstreamProof> {
  return {
    kind: "upstream",
    async verify(proof, attempt): Promise<Verified> {
      const { settings, identity, tx } = await verifiedIdentity(deps, proof, attempt).catch(async (e: unknown) => {
        const f = errorFacts(e);
        if (f.reason === "UPSTREAM_LOGIN_FAILED" || f.reason === "UPSTREAM_UNAVAILABLE")
          await deps.audit.record({
            actor: attempt.clientId ? `client:${attempt.clientId}` : "anonymous",
            action: "social_sign_in.fail",
            target: f.metadata.provider ?? "",
            address: attempt.clientAddress,
            details: {
              reason: f.metadata.reason ?? f.reason.toLowerCase(),
              entrypointId: attempt.entrypoint?.id ?? "",
            },
          });
        throw e;
      });
      const linked = await deps.identities.userOf(identity.provider, identity.subject);
      if (linked) {
        const user = await deps.users.byId(linked);
        if (!user) throw upstreamFailed("invalid_state");
        return { user, secondFactor: false };
      }
      const holder = identity.email ? await deps.users.byIdentifier("email", identity.email) : undefined;
      if (holder) {
        if (!(settings.trustEmail && identity.emailVerified)) {
          const linkToken = sealUpstream(deps.keys, "upstream-link", pending(identity, tx));
          throw domainError("UPSTREAM_LINK_REQUIRED", undefined, {
            metadata: { email: identity.email, provider: identity.provider, link_token: linkToken },
          });
        }
        await linkIdentity(deps.linking, holder.id, identity, {
          via: "trusted_email",
          address: attempt.clientAddress,
        });
        return { user: (await deps.users.byId(holder.id)) ?? holder, secondFactor: false };
      }
      try {
        return { user: await deps.register(identity, attempt), secondFactor: false };
      } catch (e) {
        const f = errorFacts(e);
        if (f.reason !== "VALIDATION_FAILED" && f.reason !== "CONSTRAINT_VIOLATION") throw e;
        const signupToken = sealUpstream(deps.keys, "upstream-signup", pending(identity, tx));
        throw domainError("UPSTREAM_SIGNUP_REQUIRED", undefined, {
          // The standard claims the page shows in its inputs (the user's own data, from the provider).
          metadata: {
            email: identity.email,
            provider: identity.provider,
            signup_token: signupToken,
            profile: JSON.stringify(identity.profile),
          },
          violations: f.violations,
        });
      }
    },
  };
}
