import type { TSchema } from "typebox";
import { Compile } from "typebox/compile";
import fp from "fastify-plugin";
import { toViolations } from "../http/violations.ts";

/**
 * Request validation with TypeBox's compiler: every error at once, no type
 * coercion of bodies, no silent removal of unknown members (Fastify's ajv
 * defaults do both). Query strings and path params are converted first
 * (`sc=true` is a string on the wire).
 */
export const validation = fp(async (app) => {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const validator = Compile(schema as TSchema);
    const convert = httpPart === "querystring" || httpPart === "params" || httpPart === "headers";
    return (data: unknown) => {
      const value = convert ? validator.Convert(data) : data;
      if (validator.Check(value)) return { value };
      const prefix = httpPart === "body" ? "" : httpPart === "querystring" ? "query" : (httpPart ?? "");
      const violations = toViolations(validator.Errors(value), prefix);
      return { error: Object.assign(new Error("request validation failed"), { violations }) };
    };
  });
});
