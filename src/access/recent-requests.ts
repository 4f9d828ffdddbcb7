import type { RequestRecord } from '../protocol/answers.ts';
import { REQUEST_MESSAGE_MAX } from '../protocol/answers.ts';

export type { RequestRecord };

export const RECENT_REQUESTS = 300;

/** A record as the transports give it: the time is added by the list. */
export type UntimedRecord = Omit<RequestRecord, 'time'>;

/**
 * A ring of the last RECENT_REQUESTS records, oldest overwritten first. Every request passes through
 * here, so adding one allocates nothing: the record is kept as given and its time in a typed array,
 * formatted only when the list is read. A failure's message is kept too, cut to REQUEST_MESSAGE_MAX
 * characters, so the list stays bounded whatever a message says (a payload error quotes the payload).
 */
export class RecentRequests {
  readonly #ring: UntimedRecord[] = [];
  readonly #at = new Float64Array(RECENT_REQUESTS);
  #next = 0;

  /** Called with each new record while someone may show the list live (the operator app). */
  onAdd: ((record: UntimedRecord, at: number) => void) | null = null;

  add(given: UntimedRecord): void {
    const at = Date.now();
    const record = boundMessage(given);
    const index = this.#next;
    this.#ring[index] = record;
    this.#at[index] = at;
    this.#next = index === RECENT_REQUESTS - 1 ? 0 : index + 1;
    this.onAdd?.(record, at);
  }

  /** Newest first. */
  list(): RequestRecord[] {
    const records: RequestRecord[] = [];
    for (let n = 1; n <= this.#ring.length; n++) {
      const index = (this.#next - n + RECENT_REQUESTS) % RECENT_REQUESTS;
      records.push(formatRecord(this.#ring[index] as UntimedRecord, this.#at[index] as number));
    }
    return records;
  }
}

function boundMessage(record: UntimedRecord): UntimedRecord {
  const { message } = record;
  if (message === undefined || message.length <= REQUEST_MESSAGE_MAX) return record;
  let end = REQUEST_MESSAGE_MAX - 1;
  // Never half of a surrogate pair (an emoji in a team name): the list is sent as UTF-8.
  if (/[\uD800-\uDBFF]/.test(message.charAt(end - 1))) end -= 1;
  return { ...record, message: `${message.slice(0, end)}…` };
}

export const formatRecord = (record: UntimedRecord, at: number): RequestRecord => ({
  time: new Date(at).toISOString(),
  ...record,
});
