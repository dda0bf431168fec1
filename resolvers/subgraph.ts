import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import {
  GraphQLError,
  isObjectType,
  parse,
  responsePathAsArray,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import type { Logger } from 'pino';
import { buildSchema, createResolversMap, getMetadataStorage, type ClassType, type NonEmptyArray } from 'type-graphql';
import { errorCatalogue, GridportError, isErrorKey } from '../contracts/errors';
import { infrastructureError } from '../graph/common/infrastructure-errors';
import type { GraphqlContext } from './graphql-context';

/** One subgraph, ready to compose (`sdl`) and to execute (`schema`). */
export interface Subgraph {
  name: string;
  sdl: string;
  schema: GraphQLSchema;
}

/** Fetches an entity by its key fields for another subgraph (`__resolveReference`). */
export type ReferenceResolver = (reference: Readonly<Record<string, unknown>>, context: GraphqlContext) => Promise<unknown>;

export interface SubgraphDefinition {
  name: string;
  resolvers: NonEmptyArray<ClassType>;
  /** Types no resolver returns but the subgraph must still declare. */
  orphanedTypes?: ClassType[];
  /** The reference resolver of each entity type (an object type with `@key`), by GraphQL type name. */
  entities?: Record<string, ReferenceResolver>;
}

/** The Federation 2 features a subgraph may use; prepended to every subgraph's SDL. */
export const federationLink =
  'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable", "@external", "@requires", "@provides", "@inaccessible", "@tag", "@override", "@interfaceObject"])';

type SubgraphModule = Extract<Parameters<typeof buildSubgraphSchema>[0], { typeDefs: unknown }>;
type SubgraphResolvers = NonNullable<SubgraphModule['resolvers']>;

function extensionsOf(error: GridportError): Record<string, unknown> {
  return error.details === undefined ? { code: error.key } : { code: error.key, details: error.details };
}

/**
 * What any error thrown by a resolver becomes when it leaves the subgraph: a GridportError
 * keeps its key (`extensions.code`) and details; anything else is logged with its stack and
 * answered as internal_server_error, without internals; the database away or a full disk answer as
 * REST answers them (graph/common/infrastructure-errors.ts).
 */
export function toSubgraphError(error: unknown, log: Logger, where: Record<string, unknown>): GraphQLError {
  if (error instanceof GridportError) {
    return new GraphQLError(error.message, { extensions: extensionsOf(error) });
  }
  if (error instanceof GraphQLError && isErrorKey(error.extensions.code)) {
    return error;
  }
  const infrastructure = infrastructureError(error);
  if (infrastructure) {
    log.error({ err: error, ...where }, infrastructure.logMessage);
    return new GraphQLError(infrastructure.error.message, { extensions: extensionsOf(infrastructure.error) });
  }
  log.error({ err: error, ...where }, 'unexpected error in a GraphQL resolver');
  return new GraphQLError(errorCatalogue.internal_server_error.message, { extensions: { code: 'internal_server_error' } });
}

function whereIn(info: GraphQLResolveInfo): Record<string, unknown> {
  return { graphqlPath: responsePathAsArray(info.path).join('.'), field: `${info.parentType.name}.${info.fieldName}` };
}

type FieldResolver = GraphQLFieldResolver<unknown, GraphqlContext>;

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * `resolve` with toSubgraphError applied to whatever it throws or rejects with. A resolver that
 * answers synchronously (a plain property) stays synchronous: a type-graphql global middleware
 * would do the same job but make every field asynchronous, which triples the cost of a page of
 * 500 rows.
 */
function guarded(subgraph: string, log: Logger, resolve: FieldResolver): FieldResolver {
  return (source, args, context, info) => {
    try {
      const result: unknown = resolve(source, args, context, info);
      if (isPromiseLike(result)) {
        return Promise.resolve(result).catch((error: unknown) => {
          throw toSubgraphError(error, log, { subgraph, ...whereIn(info) });
        });
      }
      return result;
    } catch (error) {
      throw toSubgraphError(error, log, { subgraph, ...whereIn(info) });
    }
  };
}

/**
 * The fields of an object type that type-graphql resolves by reading the property of the same
 * name, with no middleware, no roles and no field resolver: graphql-js's default resolver reads
 * the same property without type-graphql's wrapper and ours, which a page of rows pays for
 * every field of every row. Anything else (a field of an interface, of a parent class, named
 * apart from its property, with a field resolver) keeps its resolver. An entity declared by
 * several subgraphs has a class in each: the classes with this type's very fields are asked,
 * and a field is left to graphql-js only if every one of them says it may be.
 */
function propertyFields(type: GraphQLObjectType): Set<string> {
  const storage = getMetadataStorage();
  const fieldNames = Object.keys(type.getFields()).sort().join(',');
  const classes = storage.objectTypes.filter(
    (candidate) =>
      candidate.name === type.name &&
      (candidate.fields ?? [])
        .map((field) => field.schemaName)
        .sort()
        .join(',') === fieldNames,
  );
  if (classes.length === 0) {
    return new Set();
  }
  const plainOf = (objectType: (typeof classes)[number]): Set<string> => {
    const resolved = new Set(
      storage.fieldResolvers
        .filter((resolver) => resolver.target === objectType.target || resolver.getObjectType?.() === objectType.target)
        .flatMap((resolver) => [resolver.methodName, resolver.schemaName]),
    );
    return new Set(
      (objectType.fields ?? [])
        .filter(
          (field) =>
            field.target === objectType.target &&
            field.name === field.schemaName &&
            field.roles === undefined &&
            (field.middlewares ?? []).length === 0 &&
            !resolved.has(field.name),
        )
        .map((field) => field.schemaName),
    );
  };
  const [first, ...others] = classes.map(plainOf);
  return new Set([...(first ?? [])].filter((name) => others.every((plain) => plain.has(name))));
}

/** Every field resolver of every object type in type-graphql's resolver map, guarded; a plain property read is left to graphql-js. */
function guardResolvers(schema: GraphQLSchema, map: Record<string, object>, subgraph: string, log: Logger): void {
  for (const type of Object.values(schema.getTypeMap())) {
    const fields = map[type.name];
    if (!isObjectType(type) || type.name.startsWith('__') || !fields) {
      continue;
    }
    const properties = propertyFields(type);
    const guardedFields: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(fields) as [string, unknown][]) {
      if (properties.has(name)) {
        continue;
      }
      if (typeof value === 'function' && !name.startsWith('__')) {
        guardedFields[name] = guarded(subgraph, log, value as FieldResolver);
      } else if (typeof value === 'object' && value !== null) {
        const { resolve, subscribe } = value as { resolve?: FieldResolver; subscribe?: FieldResolver };
        guardedFields[name] = {
          ...value,
          ...(resolve ? { resolve: guarded(subgraph, log, resolve) } : {}),
          ...(subscribe ? { subscribe: guarded(subgraph, log, subscribe) } : {}),
        };
      } else {
        guardedFields[name] = value;
      }
    }
    map[type.name] = guardedFields;
  }
}

/**
 * Builds one Apollo Federation 2 subgraph from type-graphql resolvers: type-graphql makes the
 * schema, its SDL (with directives such as `@key`) and resolver map become the subgraph, and
 * every resolver's errors pass through toSubgraphError on the way out. Inputs are validated
 * with the yup schemas of `contracts/`, so type-graphql's validation is off.
 */
export async function buildSubgraph(definition: SubgraphDefinition, log: Logger): Promise<Subgraph> {
  const built = await buildSchema({ resolvers: definition.resolvers, orphanedTypes: definition.orphanedTypes, validate: false });
  const sdl = `${federationLink}\n\n${printSchemaWithDirectives(built)}`;
  const resolvers = createResolversMap(built) as Record<string, object>;
  guardResolvers(built, resolvers, definition.name, log);
  for (const [typeName, resolveReference] of Object.entries(definition.entities ?? {})) {
    const fields = resolvers[typeName];
    if (!fields) {
      throw new Error(`subgraph ${definition.name} declares entity ${typeName}, but its schema has no such type`);
    }
    const __resolveReference = async (reference: Readonly<Record<string, unknown>>, context: GraphqlContext) => {
      try {
        return await resolveReference(reference, context);
      } catch (error) {
        throw toSubgraphError(error, log, { subgraph: definition.name, field: `${typeName}.__resolveReference` });
      }
    };
    resolvers[typeName] = { ...fields, __resolveReference };
  }
  const schema = buildSubgraphSchema({ typeDefs: parse(sdl), resolvers: resolvers as SubgraphResolvers });
  return { name: definition.name, sdl, schema };
}
