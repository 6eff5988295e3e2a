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
export { allowedByPrefixes, callingCode } from "./sms/calling-code.ts";
export {
  DEFAULT_SMS_LIMITS,
  smsBudget,
  type SmsBudget,
  type SmsLimit,
  type SmsLimits,
  type SmsScope,
} from "./sms/budget.ts";
export { altcha, type Altcha, type AltchaOptions, type AltchaVerdict } from "./captcha/altcha.ts";
