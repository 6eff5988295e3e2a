import type { Kv } from "@gatehouse/kv";
import type { DeviceStore } from "./store.ts";

export const DEFAULT_DEVICE_CODE_TTL_SECONDS = 600;
/** RFC 8628 section 3.2: the default minimum seconds between polls. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** Section 3.5: slow_down adds 5 seconds to the interval, for this and every later poll. */
export const SLOW_DOWN_STEP_SECONDS = 5;
/** An expired device code is remembered this long: a late poll answers expired_token, not invalid_grant. */
export const EXPIRED_MEMORY_MS = 10 * 60_000;
export const DEFAULT_DEVICE_CODE_FAILURES_PER_ADDRESS = 20;
export const DEFAULT_DEVICE_CODE_FAILURE_WINDOW_SECONDS = 900;

export interface DeviceSettings {
  /** DEVICE_CODE_TTL: lifetime of a device code and its user code. */
  ttlSeconds: number;
  /** DEVICE_CODE_FAILURES_PER_ADDRESS: wrong user codes one client address may type per window. */
  failuresPerAddress: number;
  failureWindowSeconds: number;
}

/** What every part of the device grant shares: the store, the keyed hashes of both codes, the limits. */
export interface DeviceAuthorizations {
  store: DeviceStore;
  kv: Kv;
  hashDeviceCode: (code: string) => string;
  hashUserCode: (code: string) => string;
  settings: DeviceSettings;
  now: () => number;
}

export function createDeviceAuthorizations(deps: {
  store: DeviceStore;
  kv: Kv;
  hashDeviceCode: (code: string) => string;
  hashUserCode: (code: string) => string;
  settings?: Partial<DeviceSettings>;
  now?: () => number;
}): DeviceAuthorizations {
  return {
    store: deps.store,
    kv: deps.kv,
    hashDeviceCode: deps.hashDeviceCode,
    hashUserCode: deps.hashUserCode,
    settings: {
      ttlSeconds: deps.settings?.ttlSeconds ?? DEFAULT_DEVICE_CODE_TTL_SECONDS,
      failuresPerAddress: deps.settings?.failuresPerAddress ?? DEFAULT_DEVICE_CODE_FAILURES_PER_ADDRESS,
      failureWindowSeconds: deps.settings?.failureWindowSeconds ?? DEFAULT_DEVICE_CODE_FAILURE_WINDOW_SECONDS,
    },
    now: deps.now ?? Date.now,
  };
}
