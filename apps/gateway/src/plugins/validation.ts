import type { TSchema } from "typebox";
import { Compile } from "typebox/compile";
import type { FastifySchemaCompiler, FastifyServerOptions } from "fastify";
import fp from "fastify-plugin";
import { toViolations } from "../http/violations.ts";
import { inspectBody } from "./edge/text.ts";

/**
 * Request validation with TypeBox's compiler: every error at once, no type
 * coercion of bodies, no silent removal of unknown members (Fastify's ajv
 * defaults do both). Query strings and path params are converted first
 * (`sc=true` is a string on the wire).
 */
export const typeboxValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
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
};

type ValidatorFactory = NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>["buildValidator"];

/**
 * The same compiler as Fastify's validator factory, so Fastify never loads its
 * default (@fastify/ajv-compiler, with its own ajv: ~100 modules in an idle
 * gateway). Fastify types the factory for ajv's compile function; it calls
 * the result like any validator compiler (`setValidatorCompiler` below).
 */
export const typeboxValidatorFactory = (() => typeboxValidatorCompiler) as unknown as ValidatorFactory;

export const validation = fp(async (app) => {
  app.setValidatorCompiler(typeboxValidatorCompiler);
});
