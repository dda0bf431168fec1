import { UseMiddleware, type MiddlewareFn } from 'type-graphql';
import type { Operation } from '../contracts/rights';
import { authorize } from '../graph/common/context';
import type { GraphqlContext } from './graphql-context';

/**
 * The operations a root field serves (contracts/rights.ts `accessRules`): who may not do any of
 * them is refused before the field's arguments are read, as a REST route refuses before its
 * body is; the service the field calls checks the same operations again.
 */
export function Allowed(...operations: [Operation, ...Operation[]]): MethodDecorator {
  const guard: MiddlewareFn<GraphqlContext> = async ({ context }, next) => {
    authorize(context.actor, ...operations);
    return next();
  };
  return UseMiddleware(guard);
}
