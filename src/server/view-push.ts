/**
 * A view the stream pushes (a route's answer, e.g. the caller's offers): read on demand, sent
 * only when it differs from the last one sent. Reads are coalesced — one at a time, and one
 * more if a look was asked for meanwhile — so a burst of writes costs two reads, not one each.
 */
export interface ViewPush {
  /** Read the view soon; send it if it changed. */
  look(): void;
  /** Forget what was sent: the next read is sent whatever it holds (a new follow). */
  reset(): void;
}

export function createViewPush<T>(input: {
  /** The view now; null when it cannot be read now (the next look tries again); 'signed_out' ends the stream. */
  read: () => Promise<T | null | 'signed_out'>;
  deliver: (view: T) => Promise<void>;
  signedOut: () => void;
}): ViewPush {
  let busy = false;
  let again = false;
  let last: string | null = null;
  async function run(): Promise<void> {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        const view = await input.read();
        if (view === 'signed_out') return input.signedOut();
        if (view === null) continue;
        const text = JSON.stringify(view);
        if (text === last) continue;
        last = text;
        await input.deliver(view);
      } while (again);
    } finally {
      busy = false;
    }
  }
  return {
    look: () => void run().catch(() => {}),
    reset: () => void (last = null),
  };
}
