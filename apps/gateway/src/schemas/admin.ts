import Type, { type TSchema } from "typebox";
import { Application, EntrypointOut } from "./application.ts";
import { Result } from "./common.ts";

const AnyObject = Type.Record(Type.String(), Type.Unknown());

/** `?limit=` 1-200 (default 50) and `?cursor=` of every admin list (contract section 6). */
export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: "Items per page, 1-200 (default 50)" })),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: "`content.next` of the previous page" }),
  ),
  sc: Type.Optional(Type.Boolean()),
};

/** `{content: {items, next?}, result}`: next is absent on the last page. */
export const ListOf = (item: TSchema, extra: Record<string, TSchema> = {}) =>
  Type.Object({
    content: Type.Object({
      ...extra,
      items: Type.Array(item),
      next: Type.Optional(Type.String({ description: "Opaque cursor of the next page" })),
    }),
    result: Result,
  });

export const ContentOf = (content: TSchema) => Type.Object({ content, result: Result });

/** An application as operators see it: the 201 of contract section 3 without the password, plus its settings. */
export const AdminApplication = Type.Object(
  {
    ...Application.properties,
    updated: Type.String({ format: "date-time" }),
    whitelist: Type.Array(Type.String()),
    defaultCallback: Type.String(),
    mfa: Type.String(),
    captcha: Type.String(),
    smsPerHour: Type.Union([Type.Integer(), Type.Null()]),
    phonePrefixes: Type.Array(Type.String()),
  },
  { $id: "AdminApplication" },
);

export const AdminEntrypoint = EntrypointOut;

/** An item of an operator catalog; data fields add their format. */
export const CatalogItem = Type.Object({
  key: Type.String(),
  displayName: Type.String(),
  format: Type.Optional(Type.String({ description: "Data fields: text, date, email, phone, number or boolean" })),
});

/** `content.user` of contract section 5 plus the account's status, last login, live sessions and MFA. */
export const AdminUser = Type.Object(
  {
    id: Type.Union([Type.Integer(), Type.String()]),
    pulse_id: Type.String(),
    objectType: Type.Literal("user"),
    ids: AnyObject,
    datas: AnyObject,
    addresses: AnyObject,
    assertions: AnyObject,
    created: Type.Optional(Type.String()),
    updated: Type.Optional(Type.String()),
    status: Type.Union([Type.Literal("active"), Type.Literal("locked")]),
    lastLogin: Type.Union([Type.String(), Type.Null()]),
    locked: Type.Optional(Type.String({ description: "When the account was locked" })),
    sessions: Type.Optional(Type.Integer({ description: "Live sessions (not in search results)" })),
    mfa: Type.Boolean(),
    identities: Type.Array(
      Type.Object({ provider: Type.String(), subject: Type.String(), email: Type.String(), linked: Type.String() }),
      { description: "Accounts at upstream identity providers (contract section 11)" },
    ),
    passkeys: Type.Integer({ description: "How many passkeys the user holds" }),
  },
  { $id: "AdminUser" },
);

export const AuditItem = Type.Object({
  id: Type.String({ description: "`<service>-<number>`" }),
  time: Type.String({ format: "date-time" }),
  actor: Type.String({ description: "client:<client_id>, user:<user_id> or service:<name>" }),
  action: Type.String(),
  target: Type.String(),
  address: Type.String(),
  details: AnyObject,
});

export { AnyObject };
