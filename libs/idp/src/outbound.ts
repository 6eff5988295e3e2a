import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/**
 * Where Gatehouse may call a provider (no SSRF): https to public addresses,
 * and http or https on a loopback host (contract section 11: development; only
 * operators register providers). `allowPrivate` (IDP_ALLOW_PRIVATE=true) also
 * allows private addresses (a provider inside the operator's network).
 */
export interface OutboundPolicy {
  allowPrivate: boolean;
  /** Every call to a provider ends within this (contract: an upstream down or slow is an error, not a hang). */
  timeoutMs: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** A call to a provider that failed: refused by the policy, unreachable, slow, or answering nonsense. */
export class UpstreamUnavailable extends Error {}

const LOOPBACK_NAMES = new Set(["localhost", "localhost."]);

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (LOOPBACK_NAMES.has(host.toLowerCase())) return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === "loopback";
}

/** Public unicast only; everything else (private, loopback, link-local, CGNAT, multicast, reserved) is inside. */
function isPublicAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === "unicast";
}

/** Why a provider URL is refused (a sentence for the operator), or undefined when it may be used. */
export function urlProblem(raw: string, policy: Pick<OutboundPolicy, "allowPrivate">): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not an absolute URL";
  }
  if (url.username || url.password) return "a URL with credentials is not allowed";
  if (url.hash) return "a URL with a fragment is not allowed";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isLoopbackHost(host)) return url.protocol === "https:" || url.protocol === "http:" ? undefined : "must be https";
  if (url.protocol === "https:") {
    if (!policy.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host))
      return "a private address needs IDP_ALLOW_PRIVATE=true";
    return undefined;
  }
  return "must be https (or http on a loopback host in development)";
}

/**
 * fetch for openid-client: refuses a URL the policy refuses (also those that
 * discovery documents name) and a host that resolves to an inside address,
 * never follows redirects, and gives up after the timeout.
 */
export function guardedFetch(policy: OutboundPolicy) {
  return async (input: string, init: RequestInit): Promise<Response> => {
    const problem = urlProblem(input, policy);
    if (problem) throw new UpstreamUnavailable(`${input}: ${problem}`);
    const host = new URL(input).hostname.replace(/^\[|\]$/g, "");
    // A name that is not a loopback host must resolve to public addresses only (no rebinding inside).
    if (!policy.allowPrivate && !ipaddr.isValid(host) && !isLoopbackHost(host)) {
      const addresses = await lookup(host, { all: true }).catch(() => {
        throw new UpstreamUnavailable(`${host} does not resolve`);
      });
      if (addresses.some((a) => !isPublicAddress(a.address)))
        throw new UpstreamUnavailable(`${host} resolves to a private address`);
    }
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(input, { ...init, signal, redirect: "manual" });
  };
}
