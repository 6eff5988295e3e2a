import { ConfigError } from "./config-error.ts";

// The argon2id cost the users service hashes with. Production always uses the
// service's own parameters (OWASP: m=19 MiB, t=2, p=1). The test suite hashes
// thousands of passwords whose hash is not what it tests: TEST_PASSWORD_HASH=cheap
// lowers the cost, and is refused unless NODE_ENV=test (vitest sets it), so no
// server can start with it. Tests about hashing keep the production parameters.

export interface PasswordHashParams {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** argon2id's smallest sensible cost: a hash in a fraction of a millisecond. */
export const CHEAP_TEST_HASH_PARAMS: PasswordHashParams = { memoryCost: 256, timeCost: 1, parallelism: 1 };

/** undefined: the users service's production parameters; throws for TEST_PASSWORD_HASH outside NODE_ENV=test. */
export function passwordHashParams(env: Record<string, string | undefined>): PasswordHashParams | undefined {
  const wanted = env.TEST_PASSWORD_HASH;
  if (wanted === undefined || wanted === "") return undefined;
  if (env.NODE_ENV !== "test") {
    throw new ConfigError(`TEST_PASSWORD_HASH is for the test suite only (NODE_ENV=test); unset it to start`);
  }
  if (wanted !== "cheap") throw new ConfigError(`TEST_PASSWORD_HASH must be "cheap", got "${wanted}"`);
  return CHEAP_TEST_HASH_PARAMS;
}
