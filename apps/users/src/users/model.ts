import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampFromDate, ValueSchema } from "@bufbuild/protobuf/wkt";
import {
  AddressSchema,
  AssertionSchema,
  DataValueSchema,
  IdentifierSchema,
  PendingIdentifierSchema,
  LinkedIdentitySchema,
  UserSchema,
  type Address,
  type Assertion,
  type DataValue,
  type Identifier,
  type User,
} from "@gatehouse/proto";
import type { UserRecord } from "./record.ts";

/** An address as stored (schema.org PostalAddress members). */
export interface StoredAddress {
  streetAddress?: string;
  postalCode?: string;
  addressLocality?: string;
  addressRegion?: string;
  addressCountry?: string;
}

/** An assertion as stored: the answer, the version answered and when. */
export interface StoredAssertion {
  value: boolean;
  version: string;
  accepted: string;
}

function mapValues<T, U>(obj: Record<string, T>, fn: (v: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fn(v)]));
}

/** The proto User of a stored user; the gateway renders it as the contract's `content.user`. */
export function toUser(record: UserRecord): User {
  const ids: Record<string, Identifier> = {};
  for (const i of record.identifiers) {
    ids[i.key] = create(IdentifierSchema, {
      value: i.value,
      confirmed: i.confirmed,
      pending:
        i.pendingValue === null
          ? undefined
          : create(PendingIdentifierSchema, {
              value: i.pendingValue,
              requestTime: i.pendingRequestedAt ? timestampFromDate(i.pendingRequestedAt) : undefined,
            }),
    });
  }
  const datas: Record<string, DataValue> = mapValues(record.datas, (v) =>
    create(DataValueSchema, { value: fromJson(ValueSchema, v as JsonValue) }),
  );
  const addresses: Record<string, Address> = mapValues(record.addresses as Record<string, StoredAddress>, (a) =>
    create(AddressSchema, a),
  );
  const assertions: Record<string, Assertion> = mapValues(record.assertions as Record<string, StoredAssertion>, (a) =>
    create(AssertionSchema, {
      value: a.value,
      version: a.version,
      acceptTime: a.accepted ? timestampFromDate(new Date(a.accepted)) : undefined,
    }),
  );
  return create(UserSchema, {
    id: record.id,
    pulseId: record.pulseId,
    ids,
    datas,
    addresses,
    assertions,
    createTime: timestampFromDate(record.createdAt),
    updateTime: timestampFromDate(record.updatedAt),
    passwordless: record.passwordHash === null,
    identities: record.linkedIdentities.map((l) =>
      create(LinkedIdentitySchema, { ...l, linked: timestampFromDate(l.linkedAt) }),
    ),
  });
}
