import Type from "typebox";
import { PasskeyLogin } from "./passkeys.ts";

// The spec's user request envelopes. The members of `object` are typed by the
// entry point and the catalogs, so the users service validates them and
// reports `object.*` paths; here: the envelope's own structure.
const closed = { additionalProperties: false } as const;
const SOURCES = ["unknown", "pc", "mobile", "tablet", "game_console", "itv"] as const;

export const Source = Type.Object(
  { id: Type.Union(SOURCES.map((s) => Type.Literal(s))), objectType: Type.Literal("device") },
  closed,
);
export const Actor = (objectType: "application" | "person") =>
  Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }), objectType: Type.Literal(objectType) }, closed);

const Members = Type.Record(Type.String(), Type.Unknown());

/** Registration and replacement: `object` with ids, datas, assertions (addresses optional). */
export const UserObject = Type.Object(
  {
    objectType: Type.Literal("user"),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    newPassword: Type.Optional(Type.String({ maxLength: 1024 })),
    /** A fresh TOTP or recovery code: changing email, phone or password of a user with MFA on needs it (else 428). */
    mfaCode: Type.Optional(Type.String({ maxLength: 32 })),
    ids: Members,
    datas: Members,
    addresses: Type.Optional(Members),
    assertions: Members,
  },
  closed,
);

export const RegisterEnvelope = Type.Object(
  { actor: Actor("application"), verb: Type.Literal("create"), object: UserObject, source: Source },
  { ...closed, $id: "RegisterEnvelope" },
);

/** Replace (spec endpoint 2): verb `create`, the application as actor, the whole user. */
export const ReplaceEnvelope = Type.Object(
  { actor: Actor("application"), verb: Type.Literal("create"), object: UserObject, source: Source },
  { ...closed, $id: "ReplaceEnvelope" },
);

/** Patch (spec endpoint 3): verb `update`, the person as actor, any members of the user; null removes. */
/**
 * The person of a patch: its object_id or pulse_id. Login answers the
 * object_id as a JSON number (a long in the spec), so a number is taken too.
 */
const Person = Type.Object(
  {
    id: Type.Union([
      Type.String({ minLength: 1, maxLength: 128 }),
      Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    ]),
    objectType: Type.Literal("person"),
  },
  closed,
);

export const PatchEnvelope = Type.Object(
  {
    actor: Person,
    verb: Type.Literal("update"),
    object: Type.Object(
      {
        objectType: Type.Literal("user"),
        password: Type.Optional(Type.String({ maxLength: 1024 })),
        newPassword: Type.Optional(Type.String({ maxLength: 1024 })),
        mfaCode: Type.Optional(Type.String({ maxLength: 32 })),
        ids: Type.Optional(Members),
        datas: Type.Optional(Members),
        addresses: Type.Optional(Members),
        assertions: Type.Optional(Members),
      },
      closed,
    ),
    source: Source,
    context: Type.Optional(Type.Object({ url: Type.Optional(Type.String({ maxLength: 2048 })) }, closed)),
  },
  { ...closed, $id: "PatchEnvelope" },
);

export const PatchQuery = Type.Object(
  {
    sc: Type.Optional(Type.Boolean()),
    code_verifier: Type.Optional(Type.String({ minLength: 43, maxLength: 128, pattern: "^[A-Za-z0-9._~-]+$" })),
  },
  { additionalProperties: true },
);

const IdNode = Type.Object(
  { objectType: Type.Literal("user_id"), value: Type.String({ minLength: 1, maxLength: 320 }) },
  closed,
);

/**
 * Login (spec endpoint 4). `object.ids` names the user by `email` (the
 * spec's node) or, for an entry point whose main id is the phone, by
 * `phone_number`; one of them (the route checks). The credential is
 * `object.password`, or `object.code` for code sign-in (contract section 8)
 * with the `useForValidation` values in `object.datas`.
 */
export const LoginEnvelope = Type.Object(
  {
    actor: Actor("application"),
    verb: Type.Literal("access"),
    object: Type.Object(
      {
        objectType: Type.Literal("user"),
        password: Type.Optional(Type.String({ maxLength: 1024 })),
        code: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
        // Optional with a passkey (it names its user), else required (loginBodyChecks).
        ids: Type.Optional(Type.Object({ email: Type.Optional(IdNode), phone_number: Type.Optional(IdNode) }, closed)),
        datas: Type.Optional(Members),
        assertions: Type.Optional(Members),
        passkey: Type.Optional(PasskeyLogin),
      },
      closed,
    ),
    source: Source,
  },
  { ...closed, $id: "LoginEnvelope" },
);

/** Code sign-in's first half (contract section 8): the identifier a code goes to. */
export const AccessCodeRequest = Type.Object(
  {
    objectType: Type.Literal("access_code"),
    ids: Type.Object({ email: Type.Optional(IdNode), phone_number: Type.Optional(IdNode) }, closed),
  },
  { ...closed, $id: "AccessCodeRequest" },
);

export const LoginQuery = Type.Object(
  { sc: Type.Optional(Type.Boolean()), fca: Type.Optional(Type.Boolean()) },
  { additionalProperties: true },
);

export const UserHeaders = Type.Object(
  { from: Type.String({ minLength: 1, maxLength: 200, description: "Entry point id" }) },
  { additionalProperties: true },
);

const AnyObject = Type.Record(Type.String(), Type.Unknown());
const ResultOut = Type.Object({ status: Type.Integer(), elapsed: Type.Integer() });

/** 200/201: `content.user` (and `content.session_info` when a session was opened). */
export const UserContent = Type.Object({
  content: Type.Object({ user: AnyObject, session_info: Type.Optional(AnyObject) }),
  result: ResultOut,
});

/** 206 (fca): the login response plus `errors` naming the missing data. */
export const UserContentIncomplete = Type.Object({
  content: Type.Object({ user: AnyObject, session_info: Type.Optional(AnyObject) }),
  result: ResultOut,
  errors: Type.Object({
    code: Type.String(),
    message: Type.String(),
    details: Type.String(),
    items: Type.Array(Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() })),
  }),
});
