#!/usr/bin/env -S node --max-semi-space-size=16
// The `einvoice` command: runs the built CLI (npm run build makes out/main/cli.cjs).
//
// --max-semi-space-size=16 (MB): V8 otherwise doubles its young generation up to 64 MB per
// semi-space (128 MB committed) in any run long enough to collect it often, which is what made a
// 100 000-ID `einvoice download` peak about 170 MB above a 1 000-ID one while the live heap stayed
// at ~32 MB. Bounded at 16 MB the young generation is collected a little more often (the objects
// of a batch are short-lived, so it costs little: see the downloads scale bench and README) and
// the peak stays within 64 MB of a small job's. The shebang carries it (npm's Windows shims read
// it too); `node bin/einvoice.cjs …` runs without it unless given the same option.
require('./node-check.cjs').requireNode();
const path = require('node:path');
const fs = require('node:fs');
const cli = path.join(__dirname, '..', 'out', 'main', 'cli.cjs');
if (!fs.existsSync(cli)) {
  console.error('einvoice: not built yet; run `npm run build` first. / Chưa build: hãy chạy `npm run build`.');
  process.exit(2);
}
require(cli);
