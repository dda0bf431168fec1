import 'reflect-metadata';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { extendSchema, isSpecifiedScalarType, parse, printSchema, printType, type GraphQLSchema } from 'graphql';
import pino from 'pino';
import { InProcessPubSub } from '../graph/common/pubsub';
import { composeGraph } from '../resolvers/gateway';
import { buildLiveSchema } from '../resolvers/live/schema';
import { projectRoot } from './version';

/**
 * The API as clients see it: the composed graph (queries and mutations over HTTP) extended by the
 * live schema's Subscription type and the types only it uses (served over graphql-ws at the same
 * /graphql, server/graphql-ws.ts), so that the console's subscriptions are typed like its queries.
 */
export async function clientSchema(): Promise<GraphQLSchema> {
  const graph = await composeGraph(pino({ level: 'silent' }));
  const live = await buildLiveSchema(new InProcessPubSub());
  const liveOnly = Object.values(live.getTypeMap()).filter(
    (type) => !type.name.startsWith('__') && !isSpecifiedScalarType(type) && type !== live.getQueryType() && graph.apiSchema.getType(type.name) === undefined,
  );
  const definitions = [...liveOnly.map((type) => printType(type)), 'extend schema { subscription: Subscription }'];
  return extendSchema(graph.apiSchema, parse(definitions.join('\n\n')));
}

/** The client schema as committed in schema.graphql. */
export async function printComposedSchema(): Promise<string> {
  return `${printSchema(await clientSchema())}\n`;
}

export type PrintSchemaOutcome = 'written' | 'unchanged' | 'up-to-date' | 'stale';

/** Writes schema.graphql, or with `check` only compares it with the schema the code composes. */
export async function printSchemaFile(file: string, check: boolean): Promise<PrintSchemaOutcome> {
  const printed = await printComposedSchema();
  const committed = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (check) {
    return committed === printed ? 'up-to-date' : 'stale';
  }
  if (committed === printed) {
    return 'unchanged';
  }
  writeFileSync(file, printed);
  return 'written';
}

/**
 * The files graphql-codegen would generate from codegen.yml that differ from those on disk.
 * graphql-codegen is a development dependency, loaded only for the check.
 */
export async function staleGeneratedFiles(root: string): Promise<string[]> {
  const { generate, loadContext } = await import('@graphql-codegen/cli');
  const context = await loadContext(path.join(root, 'codegen.yml'));
  context.updateConfig({ silent: true });
  const outputs: { filename: string; content: string }[] = await generate(context, false);
  return outputs
    .filter(({ filename, content }) => {
      const file = path.resolve(root, filename);
      return !existsSync(file) || readFileSync(file, 'utf8') !== content;
    })
    .map(({ filename }) => filename);
}

const regenerate = 'Run `npm run codegen` and commit schema.graphql and console-ui/src/graphql/schema-types.ts.';

async function main(argv: string[]): Promise<number> {
  const check = argv.includes('--check');
  const root = projectRoot();
  const file = path.join(root, 'schema.graphql');
  const outcome = await printSchemaFile(file, check);
  if (outcome === 'stale') {
    process.stderr.write(`${file} is stale: it differs from the schema the subgraphs compose. ${regenerate}\n`);
    return 1;
  }
  if (check) {
    const stale = await staleGeneratedFiles(root);
    if (stale.length > 0) {
      process.stderr.write(
        `generated types are stale: ${stale.join(', ')} ${stale.length === 1 ? 'differs' : 'differ'} from what codegen.yml generates from schema.graphql. ${regenerate}\n`,
      );
      return 1;
    }
    process.stdout.write(`${file} and the generated types match the composed schema\n`);
    return 0;
  }
  process.stdout.write(outcome === 'written' ? `wrote ${file}\n` : `${file} is up to date\n`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
