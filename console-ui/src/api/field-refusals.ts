import type { ValidationIssue } from '../../../contracts/errors';
import { apiErrorOfApollo } from './apollo';

/**
 * The field errors of a payload_invalid refusal: each issue (path and message, as the server's
 * validation gives them) under the form field `fieldOf` names for its path, the messages of one
 * field joined; null for any other failure, which the caller shows otherwise (the snackbar).
 */
export function fieldErrorsOfRefusal<Field extends string>(error: unknown, fieldOf: (path: string) => Field): Partial<Record<Field, string>> | null {
  const apiError = apiErrorOfApollo(error);
  if (apiError === null || !apiError.is('payload_invalid') || !Array.isArray(apiError.details)) {
    return null;
  }
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of apiError.details as Partial<ValidationIssue>[]) {
    const path = typeof issue.path === 'string' ? issue.path : '';
    const message = typeof issue.message === 'string' ? issue.message : path;
    const field = fieldOf(path);
    const earlier = errors[field];
    errors[field] = earlier === undefined ? message : `${earlier} ${message}`;
  }
  return errors;
}
