import type { Kv } from "@gatehouse/kv";

/**
 * Revoked access tokens, by jti, until they would have expired anyway. Every
 * service's token verifier reads the same key (`revoked:at:<jti>`).
 */
export function revocationList(kv: Kv) {
  const key = (jti: string) => `revoked:at:${jti}`;
  return {
    async revoke(jti: string, exp: number): Promise<void> {
      const ttl = exp - Math.floor(Date.now() / 1000);
      if (ttl > 0) await kv.set(key(jti), "1", ttl);
    },
    async isRevoked(jti: string): Promise<boolean> {
      return (await kv.get(key(jti))) !== null;
    },
  };
}

export type RevocationList = ReturnType<typeof revocationList>;
