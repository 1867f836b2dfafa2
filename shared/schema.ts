// A small schema language for the parameters of the custom requests and the initialization
// options. The language server checks every request's params against its schema before any
// engine code runs, so a malformed request gets an InvalidParams error that names the field,
// never a crash deep inside the engine. It has no dependencies so the protocol file (and the
// client, which uses the same schemas in tests) can carry it.

export interface Schema<T> {
  /** What a valid value looks like, for error messages. */
  readonly expected: string;
  /** Appends one problem per invalid place to `problems`; `at` names the place (e.g. "params.limit"). */
  check(value: unknown, at: string, problems: string[]): void;
  /** Phantom: ties the schema to the TypeScript type it validates. */
  readonly type?: T;
}

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'string' ? `"${value.slice(0, 40)}"` : typeof value;

export function string(options: { minLength?: number; maxLength?: number } = {}): Schema<string> {
  const { minLength = 0, maxLength = 10_000 } = options;
  return {
    expected: minLength > 0 ? 'a non-empty string' : 'a string',
    check(value, at, problems) {
      if (typeof value !== 'string') problems.push(`${at} must be ${this.expected}, not ${describe(value)}`);
      else if (value.trim().length < minLength) problems.push(`${at} must not be empty`);
      else if (value.length > maxLength) problems.push(`${at} must be at most ${maxLength} characters`);
    },
  };
}

export function oneOf<const T extends string>(values: readonly T[]): Schema<T> {
  return {
    expected: `one of ${values.map((value) => `"${value}"`).join(', ')}`,
    check(value, at, problems) {
      if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
        problems.push(`${at} must be ${this.expected}, not ${describe(value)}`);
      }
    },
  };
}

export function integer(options: { min?: number; max?: number } = {}): Schema<number> {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = options;
  return {
    expected: `a whole number from ${min} to ${max}`,
    check(value, at, problems) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
        problems.push(`${at} must be ${this.expected}, not ${describe(value)}`);
      }
    },
  };
}

export function number(options: { min?: number; max?: number } = {}): Schema<number> {
  const { min = -Number.MAX_VALUE, max = Number.MAX_VALUE } = options;
  return {
    expected: `a number from ${min} to ${max}`,
    check(value, at, problems) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
        problems.push(`${at} must be ${this.expected}, not ${describe(value)}`);
      }
    },
  };
}

export function array<T>(item: Schema<T>, options: { maxItems?: number } = {}): Schema<T[]> {
  const { maxItems = 1000 } = options;
  return {
    expected: `a list, each ${item.expected}`,
    check(value, at, problems) {
      if (!Array.isArray(value)) problems.push(`${at} must be ${this.expected}, not ${describe(value)}`);
      else if (value.length > maxItems) problems.push(`${at} must have at most ${maxItems} entries`);
      else value.forEach((entry, index) => item.check(entry, `${at}[${index}]`, problems));
    },
  };
}

/** A value that may be null on purpose (null meaning "the default"), unlike optional, which may be left out. */
export function nullable<T>(schema: Schema<T>): Schema<T | null> {
  return {
    expected: `${schema.expected}, or null`,
    check(value, at, problems) {
      if (value !== null) schema.check(value, at, problems);
    },
  };
}

export function boolean(): Schema<boolean> {
  return {
    expected: 'true or false',
    check(value, at, problems) {
      if (typeof value !== 'boolean') problems.push(`${at} must be ${this.expected}, not ${describe(value)}`);
    },
  };
}

export function optional<T>(schema: Schema<T>): Schema<T | undefined> {
  return {
    expected: `${schema.expected} (optional)`,
    check(value, at, problems) {
      if (value !== undefined && value !== null) schema.check(value, at, problems);
    },
  };
}

type Shape = Record<string, Schema<unknown>>;
type Infer<S> = S extends Schema<infer T> ? T : never;
type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends Infer<S[K]> ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
export type ObjectOf<S extends Shape> = { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> };

export interface ObjectSchema<S extends Shape> extends Schema<ObjectOf<S>> {
  readonly shape: S;
}

/** An object with exactly these fields: an unknown field is a problem too (it is usually a misspelt one). */
export function object<S extends Shape>(shape: S): ObjectSchema<S> {
  return {
    shape,
    expected: 'an object',
    check(value, at, problems) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        problems.push(`${at} must be an object, not ${describe(value)}`);
        return;
      }
      // Own keys only, on both sides: `constructor` or a JSON `__proto__` is an unknown field,
      // and nothing inherited can stand in for a missing one.
      const record = value as Record<string, unknown>;
      for (const [key, schema] of Object.entries(shape)) {
        schema.check(Object.hasOwn(record, key) ? record[key] : undefined, `${at}.${key}`, problems);
      }
      for (const key of Object.keys(record)) {
        if (!Object.hasOwn(shape, key)) problems.push(`${at}.${key} is not a known field (expected ${Object.keys(shape).join(', ') || 'none'})`);
      }
    },
  };
}

/**
 * The fields of `value` that pass their schema, and the problems with the others (unknown fields
 * included), for settings where one wrong field should fall back to its default rather than
 * discard the rest. A field left out, or undefined, is neither kept nor a problem.
 */
export function validFields<S extends Shape>(schema: ObjectSchema<S>, value: unknown, at: string): { fields: Partial<ObjectOf<S>>; problems: string[] } {
  if (value === undefined) return { fields: {}, problems: [] };
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${at} must be an object, not ${describe(value)}`);
    return { fields: {}, problems };
  }
  const record = value as Record<string, unknown>;
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(schema.shape, key)) {
      problems.push(`${at}.${key} is not a known field (expected ${Object.keys(schema.shape).join(', ')})`);
      continue;
    }
    if (record[key] === undefined) continue;
    const before = problems.length;
    schema.shape[key]!.check(record[key], `${at}.${key}`, problems);
    if (problems.length === before) fields[key] = record[key];
  }
  return { fields: fields as Partial<ObjectOf<S>>, problems };
}

/** Every problem with `value`, or an empty list when it is valid. */
export function problemsWith<T>(schema: Schema<T>, value: unknown, at = 'params'): string[] {
  const problems: string[] = [];
  schema.check(value, at, problems);
  return problems;
}

export function isValid<T>(schema: Schema<T>, value: unknown): value is T {
  return problemsWith(schema, value).length === 0;
}
