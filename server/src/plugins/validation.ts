import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Request validation, replacing Fastify's default Ajv set-up, whose coercion let bad numbers in:
 * it turns the text "Infinity", "1e400", "0x1", "+1", "01" or "1.0" into a number wherever a
 * number is declared, and Infinity then passes `integer` and `maximum` (issue 8).
 *
 * - JSON bodies are validated without coercion: JSON has numbers, booleans and null of its own.
 *   `strictNumbers` refuses the Infinity that JSON.parse makes of 1e400.
 * - Path parameters, query strings and headers are text, so they are still coerced, but only
 *   from plain decimal text: an integer is `-?(0|[1-9][0-9]*)`, a number may add a fraction and
 *   an exponent, and either must be finite.
 * - No text anywhere in a validated part may hold a NUL character: PostgreSQL refuses it in
 *   text (a 500 there) while SQLite stores it, so it is a 400 on both.
 */
const BASE: Options = {
  useDefaults: true,
  removeAdditional: true,
  // Fastify's choice: with all errors, one crafted request can make Ajv do a lot of work.
  allErrors: false,
  addUsedSchema: false,
  strictNumbers: true,
};

const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;
const NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

type Schema = Record<string, unknown>;
type Validator = ((data: unknown, context?: unknown) => boolean) & {
  errors?: ErrorObject[] | null;
  schemaEnv?: unknown;
};

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null;

/** The JSON types a schema declares, through unions; 'any' when a branch declares none. */
function declaredTypes(schema: Schema, into = new Set<string>()): Set<string> {
  const branches = [schema.anyOf, schema.oneOf].filter(Array.isArray).flat() as unknown[];
  const type = schema.type;
  if (typeof type === 'string') into.add(type);
  else if (Array.isArray(type)) for (const t of type) into.add(String(t));
  else if (branches.length === 0) into.add('any');
  for (const branch of branches) if (isSchema(branch)) declaredTypes(branch, into);
  return into;
}

const itemsOf = (schema: Schema): Schema | undefined => {
  if (isSchema(schema.items)) return schema.items;
  const branches = [schema.anyOf, schema.oneOf].filter(Array.isArray).flat() as unknown[];
  for (const branch of branches) {
    if (isSchema(branch) && branch.type === 'array' && isSchema(branch.items)) return branch.items;
  }
  return undefined;
};

const typeError = (instancePath: string, type: string): ErrorObject => ({
  instancePath,
  schemaPath: '#/type',
  keyword: 'type',
  params: { type },
  message: `must be ${type}`,
});

/**
 * Would Ajv's coercion read this text as a number it should not? Text bound for a field that
 * takes text is left alone; so are "true"/"false" for booleans and "" for null.
 */
function lenientNumber(text: string, schema: Schema, path: string): ErrorObject | undefined {
  const types = declaredTypes(schema);
  if (types.has('string') || types.has('any')) return undefined;
  if (types.has('array')) {
    const items = itemsOf(schema);
    return items ? lenientNumber(text, items, path) : undefined;
  }
  const numeric = types.has('number') ? 'number' : types.has('integer') ? 'integer' : undefined;
  if (!numeric) return undefined;
  if (types.has('boolean') && (text === 'true' || text === 'false')) return undefined;
  if (types.has('null') && text === '') return undefined;
  const grammar = numeric === 'integer' ? INTEGER_TEXT : NUMBER_TEXT;
  return grammar.test(text) && Number.isFinite(Number(text)) ? undefined : typeError(path, numeric);
}

/** Checks the text values of a flat object (path parameters, query string) before coercion. */
function lenientNumbers(data: unknown, schema: Schema): ErrorObject | undefined {
  if (!isSchema(data) || !isSchema(schema.properties)) return undefined;
  for (const [name, propertySchema] of Object.entries(schema.properties)) {
    const value = (data as Record<string, unknown>)[name];
    if (!isSchema(propertySchema)) continue;
    if (typeof value === 'string') {
      const error = lenientNumber(value, propertySchema, `/${name}`);
      if (error) return error;
    } else if (Array.isArray(value)) {
      // A repeated query key: checked item by item, or as the one value Ajv unwraps it to.
      const items = declaredTypes(propertySchema).has('array') ? itemsOf(propertySchema) : propertySchema;
      for (const [index, item] of value.entries()) {
        const error =
          items && typeof item === 'string' ? lenientNumber(item, items, `/${name}/${index}`) : undefined;
        if (error) return error;
      }
    }
  }
  return undefined;
}

const pointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const NUL = '\u0000';
const nulError = (instancePath: string): ErrorObject => ({
  // The path is echoed in the message: the NUL itself is shown as \0.
  instancePath: instancePath.replaceAll(NUL, '\\0'),
  schemaPath: '#',
  keyword: 'nul',
  params: {},
  message: 'must not contain NUL',
});

/**
 * The first string (value or key) holding a NUL character, as an Ajv error. Iterative: a body
 * of free-form JSON may nest deeper than the call stack.
 */
function nulCharacter(data: unknown): ErrorObject | undefined {
  const stack: Array<[unknown, string]> = [[data, '']];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return nulError(path);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}/${i}`]);
    } else if (isSchema(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes(NUL)) return nulError(`${path}/${pointer(key)}`);
        stack.push([item, `${path}/${pointer(key)}`]);
      }
    }
  }
  return undefined;
}

function compilers(): { body: Ajv; text: Ajv } {
  const body = new Ajv({ ...BASE, coerceTypes: false });
  const text = new Ajv({ ...BASE, coerceTypes: 'array' });
  addFormats(body);
  addFormats(text);
  return { body, text };
}

// One pair per process: Ajv keeps each schema it compiled, keyed by the schema object, and the
// routes' schemas are module constants. An app built again in the same process (every API test
// builds one) then compiles nothing again; compiling every route took ~300 ms an app.
let shared: ReturnType<typeof compilers> | undefined;

/** Installs the validator compiler; call before any route is added. */
export function validation(app: FastifyInstance): void {
  shared ??= compilers();
  const { body, text } = shared;

  app.setValidatorCompiler(({ schema, httpPart }) => {
    const coerced = httpPart !== 'body';
    const compiled: ValidateFunction = (coerced ? text : body).compile(schema as Schema);
    const validate: Validator = (data, context) => {
      const error =
        (coerced ? lenientNumbers(data, schema as Schema) : undefined) ??
        // Before Ajv: removeAdditional would drop an undeclared key holding a NUL unseen.
        nulCharacter(data) ??
        (compiled(data, context as never) ? undefined : compiled.errors?.[0]);
      validate.errors = error ? [error] : null;
      return !error;
    };
    // Fastify passes the parent object (so Ajv may replace a coerced root value) only when it
    // sees this marker of an Ajv function.
    validate.schemaEnv = compiled.schemaEnv;
    return validate;
  });
}
