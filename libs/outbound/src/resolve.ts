import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { isPrivateAddress } from "./addresses.ts";

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/** A host refused by the address check (no address, or an inside one); the message names the host. */
export class AddressRefused extends Error {
  override name = "AddressRefused";
}

/**
 * Every address a host has, resolved now, in the resolver's order: refused
 * when there is none, or when any is inside and `allowInside` is false (one
 * public address beside a private one does not make the name public). An
 * address literal is judged as it is. A resolver's own error (NXDOMAIN…)
 * passes through unchanged.
 */
export async function checkedAddresses(
  host: string,
  allowInside: boolean,
  resolve: Resolve = systemResolve,
): Promise<CheckedAddress[]> {
  const found = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  if (!found.length) throw new AddressRefused(`${host} has no address`);
  if (!allowInside && found.some((a) => isPrivateAddress(a.address)))
    throw new AddressRefused(`${host} resolves to a loopback or private address`);
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

type AllCallback = (err: NodeJS.ErrnoException | null, addresses: CheckedAddress[]) => void;

/** A socket `lookup` that hands over these addresses and no other, whatever the name. */
export function pinnedLookup(addresses: CheckedAddress[]): LookupFunction {
  const first = addresses[0]!;
  return (_host, options, cb) => {
    if (options.all) (cb as AllCallback)(null, addresses);
    else cb(null, first.address, first.family);
  };
}

/**
 * A socket `lookup` that resolves the name when the socket connects, checks
 * every address (checkedAddresses) and hands the socket only what it
 * checked: the name is resolved once per connection, so there is no second
 * answer (DNS rebinding) between the check and the connect. `allowInside`
 * is asked per host name.
 */
export function checkingLookup(
  allowInside: (host: string) => boolean,
  resolve: Resolve = systemResolve,
): LookupFunction {
  return (host, options, cb) => {
    checkedAddresses(host, allowInside(host), resolve).then(
      (addresses) => pinnedLookup(addresses)(host, options, cb),
      (err: NodeJS.ErrnoException) => (options.all ? (cb as AllCallback)(err, []) : cb(err, "", 0)),
    );
  };
}
