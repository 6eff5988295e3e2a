/** A setting of the environment that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}
