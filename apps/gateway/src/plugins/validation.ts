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
  const integers = convert ? integerMembers(schema as TSchema) : [];
  return (data: unknown) => {
    const value = convert ? convertQuery(validator, data, integers) : data;
    const valid = validator.Check(value);
    // A NUL or a lone surrogate fits any string schema: the body's text is checked here too (edge/text.ts).
    const text = httpPart === "body" ? inspectBody(value) : undefined;
    if (valid && !text) return { value };
    const prefix = httpPart === "body" ? "" : httpPart === "querystring" ? "query" : (httpPart ?? "");
    const violations = [
      ...(valid ? [] : toViolations(validator.Errors(value), prefix)),
      ...(text?.kind === "text" ? text.violations : []),
    ];
    return { error: Object.assign(new Error("request validation failed"), { violations }) };
  };
};

/** The members of an object schema that are integers (`limit`). */
function integerMembers(schema: TSchema): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.keys(properties).filter((k) => properties[k]!.type === "integer");
}

/**
 * TypeBox's conversion reads "1.5", "1e2" or " 1" as integers; on the wire
 * an integer is digits only, so anything else stays the string it was and
 * fails the check (`?limit=1.5` is 400, not a page of one).
 */
function convertQuery(
  validator: { Convert(value: unknown): unknown },
  data: unknown,
  integers: readonly string[],
): unknown {
  const raw = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  const kept = integers
    .filter((k) => typeof raw[k] === "string" && !/^-?\d+$/.test(raw[k]))
    .map((k) => [k, raw[k]] as const);
  const value = validator.Convert(data);
  if (kept.length > 0 && typeof value === "object" && value !== null)
    for (const [k, v] of kept) (value as Record<string, unknown>)[k] = v;
  return value;
}

type ValidatorFactory = NonNullable<
  NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]
>["buildValidator"];

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
