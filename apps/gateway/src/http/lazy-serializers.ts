import { SerializerSelector, type SerializerFactory } from "@fastify/fast-json-stringify-compiler";

/**
 * Fastify's response serialisers (fast-json-stringify), each compiled when
 * its route first answers with that status instead of for every route at
 * start-up: the gateway declares ~50 response schemas and an idle process
 * kept every generated serialiser's source and closures, most of them for
 * routes it may never serve (docs/performance.md). The serialiser is the same
 * one, from the same external schemas; only when it is built changes (so a
 * schema it cannot compile fails that route's first answer, not the start-up).
 */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((doc: unknown) => string) | undefined;
    return (doc) => (serialize ??= compile(route))(doc);
  };
};
