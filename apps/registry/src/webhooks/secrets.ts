import type { KeyRing } from "@gatehouse/secrets";

/** Endpoint secrets sealed at rest, bound to the endpoint id (a sealed value copied onto another never opens). */
export function webhookSecrets(keys: KeyRing) {
  const box = keys.box("webhook-secret");
  return {
    seal: (webhookId: string, secret: string) => box.seal(secret, webhookId),
    open: (webhookId: string, sealed: string) => box.open(sealed, webhookId),
  };
}

export type WebhookSecrets = ReturnType<typeof webhookSecrets>;
