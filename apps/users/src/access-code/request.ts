import { allowedByPrefixes } from "@gatehouse/abuse";
import { domainError, validationError } from "@gatehouse/errors";
import type { DeliveryLocale } from "@gatehouse/jobs";
import type { Kv } from "@gatehouse/kv";
import type { Entrypoint } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import type { BackgroundTasks } from "../background.ts";
import type { Deliveries } from "../delivery/queue.ts";
import type { SmsGate } from "../delivery/sms-gate.ts";
import type { Transactional } from "../transactional.ts";
import { idValue, newCtx } from "../users/fields.ts";
import { CONFIRMABLE_KEYS, type IdKey } from "../users/identifiers.ts";
import type { UserStore } from "../users/store.ts";
import { issueAccessCode } from "./issue.ts";
import type { AccessCodeOptions } from "./options.ts";
import type { AccessCodeStore } from "./store.ts";

export interface RequestAccessCodeDeps {
  data: Transactional<{ users: UserStore; accessCodes: AccessCodeStore; deliveries: Deliveries }>;
  kv: Kv;
  keys: KeyRing;
  accessCodes: AccessCodeOptions;
  background: BackgroundTasks;
  sms: SmsGate;
}

export interface AccessCodeRequest {
  entrypoint: Entrypoint;
  clientId: string;
  key: string;
  value: string;
  locale: DeliveryLocale;
  /** The application's calling codes (contract section 17); empty: every number. */
  phonePrefixes?: string[];
}

const sendKey = (key: string, value: string) => `users:access-code:send:${key}:${value}`;

/** The identifier of a code request: an email or phone field of the entry point, in canonical form. */
function identifierOf(ep: Entrypoint, key: string, value: string): { key: "email" | "phone_number"; value: string } {
  const path = `ids.${key}.value`;
  const field = ep.fields.find((f) => f.type === "id" && f.key === key);
  if (!CONFIRMABLE_KEYS.includes(key as IdKey)) {
    throw validationError([
      { field: `ids.${key}`, code: "not_allowed", description: "a sign-in code goes to an email or a phone_number" },
    ]);
  }
  if (!field)
    throw validationError([
      {
        field: `ids.${key}`,
        code: "not_in_entrypoint",
        description: "not one of this entry point's identifier fields",
      },
    ]);
  if (!value.trim()) throw validationError([{ field: path, code: "required" }]);
  const ctx = newCtx();
  const canonical = idValue(ctx, key as IdKey, value);
  if (canonical === undefined) throw validationError(ctx.violations.map((v) => ({ ...v, field: path })));
  return { key: key as "email" | "phone_number", value: canonical };
}

/**
 * Code sign-in, first half (contract section 8): counts the request against
 * the limit of the identifier VALUE (so the limit's answer is the same
 * whether or not a user holds it), answers, and only then looks the user up
 * and sends a sign-in code to the value, or nothing to an unknown value or an
 * account awaiting activation. Nothing of that reaches the caller, not even
 * a queue failure (it would tell that the user exists): it is logged.
 */
export async function requestAccessCode(deps: RequestAccessCodeDeps, req: AccessCodeRequest): Promise<void> {
  const id = identifierOf(req.entrypoint, req.key, req.value);
  // Judged on the number alone, before any lookup: no code goes outside the application's calling codes.
  if (id.key === "phone_number" && !allowedByPrefixes(id.value, req.phonePrefixes ?? []))
    throw validationError([{ field: `ids.${id.key}.value`, code: "invalid_value" }]);
  // The SMS limits answer before any user is looked up (429 sms_limit): whether one holds the number stays unsaid.
  if (id.key === "phone_number") await deps.sms.check(id.value, req.entrypoint.id);
  const counted = await deps.kv.incr(sendKey(id.key, id.value), deps.accessCodes.sendWindowSeconds);
  if (counted.count > deps.accessCodes.sendLimit) {
    throw domainError("RATE_LIMITED", "Too many sign-in codes were asked for; try again later.", {
      metadata: { retry_after: String(counted.ttlSeconds) },
    });
  }
  deps.background.run("sign-in code", async () => {
    const user = await deps.data.users.byIdentifier(id.key, id.value);
    if (!user || user.awaitingActivation) return;
    await deps.data.tx((stores) =>
      issueAccessCode(stores, deps, {
        userId: user.id,
        key: id.key,
        value: id.value,
        locale: req.locale,
        clientId: req.clientId,
        entrypointId: req.entrypoint.id,
      }),
    );
  });
}
