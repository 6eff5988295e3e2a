export {
  normalizePassword,
  passwordProblem,
  PASSWORD_MAX,
  PASSWORD_MIN,
  type PasswordContext,
  type PasswordProblem,
} from "./password/policy.ts";
export { isCommonPassword, COMMON_COUNT } from "./password/common.ts";
export { pwnedPasswords, type BreachCheck, type PwnedOptions } from "./password/pwned.ts";
