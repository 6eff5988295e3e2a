import type { FastifyReply } from "fastify";
import type { JsonObject } from "@bufbuild/protobuf";
import { continueFlow } from "../journey/continue.ts";
import { expired } from "../journey/messages.ts";
import { showLoginOutcome, type HostedView } from "../journey/view.ts";

/** The credential a passkey script posted (WebAuthn JSON), or undefined when none or not a JSON object. */
export function postedCredential(form: Record<string, string>): JsonObject | undefined {
  const raw = form.passkey_credential ?? "";
  if (!raw || raw.length > 16_384) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The offer answered (intent `passkey-offer`): the new passkey, or "Not now"; the login goes on to its code. */
export async function submitPasskeyOffer(v: HostedView, form: Record<string, string>): Promise<FastifyReply> {
  const flowToken = form.flow_token ?? "";
  if (!flowToken) return expired(v);
  const credential = form.answer === "later" ? undefined : postedCredential(form);
  const next = await continueFlow(v, { flowToken, passkeyOffer: credential ? { credential } : {} });
  return showLoginOutcome(v, next);
}
