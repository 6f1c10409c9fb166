import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callNames, calls } from '../../../common/contract';
import { createServices, type Services } from '../../../main/services/index';
import { recordHardening } from '../../support/hardening-report';
import { makeTempDir } from '../../support/temp-dir';

/**
 * Every contract call, fed random malformed requests (anything its schema refuses), answers
 * with a `validation` error naming where the input is wrong — never a crash, never an
 * internal error, and the handler never runs.
 */
const RUNS = 60;
let services: Services;
let temp: ReturnType<typeof makeTempDir>;
let cases = 0;

beforeAll(async () => {
  temp = makeTempDir();
  services = await createServices({ dataDir: temp.dir, version: '0.0.0-fuzz', host: 'browser' });
});
afterAll(async () => {
  await services?.close();
  temp?.cleanup();
  recordHardening('contract-fuzz', { fuzzCases: cases });
});

const hostile = fc.oneof(
  fc.anything({ maxDepth: 3, withNullPrototype: true, withObjectString: true }),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.anything({ maxDepth: 2 })),
  fc.constantFrom(
    null,
    undefined,
    '',
    'null',
    [],
    [{}],
    Number.POSITIVE_INFINITY,
    -0,
    Number.NaN,
    '__proto__',
    { __proto__: { polluted: true } },
    { constructor: { prototype: {} } },
  ),
);

describe('contract calls under malformed input', () => {
  it.each(callNames)('%s refuses what its schema refuses, with a validation error', async (name) => {
    await fc.assert(
      fc.asyncProperty(hostile, async (input) => {
        // Dispatch reads a missing body (undefined or null) as `{}`, as the transports send it.
        fc.pre(!calls[name].request.safeParse(input ?? {}).success);
        cases += 1;
        const result = await services.dispatch(name, input, { host: 'browser' });
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.error.code).toBe('validation');
        expect(result.error.issues?.length).toBeGreaterThan(0);
        expect(result.error.messageVi).toBeTruthy();
      }),
      { numRuns: RUNS, seed: 20261121 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
