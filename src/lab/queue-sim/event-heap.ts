/** A binary min-heap of timed items; ties leave in insertion order, so a run is deterministic. */
export class EventHeap<T> {
  private readonly items: Array<{ at: number; seq: number; value: T }> = [];
  private seq = 0;

  /** Schedules `value` at virtual time `at`. */
  push(at: number, value: T): void {
    const item = { at, seq: this.seq++, value };
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = a[parent];
      if (p === undefined || !less(item, p)) break;
      a[i] = p;
      i = parent;
    }
    a[i] = item;
  }

  /** The earliest item, removed; `undefined` when empty. */
  pop(): { at: number; value: T } | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (top === undefined || last === undefined || a.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= a.length) break;
      const r = l + 1;
      const left = a[l] as (typeof a)[number];
      const right = a[r];
      const child = right !== undefined && less(right, left) ? r : l;
      const c = a[child] as (typeof a)[number];
      if (!less(c, last)) break;
      a[i] = c;
      i = child;
    }
    a[i] = last;
    return top;
  }

  get size(): number {
    return this.items.length;
  }
}

const less = (a: { at: number; seq: number }, b: { at: number; seq: number }) => a.at < b.at || (a.at === b.at && a.seq < b.seq);
