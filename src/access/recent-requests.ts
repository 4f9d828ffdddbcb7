import type { NoticeBus, Notices } from '../core/notices.ts';
import type { RequestRecord } from '../protocol/answers.ts';
import { REQUEST_MESSAGE_MAX } from '../protocol/answers.ts';

export type { RequestRecord };

export const RECENT_REQUESTS = 300;

/** A record as the transports give it: the time, the entry's id and its count are the list's. */
export type GivenRecord = Omit<RequestRecord, 'time' | 'id' | 'count'>;
/** A record as the list keeps it. */
export type UntimedRecord = Omit<RequestRecord, 'time'>;

/** What the bus says of each new or recounted record (`request.recorded`). */
export type RecordedRequest = Notices['request.recorded'];

/**
 * A refusal that repeats (same transport, request, status, error, message and sender) within this time of
 * the last one counts on that entry instead of taking a new one: a device that sends thousands of
 * frames with a wrong token a second takes one line, and the useful entries stay on the list.
 */
export const REPEAT_WINDOW_MS = 10_000;
/** A repeating entry is sent to the live list at most this often (its count and time). */
const REPEAT_SEND_MS = 1_000;

const repeatKey = (record: GivenRecord) =>
  `${record.transport} ${record.request} ${record.status} ${record.error ?? ''} ${record.address} ${record.message ?? ''}`;

/**
 * A ring of the last RECENT_REQUESTS records, oldest overwritten first; a refusal that repeats counts
 * on its entry (REPEAT_WINDOW_MS). Every request passes through
 * here, so adding one allocates nothing: the record is kept as given and its time in a typed array,
 * formatted only when the list is read. A failure's message is kept too, cut to REQUEST_MESSAGE_MAX
 * characters, so the list stays bounded whatever a message says (a payload error quotes the payload).
 */
export class RecentRequests {
  readonly #ring: UntimedRecord[] = [];
  readonly #at = new Float64Array(RECENT_REQUESTS);
  #next = 0;
  #nextId = 0;
  /** The entry each recent refusal went to, by its repeat key: where the next one counts. */
  readonly #refusals = new Map<string, { index: number; id: number; sentAt: number }>();

  readonly #now: () => number;
  /** Hears each new or recounted record, for whoever shows the list live (the operator app's servers). */
  readonly #notices: Pick<NoticeBus, 'emit'>;

  constructor(notices: Pick<NoticeBus, 'emit'>, now: () => number = Date.now) {
    this.#notices = notices;
    this.#now = now;
  }

  add(given: GivenRecord): void {
    const at = this.#now();
    if (given.status >= 400 && this.#repeat(given, at)) return;
    const id = this.#nextId++;
    const record: UntimedRecord = { ...boundMessage(given), id };
    const index = this.#next;
    this.#ring[index] = record;
    this.#at[index] = at;
    this.#next = index === RECENT_REQUESTS - 1 ? 0 : index + 1;
    if (given.status >= 400) this.#rememberRefusal(repeatKey(given), index, id, at);
    this.#notices.emit('request.recorded', { record, at });
  }

  /** Counts a refusal on the entry of the same one, when it came within REPEAT_WINDOW_MS. */
  #repeat(given: GivenRecord, at: number): boolean {
    const seen = this.#refusals.get(repeatKey(given));
    if (!seen || at - (this.#at[seen.index] as number) > REPEAT_WINDOW_MS) return false;
    const entry = this.#ring[seen.index];
    // The ring may have moved on over that entry: then this is a new one.
    if (entry?.id !== seen.id) return false;
    const record = { ...entry, count: (entry.count ?? 1) + 1 };
    this.#ring[seen.index] = record;
    this.#at[seen.index] = at;
    if (at - seen.sentAt >= REPEAT_SEND_MS) {
      seen.sentAt = at;
      this.#notices.emit('request.recorded', { record, at });
    }
    return true;
  }

  #rememberRefusal(key: string, index: number, id: number, at: number): void {
    // Bounded by the ring: a key whose entry was overwritten is of no use any more.
    if (this.#refusals.size >= RECENT_REQUESTS) {
      for (const [old, seen] of this.#refusals)
        if (this.#ring[seen.index]?.id !== seen.id) this.#refusals.delete(old);
    }
    this.#refusals.set(key, { index, id, sentAt: at });
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

function boundMessage(record: GivenRecord): GivenRecord {
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
