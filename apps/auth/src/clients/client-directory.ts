/** What the token server knows about a client that authenticated (or, for a public client, identified itself). */
export interface AuthenticatedClient {
  clientId: string;
  /**
   * application: a confidential client (an application's client_id and secret);
   * operator: an operator client; public: an entry point id acting as a
   * public client (token_endpoint_auth_method "none", contract section 9).
   */
  kind: "application" | "operator" | "public";
  /** The application the client acts for: its own id, or a public client's application. */
  applicationId: string;
  /** Scopes the client may request with client_credentials (none for a public client). */
  allowedScopes: string[];
  redirectUris: string[];
  /** Changes whenever the secret is rotated (0 for a public client: it has none). */
  secretVersion: number;
}

/** Checks client credentials (the registry owns clients and their secrets). */
export interface ClientDirectory {
  /**
   * The client, or undefined when the id is unknown or no secret is right.
   * `alternateSecret` is another reading of the same credentials (raw versus
   * form-decoded Basic); both are checked, so the time does not tell which matched.
   */
  authenticate(clientId: string, secret: string, alternateSecret?: string): Promise<AuthenticatedClient | undefined>;
  /** The public client named by an entry point id, or undefined. */
  publicClient(clientId: string): Promise<AuthenticatedClient | undefined>;
  /** Drops what is cached about a client (its secret was rotated): the next authentication asks again. */
  forget?(clientId: string): void;
}
