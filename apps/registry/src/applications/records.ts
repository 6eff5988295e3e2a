import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Queryable } from "@gatehouse/db";
import { ApplicationRecordSchema, ApplicationSchema, EntrypointSchema, type ApplicationRecord } from "@gatehouse/proto";

interface ClientRow {
  client_id: string;
  document: JsonValue;
  created_at: Date;
  updated_at: Date;
  whitelist: string[];
  default_callback: string | null;
  mfa: string;
  captcha: string;
  sms_per_hour: number | null;
  phone_prefixes: string[];
}

const COLUMNS =
  "client_id, document, created_at, updated_at, whitelist, default_callback, mfa, captcha, sms_per_hour, phone_prefixes";
/** The section 17 settings of a clients row, as ApplicationSettings and GetEntrypoint carry them. */
export function abuseSettingsOf(r: { captcha: string; sms_per_hour: number | null; phone_prefixes: string[] }) {
  return { captcha: r.captcha, smsPerHour: r.sms_per_hour ?? undefined, phonePrefixes: r.phone_prefixes ?? [] };
}

const readOptions = { ignoreUnknownFields: true };

// LIKE patterns match the query literally.
const literal = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Applications with their settings and entry points, as operators see them. */
export function applicationRecords(q: Queryable) {
  async function withEntrypoints(rows: ClientRow[]): Promise<ApplicationRecord[]> {
    if (!rows.length) return [];
    const eps = await q.query<{ client_id: string; document: JsonValue }>(
      "SELECT client_id, document FROM registry.entrypoints WHERE client_id = ANY($1::text[]) ORDER BY client_id, position",
      [rows.map((r) => r.client_id)],
    );
    return rows.map((r) => {
      const application = fromJson(ApplicationSchema, r.document, readOptions);
      application.id = r.client_id;
      application.entrypoints = eps.rows
        .filter((e) => e.client_id === r.client_id)
        .map((e) => fromJson(EntrypointSchema, e.document, readOptions));
      application.createTime = timestampFromDate(new Date(r.created_at));
      application.updateTime = timestampFromDate(new Date(r.updated_at));
      const settings = {
        whitelist: r.whitelist ?? [],
        defaultCallback: r.default_callback ?? "",
        mfa: r.mfa,
        ...abuseSettingsOf(r),
      };
      return create(ApplicationRecordSchema, { application, settings });
    });
  }

  return {
    /** An application (never an operator client); `forUpdate` locks its row until the transaction ends. */
    async get(clientId: string, forUpdate = false): Promise<ApplicationRecord | undefined> {
      const { rows } = await q.query<ClientRow>(
        `SELECT ${COLUMNS} FROM registry.clients WHERE client_id = $1 AND kind = 'application'${forUpdate ? " FOR UPDATE" : ""}`,
        [clientId],
      );
      return (await withEntrypoints(rows))[0];
    },

    /**
     * Up to `limit` applications after client_id `after`, in client_id order;
     * `query` matches a client_id prefix or a displayName substring (any case).
     */
    async search(query: string, after: string | undefined, limit: number): Promise<ApplicationRecord[]> {
      const { rows } = await q.query<ClientRow>(
        `SELECT ${COLUMNS} FROM registry.clients
          WHERE kind = 'application'
            AND ($1::text = '' OR starts_with(client_id, $1) OR display_name ILIKE '%' || $2 || '%')
            AND ($3::text IS NULL OR client_id > $3)
          ORDER BY client_id LIMIT $4`,
        [query, literal(query), after ?? null, limit],
      );
      return withEntrypoints(rows);
    },
  };
}
