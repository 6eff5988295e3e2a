import { BlockList, isIP } from "node:net";

// Inside addresses, where an outbound call to a URL someone else names (a
// webhook, an identity provider) may not go unless the operator allows it:
// loopback, private, link-local (cloud metadata), shared, reserved and
// multicast ranges. The one list: webhooks and providers both judge by it.
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(net, prefix, "ipv6");

/** The eight 16-bit groups of an IPv6 address that isIP accepted (a trailing dotted quad, `::`, a zone). */
function groups(address: string): number[] {
  let a = address.toLowerCase().replace(/%.*$/, "");
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (quad) {
    const [b0, b1, b2, b3] = quad.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, quad.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head = "", tail] = a.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

const ipv4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 one carries, where the network delivers it to
 * that IPv4 host: IPv4-mapped (`::ffff:a.b.c.d`, also written in hex),
 * IPv4-compatible and IPv4-translated, NAT64 (`64:ff9b::/96`, how an
 * IPv6-only network reaches IPv4 hosts: judged by the host, not refused
 * whole) and 6to4 (`2002::/16`).
 */
function embeddedIpv4(g: number[]): string | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return ipv4Of(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4Of(g[1]!, g[2]!);
  return undefined;
}

/** True for an address an outbound call to a public URL must not reach (an IPv6 address carrying an IPv4 one judged as it). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  const g = groups(address);
  // Teredo (2001::/32) tunnels to an IPv4 host hidden in the address: nothing public is reached that way.
  if (g[0] === 0x2001 && g[1] === 0) return true;
  const inner = embeddedIpv4(g);
  if (inner !== undefined) return blocked.check(inner, "ipv4");
  return blocked.check(address, "ipv6");
}

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** True for a loopback address (127.0.0.0/8, ::1, and 127.x written as IPv4-mapped IPv6): this machine. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && loopback.check(address, family === 4 ? "ipv4" : "ipv6");
}
