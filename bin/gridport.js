#!/usr/bin/env node
// The operator command line. Runs the compiled server code; builds it first on a fresh checkout.
'use strict';
const { existsSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const root = path.join(__dirname, '..');
const cli = path.join(root, 'dist', 'server', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('gridport: building the server first (npm run build)...\n');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
}
require(cli)
  .runCli(process.argv.slice(2))
  .then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`gridport: ${error && error.message ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
