// The layers of docs/architecture.md, kept by the linter: which top-level folder may import which,
// and that a domain of graph/ reaches another domain through its services, never its models
// (models may name each other in their relation mappings).
// The table is a layering (each folder lists only folders below it), so no import cycle between
// top-level folders can pass.
'use strict';
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** Each production folder and the folders it may import from (itself always). */
const layers = {
  contracts: [],
  migrations: ['contracts'],
  graph: ['contracts'],
  resolvers: ['graph', 'contracts'],
  'device-hub': ['graph', 'contracts'],
  edge: ['contracts'],
  server: ['resolvers', 'device-hub', 'graph', 'edge', 'migrations', 'contracts'],
  'console-ui': ['contracts'],
};

/** Folders of tools around the product: they may import any product folder, and nothing imports them but tests. */
const tooling = ['test-support', 'bench', 'lint'];

const isTest = (file) => /\.(test|spec)\.tsx?$/.test(file) || file.includes(`${path.sep}e2e${path.sep}`) || file.includes(`${path.sep}test-support${path.sep}`);

function topFolder(file) {
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    return null;
  }
  const [first] = relative.split(path.sep);
  return first && (first in layers || tooling.includes(first)) ? first : null;
}

/** graph/<domain>/models/...: the domain whose models a file is, or null. */
function modelsDomain(file) {
  const parts = path.relative(root, file).split(path.sep);
  return parts[0] === 'graph' && parts[2] === 'models' ? parts[1] : null;
}

function graphDomain(file) {
  const parts = path.relative(root, file).split(path.sep);
  return parts[0] === 'graph' && parts.length > 2 ? parts[1] : null;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'imports follow the layers of docs/architecture.md' },
    messages: {
      outward: '{{from}}/ may not import {{to}}/ (layers: {{from}}/ imports only {{allowed}}); see docs/architecture.md',
      tooling: '{{to}}/ holds test and benchmark tools; production code in {{from}}/ may not import it',
      models: "graph/{{from}} may not reach into graph/{{to}}'s models; go through graph/{{to}}'s services",
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = topFolder(file);
    if (from === null) {
      return {};
    }
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) {
        return;
      }
      const target = path.resolve(path.dirname(file), source);
      const to = topFolder(target);
      if (to === null || to === from) {
        const targetDomain = modelsDomain(target);
        const sourceDomain = graphDomain(file);
        // Models may name another domain's models in their relation mappings; the rest goes through services.
        if (
          targetDomain !== null &&
          sourceDomain !== null &&
          sourceDomain !== 'common' &&
          targetDomain !== sourceDomain &&
          modelsDomain(file) === null &&
          !isTest(file)
        ) {
          context.report({ node, messageId: 'models', data: { from: sourceDomain, to: targetDomain } });
        }
        if (targetDomain !== null && sourceDomain === 'common' && !isTest(file)) {
          context.report({ node, messageId: 'models', data: { from: 'common', to: targetDomain } });
        }
        return;
      }
      if (tooling.includes(from)) {
        return;
      }
      if (tooling.includes(to)) {
        if (!isTest(file)) {
          context.report({ node, messageId: 'tooling', data: { from, to } });
        }
        return;
      }
      if (isTest(file) && !path.relative(root, file).startsWith(path.join('console-ui', 'src'))) {
        // A test may build its world from any product folder (the browser tests start a server);
        // the console's component tests run browser code, which stays on its side.
        return;
      }
      const allowed = layers[from];
      if (!allowed.includes(to)) {
        context.report({ node, messageId: 'outward', data: { from, to, allowed: [from, ...allowed].map((name) => `${name}/`).join(', ') } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0] && node.arguments[0].type === 'Literal') {
          check(node.arguments[0], node.arguments[0].value);
        }
      },
    };
  },
};

module.exports = { layers, plugin: { rules: { layers: rule } } };
