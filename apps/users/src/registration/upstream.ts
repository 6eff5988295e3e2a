import type { JsonObject } from "@bufbuild/protobuf";
import type { UpstreamIdentity } from "@gatehouse/idp";
import type { DeliveryLocale } from "@gatehouse/jobs";
import type { Entrypoint } from "@gatehouse/proto";
import { registerUser, type RegisterDeps, type Registered } from "./register.ts";

/**
 * The registration object of an upstream identity's user (contract section
 * 11): `ids.email` from the provider, and the standard claims mapped to the
 * data fields the entry point has (given_name → name, family_name → surname,
 * birthdate → birthday, locale → locale). What the page adds (`sent`: missing
 * fields, answers to assertions) completes it; the provider's email wins.
 */
export function upstreamObject(identity: UpstreamIdentity, ep: Entrypoint, sent?: JsonObject): JsonObject {
  const has = (type: string, key: string) => ep.fields.some((f) => f.type === type && f.key === key);
  const ids: JsonObject = { ...((sent?.ids as JsonObject | undefined) ?? {}) };
  if (identity.email && has("id", "email")) ids.email = { objectType: "user_id", value: identity.email };
  const datas: JsonObject = {};
  for (const [key, value] of Object.entries(identity.profile))
    if (value && has("field", key)) datas[key] = { objectType: "data", value };
  Object.assign(datas, (sent?.datas as JsonObject | undefined) ?? {});
  const object: JsonObject = { objectType: "user", ids, datas };
  if (sent?.assertions) object.assertions = sent.assertions;
  if (sent?.addresses) object.addresses = sent.addresses;
  return object;
}

/** Registers and links the user of an upstream identity; a missing mandatory field or assertion is VALIDATION_FAILED. */
export function registerUpstreamUser(
  deps: RegisterDeps,
  req: {
    identity: UpstreamIdentity;
    entrypoint: Entrypoint;
    clientId: string;
    locale: DeliveryLocale;
    sourceId: string;
    sent?: JsonObject;
  },
): Promise<Registered> {
  return registerUser(deps, {
    entrypoint: req.entrypoint,
    clientId: req.clientId,
    object: upstreamObject(req.identity, req.entrypoint, req.sent),
    locale: req.locale,
    sourceId: req.sourceId,
    requireMandatoryAssertions: true,
    upstream: req.identity,
  });
}
