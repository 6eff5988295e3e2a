import { createHash } from "node:crypto";

/** A password found in breaches (true), not found (false), or the service could not tell (undefined). */
export type BreachCheck = (password: string) => Promise<boolean | undefined>;

export interface PwnedOptions {
  /** The base of a Have I Been Pwned range API: `GET {url}/range/{5 hex}` answers `SUFFIX:COUNT` lines. */
  url: string;
  /** A slower answer counts as none (the user is never blocked): 2 s. */
  timeoutMs?: number;
  /** Told when the service did not answer usably (the check then passes: fail open). */
  onUnavailable?: (err: unknown) => void;
  fetch?: typeof fetch;
}

/**
 * The k-anonymity range check: only the first 5 hex characters of the
 * password's SHA-1 leave the server; the suffixes that share them come back
 * and are compared here. Entries with count 0 are the padding of
 * `Add-Padding: true`, not breaches. The password given is already NFKC.
 */
export function pwnedPasswords(options: PwnedOptions): BreachCheck {
  const base = options.url.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 2000;
  const get = options.fetch ?? fetch;
  return async (password) => {
    const sha1 = createHash("sha1").update(password, "utf8").digest("hex").toUpperCase();
    const prefix = sha1.slice(0, 5);
    const suffix = sha1.slice(5);
    try {
      const res = await get(`${base}/range/${prefix}`, {
        headers: { "Add-Padding": "true", accept: "text/plain" },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
      if (!res.ok) throw new Error(`range API answered ${res.status}`);
      const body = await res.text();
      for (const line of body.split("\n")) {
        const [s, count] = line.trim().split(":");
        if (s?.toUpperCase() === suffix) return Number(count) > 0;
      }
      return false;
    } catch (err) {
      options.onUnavailable?.(err);
      return undefined;
    }
  };
}
