import { describe, expect, it } from 'vitest';
import { FaultInjector, formatFaultSpec, normaliseFaults, parseFaultSpec } from '../../../main/sandbox/faults';

describe('parseFaultSpec', () => {
  it('parses the documented example', () => {
    expect(parseFaultSpec('download:reset=0.2,templates:429=1:retry-after=2,all:latency=300')).toEqual({
      download: { reset: 0.2 },
      templates: { status429: 1, retryAfterS: 2 },
      all: { latencyMs: 300 },
    });
  });

  it('accepts every fault name, whitespace and merges rules of one op', () => {
    const f = parseFaultSpec(
      ' sendemail:500=0.1 : 503=0.1, sendemail:error=0.1:reset=0.1:hang=0.05:malformed=0.1:truncated=0.1:wrongtypes=0.1:empty=0.1:limit=3:jitter=20 ',
    );
    expect(f.sendemail).toEqual({
      status500: 0.1,
      status503: 0.1,
      error: 0.1,
      reset: 0.1,
      hang: 0.05,
      malformed: 0.1,
      truncated: 0.1,
      wrongTypes: 0.1,
      emptyData: 0.1,
      limit: 3,
      jitterMs: 20,
    });
  });

  it('is empty for an empty string', () => {
    expect(parseFaultSpec('')).toEqual({});
  });

  it.each([
    ['nope:reset=1', /unknown operation/],
    ['download:explode=1', /unknown fault/],
    ['download:reset=2', /rate between 0 and 1/],
    ['download:reset', /expected name=number/],
    ['download', /names no fault/],
    ['download:reset=-1', /expected name=number/],
  ])('rejects %s', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });

  it('round-trips through formatFaultSpec', () => {
    const spec = 'download:reset=0.2,templates:429=1:retry-after=2,all:latency=300';
    expect(parseFaultSpec(formatFaultSpec(parseFaultSpec(spec)))).toEqual(parseFaultSpec(spec));
  });

  it('normaliseFaults accepts objects with string names or canonical keys, and spec strings', () => {
    expect(normaliseFaults({ download: { '429': 1, 'retry-after': 3 } })).toEqual({ download: { status429: 1, retryAfterS: 3 } });
    expect(normaliseFaults({ link: { truncated: 0.5 } })).toEqual({ link: { truncated: 0.5 } });
    expect(normaliseFaults('all:latency=10')).toEqual({ all: { latencyMs: 10 } });
    expect(() => normaliseFaults({ bogus: {} })).toThrow(/unknown operation/);
  });
});

describe('FaultInjector', () => {
  it('is reproducible from the seed and differs across seeds', () => {
    const run = (seed: number): (string | undefined)[] => {
      const inj = new FaultInjector(seed, parseFaultSpec('download:reset=0.3:503=0.3'));
      return Array.from({ length: 40 }, () => inj.decide('download').kind);
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
    const kinds = new Set(run(7));
    expect(kinds.has('reset') && kinds.has('status503') && kinds.has(undefined)).toBe(true);
  });

  it('keeps rates approximately', () => {
    const inj = new FaultInjector(1, parseFaultSpec('templates:reset=0.25'));
    const n = 4000;
    let hits = 0;
    for (let i = 0; i < n; i++) if (inj.decide('templates').kind === 'reset') hits++;
    expect(hits / n).toBeGreaterThan(0.22);
    expect(hits / n).toBeLessThan(0.28);
  });

  it('applies all-rules, lets op rules win, honours limit, and keeps latency', () => {
    const inj = new FaultInjector(1, parseFaultSpec('all:latency=50:500=1,download:500=0:limit=0,templates:limit=2'));
    expect(inj.decide('download')).toEqual({ delayMs: 50, retryAfterS: 1 });
    expect(inj.decide('templates').kind).toBe('status500');
    expect(inj.decide('templates').kind).toBe('status500');
    expect(inj.decide('templates').kind).toBeUndefined();
    expect(inj.decide('preview').kind).toBe('status500');
  });

  it('restarts its PRNGs and counters on set()', () => {
    const inj = new FaultInjector(3, parseFaultSpec('download:reset=0.5'));
    const a = Array.from({ length: 20 }, () => inj.decide('download').kind);
    inj.set(parseFaultSpec('download:reset=0.5'));
    const b = Array.from({ length: 20 }, () => inj.decide('download').kind);
    expect(b).toEqual(a);
  });
});
