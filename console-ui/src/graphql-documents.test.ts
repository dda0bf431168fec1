import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { Kind, parse } from 'graphql';

/** Every GraphQL document of the console (each the source of the X.generated.ts beside it). */
function filesEnding(folder: string, ending: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      return filesEnding(path, ending);
    }
    return entry.name.endsWith(ending) ? [path] : [];
  });
}

const files = filesEnding(__dirname, '.graphql');

/**
 * The naming scheme of the console's GraphQL (README, "Adding a screen"): a document sits beside
 * the component or hook that uses it and bears its name, and a fragment is named after the
 * component that renders it and the prop that takes it (Apollo's `Component_prop`).
 */
describe('GraphQL documents', () => {
  it('are found', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files.map((file) => [relative(__dirname, file), file]))('%s sits beside the module of its name', (_, file) => {
    const name = basename(file, '.graphql');
    const modules = ['.ts', '.tsx'].map((extension) => join(dirname(file), `${name}${extension}`)).filter((path) => existsSync(path));
    expect(modules.map((path) => relative(__dirname, path))).toHaveLength(1);
  });

  it.each(files.map((file) => [relative(__dirname, file), file]))('%s names its fragments Module_prop', (_, file) => {
    const name = basename(file, '.graphql');
    const fragments = parse(readFileSync(file, 'utf8'))
      .definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((definition) => definition.name.value);
    expect(fragments.filter((fragment) => !new RegExp(`^${name}_[a-z][A-Za-z0-9]*$`).test(fragment))).toEqual([]);
  });

  it('each have their generated module, and no generated module outlives its document', () => {
    const generated = filesEnding(__dirname, '.generated.ts').map((path) => relative(__dirname, path));
    expect(generated.sort()).toEqual(files.map((file) => relative(__dirname, file.replace(/\.graphql$/, '.generated.ts'))).sort());
  });
});
