import type { Client } from "@connectrpc/connect";
import { ConfigError, type Config } from "@gatehouse/config";
import { errorFacts, errorTable } from "@gatehouse/errors";
import type { Logger } from "@gatehouse/logging";
import type { RegistryService, UsersAdminService } from "@gatehouse/proto";
import { CONSOLE_APPLICATION_ID, CONSOLE_CLIENT_ID, consoleRedirectUri } from "@gatehouse/rpc";

/**
 * The console's application and public client (`gatehouse-console`, PKCE,
 * redirect URI `<PUBLIC_BASE_URL>/console/callback`, MFA required), ensured at
 * every start by whichever process hosts the registry; idempotent, and of
 * replicas starting together one writes.
 */
export async function ensureConsoleClient(
  registry: Client<typeof RegistryService>,
  config: Config,
  logger: Logger,
): Promise<void> {
  const redirectUri = consoleRedirectUri(config.publicBaseUrl);
  const res = await registry.ensureConsoleApplication({ redirectUri });
  if (res.created || res.updated)
    logger.info({ clientId: res.entrypointId, redirectUri, created: res.created }, "console client ensured");
}

/** What create-operator and the bootstrap pass to CreateOperator besides the email and password. */
export const CONSOLE_REGISTRATION = { clientId: CONSOLE_APPLICATION_ID, entrypointId: CONSOLE_CLIENT_ID } as const;

/**
 * BOOTSTRAP_OPERATOR_EMAIL + BOOTSTRAP_OPERATOR_PASSWORD: the first operator
 * person, created when absent (an operator of that email already there is
 * left as it is, its password included). TOTP is enrolled at the first sign-in.
 * An email held by a user who is not an operator stops the start with a
 * configuration error.
 */
export async function bootstrapOperatorPerson(
  users: Client<typeof UsersAdminService>,
  config: Config,
  logger: Logger,
): Promise<void> {
  const person = config.bootstrapOperatorPerson;
  if (!person) return;
  try {
    const res = await users.createOperator({
      email: person.email,
      password: person.password,
      ...CONSOLE_REGISTRATION,
      ifAbsent: true,
    });
    if (res.created)
      logger.info(
        { userId: res.userId },
        "operator person created from BOOTSTRAP_OPERATOR_EMAIL; TOTP is set up at the first sign-in to /console",
      );
  } catch (err) {
    const f = errorFacts(err);
    if (f.reason !== "IDENTIFIER_TAKEN" && f.reason !== "VALIDATION_FAILED") throw err;
    const why = f.violations.length
      ? f.violations.map((v) => `${v.field}: ${v.code}`).join("; ")
      : f.message || errorTable[f.reason].message.en;
    throw new ConfigError(`BOOTSTRAP_OPERATOR_EMAIL ${person.email}: ${why}`);
  }
}
