import { isIP } from "node:net";
import { AddressRefused, checkingLookup, isLoopbackAddress, isPrivateAddress, type Resolve } from "@gatehouse/outbound";
import type { Agent } from "undici";

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
  return LOOPBACK_NAMES.has(host.toLowerCase()) || isLoopbackAddress(host);
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
    if (!policy.allowPrivate && isIP(host) && isPrivateAddress(host))
      return "a private address needs IDP_ALLOW_PRIVATE=true";
    return undefined;
  }
  return "must be https (or http on a loopback host in development)";
}

// One connection pool per policy: a kept-alive socket was connected to an
// address checked when it opened. A test's own resolver gets its own pool.
// undici (~30 MB of RSS once loaded) loads at a process's first call to a
// provider, not in every users and registry process at start.
const pools = new Map<boolean, Promise<Agent>>();

async function makeAgent(policy: OutboundPolicy, resolve: Resolve | undefined): Promise<Agent> {
  const { Agent } = await import("undici");
  return new Agent({
    // The name is resolved once, when the socket connects, and the socket gets only the addresses checked
    // (no second answer: DNS rebinding). TLS still checks the certificate against the name (SNI is the name).
    connect: { lookup: checkingLookup((host) => policy.allowPrivate || isLoopbackHost(host), resolve) },
  });
}

function pool(policy: OutboundPolicy, resolve: Resolve | undefined): Promise<Agent> {
  if (resolve) return makeAgent(policy, resolve);
  let agent = pools.get(policy.allowPrivate);
  if (!agent) pools.set(policy.allowPrivate, (agent = makeAgent(policy, undefined)));
  return agent;
}

/**
 * fetch for openid-client: refuses a URL the policy refuses (also those that
 * discovery documents name), connects only to addresses it checked (a name
 * resolving to an inside address is refused), never follows redirects, and
 * gives up after the timeout. `resolve` replaces DNS (tests).
 */
export function guardedFetch(policy: OutboundPolicy, resolve?: Resolve) {
  let dispatcher: Promise<Agent> | undefined;
  return async (input: string, init: RequestInit): Promise<Response> => {
    const problem = urlProblem(input, policy);
    if (problem) throw new UpstreamUnavailable(`${input}: ${problem}`);
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      dispatcher ??= pool(policy, resolve);
      return await fetch(input, { ...init, signal, redirect: "manual", dispatcher: await dispatcher });
    } catch (e) {
      const cause = (e as Error).cause as NodeJS.ErrnoException | undefined;
      const host = new URL(input).hostname;
      if (cause instanceof AddressRefused) throw new UpstreamUnavailable(cause.message, { cause });
      if (cause?.code === "ENOTFOUND" || cause?.code === "EAI_AGAIN")
        throw new UpstreamUnavailable(`${host} does not resolve`, { cause });
      throw e;
    }
  };
}
