import fs from 'node:fs';
import path from 'node:path';

/**
 * Hardening tests (faults, crash seeds, fuzz cases, the security audit) record what they ran
 * here; `npm test` prints the totals at the end. One JSON file per test file, merged by key.
 */
export function recordHardening(name: string, figures: Record<string, number | string | Record<string, number>>): void {
  const dir = path.resolve('test-results', 'hardening');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  fs.writeFileSync(file, JSON.stringify({ ...previous, ...figures }, null, 2));
}
