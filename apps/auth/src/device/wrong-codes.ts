import { domainError } from "@gatehouse/errors";
import type { DeviceAuthorizations } from "./devices.ts";

// Wrong user codes per client address, like failed logins per address: a
// user code has about 34 bits, so guessing one needs very many tries, and
// this bounds how many one address may make. Only wrong codes count.

const key = (address: string) => `auth:device:wrong:${address || "unknown"}`;

/** RATE_LIMITED (with retry_after) once the address typed too many wrong codes in the window. */
export async function refuseWhenOverLimit(devices: DeviceAuthorizations, address: string): Promise<void> {
  const count = Number((await devices.kv.get(key(address))) ?? 0);
  if (count >= devices.settings.failuresPerAddress) {
    throw domainError("RATE_LIMITED", "too many wrong codes from this address; try again later", {
      metadata: { retry_after: String(devices.settings.failureWindowSeconds) },
    });
  }
}

export async function countWrongUserCode(devices: DeviceAuthorizations, address: string): Promise<void> {
  await devices.kv.incr(key(address), devices.settings.failureWindowSeconds);
}
