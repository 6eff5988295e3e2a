import type { Violation } from "@gatehouse/errors";
import { CLAIM_NAMES, PRESETS, urlProblem, type OutboundPolicy, type ProviderSettings } from "@gatehouse/idp";
import { KEY_PATTERN, MAX_DISPLAY_NAME, MAX_URL_LENGTH } from "../formats.ts";

// The rules of a provider (contract section 11): every violation at once,
// each on the admin API's member name.

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,100}$/; // RFC 6749 scope-token
const MAX_SCOPES = 20;
const MAX_CLIENT_ID = 255;
// Apple's client secret is a signed JWT: longer than most.
export const MAX_CLIENT_SECRET = 4096;

/** The provider an input describes: the preset's values under what the operator set. */
export function withPreset(input: ProviderSettings): ProviderSettings {
  const preset = PRESETS[input.preset];
  if (!preset) return input;
  const pick = <K extends keyof ProviderSettings>(k: K): ProviderSettings[K] => {
    const v = input[k];
    const empty = v === "" || (Array.isArray(v) && v.length === 0) || (k === "claims" && !Object.keys(v).length);
    return empty ? (preset[k as keyof typeof preset] as ProviderSettings[K]) : v;
  };
  return {
    ...input,
    displayName: pick("displayName"),
    type: preset.type,
    issuer: pick("issuer"),
    scopes: pick("scopes"),
    authorizationEndpoint: pick("authorizationEndpoint"),
    tokenEndpoint: pick("tokenEndpoint"),
    userinfoEndpoint: pick("userinfoEndpoint"),
    claims: pick("claims"),
  };
}

function urlViolation(out: Violation[], field: string, value: string, policy: Pick<OutboundPolicy, "allowPrivate">) {
  if (!value) return out.push({ field, code: "required" });
  if (value.length > MAX_URL_LENGTH) return out.push({ field, code: "too_long" });
  const problem = urlProblem(value, policy);
  if (problem) out.push({ field, code: "invalid_value", description: problem });
}

/** Every violation of a provider (already through its preset); `secret` is checked when given. */
export function providerViolations(
  p: ProviderSettings,
  secret: string | undefined,
  policy: Pick<OutboundPolicy, "allowPrivate">,
  givenType: string,
): Violation[] {
  const out: Violation[] = [];
  if (!p.key) out.push({ field: "key", code: "required" });
  else if (!KEY_PATTERN.test(p.key))
    out.push({ field: "key", code: "invalid_format", description: "must match ^[a-z0-9][a-z0-9_-]{0,31}$" });
  if (p.preset && !PRESETS[p.preset])
    out.push({ field: "preset", code: "invalid_value", description: Object.keys(PRESETS).join(", ") });
  if (p.preset && PRESETS[p.preset] && givenType && givenType !== PRESETS[p.preset]!.type)
    out.push({
      field: "type",
      code: "invalid_value",
      description: `the ${p.preset} preset is ${PRESETS[p.preset]!.type}`,
    });
  if (p.type !== "oidc" && p.type !== "oauth2")
    out.push({ field: "type", code: p.type ? "invalid_value" : "required", description: "oidc or oauth2" });
  if (!p.displayName.trim()) out.push({ field: "displayName", code: "required" });
  else if ([...p.displayName].length > MAX_DISPLAY_NAME) out.push({ field: "displayName", code: "too_long" });
  if (!p.clientId) out.push({ field: "clientId", code: "required" });
  else if (p.clientId.length > MAX_CLIENT_ID) out.push({ field: "clientId", code: "too_long" });
  if (secret !== undefined && !secret) out.push({ field: "clientSecret", code: "required" });
  else if (secret && secret.length > MAX_CLIENT_SECRET) out.push({ field: "clientSecret", code: "too_long" });
  if (p.scopes.length > MAX_SCOPES) out.push({ field: "scopes", code: "too_many" });
  p.scopes.forEach((s, n) => {
    if (!SCOPE_TOKEN.test(s)) out.push({ field: `scopes.${n}`, code: "invalid_format", description: "a scope token" });
  });
  if (p.type === "oidc") {
    urlViolation(out, "issuer", p.issuer, policy);
    if (!p.scopes.includes("openid"))
      out.push({ field: "scopes", code: "invalid_value", description: "an OpenID Connect provider needs openid" });
    for (const f of ["authorizationEndpoint", "tokenEndpoint", "userinfoEndpoint"] as const)
      if (p[f]) out.push({ field: f, code: "not_allowed", description: "an OIDC provider's come from its discovery" });
    if (Object.keys(p.claims).length)
      out.push({
        field: "claims",
        code: "not_allowed",
        description: "an OIDC provider's claims are the standard ones",
      });
  }
  if (p.type === "oauth2") {
    if (p.issuer) out.push({ field: "issuer", code: "not_allowed", description: "oauth2 providers have no issuer" });
    urlViolation(out, "authorizationEndpoint", p.authorizationEndpoint, policy);
    urlViolation(out, "tokenEndpoint", p.tokenEndpoint, policy);
    urlViolation(out, "userinfoEndpoint", p.userinfoEndpoint, policy);
    if (!p.claims.subject) out.push({ field: "claims.subject", code: "required" });
    for (const [name, claim] of Object.entries(p.claims)) {
      if (!(CLAIM_NAMES as readonly string[]).includes(name))
        out.push({ field: `claims.${name}`, code: "unknown_member", description: CLAIM_NAMES.join(", ") });
      else if (typeof claim !== "string" || !claim || claim.length > 100)
        out.push({ field: `claims.${name}`, code: "invalid_value" });
    }
  }
  return out;
}
