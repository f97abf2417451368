import fastJsonStringify from 'fast-json-stringify';
import type { FastifyInstance } from 'fastify';

type Serializer = (data: unknown) => string;

// Fastify's default compiler builds a fast-json-stringify serializer per route and app. The
// response schemas are module constants, so one serializer per schema object serves every app
// in the process (no shared schemas are added with addSchema, so a schema alone defines it).
const serializers = new WeakMap<object, Serializer>();

/** Installs the response serializer compiler; call before any route is added. */
export function serialization(app: FastifyInstance): void {
  app.setSerializerCompiler(({ schema }) => {
    let serialize = serializers.get(schema);
    if (!serialize) {
      serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as Serializer;
      serializers.set(schema, serialize);
    }
    return serialize;
  });
}
