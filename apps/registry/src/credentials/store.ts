import type { Queryable } from "@gatehouse/db";

export type ClientKindName = "application" | "operator";

export interface ClientCredentials {
  clientId: string;
  kind: ClientKindName;
  redirectUris: string[];
  secretSealed: string;
  secretMac: string;
  secretVersion: number;
}

export interface NewOperatorClient {
  clientId: string;
  displayName: string;
  secretSealed: string;
  secretMac: string;
}

export interface CredentialStore {
  find(clientId: string): Promise<ClientCredentials | undefined>;
  /** Same as find, locking the row until the transaction ends. */
  findForUpdate(clientId: string): Promise<ClientCredentials | undefined>;
  /** False when the client_id is already taken (by any kind of client). */
  insertOperator(c: NewOperatorClient): Promise<boolean>;
  /** Replaces the secret and returns the new secret_version. */
  rotate(clientId: string, secretSealed: string, secretMac: string): Promise<number>;
  setDisplayName(clientId: string, displayName: string): Promise<void>;
}

interface Row {
  client_id: string;
  kind: ClientKindName;
  redirect_uris: string[];
  secret_sealed: string;
  secret_mac: string;
  secret_version: number;
}

const columns = "client_id, kind, redirect_uris, secret_sealed, secret_mac, secret_version";

const toCredentials = (r: Row): ClientCredentials => ({
  clientId: r.client_id,
  kind: r.kind,
  redirectUris: r.redirect_uris,
  secretSealed: r.secret_sealed,
  secretMac: r.secret_mac,
  secretVersion: Number(r.secret_version),
});

export function credentialStore(q: Queryable): CredentialStore {
  const select = async (clientId: string, lock: boolean) => {
    const { rows } = await q.query<Row>(
      `SELECT ${columns} FROM registry.clients WHERE client_id = $1${lock ? " FOR UPDATE" : ""}`,
      [clientId],
    );
    return rows[0] && toCredentials(rows[0]);
  };
  return {
    find: (clientId) => select(clientId, false),
    findForUpdate: (clientId) => select(clientId, true),
    async insertOperator(c) {
      const { rowCount } = await q.query(
        `INSERT INTO registry.clients (client_id, kind, display_name, secret_sealed, secret_mac)
         VALUES ($1, 'operator', $2, $3, $4)
         ON CONFLICT (client_id) DO NOTHING`,
        [c.clientId, c.displayName, c.secretSealed, c.secretMac],
      );
      return rowCount > 0;
    },
    async rotate(clientId, secretSealed, secretMac) {
      const { rows } = await q.query<{ secret_version: number }>(
        `UPDATE registry.clients
            SET secret_sealed = $2, secret_mac = $3, secret_version = secret_version + 1, updated_at = now()
          WHERE client_id = $1
          RETURNING secret_version`,
        [clientId, secretSealed, secretMac],
      );
      return Number(rows[0]?.secret_version);
    },
    async setDisplayName(clientId, displayName) {
      await q.query(
        "UPDATE registry.clients SET display_name = $2, updated_at = now() WHERE client_id = $1 AND display_name <> $2",
        [clientId, displayName],
      );
    },
  };
}
