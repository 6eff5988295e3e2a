import { constantTimeEqual, randomSecret, type KeyRing } from "@gatehouse/secrets";

/** A client secret as it is stored: sealed (revealable by an operator) and as a keyed MAC (verifiable). */
export interface StoredSecret {
  sealed: string;
  mac: string;
}

export interface ClientSecrets {
  /** A new secret of 256 bits from the CSPRNG. */
  generate(): string;
  protect(clientId: string, secret: string): StoredSecret;
  /**
   * Whether `presented` is the secret behind `storedMac`, in constant time. With
   * no stored MAC (unknown client) it does the same work and answers false.
   */
  matches(clientId: string, presented: string, storedMac: string | undefined): boolean;
  reveal(clientId: string, sealed: string): string;
}

// Secrets are bound to their client_id (GCM associated data, MAC input) so
// that a sealed value or MAC copied onto another client never verifies.
export function clientSecrets(keys: KeyRing): ClientSecrets {
  const box = keys.box("client-secret");
  const mac = keys.mac("client-secret");
  const macOf = (clientId: string, secret: string) => mac(`${clientId}\0${secret}`);
  const unknownClientMac = macOf("\0unknown-client", randomSecret(32));
  return {
    generate: () => randomSecret(32),
    protect: (clientId, secret) => ({ sealed: box.seal(secret, clientId), mac: macOf(clientId, secret) }),
    matches(clientId, presented, storedMac) {
      const equal = constantTimeEqual(macOf(clientId, presented), storedMac ?? unknownClientMac);
      return equal && storedMac !== undefined;
    },
    reveal: (clientId, sealed) => box.open(sealed, clientId),
  };
}
