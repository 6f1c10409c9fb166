#!/usr/bin/env -S node --max-semi-space-size=16
// The `einvoice` command: runs the built CLI (npm run build makes out/main/cli.cjs).
//
// --max-semi-space-size=16 (MB): without it V8 grows its young generation (16 → 128 MB committed)
// in any run long enough to collect it often, and a 100 000-ID `einvoice download` peaked at
// ~300 MB against ~130 MB for 1 000 IDs while the live heap stayed at ~32 MB. Bounded, the young
// generation is collected more often; a batch's objects are short-lived, so time per ID was no
// worse in the downloads scale bench (471 µs with, 520 µs without, same run) and the 100 000-ID
// peak was 214–238 MB (README). 4 or 8 MB was slower and no smaller in a 30 000-ID trial: more
// of each batch outlived two collections. The shebang carries the option (npm's Windows shims
// read it too); `node bin/einvoice.cjs …` runs without it.
require('./node-check.cjs').requireNode();
const path = require('node:path');
const fs = require('node:fs');
const cli = path.join(__dirname, '..', 'out', 'main', 'cli.cjs');
if (!fs.existsSync(cli)) {
  console.error('einvoice: not built yet; run `npm run build` first. / Chưa build: hãy chạy `npm run build`.');
  process.exit(2);
}
require(cli);
