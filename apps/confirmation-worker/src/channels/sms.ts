import { UnrecoverableError } from "@gatehouse/jobs";
import type { Channel, OutgoingMessage } from "./channel.ts";

// SMS through the operator's webhook: POST {to, text, code}. The delivery id goes
// in Idempotency-Key so a gateway that honours it can drop our at-least-once repeats.

export function smsWebhookChannel(opts: { url: string; timeoutMs?: number }): Channel {
  const timeoutMs = opts.timeoutMs ?? 5000;
  return {
    async send(msg: OutgoingMessage) {
      let res: Response;
      try {
        res = await fetch(opts.url, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": msg.deliveryId },
          body: JSON.stringify({ to: msg.to, text: msg.text, code: msg.code }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new Error(`SMS webhook unreachable: ${(err as Error).name}`);
      }
      await res.body?.cancel();
      if (res.ok) return;
      // 4xx: the request itself is refused, a retry sends the same; 408 (the webhook timed out reading it) and 429 only mean "later".
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
        throw new UnrecoverableError(`SMS webhook refused the message: HTTP ${res.status}`);
      }
      throw new Error(`SMS webhook failed: HTTP ${res.status}`);
    },
    close: async () => {},
  };
}
