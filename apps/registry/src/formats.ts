// Formats of the registry's contract (applications, entry points, catalogs). Kept
// as predicates so that every rule reports its own violation code.

/** Optional suffix of client and entry point ids (contract section 3). */
export const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** E.164 phone number. */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;

// WHATWG (HTML) valid e-mail address, with a dot required in the domain.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export const MAX_URL_LENGTH = 2048;

/** Display names of applications, entry points and catalog entries, in characters. */
export const MAX_DISPLAY_NAME = 200;

// Schemes a browser would run or read locally instead of navigating to.
const FORBIDDEN_REDIRECT_SCHEMES = new Set(["javascript:", "data:", "vbscript:", "file:"]);

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value);
}

function parseUrl(value: string): URL | undefined {
  // Whitespace and control characters are refused rather than silently stripped by the URL parser.
  // eslint-disable-next-line no-control-regex
  if (value.length > MAX_URL_LENGTH || /[\s\u0000-\u001f\u007f]/.test(value)) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** An absolute http(s) URL with a host. */
export function isWebUrl(value: string): boolean {
  const url = parseUrl(value);
  return !!url && (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}

/**
 * An OAuth redirect URI (RFC 6749 section 3.1.2): absolute, with a scheme, no
 * fragment or wildcard host; custom schemes of native apps are allowed, script and local ones are not.
 */
export function isRedirectUri(value: string): boolean {
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value) || value.includes("#")) return false;
  const url = parseUrl(value);
  if (!url || FORBIDDEN_REDIRECT_SCHEMES.has(url.protocol)) return false;
  if ((url.protocol === "http:" || url.protocol === "https:") && url.hostname === "") return false;
  // Matching is exact: a wildcard host would be taken literally and never match (refused, not misleading).
  return !url.hostname.includes("*");
}
