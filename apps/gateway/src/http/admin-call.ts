import type { FastifyRequest } from "fastify";
import { CLIENT_ADDRESS_HEADER } from "@gatehouse/admin";
import { validationError } from "@gatehouse/errors";
import { ADMIN_READ_SCOPES, ADMIN_WRITE_SCOPES } from "@gatehouse/rpc";
import { anyScope, type BearerRule } from "./bearer-guard.ts";

const reads = anyScope(...ADMIN_READ_SCOPES);
const writes = anyScope(...ADMIN_WRITE_SCOPES);

/**
 * The rule of every /admin/v1 route (contract section 6): an operator's token
 * with admin:read for GET and HEAD, admin:write for anything else; `admin`
 * implies both. Used with requireBearer, so 401/403 come before the body.
 */
export const operatorScopes: BearerRule = (principal, req) =>
  (req.method === "GET" || req.method === "HEAD" ? (hashExport(req) ? hashReads : reads) : writes)(principal, req);

// The users' export with their password hashes needs admin:write, which is enough for it (contract section 15).
const hashReads = anyScope(...ADMIN_WRITE_SCOPES);
const hashExport = (req: FastifyRequest) =>
  req.url.split("?")[0] === "/admin/v1/users/export" &&
  new URLSearchParams(req.url.split("?")[1] ?? "").get("include") === "hashes";

/** Call options that forward the operator's token and the client address (for the audit) to a service, which checks the scopes again. */
export function asOperator(req: FastifyRequest) {
  const token = req.principal?.token ?? "";
  return { headers: { authorization: `Bearer ${token}`, [CLIENT_ADDRESS_HEADER]: req.ip } };
}

/**
 * preValidation hook of body-less actions: no body, or `{}`. Members are
 * unknown (contract section 2: rejected, never silently ignored), and so is
 * any other JSON value.
 */
async function emptyBody(req: FastifyRequest) {
  const body = req.body;
  if (body === undefined || body === null) return;
  if (typeof body !== "object" || Array.isArray(body))
    throw validationError([{ field: "", code: "invalid_type", description: "no body, or {}" }]);
  const members = Object.keys(body);
  if (members.length > 0) throw validationError(members.map((field) => ({ field, code: "unknown_member" })));
}

/** The hooks of a body-less action (lock, rotate, DELETE…). */
export const bodyless = { onRequest: noBody, preValidation: emptyBody };

/**
 * onRequest hook of body-less actions (lock, rotate, DELETE…): a declared
 * JSON content type with an empty body is not a malformed request there.
 */
export async function noBody(req: FastifyRequest) {
  const length = req.headers["content-length"];
  if ((length === undefined || length === "0") && req.headers["transfer-encoding"] === undefined)
    delete req.headers["content-type"];
}
