/**
 * Query arguments as the yup schemas of `contracts/` expect them. GraphQL clients send null
 * for an argument they leave out as often as they omit it; both mean "not given" here.
 */
export function givenArguments<T extends object>(args: T): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null && value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], null>;
  };
}
