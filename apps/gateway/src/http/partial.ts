import type { FastifyReply } from "fastify";
import { itemMessages } from "@gatehouse/errors";
import { elapsed } from "./envelope.ts";

const messages = {
  confirmation_pending: {
    en: "Updated, except identifiers that await confirmation.",
    es: "Actualizado, salvo los identificadores pendientes de confirmación.",
  },
  account_incomplete: { en: "The account lacks mandatory data.", es: "Faltan datos obligatorios de la cuenta." },
};

/**
 * 206: the success body plus `errors` naming what is still open (identifiers
 * awaiting confirmation, or data the account must complete); `sc=true` keeps one item.
 */
export function sendPartial(
  reply: FastifyReply,
  content: unknown,
  code: keyof typeof messages,
  items: { field: string; code: string }[],
) {
  const req = reply.request;
  const shown = req.singleError ? items.slice(0, 1) : items;
  return reply
    .code(206)
    .header("cache-control", "no-store")
    .send({
      content,
      result: { status: 206, elapsed: elapsed(req) },
      errors: {
        code,
        message: messages[code][req.locale],
        details: shown.map((i) => i.field).join(", "),
        items: shown.map((i) => ({ ...i, message: itemMessages[i.code]?.[req.locale] ?? i.code })),
      },
    });
}
