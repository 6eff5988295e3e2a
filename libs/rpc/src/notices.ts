// Notices between services over the shared kv's pub/sub: fire and forget,
// so every reader also bounds its caches by a TTL.

/** What changed in the registry: an application's settings (message = its client id), or the assertion catalog. */
export type RegistryTopic = "application" | "assertions";

/** Publishes a registry notice (the launcher wires it to the shared kv). */
export type RegistryNotify = (topic: RegistryTopic, id: string) => void;

/** The kv channel of each registry notice (`registry.changed.<topic>`, message = the id). */
export const registryChannel = (topic: RegistryTopic) => `registry.changed.${topic}`;
