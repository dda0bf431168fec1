import * as yup from 'yup';
import { GridportError, type ErrorKey, type ValidationIssue } from './errors';

/** Every failed rule of a yup error, each with where in the input it failed ('' for the input itself). */
export function validationIssues(error: yup.ValidationError): ValidationIssue[] {
  const failures = error.inner.length > 0 ? error.inner : [error];
  return failures.map((failure) => ({ path: failure.path ?? '', message: failure.message }));
}

/**
 * What any input Gridport reads as JSON may hold, whatever its schema (a body, GraphQL
 * variables, a gateway frame): nesting at most `maxDepth` deep (a body 5,000 arrays deep would
 * overflow the validator's stack), and no key named like a property every JavaScript object
 * has (`constructor`, `toString`, `__proto__`, ...), which schema code looks up as if it were a
 * field and fails on. Such input is refused with the part's key before any schema sees it.
 */
export const jsonLimits = {
  maxDepth: 64,
} as const;

const builtInKeys = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * The first reason `value` breaks jsonLimits, as an issue (where, and what), or null. Walks the
 * value without recursion, so no input can exhaust the stack here.
 */
export function jsonShapeIssue(value: unknown): ValidationIssue | null {
  if (value === null || typeof value !== 'object') {
    return null;
  }
  // Only objects and arrays are queued: a long list of numbers costs no memory here.
  const pending: { node: object; path: string; depth: number }[] = [{ node: value, path: '', depth: 0 }];
  const queue = (node: unknown, path: string, depth: number): void => {
    if (node !== null && typeof node === 'object') {
      pending.push({ node, path, depth });
    }
  };
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, path, depth } = next;
    if (depth >= jsonLimits.maxDepth) {
      return { path, message: `the input nests deeper than ${jsonLimits.maxDepth} levels` };
    }
    if (Array.isArray(node)) {
      node.forEach((item: unknown, index) => queue(item, `${path}[${index}]`, depth + 1));
      continue;
    }
    for (const key of Object.keys(node)) {
      const keyPath = path === '' ? key : `${path}.${key}`;
      if (builtInKeys.has(key)) {
        return { path: keyPath, message: `the key "${key}" is not allowed (every JavaScript object has a property of that name)` };
      }
      queue((node as Record<string, unknown>)[key], keyPath, depth + 1);
    }
  }
  return null;
}

/** Refuses `value` with `key` and the issue when it breaks jsonLimits. */
export function checkJsonShape(value: unknown, key: ErrorKey): void {
  const issue = jsonShapeIssue(value);
  if (issue !== null) {
    throw new GridportError(key, [issue]);
  }
}

type AnyYupSchema = yup.Schema | ReturnType<typeof yup.lazy>;

const joined = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/**
 * Where `value` holds an object or a list in a place its schema wants text. yup's text
 * transforms (trim, lowercase) throw a TypeError there rather than report an issue; this finds
 * those places, after the fact, so they are reported as issues like any other.
 */
function textExpectedIssues(schema: AnyYupSchema, value: unknown, path: string, parent: unknown): ValidationIssue[] {
  let resolved: yup.Schema;
  try {
    resolved = schema instanceof yup.Schema ? schema : schema.resolve({ value, parent });
  } catch {
    return [];
  }
  if (resolved.type === 'string') {
    return value !== null && typeof value === 'object' ? [{ path, message: `${path === '' ? 'the value' : path} must be a string` }] : [];
  }
  if (resolved instanceof yup.ObjectSchema && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const fields = resolved.fields as Record<string, AnyYupSchema>;
    return Object.entries(fields)
      .filter(([name]) => Object.hasOwn(value, name))
      .flatMap(([name, field]) => textExpectedIssues(field, (value as Record<string, unknown>)[name], joined(path, name), value));
  }
  if (resolved instanceof yup.ArraySchema && Array.isArray(value)) {
    const inner = resolved.innerType as AnyYupSchema | undefined;
    return inner ? value.flatMap((item: unknown, index) => textExpectedIssues(inner, item, `${path}[${index}]`, value)) : [];
  }
  return [];
}

/** The issues of a failed validation: yup's own, or the places a TypeError came from; anything else is thrown on. */
function failureIssues(schema: AnyYupSchema, value: unknown, error: unknown): ValidationIssue[] {
  if (error instanceof yup.ValidationError) {
    return validationIssues(error);
  }
  const issues = error instanceof TypeError ? textExpectedIssues(schema, value, '', undefined) : [];
  if (issues.length === 0) {
    throw error;
  }
  return issues;
}

/**
 * Casts and validates `value` with one of the shared yup schemas. Every transport validates
 * through here, so a failure reads the same over REST and GraphQL: a GridportError with `key`
 * (payload_invalid for a body, query_invalid for query arguments, params_invalid for path
 * parameters) and, as details, every issue as { path, message }.
 */
export function validate<S extends yup.Schema>(schema: S, value: unknown, key: ErrorKey): yup.InferType<S> {
  checkJsonShape(value, key);
  try {
    return schema.validateSync(value, { abortEarly: false }) as yup.InferType<S>;
  } catch (error) {
    throw new GridportError(key, failureIssues(schema, value, error));
  }
}

/** Every issue `schema` finds in `value`, as { path, message }; empty when the value is valid. */
export function issuesOf(schema: AnyYupSchema, value: unknown): ValidationIssue[] {
  const shapeIssue = jsonShapeIssue(value);
  if (shapeIssue !== null) {
    return [shapeIssue];
  }
  try {
    schema.validateSync(value, { abortEarly: false });
    return [];
  } catch (error) {
    return failureIssues(schema, value, error);
  }
}
