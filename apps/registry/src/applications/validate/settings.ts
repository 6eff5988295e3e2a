import type { Violation } from "@gatehouse/errors";
import { MAX_URL_LENGTH } from "../../formats.ts";

export const MAX_WHITELIST = 50;
const MFA_POLICIES = new Set(["off", "optional", "required"]);
const CAPTCHAS = new Set(["off", "altcha"]);
export const MAX_PHONE_PREFIXES = 50;
/** A calling code: "+" and 1 to 4 digits (ITU-T E.164 codes are 1 to 3; 4 allows a region within one, "+1809"). */
const PHONE_PREFIX = /^\+[1-9]\d{0,3}$/;

/** The operator-managed settings a change sets, each only when given. */
export interface SettingsValues {
  whitelist?: string[];
  defaultCallback?: string;
  mfa?: string;
  /** The hosted pages' bot check (section 17): off or altcha. */
  captcha?: string;
  /** The application's own SMS budget per hour; null removes it. */
  smsPerHour?: number | null;
  /** Calling codes its users' phone numbers must start with; empty = any. */
  phonePrefixes?: string[];
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Absolute https URL (http only for loopback), no fragment, no credentials; stored and matched as the exact string. */
function urlProblem(value: string): Violation["code"] | undefined {
  // eslint-disable-next-line no-control-regex
  if (value.length > MAX_URL_LENGTH || /[\s\u0000-\u001f\u007f]/.test(value)) return "invalid_format";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "invalid_format";
  }
  if (value.includes("#")) return "invalid_format";
  if (url.username || url.password) return "invalid_format";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return undefined;
  return "invalid_value";
}

/** Every violation of the settings given (empty when valid): the settings RPC and the admin update check the same rules. */
export function settingsViolations(c: SettingsValues): Violation[] {
  const v: Violation[] = [];
  if (c.whitelist) {
    if (c.whitelist.length > MAX_WHITELIST)
      v.push({ field: "whitelist", code: "too_many", description: `at most ${MAX_WHITELIST} URLs` });
    const seen = new Set<string>();
    c.whitelist.forEach((u, i) => {
      const problem = urlProblem(u);
      if (problem)
        v.push({
          field: `whitelist.${i}`,
          code: problem,
          description: "absolute https URL (http only for loopback), no fragment",
        });
      else if (seen.has(u)) v.push({ field: `whitelist.${i}`, code: "duplicate" });
      seen.add(u);
    });
  }
  if (c.defaultCallback) {
    const problem = urlProblem(c.defaultCallback);
    if (problem)
      v.push({
        field: "defaultCallback",
        code: problem,
        description: "absolute https URL (http only for loopback), no fragment",
      });
  }
  if (c.mfa !== undefined && !MFA_POLICIES.has(c.mfa))
    v.push({ field: "mfa", code: "invalid_value", description: "off, optional or required" });
  v.push(...abuseViolations(c));
  return v;
}

/** Section 17's settings: captcha, smsPerHour, phonePrefixes. */
function abuseViolations(c: SettingsValues): Violation[] {
  const v: Violation[] = [];
  if (c.captcha !== undefined && !CAPTCHAS.has(c.captcha))
    v.push({ field: "captcha", code: "invalid_value", description: "off or altcha" });
  if (c.smsPerHour !== undefined && c.smsPerHour !== null && !(Number.isInteger(c.smsPerHour) && c.smsPerHour >= 0))
    v.push({ field: "smsPerHour", code: "invalid_value", description: "a whole number of messages per hour, or null" });
  if (c.phonePrefixes) {
    if (c.phonePrefixes.length > MAX_PHONE_PREFIXES)
      v.push({ field: "phonePrefixes", code: "too_many", description: `at most ${MAX_PHONE_PREFIXES}` });
    const seen = new Set<string>();
    c.phonePrefixes.forEach((p, i) => {
      if (!PHONE_PREFIX.test(p))
        v.push({ field: `phonePrefixes.${i}`, code: "invalid_format", description: 'a calling code like "+34"' });
      else if (seen.has(p)) v.push({ field: `phonePrefixes.${i}`, code: "duplicate" });
      seen.add(p);
    });
  }
  return v;
}
