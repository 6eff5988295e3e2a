import { domainError } from "@gatehouse/errors";
import { pollDeviceCode } from "../device/poll.ts";
import type { GrantContext, GrantParameters, TokenResponse } from "./grant.ts";

/**
 * RFC 8628 section 3.4: the device polls with its device code. Once the
 * person approved, the first poll gets the tokens (an access token, a
 * rotating refresh token, an ID token with `openid`) and every later one
 * invalid_grant. The session records the device's source id.
 */
export const grantType = "urn:ietf:params:oauth:grant-type:device_code";

export const parameters: GrantParameters = { required: ["device_code"], optional: [], forbidden: [] };

/** Devices (TVs, consoles) are public clients: an entry point id is the usual client. */
export const publicClients = true;

export async function handler({
  client,
  params,
  tokens,
  sessions,
  idTokens,
  devices,
}: GrantContext): Promise<TokenResponse> {
  const device = await pollDeviceCode(devices, params.device_code ?? "", client.clientId);
  const { userId, authTime, sid } = device;
  if (!userId || authTime === undefined) throw domainError("INVALID_GRANT", "device code was approved by nobody");
  // Every session of the user was ended (a lock, log out everywhere) after they signed in for the device.
  if (await sessions.userEndedAfter(userId, authTime * 1000))
    throw domainError("INVALID_GRANT", "the user's sessions were ended after the device was approved");
  const scopes = device.scope ? device.scope.split(" ") : [];
  const { session, refreshToken } = await sessions.open({
    ...(sid ? { sid } : {}),
    userId,
    clientId: client.clientId,
    scope: device.scope,
    authTime,
    applicationId: client.applicationId,
    ...(device.sourceId ? { sourceId: device.sourceId } : {}),
  });
  const issued = await tokens.issue({
    clientId: session.clientId,
    applicationId: client.applicationId,
    subject: userId,
    scopes,
    sid: session.sid,
  });
  const response: TokenResponse = {
    accessToken: issued.token,
    tokenType: "Bearer",
    expiresIn: issued.expiresIn,
    scope: issued.claims.scope,
    refreshToken,
  };
  if (scopes.includes("openid")) {
    response.idToken = await idTokens.issue({
      clientId: session.clientId,
      userId,
      sid: session.sid,
      authTime,
      accessToken: issued.token,
    });
  }
  return response;
}
