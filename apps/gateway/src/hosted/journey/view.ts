import type { FastifyReply, FastifyRequest } from "fastify";
import type { Locale } from "@gatehouse/errors";
import type { HostedApp } from "../../oauth/applications.ts";
import type { PendingAuthorization } from "../../oauth/authorization-request.ts";
import type { HostedLoginDeps } from "./deps.ts";
import type { HostedDirectory } from "./directory.ts";
import type { FormTokens } from "./form-token.ts";

/** What every page of the hosted login reads: its clients, the form tokens, the registry's cached answers. */
export interface HostedLoginParts {
  deps: HostedLoginDeps;
  forms: FormTokens;
  directory: HostedDirectory;
}

/** One request of the hosted login: what every page of its answer needs. */
export interface HostedView {
  h: HostedLoginParts;
  req: FastifyRequest;
  reply: FastifyReply;
  app: HostedApp;
  pending: PendingAuthorization;
  lang: Locale;
  /** What the user typed as their identifier on this form (the code page names where the code went). */
  typed?: { key: string; value: string };
}

/** The page's language: the request's `ui_locales`, else Accept-Language. */
export const pageLocale = (req: FastifyRequest, pending?: PendingAuthorization): Locale =>
  pending?.locale ?? req.locale;
