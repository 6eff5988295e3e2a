import type { Kv } from "@gatehouse/kv";

// The key every access-token verifier reads (libs/rpc's isRevoked, the standalone wiring).
const revokedKey = (jti: string) => `revoked:at:${jti}`;

/** Revoked access-token ids in the shared store, each kept only until its token would expire anyway. */
export interface RevocationList {
  revoke(jti: string, exp: number): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
}

export function createRevocationList(kv: Kv, now: () => number = () => Math.floor(Date.now() / 1000)): RevocationList {
  return {
    async revoke(jti, exp) {
      const ttl = exp - now();
      if (ttl > 0) await kv.set(revokedKey(jti), String(exp), ttl);
    },
    async isRevoked(jti) {
      return (await kv.get(revokedKey(jti))) !== null;
    },
  };
}
