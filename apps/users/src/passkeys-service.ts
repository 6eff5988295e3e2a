import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { domainError, validationError } from "@gatehouse/errors";
import { PasskeySchema, type Passkey, type PasskeysService } from "@gatehouse/proto";
import { INTERNAL_SCOPE, type ScopePolicy } from "@gatehouse/rpc";
import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import type { UsersParts } from "./compose.ts";
import { entrypointOf } from "./entrypoint.ts";
import { creationOptions, enrolPasskey, passkeyName } from "./passkeys/enrolment.ts";
import { signInOptions } from "./passkeys/sign-in.ts";
import type { PasskeyRecord } from "./passkeys/store.ts";

/** Only other Gatehouse services (the gateway) call it. */
export const passkeysPolicy: ScopePolicy = {
  beginPasskeyEnrolment: [INTERNAL_SCOPE],
  enrolPasskey: [INTERNAL_SCOPE],
  listPasskeys: [INTERNAL_SCOPE],
  renamePasskey: [INTERNAL_SCOPE],
  deletePasskey: [INTERNAL_SCOPE],
  beginPasskeySignIn: [INTERNAL_SCOPE],
};

export const toPasskey = (p: PasskeyRecord): Passkey =>
  create(PasskeySchema, {
    id: p.id,
    name: p.name,
    createTime: timestampFromDate(p.createdAt),
    ...(p.lastUsedAt ? { lastUseTime: timestampFromDate(p.lastUsedAt) } : {}),
  });

const required = (field: string) => validationError([{ field, code: "required" }]);

/** PasskeysService: a user's passkeys (enrolment, list, rename, delete) and the options of a passkey sign-in. */
export function createPasskeysService(deps: UsersParts): ServiceImpl<typeof PasskeysService> {
  const ceremonies = deps.passkeys;

  async function userOf(userId: string) {
    if (!userId) throw required("userId");
    const user = await deps.data.users.byId(userId);
    if (!user) throw domainError("USER_NOT_FOUND");
    return user;
  }

  return {
    async beginPasskeyEnrolment(req) {
      const publicKey = await creationOptions(ceremonies, await userOf(req.userId));
      return { publicKey: publicKey as unknown as JsonObject };
    },

    async enrolPasskey(req) {
      const user = await userOf(req.userId);
      const credential = req.credential as unknown as RegistrationResponseJSON | undefined;
      if (!credential || typeof credential.response !== "object" || credential.response === null)
        throw validationError([{ field: "credential", code: "invalid_format" }]);
      const passkey = await enrolPasskey(ceremonies, user.id, { name: req.name, credential });
      deps.logger.info({ userId: user.id, passkeyId: passkey.id }, "passkey enrolled");
      return { passkey: toPasskey(passkey) };
    },

    async listPasskeys(req) {
      const user = await userOf(req.userId);
      return { passkeys: (await deps.data.passkeys.ofUser(user.id)).map(toPasskey) };
    },

    async renamePasskey(req) {
      const user = await userOf(req.userId);
      if (!req.name.trim()) throw required("name");
      const renamed = await deps.data.passkeys.rename(user.id, req.id, passkeyName(req.name));
      if (!renamed) throw domainError("PASSKEY_NOT_FOUND");
      return { passkey: toPasskey(renamed) };
    },

    async deletePasskey(req) {
      const user = await userOf(req.userId);
      if (!(await deps.data.passkeys.remove(user.id, req.id))) throw domainError("PASSKEY_NOT_FOUND");
      deps.logger.info({ userId: user.id, passkeyId: req.id }, "passkey removed");
      return {};
    },

    async beginPasskeySignIn(req) {
      const resolved = await entrypointOf(deps.entrypoints, req.caller);
      const { publicKey, token } = await signInOptions(ceremonies, {
        clientId: resolved.clientId,
        entrypointId: resolved.entrypoint.id,
      });
      return { publicKey: publicKey as unknown as JsonObject, token };
    },
  };
}
