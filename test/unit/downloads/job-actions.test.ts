import { describe, expect, it } from 'vitest';
import { JobStatusSchema } from '../../../common/calls/downloads';
import { jobActions, jobStatusWord } from '../../../common/rules/download-jobs';

describe('what a person may do with a download job', () => {
  it('pauses only a running job, resumes any other unfinished one, cancels one not yet ended', () => {
    const table = JobStatusSchema.options.map((status) => {
      const a = jobActions({ status, failed: 0 });
      return [status, a.pause, a.resume, a.cancel];
    });
    expect(table).toEqual([
      ['ready', false, true, true],
      ['running', true, false, true],
      ['paused', false, true, true],
      ['done', false, false, false],
      ['cancelled', false, true, false],
    ]);
  });

  it('offers the failed items again, and their list, only when some failed', () => {
    expect(jobActions({ status: 'done', failed: 0 })).toMatchObject({ retryFailed: false, exportFailed: false });
    expect(jobActions({ status: 'done', failed: 3 })).toMatchObject({ retryFailed: true, exportFailed: true });
  });

  it('shows a finished job with failed items as such, every other state as it is', () => {
    expect(jobStatusWord({ status: 'done', failed: 2 })).toBe('doneWithErrors');
    expect(jobStatusWord({ status: 'done', failed: 0 })).toBe('done');
    for (const status of JobStatusSchema.options.filter((s) => s !== 'done')) expect(jobStatusWord({ status, failed: 5 })).toBe(status);
  });
});
