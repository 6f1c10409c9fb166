#!/usr/bin/env node
// The `einvoice` command: runs the built CLI (npm run build makes out/main/cli.cjs).
require('./node-check.cjs').requireNode();
const path = require('node:path');
const fs = require('node:fs');
const cli = path.join(__dirname, '..', 'out', 'main', 'cli.cjs');
if (!fs.existsSync(cli)) {
  console.error('einvoice: not built yet; run `npm run build` first. / Chưa build: hãy chạy `npm run build`.');
  process.exit(2);
}
require(cli);
