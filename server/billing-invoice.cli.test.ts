import { HashIds } from '../graph/common/hash-ids';
import { createServices, type Services } from '../graph/services';
import type { InvoiceRunView } from '../contracts/billing-invoice';
import { testSecrets } from '../test-support/app';
import { insertCharges } from '../test-support/billing';
import { testDatabase, type TestDatabase } from '../test-support/database';
import { buildOrganization, insertDeviceRow } from '../test-support/factories';
import type { CliIo } from './cli';
import { parseCommand, runDatabaseCommand, type DatabaseCommand } from './operator-commands';

function captured(): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (text) => lines.push(text), err: (text) => errors.push(text) };
}

/** `gridport billing invoice [--organization <hashId>] [--at <ISO>]`: the invoicing job from the command line. */
describe('the billing invoice command', () => {
  let database: TestDatabase;
  let services: Services;

  beforeAll(async () => {
    database = await testDatabase();
    services = createServices({
      db: database.db,
      hashIds: new HashIds(testSecrets.hashIdSecret),
      ...testSecrets,
      clock: () => new Date('2026-04-10T00:00:00Z'),
    });
  });

  afterAll(async () => {
    await database.close();
  });

  async function run(argv: string[]) {
    const io = captured();
    const parsed = parseCommand(argv, io);
    if (parsed.kind !== 'run') {
      return { code: parsed.code, io };
    }
    return { code: await runDatabaseCommand(parsed.command as DatabaseCommand, parsed.values, services, [], io), io };
  }

  it('invoices one organisation at a moment, prints what it made and held back, and makes nothing the second time', async () => {
    const organization = await buildOrganization(services, { name: 'CLI Invoice BV' });
    await database
      .db('organizations')
      .where('id', organization.id)
      .update({ require_customer_reference_per_device: true, invoice_customer_reference: 'PO-CLI' });
    const device = await insertDeviceRow(database.db, { organization_id: organization.id });
    await insertCharges(database.db, [
      { organizationId: organization.id, source: 'manual', description: 'Setup', billableAt: '2026-02-10T00:00:00Z', charge: 123_456 },
      { organizationId: organization.id, deviceId: device, billableAt: '2026-02-01T00:00:00Z', charge: 500 },
      { organizationId: organization.id, source: 'manual', billableAt: '2026-03-05T00:00:00Z', charge: 700 },
    ]);
    const first = await run(['billing', 'invoice', '--organization', organization.hashId, '--at', '2026-03-01T12:00:00Z']);
    expect(first.code).toBe(0);
    const [line, held] = (first.io.lines[0] ?? '').split('\n');
    expect(line).toMatch(/^GP-2026-000001 {2}\w+ {2}CLI Invoice BV {2}no legal entity {2}ref PO-CLI {2}1 charge\(s\) {2}€ 1\.234,56$/);
    expect(held).toMatch(/^held back: charge \w+ of device \w+ \(the device has no customerReference of its own\)$/);

    const again = await run(['billing', 'invoice', '--organization', organization.hashId, '--at', '2026-03-01T12:00:00Z']);
    expect(again.io.lines[0]?.split('\n')[0]).toBe('No invoice made: nothing was due.');

    // Without --at the services' clock (April): March's charge is due; --json prints the runs.
    const json = await run(['billing', 'invoice', '--json']);
    expect(json.code).toBe(0);
    const { runs } = JSON.parse(json.io.lines[0] ?? '') as { runs: InvoiceRunView[] };
    expect(runs.flatMap((entry) => entry.invoices.map((invoice) => [invoice.publicId, invoice.charge]))).toEqual([['GP-2026-000002', 700]]);
    expect(runs.find((entry) => entry.organizationHashId === organization.hashId)?.heldBack).toHaveLength(1);
  });

  it('refuses an unknown organisation and a moment that is no time, with their keys', async () => {
    const unknown = await run(['billing', 'invoice', '--organization', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.io.errors[0]).toMatch(/^gridport: not_found: /);
    const badTime = await run(['billing', 'invoice', '--at', 'yesterday']);
    expect(badTime.code).toBe(1);
    expect(badTime.io.errors[0]).toMatch(/^gridport: payload_invalid: .*\n {2}- at: /);
    const extra = await run(['billing', 'invoice', 'now']);
    expect(extra.code).toBe(2);
  });
});
