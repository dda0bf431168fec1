import * as yup from 'yup';
import { GridportError, type ErrorKey, type ValidationIssue } from './errors';

/** Every failed rule of a yup error, each with where in the input it failed ('' for the input itself). */
export function validationIssues(error: yup.ValidationError): ValidationIssue[] {
  const failures = error.inner.length > 0 ? error.inner : [error];
  return failures.map((failure) => ({ path: failure.path ?? '', message: failure.message }));
}

/**
 * Casts and validates `value` with one of the shared yup schemas. Every transport validates
 * through here, so a failure reads the same over REST and GraphQL: a GridportError with `key`
 * (payload_invalid for a body, query_invalid for query arguments, params_invalid for path
 * parameters) and, as details, every issue as { path, message }.
 */
export function validate<S extends yup.Schema>(schema: S, value: unknown, key: ErrorKey): yup.InferType<S> {
  try {
    return schema.validateSync(value, { abortEarly: false }) as yup.InferType<S>;
  } catch (error) {
    if (error instanceof yup.ValidationError) {
      throw new GridportError(key, validationIssues(error));
    }
    throw error;
  }
}

/** Every issue `schema` finds in `value`, as { path, message }; empty when the value is valid. */
export function issuesOf(schema: { validateSync(value: unknown, options: yup.ValidateOptions): unknown }, value: unknown): ValidationIssue[] {
  try {
    schema.validateSync(value, { abortEarly: false });
    return [];
  } catch (error) {
    if (error instanceof yup.ValidationError) {
      return validationIssues(error);
    }
    throw error;
  }
}
