import type { FastifyRequest } from "fastify";

/**
 * A form posted from another site (another origin's form): refused. The
 * token in the form is the secret; this origin check is the belt.
 */
export function crossSite(req: FastifyRequest, publicBaseUrl: string): boolean {
  if (req.headers["sec-fetch-site"] === "cross-site") return true;
  const origin = req.headers.origin;
  return origin !== undefined && origin !== "null" && origin !== new URL(publicBaseUrl).origin;
}
