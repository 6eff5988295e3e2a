import type { Kv } from "@gatehouse/kv";
import type { KeyRing } from "@gatehouse/secrets";
import type { Transactional } from "../transactional.ts";
import type { UserStore } from "../users/store.ts";
import type { PasskeyStore } from "./store.ts";

/** The WebAuthn relying party: its id (a domain), the origins whose ceremonies count, the name authenticators show. */
export interface RelyingParty {
  id: string;
  origins: string[];
  name: string;
}

/** What the passkey ceremonies need. */
export interface PasskeyDeps {
  data: Transactional<{ passkeys: PasskeyStore; users: UserStore }>;
  kv: Kv;
  keys: KeyRing;
  rp: RelyingParty;
}

/** Only these: ES256 (every platform authenticator) and RS256 (Windows Hello), contract section 12. */
export const PASSKEY_ALGORITHMS = [-7, -257];

/** A ceremony's challenge lives this long and works once (contract section 12). */
export const CHALLENGE_TTL_SECONDS = 300;

/** A user may hold this many passkeys (a decision: enough for every device, bounded). */
export const MAX_PASSKEYS = 20;

/** The longest name a passkey may carry (a decision). */
export const MAX_NAME_LENGTH = 64;
