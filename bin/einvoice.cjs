#!/usr/bin/env -S node --max-semi-space-size=16
// The `einvoice` command: runs the built CLI (npm run build makes out/main/cli.cjs).
//
// --max-semi-space-size=16 (MB): without it V8 grows its young generation (16 → 128 MB committed)
// in any run long enough to collect it often; bounded, a batch's short-lived objects are collected
// sooner, and time per ID was no worse in the downloads scale bench (471 vs 520 µs). 4 or 8 MB was
// slower and no smaller. It sizes the heap, so it must be given at start; the CLI sets its other
// memory options itself (main/memory-policy.ts). With them, a 100 000-ID download peaked at +53 MB
// over a 1 000-ID one; with them and without this option, +137 MB (same run). The shebang carries
// the option (npm's Windows shims read it too); `node bin/einvoice.cjs …` runs without it.
require('./node-check.cjs').requireNode();
const path = require('node:path');
const fs = require('node:fs');
const cli = path.join(__dirname, '..', 'out', 'main', 'cli.cjs');
if (!fs.existsSync(cli)) {
  console.error('einvoice: not built yet; run `npm run build` first. / Chưa build: hãy chạy `npm run build`.');
  process.exit(2);
}
require(cli);
