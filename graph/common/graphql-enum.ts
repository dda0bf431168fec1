import { registerEnumType } from 'type-graphql';

/** The GraphQL name of a value: 'energy-trader' → ENERGY_TRADER, 'controller2faChanges' → CONTROLLER_2FA_CHANGES. */
export function enumKey(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([a-zA-Z])([0-9])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();
}

/**
 * A GraphQL enum over the values of a list from `contracts/`: GraphQL clients see ENERGY_TRADER,
 * resolvers and services see 'energy-trader'.
 */
export function graphqlEnum<V extends string>(name: string, values: readonly V[], description?: string): Record<string, V> {
  const members: Record<string, V> = {};
  for (const value of values) {
    const key = enumKey(value);
    if (Object.prototype.hasOwnProperty.call(members, key)) {
      throw new Error(`GraphQL enum ${name}: '${value}' and '${String(members[key])}' would both be ${key}`);
    }
    members[key] = value;
  }
  registerEnumType(members, { name, description });
  return members;
}
