import type { Queryable } from "@gatehouse/db";
import type { ProviderSettings } from "@gatehouse/idp";

/** A provider as stored: its settings, its sealed secret and its times. */
export interface ProviderRow extends ProviderSettings {
  secretSealed: string;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  key: string;
  display_name: string;
  type: "oidc" | "oauth2";
  preset: string;
  issuer: string;
  client_id: string;
  secret_sealed: string;
  scopes: string[];
  trust_email: boolean;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  claims: ProviderSettings["claims"];
  created_at: Date;
  updated_at: Date;
}

const toProvider = (r: Row): ProviderRow => ({
  key: r.key,
  displayName: r.display_name,
  type: r.type,
  preset: r.preset,
  issuer: r.issuer,
  clientId: r.client_id,
  secretSealed: r.secret_sealed,
  scopes: r.scopes,
  trustEmail: r.trust_email,
  authorizationEndpoint: r.authorization_endpoint,
  tokenEndpoint: r.token_endpoint,
  userinfoEndpoint: r.userinfo_endpoint,
  claims: r.claims,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const COLUMNS = `key, display_name, type, preset, issuer, client_id, secret_sealed, scopes, trust_email,
  authorization_endpoint, token_endpoint, userinfo_endpoint, claims, created_at, updated_at`;

const values = (p: Omit<ProviderRow, "createdAt" | "updatedAt">) => [
  p.key,
  p.displayName,
  p.type,
  p.preset,
  p.issuer,
  p.clientId,
  p.secretSealed,
  p.scopes,
  p.trustEmail,
  p.authorizationEndpoint,
  p.tokenEndpoint,
  p.userinfoEndpoint,
  JSON.stringify(p.claims),
];

/** registry.identity_providers (migration 005). */
export function identityProviderStore(q: Queryable) {
  return {
    async list(): Promise<ProviderRow[]> {
      const { rows } = await q.query<Row>(`SELECT ${COLUMNS} FROM registry.identity_providers ORDER BY key`);
      return rows.map(toProvider);
    },
    async get(key: string, forUpdate = false): Promise<ProviderRow | undefined> {
      const { rows } = await q.query<Row>(
        `SELECT ${COLUMNS} FROM registry.identity_providers WHERE key = $1${forUpdate ? " FOR UPDATE" : ""}`,
        [key],
      );
      return rows[0] && toProvider(rows[0]);
    },
    /** Undefined when the key is taken. */
    async insert(p: Omit<ProviderRow, "createdAt" | "updatedAt">): Promise<ProviderRow | undefined> {
      const { rows } = await q.query<Row>(
        `INSERT INTO registry.identity_providers (key, display_name, type, preset, issuer, client_id, secret_sealed,
           scopes, trust_email, authorization_endpoint, token_endpoint, userinfo_endpoint, claims)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text[], $9, $10, $11, $12, $13::jsonb)
         ON CONFLICT (key) DO NOTHING RETURNING ${COLUMNS}`,
        values(p),
      );
      return rows[0] && toProvider(rows[0]);
    },
    async update(p: Omit<ProviderRow, "createdAt" | "updatedAt">): Promise<ProviderRow> {
      const { rows } = await q.query<Row>(
        `UPDATE registry.identity_providers SET display_name = $2, type = $3, preset = $4, issuer = $5, client_id = $6,
           secret_sealed = $7, scopes = $8::text[], trust_email = $9, authorization_endpoint = $10,
           token_endpoint = $11, userinfo_endpoint = $12, claims = $13::jsonb, updated_at = now()
         WHERE key = $1 RETURNING ${COLUMNS}`,
        values(p),
      );
      return toProvider(rows[0]!);
    },
    async delete(key: string): Promise<boolean> {
      const res = await q.query("DELETE FROM registry.identity_providers WHERE key = $1", [key]);
      return (res.rowCount ?? 0) > 0;
    },
    /** Whether an entry point offers the provider. */
    async inUse(key: string): Promise<boolean> {
      const { rows } = await q.query<{ used: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM registry.entrypoints WHERE document->'identityProviders' ? $1) AS used`,
        [key],
      );
      return rows[0]?.used === true;
    },
  };
}
