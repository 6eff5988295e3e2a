import type { LoginSession, MfaRequired } from "@gatehouse/proto";
import { sessionToJson, userToJson } from "./user-json.ts";

/** `content` of a finished `/user/access` login (contract section 5). */
export const loginContent = (s: LoginSession) => ({
  user: userToJson(s.user!),
  session_info: sessionToJson(s.session!, s.user!.id),
});

/** `content.mfa` of a 428: the token of a login (none on a step-up), the methods, `enroll` when a factor must be set up first. */
export const mfaContent = (m: MfaRequired) => ({
  ...(m.mfaToken ? { token: m.mfaToken } : {}),
  methods: m.methods,
  ...(m.enroll ? { enroll: true } : {}),
});
