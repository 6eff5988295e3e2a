import { domainError } from "@gatehouse/errors";
import { SLOW_DOWN_STEP_SECONDS, type DeviceAuthorizations } from "./devices.ts";
import type { DeviceRecord } from "./store.ts";

/**
 * RFC 8628 section 3.5: one poll of a device code by its client. Answers the
 * approved authorization to exactly one poll (an atomic claim), or throws
 * the error the device must see: authorization_pending and slow_down while
 * undecided, access_denied, expired_token (for 10 minutes past expiry), and
 * invalid_grant for an unknown code, another client's, or one whose tokens
 * were already issued.
 */
export async function pollDeviceCode(
  devices: DeviceAuthorizations,
  deviceCode: string,
  clientId: string,
): Promise<DeviceRecord> {
  const hash = devices.hashDeviceCode(deviceCode);
  const device = await devices.store.byDeviceHash(hash);
  if (!device) throw domainError("INVALID_GRANT", "device code is invalid");
  if (device.clientId !== clientId) throw domainError("INVALID_GRANT", "device code was issued to another client");
  const now = devices.now();
  if (device.status === "issued") throw domainError("INVALID_GRANT", "device code was already used");
  if (device.expiresAt <= now) throw domainError("EXPIRED_TOKEN", "device code has expired");
  if (device.status === "denied") throw domainError("ACCESS_DENIED", "the person denied the request");
  if (device.status === "approved") {
    const claimed = await devices.store.claim(hash, now);
    // Another poll won the race (or it expired in between): only one ever gets tokens.
    if (!claimed) throw domainError("INVALID_GRANT", "device code was already used");
    return claimed;
  }
  const mark = await devices.store.markPoll(hash, now, SLOW_DOWN_STEP_SECONDS);
  if (!mark) return pollDeviceCode(devices, deviceCode, clientId); // decided meanwhile: answer that
  if (mark.tooSoon)
    throw domainError("SLOW_DOWN", `polling faster than the interval; wait ${mark.intervalSeconds} s between polls`);
  throw domainError("AUTHORIZATION_PENDING", "the person has not approved or denied yet");
}
