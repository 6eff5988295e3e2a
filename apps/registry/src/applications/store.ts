import { fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Queryable } from "@gatehouse/db";
import { ApplicationSchema, EntrypointSchema, type Application, type Entrypoint } from "@gatehouse/proto";
import { abuseSettingsOf } from "./records.ts";

/** A validated application with its ids and sealed secret, ready to insert. */
export interface NewApplication {
  /** Application with defaults and ids; its entry points go to their own table. */
  application: Application;
  secretSealed: string;
  secretMac: string;
}

/** An entry point with what confirmations need of its application. */
export interface EntrypointOfClient {
  clientId: string;
  entrypoint: Entrypoint;
  whitelist: string[];
  defaultCallback: string;
  /** MFA policy: off, optional or required. */
  mfa: string;
  /** Section 17: the hosted pages' bot check, own SMS budget, allowed calling codes. */
  captcha: string;
  smsPerHour: number | undefined;
  phonePrefixes: string[];
}

export interface ApplicationStore {
  /** Inserts the application and its entry points; false when the client_id is taken. */
  insert(a: NewApplication): Promise<{ createdAt: Date; updatedAt: Date } | undefined>;
  /** An application (never an operator client) with its entry points in order. */
  get(clientId: string): Promise<Application | undefined>;
  getEntrypoint(id: string): Promise<EntrypointOfClient | undefined>;
}

/** Thrown when an entry point id is taken by another application: the caller retries with a new client_id. */
export class EntrypointIdTaken extends Error {}

const readOptions = { ignoreUnknownFields: true };

export function applicationStore(q: Queryable): ApplicationStore {
  return {
    async insert({ application, secretSealed, secretMac }) {
      const document = toJson(ApplicationSchema, { ...application, entrypoints: [], id: "" });
      const { rows } = await q.query<{ created_at: Date; updated_at: Date }>(
        `INSERT INTO registry.clients
           (client_id, kind, display_name, document, redirect_uris, whitelist, secret_sealed, secret_mac)
         VALUES ($1, 'application', $2, $3::jsonb, $4::text[], $4::text[], $5, $6)
         ON CONFLICT (client_id) DO NOTHING
         RETURNING created_at, updated_at`,
        [
          application.id,
          application.displayName,
          JSON.stringify(document),
          application.redirectUris,
          secretSealed,
          secretMac,
        ],
      );
      const row = rows[0];
      if (!row) return undefined;
      for (const [position, ep] of application.entrypoints.entries()) {
        const inserted = await q.query(
          `INSERT INTO registry.entrypoints (id, client_id, position, document, created_at, updated_at)
           VALUES ($1, $2, $3, $4::jsonb, $5, $5)
           ON CONFLICT (id) DO NOTHING`,
          [ep.id, application.id, position, JSON.stringify(toJson(EntrypointSchema, ep)), row.created_at],
        );
        if (inserted.rowCount === 0) throw new EntrypointIdTaken(ep.id);
      }
      return { createdAt: row.created_at, updatedAt: row.updated_at };
    },

    async get(clientId) {
      const { rows } = await q.query<{ document: JsonValue; created_at: Date; updated_at: Date }>(
        `SELECT document, created_at, updated_at FROM registry.clients WHERE client_id = $1 AND kind = 'application'`,
        [clientId],
      );
      const row = rows[0];
      if (!row) return undefined;
      const eps = await q.query<{ document: JsonValue }>(
        "SELECT document FROM registry.entrypoints WHERE client_id = $1 ORDER BY position",
        [clientId],
      );
      const app = fromJson(ApplicationSchema, row.document, readOptions);
      app.id = clientId;
      app.entrypoints = eps.rows.map((r) => fromJson(EntrypointSchema, r.document, readOptions));
      app.createTime = timestampFromDate(new Date(row.created_at));
      app.updateTime = timestampFromDate(new Date(row.updated_at));
      return app;
    },

    async getEntrypoint(id) {
      const { rows } = await q.query<{
        client_id: string;
        document: JsonValue;
        whitelist: string[];
        default_callback: string | null;
        mfa: string;
        captcha: string;
        sms_per_hour: number | null;
        phone_prefixes: string[];
      }>(
        `SELECT e.client_id, e.document, c.whitelist, c.default_callback, c.mfa, c.captcha, c.sms_per_hour,
                c.phone_prefixes FROM registry.entrypoints e
           JOIN registry.clients c ON c.client_id = e.client_id AND c.kind = 'application'
         WHERE e.id = $1`,
        [id],
      );
      const row = rows[0];
      return (
        row && {
          clientId: row.client_id,
          entrypoint: fromJson(EntrypointSchema, row.document, readOptions),
          whitelist: row.whitelist ?? [],
          defaultCallback: row.default_callback ?? "",
          mfa: row.mfa,
          ...abuseSettingsOf(row),
        }
      );
    },
  };
}
