import { constantTimeEqual, type KeyRing } from "@gatehouse/secrets";
import { ACCESS_CODE_MAC } from "../../access-code/issue.ts";
import type { AccessCodeOptions } from "../../access-code/options.ts";
import type { AccessCodeStore, SpentAccessCode } from "../../access-code/store.ts";

/**
 * One guess at the sign-in codes of (user, key): a try of every live code is
 * spent first (committed on its own, so wrong guesses count even though the
 * login fails), then the code is compared with each in constant time. A
 * match is used at once (the first `used_at` wins under concurrency) and its
 * siblings die. `allowed` false spends the try without any chance to match
 * (a wrong `useForValidation` value fails like a wrong code). An unknown user
 * (`userId` "") costs the same statement.
 */
export async function useAccessCode(
  accessCodes: AccessCodeStore,
  deps: { keys: KeyRing; accessCodes: AccessCodeOptions },
  req: { userId: string; key: string; code: string; allowed: boolean },
): Promise<boolean> {
  const rows = await accessCodes.spendTries(req.userId, req.key, deps.accessCodes.maxAttempts);
  const mac = deps.keys.mac(ACCESS_CODE_MAC);
  let match: SpentAccessCode | undefined;
  for (const row of rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())) {
    if (constantTimeEqual(mac(`${row.id}:${req.code}`), row.codeHash) && !match) match = row;
  }
  if (!match || !req.allowed) return false;
  if (!(await accessCodes.use(match.id))) return false;
  await accessCodes.supersedeLive(req.userId, req.key);
  return true;
}
