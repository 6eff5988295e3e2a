import type { AuditContext } from "@gatehouse/admin";
import type { Db } from "@gatehouse/db";
import { domainError, validationError } from "@gatehouse/errors";
import { checkIssuer, CLIENT_SECRET_LABEL, type OutboundPolicy, type ProviderSettings } from "@gatehouse/idp";
import type { KeyRing } from "@gatehouse/secrets";
import { auditStore } from "../audit/store.ts";
import { lockCatalogs } from "../catalogs/kinds.ts";
import { identityProviderStore, type ProviderRow } from "./store.ts";
import { providerViolations, withPreset } from "./validate.ts";

// The operators' identity provider operations (contract section 11). Each
// change writes its audit entry in the same transaction (target: the key);
// the secret is sealed, bound to the key, and neither returned nor audited.

export interface ProviderDeps {
  db: Db;
  keys: KeyRing;
  policy: OutboundPolicy;
}

const notFound = (key: string) => domainError("IDENTITY_PROVIDER_NOT_FOUND", undefined, { metadata: { key } });

/** What may be audited of a provider: everything but the secret. */
const auditDetails = (p: ProviderSettings) => ({
  displayName: p.displayName,
  type: p.type,
  preset: p.preset || undefined,
  issuer: p.issuer || undefined,
  clientId: p.clientId,
  scopes: p.scopes,
  trustEmail: p.trustEmail,
});

/** The rules, then (OIDC) the issuer's discovery document and JWKS: an unreachable issuer is invalid_value on issuer. */
async function check(p: ProviderSettings, secret: string | undefined, policy: OutboundPolicy, givenType: string) {
  const violations = providerViolations(p, secret, policy, givenType);
  if (violations.length) throw validationError(violations);
  try {
    await checkIssuer(p, policy);
  } catch (e) {
    const description = `the issuer's discovery document or JWKS could not be read: ${(e as Error).message}`;
    throw validationError([{ field: "issuer", code: "invalid_value", description: description.slice(0, 500) }]);
  }
}

export async function listProviders(db: Db): Promise<ProviderRow[]> {
  return identityProviderStore(db).list();
}

export async function getProvider(db: Db, key: string): Promise<ProviderRow> {
  const p = await identityProviderStore(db).get(key);
  if (!p) throw notFound(key);
  return p;
}

export async function createProvider(
  deps: ProviderDeps,
  input: ProviderSettings,
  secret: string,
  who: AuditContext,
  opts: { validateOnly?: boolean } = {},
): Promise<ProviderRow | undefined> {
  const p = withPreset(input);
  await check(p, secret, deps.policy, input.type);
  if (opts.validateOnly) return undefined;
  const secretSealed = deps.keys.box(CLIENT_SECRET_LABEL).seal(secret, p.key);
  return deps.db.tx(async (q) => {
    const stored = await identityProviderStore(q).insert({ ...p, secretSealed });
    if (!stored)
      throw domainError("IDENTITY_PROVIDER_KEY_TAKEN", undefined, {
        metadata: { key: p.key },
        violations: [{ field: "key", code: "duplicate" }],
      });
    await auditStore(q).record({ ...who, action: "identity_provider.create", target: p.key, details: auditDetails(p) });
    return stored;
  });
}

export type ProviderChange = Partial<
  Pick<
    ProviderSettings,
    | "displayName"
    | "issuer"
    | "clientId"
    | "scopes"
    | "trustEmail"
    | "authorizationEndpoint"
    | "tokenEndpoint"
    | "userinfoEndpoint"
    | "claims"
  >
> & { clientSecret?: string };

export async function updateProvider(
  deps: ProviderDeps,
  key: string,
  change: ProviderChange,
  who: AuditContext,
): Promise<ProviderRow> {
  const current = await getProvider(deps.db, key);
  const { clientSecret, ...settings } = change;
  const defined = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
  const next: ProviderSettings = { ...current, ...defined };
  const changed = [...Object.keys(defined), ...(clientSecret !== undefined ? ["clientSecret"] : [])];
  if (!changed.length) return current;
  // The issuer is asked again only when what reaches it changed.
  const reach = change.issuer !== undefined || change.clientId !== undefined;
  if (reach) await check(next, clientSecret, deps.policy, next.type);
  else {
    const violations = providerViolations(next, clientSecret, deps.policy, next.type);
    if (violations.length) throw validationError(violations);
  }
  const secretSealed =
    clientSecret !== undefined ? deps.keys.box(CLIENT_SECRET_LABEL).seal(clientSecret, key) : current.secretSealed;
  return deps.db.tx(async (q) => {
    const store = identityProviderStore(q);
    if (!(await store.get(key, true))) throw notFound(key);
    const stored = await store.update({ ...next, key, secretSealed });
    const details = { changed, ...auditDetails(next) };
    await auditStore(q).record({ ...who, action: "identity_provider.update", target: key, details });
    return stored;
  });
}

export async function deleteProvider(db: Db, key: string, who: AuditContext): Promise<void> {
  await db.tx(async (q) => {
    // Entry points validate their providers under the shared lock: none can start offering it meanwhile.
    await lockCatalogs(q, "delete");
    const store = identityProviderStore(q);
    const current = await store.get(key, true);
    if (!current) throw notFound(key);
    if (await store.inUse(key))
      throw domainError("IN_USE", "An entry point offers this identity provider.", { metadata: { key } });
    await store.delete(key);
    await auditStore(q).record({
      ...who,
      action: "identity_provider.delete",
      target: key,
      details: auditDetails(current),
    });
  });
}
