import { isIP } from "node:net";
import {
  AddressRefused,
  checkedAddresses,
  isPrivateAddress,
  systemResolve,
  type CheckedAddress,
  type Resolve,
} from "@gatehouse/outbound";

/** WEBHOOK_ALLOW_PRIVATE: loopback/private targets, and http to those only (development, tests, an internal receiver). */
export interface TargetPolicy {
  allowPrivate: boolean;
}

const MAX_URL = 2048;

/** A URL's host as an address or name ("[::1]" → "::1"). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

const isLocalName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/**
 * Why a webhook URL is refused before anything is stored (400), or null:
 * https only, no credentials in it, and no loopback or private host, unless
 * the policy allows them (then http too). Names are checked again, resolved,
 * at every delivery (checkedAddress).
 */
export function urlProblem(raw: string, policy: TargetPolicy): { code: string; description: string } | null {
  if (raw.length > MAX_URL) return { code: "too_long", description: `at most ${MAX_URL} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { code: "invalid_format", description: "an absolute https URL" };
  }
  if (url.protocol !== "https:" && !(policy.allowPrivate && url.protocol === "http:"))
    return {
      code: "invalid_scheme",
      description: policy.allowPrivate ? "https or http" : "https only (http needs WEBHOOK_ALLOW_PRIVATE=true)",
    };
  if (url.username || url.password) return { code: "invalid_format", description: "no user or password in the URL" };
  const host = hostOf(url);
  if (!policy.allowPrivate && (isLocalName(host) || (isIP(host) && isPrivateAddress(host))))
    return {
      code: "private_address",
      description: "a loopback or private address (allowed only with WEBHOOK_ALLOW_PRIVATE=true)",
    };
  // Contract section 14: http only on loopback and private ranges (a name is judged by what it resolves to).
  if (url.protocol === "http:" && isIP(host) && !isPrivateAddress(host)) return HTTP_PUBLIC;
  return null;
}

const HTTP_PUBLIC = {
  code: "invalid_scheme",
  description: "http only to loopback or private addresses; https otherwise",
};

/** urlProblem, then an http URL's name resolved now: it must have only loopback or private addresses. */
export async function resolvedUrlProblem(
  raw: string,
  policy: TargetPolicy,
  resolve: Resolve = systemResolve,
): Promise<{ code: string; description: string } | null> {
  const problem = urlProblem(raw, policy);
  const url = problem ? undefined : new URL(raw);
  if (!url || url.protocol !== "http:") return problem;
  const host = hostOf(url);
  if (isIP(host) || isLocalName(host)) return null;
  const found = await resolve(host).catch(() => []);
  return found.length && found.every((a) => isPrivateAddress(a.address)) ? null : HTTP_PUBLIC;
}

export class TargetRefused extends Error {
  override name = "TargetRefused";
}

/**
 * The address a delivery connects to, resolved now and checked: every address
 * the name has must be public (unless allowed), and the connection goes to
 * the one checked, so a name that changes its answer (DNS rebinding) cannot
 * slip a private address in between the check and the connect.
 */
export async function checkedAddress(
  url: URL,
  policy: TargetPolicy,
  resolve: Resolve = systemResolve,
): Promise<CheckedAddress> {
  const problem = urlProblem(url.href, policy);
  if (problem) throw new TargetRefused(`refused target: ${problem.description}`);
  try {
    const found = await checkedAddresses(hostOf(url), policy.allowPrivate, resolve);
    if (url.protocol === "http:" && found.some((a) => !isPrivateAddress(a.address)))
      throw new TargetRefused(`refused target: ${HTTP_PUBLIC.description}`);
    return found[0]!;
  } catch (err) {
    if (err instanceof AddressRefused) throw new TargetRefused(`refused target: ${err.message}`);
    throw err;
  }
}
