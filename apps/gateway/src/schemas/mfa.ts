import Type from "typebox";
import { ErrorEnvelope } from "./common.ts";

/** `content.mfa` of a 428: the token of the login attempt (login only), the methods, and `enroll` when a factor must be set up first. */
export const MfaChallenge = Type.Object({
  token: Type.Optional(Type.String()),
  methods: Type.Array(Type.String()),
  enroll: Type.Optional(Type.Boolean()),
});

/** 428: the error envelope with `content.mfa`. */
export const MfaRequiredEnvelope = Type.Object({
  content: Type.Object({ mfa: MfaChallenge }),
  result: ErrorEnvelope.properties.result,
  errors: ErrorEnvelope.properties.errors,
});

/** POST /activityid/v1/user/access/mfa */
export const MfaLoginBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 100 }),
    // Optional only after an enrolment confirmed with this token.
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  },
  { additionalProperties: false, $id: "MfaLoginBody" },
);

/** Enrolment and confirmation: the user's access token, or (policy `required`, no session yet) the 428's token with the APP_TOKEN. */
export const TotpEnrollBody = Type.Object(
  { token: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
);
export const TotpConfirmBody = Type.Object(
  { code: Type.String({ pattern: "^[0-9]{6}$" }), token: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
);
export const TotpDisableBody = Type.Object(
  {
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  },
  { additionalProperties: false },
);
