import type { FastifyRequest } from "fastify";
import type { Violation } from "@gatehouse/errors";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * A route's checks of its body that the schema cannot express (a member
     * against the token or the path, one of two members). They run on a body
     * the schema refused too (plugins/errors.ts), so `errors.items` lists
     * every violation at once, as `sc=false` promises.
     */
    bodyChecks?: (req: FastifyRequest) => Violation[];
  }
}

/** The route's body checks on this request's body, whatever its shape. */
export const bodyViolations = (req: FastifyRequest): Violation[] => req.routeOptions.config?.bodyChecks?.(req) ?? [];

/** A JSON object's members, or undefined for anything else: the checks read bodies the schema may have refused. */
export const membersOf = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * `actor.id` when it differs from `expected`. Only an id of a type the
 * schema takes is compared (a patch's person may be numeric); another type is
 * the schema's error alone.
 */
export function actorIdMismatch(body: unknown, expected: string | undefined, numericIds = false): Violation[] {
  const id = membersOf(membersOf(body)?.actor)?.id;
  const comparable = typeof id === "string" || (numericIds && Number.isSafeInteger(id) && (id as number) >= 0);
  return comparable && String(id) !== expected ? [{ field: "actor.id", code: "invalid_value" }] : [];
}
