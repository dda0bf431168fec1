import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { printComposedSchema, printSchemaFile } from './print-schema';

describe('print-schema', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'gridport-schema-'));

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('finds the committed schema.graphql up to date with the composed schema', async () => {
    const committed = path.join(__dirname, '..', 'schema.graphql');
    expect(await printSchemaFile(committed, true)).toBe('up-to-date');
  });

  it('calls a schema file that differs stale, writes it, then finds it up to date', async () => {
    const file = path.join(folder, 'schema.graphql');
    writeFileSync(file, 'type Query { old: String }\n');
    expect(await printSchemaFile(file, true)).toBe('stale');
    expect(readFileSync(file, 'utf8')).toBe('type Query { old: String }\n');
    expect(await printSchemaFile(file, false)).toBe('written');
    expect(readFileSync(file, 'utf8')).toBe(await printComposedSchema());
    expect(await printSchemaFile(file, true)).toBe('up-to-date');
    expect(await printSchemaFile(file, false)).toBe('unchanged');
  });

  it('calls a missing schema file stale', async () => {
    expect(await printSchemaFile(path.join(folder, 'missing.graphql'), true)).toBe('stale');
  });

  it('prints the API schema without federation internals', async () => {
    const printed = await printComposedSchema();
    expect(printed).toContain('type Organization {');
    expect(printed).not.toMatch(/@key|@link|join__|_entities|_service/);
  });
});
