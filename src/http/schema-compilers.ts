import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = (data: unknown) => string;

/**
 * Fastify's own response serializer compiler (fast-json-stringify), whose functions are kept for the
 * life of the process and shared by every app it builds. Building one checks its schema against the
 * JSON Schema meta-schema and generates code: about 400 ms for all of our routes, paid again by every
 * app a process builds (the tests build hundreds, two per file at least, one per database). A
 * serializer is a pure function of its schema, the shared schemas and the options, so the same
 * text of all three gets the same function: the key is their JSON, which is what fast-json-stringify
 * reads (keyword symbols such as TypeBox's are not).
 */
const compiled = new Map<string, Map<string, Serializer>>();
const compile: SerializerFactory = SerializerSelector();

export const sharedSerializerFactory: SerializerFactory = (externalSchemas, serializerOptions) => {
  const build = compile(externalSchemas, serializerOptions);
  const contextKey = JSON.stringify([externalSchemas, serializerOptions ?? null]);
  let byRoute = compiled.get(contextKey);
  if (!byRoute) compiled.set(contextKey, (byRoute = new Map()));
  const serializers = byRoute;
  return (route) => {
    const key = JSON.stringify(route.schema);
    let serializer = serializers.get(key);
    if (!serializer) serializers.set(key, (serializer = build(route) as Serializer));
    return serializer;
  };
};
