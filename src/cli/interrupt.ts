/**
 * Ctrl-C during a run with a progress bar: the bar hides the cursor and turns line wrap off while
 * it draws, and only its `stop` turns them back on. Without this, the default SIGINT ends the
 * process mid-bar and leaves the terminal so.
 */
import type { EvalProgress } from '../lab/eval/run-eval.js';

/** Runs `work`; a SIGINT meanwhile stops `progress` (restoring the terminal), says how to continue, and exits 130. */
export async function restoringOnInterrupt<T>(progress: EvalProgress, work: () => Promise<T>): Promise<T> {
  const interrupted = () => {
    progress.stop();
    process.stderr.write('\nbaton: interrupted; the same command continues the run.\n');
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  try {
    return await work();
  } finally {
    process.removeListener('SIGINT', interrupted);
  }
}
