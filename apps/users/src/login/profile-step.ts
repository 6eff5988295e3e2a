import { create } from "@bufbuild/protobuf";
import { ProfileRequiredSchema, type Entrypoint } from "@gatehouse/proto";
import type { KeyRing } from "@gatehouse/secrets";
import type { LoginStep } from "../flow/steps.ts";
import { flowTokenOf } from "../flow/token.ts";
import type { UserRecord } from "../users/record.ts";

/** Mandatory data fields of the entry point the user has not filled in (fca, 206). */
export function missingMandatoryFields(ep: Entrypoint, user: UserRecord): string[] {
  return ep.fields
    .filter((f) => f.type === "field" && (f.mandatory ?? true))
    .map((f) => f.key)
    .filter((key) => {
      const v = user.datas[key];
      return v === undefined || v === null || v === "";
    });
}

/**
 * The complete-account step (`fca`, the last one): with mandatory data
 * missing, a hosted login asks for it first (ProfileRequired), so its code is
 * only issued once the account is complete; any other login gets its grant
 * with the missing fields (ProfileIncomplete, 206), computed once here.
 */
export function profileStep(keys: KeyRing): LoginStep {
  return async (ctx) => {
    if (!ctx.fca) return undefined;
    const missing = missingMandatoryFields(ctx.resolved.entrypoint, ctx.user);
    if (!missing.length) return undefined;
    if (!ctx.authorization) {
      ctx.missingFields = missing;
      return undefined;
    }
    return {
      case: "profileRequired",
      value: create(ProfileRequiredSchema, { missingFields: missing, flowToken: flowTokenOf(keys, ctx) }),
    };
  };
}
