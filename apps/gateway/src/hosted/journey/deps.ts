import type { Wired } from "../../deps.ts";

/** What the hosted login is built with: the users service and the registry always; MFA, passkeys, the assertions and ALTCHA when wired. */
export type HostedLoginDeps = Pick<
  Wired<"users" | "hostedLoginKey">,
  | "registry"
  | "users"
  | "mfa"
  | "passkeys"
  | "assertions"
  | "identityProviders"
  | "hostedLoginKey"
  | "config"
  | "altcha"
>;
