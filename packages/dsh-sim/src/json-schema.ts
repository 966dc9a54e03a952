// The JSON Schema subset the real host enforces on a tool's `output.schema`, and the check of a
// tool's returned value against it. Host source: packages/core/tools/src/json-schema.ts
// (assertSupportedJsonSchema at tools.register(), validateJsonSchemaValue after execute) and
// packages/core/session/src/json.ts (snapshotJsonValue: the value must be lossless JSON).
// Written from the host's rules, not copied: the subset is type / oneOf / properties / required /
// additionalProperties / items / enum / const plus the annotations description / title / default /
// examples; anything else (minimum, format, anyOf, type arrays, ...) is refused at registration.

const CONSTRAINTS = new Set(['type', 'oneOf', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const']);
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples']);
const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const STRUCTURAL = ['properties', 'required', 'additionalProperties', 'items', 'enum', 'const'];

const isRecord = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
};

/** Every way `schema` leaves the host's subset; empty = the host accepts it. */
export function schemaViolations(schema: unknown, path = 'schema'): string[] {
  if (!isRecord(schema)) return [`${path} must be a schema object`];
  const out: string[] = [];
  for (const key of Object.keys(schema)) {
    if (!CONSTRAINTS.has(key) && !ANNOTATIONS.has(key)) out.push(`${path}.${key} is not a supported keyword`);
  }
  const hasType = 'type' in schema;
  const hasOneOf = 'oneOf' in schema;
  if (hasType && hasOneOf) return [...out, `${path} cannot declare both type and oneOf`];
  if (!hasType && !hasOneOf) {
    for (const key of STRUCTURAL) if (key in schema) out.push(`${path}.${key} requires type or oneOf`);
    return out;
  }
  if (hasOneOf) {
    for (const key of STRUCTURAL) if (key in schema) out.push(`${path}.${key} is not supported beside oneOf`);
    const branches = schema.oneOf;
    if (!Array.isArray(branches) || branches.length < 2) return [...out, `${path}.oneOf must be an array of at least two schemas`];
    branches.forEach((branch, i) => out.push(...schemaViolations(branch, `${path}.oneOf[${i}]`)));
    return out;
  }
  const type = schema.type;
  if (typeof type !== 'string' || !TYPES.has(type)) {
    return [...out, Array.isArray(type) ? `${path}.type must be a single type string (type arrays are not supported)` : `${path}.type must be one of ${[...TYPES].join('/')}`];
  }
  const onlyFor: Record<string, (t: string) => boolean> = {
    properties: (t) => t === 'object',
    required: (t) => t === 'object',
    additionalProperties: (t) => t === 'object',
    items: (t) => t === 'array',
    enum: (t) => SCALARS.has(t),
    const: (t) => SCALARS.has(t),
  };
  for (const [key, allowed] of Object.entries(onlyFor)) if (key in schema && !allowed(type)) out.push(`${path}.${key} is not supported on type "${type}"`);
  if (type === 'object') {
    const properties = schema.properties;
    if (properties !== undefined) {
      if (!isRecord(properties)) out.push(`${path}.properties must be an object of schemas`);
      else for (const [name, child] of Object.entries(properties)) out.push(...schemaViolations(child, `${path}.properties.${name}`));
    }
    if (schema.required !== undefined) {
      if (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== 'string')) out.push(`${path}.required must be an array of strings`);
      else for (const name of schema.required as string[]) if (!isRecord(properties) || !(name in properties)) out.push(`${path}.required names "${name}" which is not in properties`);
    }
    if ('additionalProperties' in schema && typeof schema.additionalProperties !== 'boolean') out.push(`${path}.additionalProperties must be a boolean`);
  }
  if (type === 'array' && schema.items !== undefined) out.push(...schemaViolations(schema.items, `${path}.items`));
  return out;
}

/** Why `value` is not lossless JSON (undefined, NaN, -0, a class instance, a sparse array...), or null. */
export function losslessJsonProblem(value: unknown, path = 'value', seen = new Set<object>()): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0) ? null : `${path} is not a finite JSON number`;
  if (typeof value !== 'object') return `${path} is ${value === undefined ? 'undefined' : `a ${typeof value}`}, not JSON`;
  if (seen.has(value)) return `${path} is circular`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (!Object.hasOwn(value, i)) return `${path}[${i}] is a hole`;
        const problem = losslessJsonProblem(value[i], `${path}[${i}]`, seen);
        if (problem) return problem;
      }
      return null;
    }
    if (!isRecord(value)) return `${path} is a ${value.constructor?.name ?? 'exotic'} object, not a plain JSON object`;
    for (const [key, child] of Object.entries(value)) {
      const problem = losslessJsonProblem(child, `${path}.${key}`, seen);
      if (problem) return problem;
    }
    return null;
  } finally {
    seen.delete(value);
  }
}

const typeMatches = (type: string, value: unknown): boolean => {
  switch (type) {
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return value === null;
  }
};

/** Where `value` does not match a supported `schema` (the host turns these into an invalid-output tool error). */
export function valueViolations(schema: Record<string, any>, value: unknown, path = 'value'): string[] {
  if (Array.isArray(schema.oneOf)) {
    const matching = schema.oneOf.filter((branch: Record<string, any>) => valueViolations(branch, value, path).length === 0).length;
    return matching === 1 ? [] : [`${path} matches ${matching} oneOf branches (exactly one required)`];
  }
  if (typeof schema.type !== 'string') return [];
  if (!typeMatches(schema.type, value)) return [`${path} must be ${schema.type}`];
  const out: string[] = [];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) out.push(`${path} must be one of ${JSON.stringify(schema.enum)}`);
  if ('const' in schema && schema.const !== value) out.push(`${path} must be ${JSON.stringify(schema.const)}`);
  if (schema.type === 'object') {
    const record = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Record<string, any>>;
    for (const name of (schema.required ?? []) as string[]) if (!Object.hasOwn(record, name)) out.push(`${path}.${name} is required`);
    for (const [name, child] of Object.entries(record)) {
      if (Object.hasOwn(properties, name)) out.push(...valueViolations(properties[name]!, child, `${path}.${name}`));
      else if (schema.additionalProperties === false) out.push(`${path}.${name} is not allowed`);
    }
  }
  if (schema.type === 'array' && schema.items) (value as unknown[]).forEach((item, i) => out.push(...valueViolations(schema.items, item, `${path}[${i}]`)));
  return out;
}
