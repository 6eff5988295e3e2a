import type { Queryable } from "@gatehouse/db";
import { identifierWrites, type IdentifierWrites } from "./store-identifiers.ts";
import { userReads, type UserReads } from "./store-reads.ts";
import { userWrites, type UserWrites } from "./store-writes.ts";

/** Users and their identifiers in the `users` schema (migrations 001, 004, 007, 008). */
export interface UserStore extends UserReads, UserWrites, IdentifierWrites {}

/** The store over the pool or over a transaction's connection (`db.tx(q => userStore(q)…)`). */
export function userStore(q: Queryable): UserStore {
  return { ...userReads(q), ...userWrites(q), ...identifierWrites(q) };
}

/** True for a PostgreSQL unique violation (pg and PGlite both carry SQLSTATE 23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === "23505" && (constraint === undefined || e.constraint === constraint);
}

export const IDENTIFIER_UNIQUE = "identifiers_key_value_unique";
