import type { FastifyReply } from "fastify";
import type { Violation } from "@gatehouse/errors";
import { sendError } from "./envelope.ts";

/** 428 MFA_REQUIRED: the §2 error envelope plus `content.mfa = {token?, methods, enroll?}`. */
export function sendMfaRequired(reply: FastifyReply, metadata: Record<string, string>, violations?: Violation[]) {
  const mfa = {
    ...(metadata.mfa_token ? { token: metadata.mfa_token } : {}),
    methods: (metadata.methods || "totp").split(","),
    ...(metadata.enroll === "true" ? { enroll: true } : {}),
  };
  return sendError(reply, "MFA_REQUIRED", { content: { mfa }, violations });
}
