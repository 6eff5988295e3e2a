import type { TSchema } from "typebox";
import { Compile } from "typebox/compile";
import fp from "fastify-plugin";
import { toViolations } from "../http/violations.ts";
import { inspectBody } from "./edge/text.ts";

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
      const valid = validator.Check(value);
      // A NUL or a lone surrogate fits any string schema: the body's text is checked here too (edge/text.ts).
      const text = httpPart === "body" ? inspectBody(value) : undefined;
      if (valid && !text) return { value };
      const prefix = httpPart === "body" ? "" : httpPart === "querystring" ? "query" : (httpPart ?? "");
      const violations = [...(valid ? [] : toViolations(validator.Errors(value), prefix)), ...(text?.kind === "text" ? text.violations : [])];
      return { error: Object.assign(new Error("request validation failed"), { violations }) };
    };
  });
});
