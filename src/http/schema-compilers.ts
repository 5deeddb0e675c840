import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type SerializerFactory = ReturnType<typeof SerializerSelector>;
type ValidatorFactory = NonNullable<Factories['buildValidator']>;
type Schema = { properties?: Record<string, unknown>; required?: string[] };

/**
 * Fastify's own compilers, whose functions are kept for the life of the process and shared by every
 * app it builds. Building them checks each schema against the JSON Schema meta-schema and generates
 * code: about 400 ms for all of our routes' serializers and 100 ms for their validators, paid again
 * by every app a process builds (the tests build hundreds, two per file at least, one per database).
 * A compiled function is a pure function of its schema, the shared schemas and the options, so the
 * same text of all three gets the same function: the key is their JSON, which is what the compilers
 * read (keyword symbols such as TypeBox's are not).
 */
function shared<R extends { schema?: unknown }, F>(contextKey: string, build: (route: R) => F): (route: R) => F {
  let byRoute = compiled.get(contextKey) as Map<string, F> | undefined;
  if (!byRoute) compiled.set(contextKey, (byRoute = new Map()));
  const functions = byRoute;
  return (route) => {
    const key = JSON.stringify(route.schema);
    let compiledFunction = functions.get(key);
    if (!compiledFunction) functions.set(key, (compiledFunction = build(route)));
    return compiledFunction;
  };
}

const compiled = new Map<string, Map<string, unknown>>();
const compileSerializer: SerializerFactory = SerializerSelector();
// One Ajv instance per set of shared schemas and options, for the process (the pool is this one's).
// Cast: the package types its export as its JTD serializer's overload too, which Fastify never asks for.
const compileValidator = AjvCompiler() as unknown as ValidatorFactory;

export const sharedSerializerFactory: SerializerFactory = (externalSchemas, serializerOptions) =>
  shared(
    JSON.stringify(['serializer', externalSchemas, serializerOptions ?? null]),
    compileSerializer(externalSchemas, serializerOptions),
  );

export const sharedValidatorFactory: ValidatorFactory = (externalSchemas, options) => {
  const build = compileValidator(externalSchemas, options);
  const forRoute = shared(JSON.stringify(['validator', externalSchemas, options?.customOptions ?? null]), build);
  // Fastify names a header schema's properties in lower case (headers arrive so) only for its own
  // compiler; this one does it too, so a schema may name `If-Match` as the standard writes it.
  return (route) =>
    forRoute(route.httpPart === 'headers' ? { ...route, schema: lowerCased(route.schema as Schema) } : route);
};

function lowerCased<S>(schema: S & Schema): S {
  if (typeof schema !== 'object' || schema === null || !schema.properties) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(schema.properties).map(([name, value]) => [name.toLowerCase(), value]),
    ),
    ...(schema.required ? { required: schema.required.map((name) => name.toLowerCase()) } : {}),
  };
}
