import { fuzzCallers, fuzzHttp, fuzzSummary } from '../bench/fuzz';
import { composeGraph } from '../resolvers/gateway';
import { testApp, type TestApp } from '../test-support/app';
import { anOrganization } from '../test-support/factories';

/**
 * The HTTP surface fuzzed (bench/fuzz.ts), briefly: every REST operation and every GraphQL root
 * field, a few generated requests each, from callers of every kind. FUZZ_SEED repeats a run;
 * `npm run bench -- fuzz` runs longer.
 */
describe('the HTTP surface, fuzzed', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await testApp({}, { graphql: true });
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers every generated request, never with 500 or 499, and every error with a catalogue key', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const baseUrl = await t.listen();
    const customer = await anOrganization(t.services, { name: 'Fuzzed BV' });
    const { apiSchema } = await composeGraph(t.logs.log);
    const counts = await fuzzHttp({
      baseUrl,
      callers: await fuzzCallers(t.services, customer.hashId),
      schema: apiSchema,
      seed,
      runsPerOperation: 6,
      runsPerField: 4,
      requestTimeoutMs: 10_000,
    }).catch((error: unknown) => {
      throw new Error(`the fuzz (FUZZ_SEED=${seed}) found: ${error instanceof Error ? error.message : String(error)}`);
    });
    process.stdout.write(`${fuzzSummary(counts)}\n`);
    // Every REST operation of the OpenAPI document, 6 requests each: a new route raises the count here.
    expect(counts.operations).toBe(127);
    expect(counts.restRequests).toBe(127 * 6);
    expect(counts.graphqlRequests).toBe(counts.rootFields * 4);
    expect(counts.statuses['500']).toBeUndefined();
    // Nothing unexpected reached the log: no error that was not the client's, and no client that went away while it waited.
    const unexpected = t.logs.lines.filter(
      (line) => (typeof line.msg === 'string' && line.msg.startsWith('unexpected')) || line.statusCode === 499 || line.msg === 'a graphql-ws message failed',
    );
    expect(unexpected).toEqual([]);
  });
});
