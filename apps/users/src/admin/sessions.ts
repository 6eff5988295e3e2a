/** A live login session of a user, as the auth service reports it (no token or id). */
export interface UserSessionInfo {
  clientId: string;
  created: Date;
  refreshed: Date;
  expires: Date;
}

/**
 * The user's sessions, which the auth service owns (UserSessionsService):
 * the launcher wires it over RPC.
 */
export interface UserSessions {
  list(userId: string): Promise<UserSessionInfo[]>;
  /** Ends every session and refuses every token issued to the user before now; how many were live. */
  endAll(userId: string): Promise<number>;
}
