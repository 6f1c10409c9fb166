import { parentPort } from 'node:worker_threads';
import type { InvoiceKind } from '../../../common/model';
import { movable, readEmailCsv, type CsvReadEnd, type EncodedRows } from './csv';

/** One file for the reader thread (see csv-reader.ts). */
export interface CsvJob {
  text: string;
  kind: InvoiceKind;
  chunk: number;
  first: number;
  /** [chunks taken by the importing thread]: the reader stays at most AHEAD chunks in front. */
  taken: SharedArrayBuffer;
}

export type CsvWorkerMessage = { type: 'ready' } | { type: 'rows'; rows: EncodedRows } | ({ type: 'end' } & CsvReadEnd) | { type: 'failed'; message: string };

const AHEAD = 2;

function read(port: NonNullable<typeof parentPort>, { text, kind, chunk, first, taken }: CsvJob): void {
  const counter = new Int32Array(taken);
  let sent = 0;
  const post = (m: CsvWorkerMessage) => port.postMessage(m, m.type === 'rows' ? movable(m.rows) : []);
  try {
    const end = readEmailCsv(
      text,
      kind,
      (rows) => {
        for (let t = Atomics.load(counter, 0); sent - t >= AHEAD; t = Atomics.load(counter, 0)) Atomics.wait(counter, 0, t);
        post({ type: 'rows', rows });
        sent++;
      },
      chunk,
      first,
    );
    post({ type: 'end', ...end });
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
}

const port = parentPort;
if (port) {
  port.on('message', (job: CsvJob) => read(port, job));
  port.postMessage({ type: 'ready' } satisfies CsvWorkerMessage);
}
