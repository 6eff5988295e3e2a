import type { Queryable } from "@gatehouse/db";
import type { CatalogKindName } from "./store.ts";

// Where each catalog's keys are referenced: the applications' documents, their
// entry points' documents (proto JSON names) and the legal assertions.
const USES: Record<CatalogKindName, string> = {
  organization: `SELECT 1 FROM registry.clients WHERE kind = 'application' AND document->'organizationSchemaOrg'->>'identifier' = $1`,
  brand: `SELECT 1 FROM registry.clients WHERE kind = 'application' AND document->'organizationSchemaOrg'->>'brand' = $1`,
  property: `SELECT 1 FROM registry.clients WHERE kind = 'application' AND document->'schemaOrg'->>'applicationCategory' = $1
             UNION ALL SELECT 1 FROM registry.legal_assertions WHERE property = $1`,
  typology: `SELECT 1 FROM registry.entrypoints WHERE document->'typology'->'register'->>'id' = $1 OR document->'typology'->'work'->>'id' = $1
             UNION ALL SELECT 1 FROM registry.legal_assertions WHERE typology = $1`,
  data_field: `SELECT 1 FROM registry.entrypoints WHERE document->'fields' @> jsonb_build_array(jsonb_build_object('type', 'field', 'key', $1::text))`,
};

/** Whether an application, an entry point or a legal assertion still references the key. */
export async function catalogKeyInUse(q: Queryable, kind: CatalogKindName, key: string): Promise<boolean> {
  const { rows } = await q.query(`SELECT EXISTS (${USES[kind]}) AS used`, [key]);
  return (rows[0] as { used: boolean } | undefined)?.used === true;
}
