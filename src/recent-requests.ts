import type { RequestRecord } from './answer-schemas.ts';

export type { RequestRecord };

export const RECENT_REQUESTS = 300;

type Stamped = Omit<RequestRecord, 'time'> & { at: number };

/** A ring of the last RECENT_REQUESTS records, oldest overwritten first. */
export class RecentRequests {
  readonly #ring: Stamped[] = [];
  #next = 0;

  /** Called with each new record while someone shows the list live (the operator app). */
  onAdd: ((record: RequestRecord) => void) | null = null;

  /** Stamps the record with the time now (formatted only when the list is read). */
  add(record: Omit<RequestRecord, 'time'>): void {
    const stamped = { ...record, at: Date.now() };
    this.#ring[this.#next] = stamped;
    this.#next = (this.#next + 1) % RECENT_REQUESTS;
    this.onAdd?.(formatted(stamped));
  }

  /** Newest first. */
  list(): RequestRecord[] {
    const ordered = [...this.#ring.slice(this.#next), ...this.#ring.slice(0, this.#next)].reverse();
    return ordered.map(formatted);
  }
}

const formatted = ({ at, ...record }: Stamped): RequestRecord => ({
  time: new Date(at).toISOString(),
  ...record,
});
