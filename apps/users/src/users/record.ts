import type { IdKey } from "./identifiers.ts";

export interface IdentifierRow {
  key: IdKey;
  value: string;
  confirmed: boolean;
  pendingValue: string | null;
  pendingRequestedAt: Date | null;
}

export type JsonMap = Record<string, unknown>;

/** A user as the service reads it: the users row and its identifiers. */
export interface UserRecord {
  id: string;
  pulseId: string;
  passwordHash: string | null;
  datas: JsonMap;
  addresses: JsonMap;
  assertions: JsonMap;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  identifiers: IdentifierRow[];
  /** Set while an operator has locked the account (login answers ACCOUNT_LOCKED). */
  lockedAt: Date | null;
  /** Registered through an assisted entry point and not activated yet (every login is 412). */
  awaitingActivation: boolean;
  operator: boolean; // role 'operator' (migration 008): console sign-in, TOTP always
  /** Accounts at upstream identity providers (users.identities, contract section 11). */
  linkedIdentities: { provider: string; subject: string; email: string; linkedAt: Date }[];
  /** TOTP is on (mfa_enabled_at set), as read with the user: the login's MFA step needs no read of its own when off. */
  mfaEnabled?: boolean;
}

export interface NewUser {
  id: string;
  pulseId: string;
  passwordHash: string | null;
  datas: JsonMap;
  addresses: JsonMap;
  assertions: JsonMap;
  clientId: string;
  entrypointId: string;
  awaitingActivation?: boolean;
  /** An operator person (contract section 6). */
  operator?: boolean;
}
