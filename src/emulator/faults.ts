// Fault injection: which request gets which fault, and the replies of the faults that answer at once.
import { apiError, htmlPage, type Reply } from './http.js';
import { FAULT_MODES, type FaultMode, type FaultOptions } from './surface.js';

/** mulberry32: a tiny deterministic PRNG, so a seeded fault run can be replayed exactly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Decides per request whether a fault hits and which one; refuses options that make no sense. */
export class FaultPicker {
  private readonly random: () => number;

  constructor(readonly options: FaultOptions) {
    const f = options;
    if (!(f.rate >= 0 && f.rate <= 1)) throw new RangeError('faults.rate must be from 0 to 1');
    const bad = f.modes.find((m) => !FAULT_MODES.includes(m));
    if (bad !== undefined) throw new RangeError(`unknown fault mode ${JSON.stringify(bad)}`);
    if (f.slowMs !== undefined && !(f.slowMs >= 0)) throw new RangeError('faults.slowMs must be >= 0');
    this.random = options.seed === undefined ? Math.random : seededRandom(options.seed);
  }

  /** The fault for a request with this method, if any. Only modes that apply to the method are drawn. */
  pick(method: string): FaultMode | undefined {
    const methods: string[] = this.options.methods ?? ['GET', 'POST'];
    if (!methods.includes(method)) return undefined;
    if (this.random() >= this.options.rate) return undefined;
    const modes = this.options.modes.filter((m) => m !== 'reset-after-commit' || method === 'POST');
    if (modes.length === 0) return undefined;
    return modes[Math.floor(this.random() * modes.length)];
  }
}

/** The replies of the faults that answer without processing the request. */
export const IMMEDIATE_FAULTS: Partial<Record<FaultMode, () => Reply>> = {
  '500': () => apiError(500, 'INTERNAL', 'Internal server error'),
  '502': () => apiError(502, 'BAD_GATEWAY', 'Bad gateway'),
  '503': () => apiError(503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable'),
  '504': () => apiError(504, 'GATEWAY_TIMEOUT', 'Gateway timeout'),
  'html-502': () => htmlPage(502, 'Bad Gateway'),
  // Unlike the rate limiter's JSON, an edge's 429 is plain text: clients must go by the status.
  '429': () => ({
    status: 429,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: 'Too Many Requests\n',
  }),
};
