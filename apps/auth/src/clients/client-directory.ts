/** What the token server knows about a client whose secret checked out. */
export interface AuthenticatedClient {
  clientId: string;
  kind: "application" | "operator";
  /** Scopes the client may request with client_credentials. */
  allowedScopes: string[];
  redirectUris: string[];
  /** Changes whenever the secret is rotated. */
  secretVersion: number;
}

/** Checks client credentials (the registry owns clients and their secrets). */
export interface ClientDirectory {
  /** The client, or undefined when the id is unknown or the secret wrong. */
  authenticate(clientId: string, secret: string): Promise<AuthenticatedClient | undefined>;
  /** Drops what is cached about a client (its secret was rotated): the next authentication asks again. */
  forget?(clientId: string): void;
}
