import type { JWK } from "jose";
import type { Queryable } from "@gatehouse/db";

export interface KeyRow {
  kid: string;
  alg: "EdDSA" | "ES256";
  public_jwk: JWK;
  private_sealed: string;
  status: "active" | "retired";
  created_at: Date;
}

/** The auth.signing_keys table. */
export const keyStore = {
  async live(q: Queryable): Promise<KeyRow[]> {
    const { rows } = await q.query<KeyRow>(
      "SELECT kid, alg, public_jwk, private_sealed, status, created_at FROM auth.signing_keys WHERE status = 'active' ORDER BY created_at DESC, kid",
    );
    return rows;
  },
  async insert(q: Queryable, row: Omit<KeyRow, "status" | "created_at">): Promise<void> {
    await q.query("INSERT INTO auth.signing_keys (kid, alg, public_jwk, private_sealed) VALUES ($1, $2, $3, $4)", [
      row.kid,
      row.alg,
      JSON.stringify(row.public_jwk),
      row.private_sealed,
    ]);
  },
};
