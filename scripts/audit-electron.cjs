// Electronegativity over the Electron-facing sources (main/electron, the shared security
// policy, the preload and the renderer's HTML), run programmatically because its command line
// never fails a build. It runs offline: its online parts (a translation download and the
// "available security fixes" check) are replaced by an immediate refusal.
// Prints one JSON document: { checks, parseErrors, findings: [{id, severity, confidence, file, line, review}] }.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');

const originalLoad = Module._load;
Module._load = function load(request, ...rest) {
  if (request === 'got') return () => Promise.reject(new Error('offline: online checks are excluded'));
  return originalLoad.call(this, request, ...rest);
};

const root = path.resolve(__dirname, '..');
const SCANNED = ['main/electron', 'main/security-policy.ts', 'preload', 'renderer/index.html'];

function copyInto(target, relative) {
  const from = path.join(root, relative);
  if (!fs.existsSync(from)) return;
  fs.cpSync(from, path.join(target, relative), { recursive: true });
}

async function main() {
  const run = require('@doyensec/electronegativity');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-audit-'));
  const silence = console.log;
  try {
    for (const relative of SCANNED) copyInto(work, relative);
    console.log = () => {}; // its progress chatter
    const result = await run({
      input: work,
      excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
      electronVersionOverride: require('electron/package.json').version,
      isRelative: true,
    });
    console.log = silence;
    const findings = result.issues.map((issue) => ({
      id: issue.id,
      severity: issue.severity.name,
      confidence: issue.confidence.name,
      file: issue.file,
      line: issue.location ? issue.location.line : 0,
      review: Boolean(issue.manualReview),
      description: issue.description,
    }));
    process.stdout.write(
      JSON.stringify({
        scanned: SCANNED,
        checks: result.atomicChecks + result.globalChecks,
        parseErrors: result.errors.filter((e) => !e.tolerable).map((e) => `${path.relative(work, e.file)}: ${e.message}`),
        findings,
      }),
    );
  } finally {
    console.log = silence;
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`audit failed: ${error && error.stack ? error.stack : error}`);
  process.exit(2);
});
