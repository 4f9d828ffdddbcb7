/**
 * Checks that one client sees every revision, in order. The hello carries the revision the client
 * starts from; each event carries the revision it belongs to (several events may share one).
 */
export class RevisionCheck {
  last = -1;
  lost = 0;
  outOfOrder = 0;
  events = 0;

  /** Takes a parsed server message; returns the revision of an event, or null. */
  see(message: { type?: string; revision?: number; snapshot?: { revision: number } }): number | null {
    if (message.type === 'hello' && message.snapshot) {
      this.last = message.snapshot.revision;
      return null;
    }
    if (message.type !== 'event' || typeof message.revision !== 'number') return null;
    this.events++;
    const revision = message.revision;
    if (revision < this.last) this.outOfOrder++;
    else if (revision > this.last + 1) this.lost += revision - this.last - 1;
    this.last = Math.max(this.last, revision);
    return revision;
  }

  /** Revisions up to `final` that never arrived (call once, at the end). */
  missingUpTo(final: number): number {
    return this.lost + Math.max(0, final - this.last);
  }
}
