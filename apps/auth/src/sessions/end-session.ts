import { domainError } from "@gatehouse/errors";
import type { IdTokens } from "../tokens/id-token.ts";
import type { Sessions } from "./sessions.ts";

/**
 * OpenID Connect RP-Initiated Logout: the id_token_hint names the session
 * (its sid claim); ending it ends its whole refresh family and its access
 * tokens. The hint must be an ID token of this server; when the relying party
 * also sends client_id, it must be the hint's audience.
 */
export async function endSession(
  deps: { idTokens: IdTokens; sessions: Sessions },
  req: { idTokenHint: string; clientId: string },
): Promise<{ clientId: string; sub: string; sessionEnded: boolean }> {
  const hint = req.idTokenHint ? await deps.idTokens.readHint(req.idTokenHint) : undefined;
  if (!hint) throw domainError("INVALID_REQUEST", "id_token_hint is not a valid ID token of this server");
  if (req.clientId && req.clientId !== hint.clientId)
    throw domainError("INVALID_REQUEST", "client_id is not the audience of id_token_hint");
  const sessionEnded = hint.sid ? await deps.sessions.end(hint.sid) : false;
  return { clientId: hint.clientId, sub: hint.sub, sessionEnded };
}
