import { createRng, type Rng } from './prng';

/** Operations a fault can target; `all` applies to every one (op-specific keys win). */
export const FAULT_OPS = [
  'token',
  'preview',
  'download',
  'sendemail',
  'templates',
  'link',
  'issue',
  'status',
  'certificates',
  'paging',
  'publishview',
  'voucherpaper',
] as const;
export type FaultOp = (typeof FAULT_OPS)[number];

/**
 * Faults of one operation. Rates are probabilities in [0, 1] drawn per request from a PRNG
 * seeded by (sandbox seed, operation), so a run is reproducible. At most one fault kind is
 * injected per request; kinds are tried in the order below on one uniform draw (rates add up).
 * Before the handler runs (no side effect): status429, status500, status503, error.
 * After the handler ran (side effects such as a recorded email or an issued invoice happened):
 * reset, hang, malformed, truncated, wrongTypes, emptyData, late500.
 */
export interface OpFaults {
  /** Added to every response of the operation, in ms. */
  latencyMs?: number;
  /** Plus a uniform random 0..jitterMs. */
  jitterMs?: number;
  /** HTTP 429 with `Retry-After: retryAfterS` and a JSON envelope (TooManyRequests). */
  status429?: number;
  retryAfterS?: number;
  /** HTTP 500 with an HTML error page. */
  status500?: number;
  /** HTTP 503 with the HTML maintenance page. */
  status503?: number;
  /** HTTP 500 with a JSON envelope (success false, errorCode UnknownError). */
  error?: number;
  /** The socket is destroyed without an answer. */
  reset?: number;
  /** No answer at all until the client gives up (or the sandbox stops). */
  hang?: number;
  /** HTTP 200, Content-Type JSON, body cut in the middle of the JSON (correct Content-Length). */
  malformed?: number;
  /** Content-Length announces the full body; half is sent, then the socket is destroyed. */
  truncated?: number;
  /** HTTP 200 envelope whose fields have the wrong JSON types (success "true", data 12345 …). */
  wrongTypes?: number;
  /** HTTP 200 envelope with success true and data null. */
  emptyData?: number;
  /** HTTP 500 with the HTML error page, sent AFTER the handler ran (unlike status500). */
  late500?: number;
  /** Inject at most this many faults for the operation (then it behaves); latency still applies. */
  limit?: number;
}

export type FaultConfig = Partial<Record<FaultOp | 'all', OpFaults>>;

export type FaultKind =
  'status429' | 'status500' | 'status503' | 'error' | 'reset' | 'hang' | 'malformed' | 'truncated' | 'wrongTypes' | 'emptyData' | 'late500';
const PRE_FAULTS: readonly FaultKind[] = ['status429', 'status500', 'status503', 'error'];
// New kinds go last: the draws of an existing config stay the same.
const POST_FAULTS: readonly FaultKind[] = ['reset', 'hang', 'malformed', 'truncated', 'wrongTypes', 'emptyData', 'late500'];
/** Every fault kind, in the order one uniform draw tries them. */
export const FAULT_KINDS: readonly FaultKind[] = [...PRE_FAULTS, ...POST_FAULTS];
const ORDER = FAULT_KINDS;

/** Names accepted in the compact string (and, case-insensitively, as object keys). */
const ALIASES: Record<string, keyof OpFaults> = {
  latency: 'latencyMs',
  latencyms: 'latencyMs',
  jitter: 'jitterMs',
  jitterms: 'jitterMs',
  '429': 'status429',
  status429: 'status429',
  'retry-after': 'retryAfterS',
  retryafter: 'retryAfterS',
  retryafters: 'retryAfterS',
  '500': 'status500',
  status500: 'status500',
  '503': 'status503',
  status503: 'status503',
  maintenance: 'status503',
  error: 'error',
  reset: 'reset',
  hang: 'hang',
  timeout: 'hang',
  malformed: 'malformed',
  truncated: 'truncated',
  truncate: 'truncated',
  wrongtypes: 'wrongTypes',
  'wrong-types': 'wrongTypes',
  empty: 'emptyData',
  emptydata: 'emptyData',
  'empty-data': 'emptyData',
  late500: 'late500',
  'late-500': 'late500',
  limit: 'limit',
  times: 'limit',
};

const RATE_KEYS = new Set<keyof OpFaults>(ORDER);

function normaliseOp(raw: unknown, where: string): OpFaults {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`faults: ${where} must be an object`);
  const out: OpFaults = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const key = ALIASES[k.toLowerCase()];
    if (!key) throw new Error(`faults: unknown fault "${k}" in ${where}`);
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw new Error(`faults: ${where}.${k} must be a non-negative number`);
    if (RATE_KEYS.has(key) && n > 1) throw new Error(`faults: ${where}.${k} is a rate between 0 and 1`);
    out[key] = n;
  }
  return out;
}

/** Validates a fault object (accepting the string names as keys too) into canonical form. */
export function normaliseFaults(raw: unknown): FaultConfig {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') return parseFaultSpec(raw);
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new Error('faults: expected an object or a spec string');
  const out: FaultConfig = {};
  for (const [op, v] of Object.entries(raw as Record<string, unknown>)) {
    const name = op.toLowerCase();
    if (name !== 'all' && !(FAULT_OPS as readonly string[]).includes(name)) throw new Error(`faults: unknown operation "${op}"`);
    out[name as FaultOp | 'all'] = normaliseOp(v, name);
  }
  return out;
}

/**
 * Parses the compact fault grammar used by `einvoice sandbox --faults`:
 *
 *   spec  := rule ( "," rule )*
 *   rule  := op ":" kv ( ":" kv )*
 *   op    := token | preview | download | sendemail | templates | link | issue | status
 *          | certificates | paging | publishview | voucherpaper | all
 *   kv    := name "=" number
 *   name  := latency | jitter (ms) | 429 | retry-after (s) | 500 | 503 | error | reset | hang
 *          | malformed | truncated | wrongtypes | empty | late500 (rates 0..1) | limit (count)
 *
 * `500` strikes before the handler runs (nothing happened); `late500` (alias `late-500`) sends
 * the same HTML 500 after it ran (an invoice was issued, an email recorded).
 *
 * e.g. `download:reset=0.2,templates:429=1:retry-after=2,all:latency=300`. Several rules for
 * one op merge. Whitespace is ignored; an empty string means no faults.
 */
export function parseFaultSpec(spec: string): FaultConfig {
  const out: FaultConfig = {};
  const text = spec.replace(/\s+/g, '');
  if (!text) return out;
  for (const rule of text.split(',')) {
    if (!rule) continue;
    const [opRaw = '', ...pairs] = rule.split(':');
    const op = opRaw.toLowerCase();
    if (op !== 'all' && !(FAULT_OPS as readonly string[]).includes(op)) throw new Error(`faults: unknown operation "${opRaw}" in "${rule}"`);
    if (pairs.length === 0) throw new Error(`faults: "${rule}" names no fault (expected op:name=value)`);
    const obj: Record<string, string> = {};
    for (const pair of pairs) {
      const m = /^([A-Za-z0-9-]+)=([0-9.]+)$/.exec(pair);
      if (!m?.[1] || m[2] === undefined) throw new Error(`faults: bad "${pair}" in "${rule}" (expected name=number)`);
      obj[m[1]] = m[2];
    }
    out[op as FaultOp | 'all'] = { ...out[op as FaultOp | 'all'], ...normaliseOp(obj, op) };
  }
  return out;
}

/** Turns a config back into the compact string (for the admin state and the CLI banner). */
export function formatFaultSpec(config: FaultConfig): string {
  const names: Record<keyof OpFaults, string> = {
    latencyMs: 'latency',
    jitterMs: 'jitter',
    status429: '429',
    retryAfterS: 'retry-after',
    status500: '500',
    status503: '503',
    error: 'error',
    reset: 'reset',
    hang: 'hang',
    malformed: 'malformed',
    truncated: 'truncated',
    wrongTypes: 'wrongtypes',
    emptyData: 'empty',
    late500: 'late500',
    limit: 'limit',
  };
  return Object.entries(config)
    .filter(([, f]) => f && Object.keys(f).length > 0)
    .map(
      ([op, f]) =>
        `${op}:${Object.entries(f as OpFaults)
          .map(([k, v]) => `${names[k as keyof OpFaults]}=${v}`)
          .join(':')}`,
    )
    .join(',');
}

interface FaultDecision {
  kind?: FaultKind;
  delayMs: number;
  retryAfterS: number;
}

/** Per-operation PRNG and counters; recreated whenever the faults change. */
export class FaultInjector {
  private rngs = new Map<FaultOp, Rng>();
  private injected = new Map<FaultOp, number>();
  constructor(
    private readonly seed: number,
    private config: FaultConfig = {},
  ) {}
  get current(): FaultConfig {
    return this.config;
  }
  set(config: FaultConfig): void {
    this.config = config;
    this.rngs.clear();
    this.injected.clear();
  }
  effective(op: FaultOp): OpFaults {
    return { ...this.config.all, ...this.config[op] };
  }
  decide(op: FaultOp): FaultDecision {
    const f = this.effective(op);
    let rng = this.rngs.get(op);
    if (!rng) {
      rng = createRng(`faults:${this.seed}:${op}`);
      this.rngs.set(op, rng);
    }
    const u = rng();
    const jitter = rng();
    const delayMs = (f.latencyMs ?? 0) + (f.jitterMs ? jitter * f.jitterMs : 0);
    const retryAfterS = f.retryAfterS ?? 1;
    const done = this.injected.get(op) ?? 0;
    if (f.limit !== undefined && done >= f.limit) return { delayMs, retryAfterS };
    let acc = 0;
    for (const kind of ORDER) {
      acc += f[kind] ?? 0;
      if (u < acc) {
        this.injected.set(op, done + 1);
        return { kind, delayMs, retryAfterS };
      }
    }
    return { delayMs, retryAfterS };
  }
}
