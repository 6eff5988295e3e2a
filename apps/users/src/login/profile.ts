import type { Entrypoint } from "@gatehouse/proto";
import type { UserRecord } from "../users/store.ts";

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
