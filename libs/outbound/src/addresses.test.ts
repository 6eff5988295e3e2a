import { describe, expect, it } from "vitest";
import { isLoopbackAddress, isPrivateAddress } from "./addresses.ts";

describe("isPrivateAddress, the one rule of webhooks and identity providers", () => {
  it("refuses inside IPv4 and IPv6 ranges, and passes public ones", () => {
    for (const a of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0"])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ["::", "::1", "fe80::1", "fe80::1%eth0", "fd00::1", "ff02::1", "2001:db8::1"])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ["93.184.216.34", "8.8.8.8", "2606:2800:220:1::1", "2a00:1450:4001:80b::200e"])
      expect(isPrivateAddress(a), a).toBe(false);
    expect(isPrivateAddress("not an address")).toBe(true);
  });

  it("judges an IPv6 address that carries an IPv4 one by that IPv4 address, however it is written", () => {
    const inside = [
      "::ffff:10.0.0.1", // IPv4-mapped
      "::ffff:7f00:1", // the same, in hex: 127.0.0.1
      "::FFFF:A9FE:A9FE", // 169.254.169.254, upper case
      "::127.0.0.1", // IPv4-compatible
      "::ffff:0:192.168.0.1", // IPv4-translated
      "64:ff9b::a9fe:a9fe", // NAT64 to the metadata address
      "64:ff9b::10.0.0.1",
      "2002:7f00:1::1", // 6to4 of 127.0.0.1
      "2002:c0a8:101::", // 6to4 of 192.168.1.1
      "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
    ];
    for (const a of inside) expect(isPrivateAddress(a), a).toBe(true);
    const outside = [
      "::ffff:93.184.216.34",
      "::ffff:5db8:d822",
      "64:ff9b::8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
    ];
    for (const a of outside) expect(isPrivateAddress(a), a).toBe(false);
  });

  it("tells loopback apart (the development allowance of identity providers)", () => {
    for (const a of ["127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1"]) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ["10.0.0.1", "93.184.216.34", "fe80::1"]) expect(isLoopbackAddress(a), a).toBe(false);
  });
});
