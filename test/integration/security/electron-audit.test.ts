import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { recordHardening } from '../../support/hardening-report';

interface Audit {
  checks: number;
  parseErrors: string[];
  findings: Array<{ id: string; severity: string; confidence: string; file: string; line: number; review: boolean }>;
}

describe('Electron security audit (Electronegativity, offline)', () => {
  it('finds no high-severity problem in main/electron, the preload or the renderer page', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/audit-electron.cjs'], { maxBuffer: 16 * 1024 * 1024, timeout: 180_000 });
    const audit = JSON.parse(stdout) as Audit;
    const bySeverity: Record<string, number> = { HIGH: 0, MEDIUM: 0, LOW: 0, INFORMATIONAL: 0 };
    for (const finding of audit.findings) bySeverity[finding.severity] = (bySeverity[finding.severity] ?? 0) + 1;
    recordHardening('electron-audit', { auditChecks: audit.checks, auditFindings: bySeverity });
    console.log(`Electronegativity: ${audit.checks} checks, findings by severity ${JSON.stringify(bySeverity)}`);
    for (const f of audit.findings) console.log(`  ${f.severity} ${f.id} ${f.file}:${f.line}${f.review ? ' (manual review)' : ''}`);

    // An audit that could not parse a file would silently miss it.
    expect(audit.parseErrors).toEqual([]);
    expect(audit.checks).toBeGreaterThanOrEqual(30);
    expect(audit.findings.filter((f) => f.severity === 'HIGH')).toEqual([]);
    // The checks we fixed on purpose stay fixed.
    const ids = audit.findings.map((f) => f.id);
    for (const fixed of [
      'CONTEXT_ISOLATION_JS_CHECK',
      'NODE_INTEGRATION_JS_CHECK',
      'SANDBOX_JS_CHECK',
      'LIMIT_NAVIGATION_GLOBAL_CHECK',
      'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK',
      'AUXCLICK_JS_CHECK',
      'WEB_SECURITY_JS_CHECK',
    ]) {
      expect(ids).not.toContain(fixed);
    }
  });
});
