import Type from "typebox";
import { Result } from "./common.ts";

/**
 * A WebAuthn response (RegistrationResponseJSON, AuthenticationResponseJSON)
 * as the browser gives it: a foreign document, so its members stay open
 * (browsers add new ones); the users service checks what it reads.
 */
export const WebAuthnCredential = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 1400 }),
    rawId: Type.Optional(Type.String({ maxLength: 1400 })),
    type: Type.Optional(Type.String({ maxLength: 64 })),
    response: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: true },
);

/** `object.passkey` of /user/access: the token of /user/access/passkey and the assertion. */
export const PasskeyLogin = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 1000 }), credential: WebAuthnCredential },
  { additionalProperties: false },
);

/** POST /user/passkeys */
export const PasskeyEnrolBody = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: 256 })), credential: WebAuthnCredential },
  { additionalProperties: false },
);

/** PATCH /user/passkeys/{id} */
export const PasskeyRenameBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);

/** `content.passkey`: never the key or the credential id. */
export const PasskeyOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created: Type.String(),
  lastUsed: Type.Union([Type.String(), Type.Null()]),
});

const AnyObject = Type.Record(Type.String(), Type.Unknown());

export const PublicKeyContent = Type.Object({ content: Type.Object({ publicKey: AnyObject }), result: Result });
export const PasskeySignInContent = Type.Object({
  content: Type.Object({ publicKey: AnyObject, token: Type.String() }),
  result: Result,
});
export const PasskeyContent = Type.Object({ content: Type.Object({ passkey: PasskeyOut }), result: Result });
export const PasskeysContent = Type.Object({
  content: Type.Object({ passkeys: Type.Array(PasskeyOut) }),
  result: Result,
});
