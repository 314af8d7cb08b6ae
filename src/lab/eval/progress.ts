/**
 * Progress of a run: a bar on a terminal, plain lines when piped (one every few seconds and at the
 * end), both on stderr so that `--json` output on stdout stays clean.
 */
import cliProgress from 'cli-progress';
import { infrastructureFailure } from '../metrics/infrastructure.js';
import type { EvalProgress } from './run-eval.js';

/** Progress on `stream`: a bar on a terminal (whose `stop` gives back the cursor and line wrap), lines otherwise. */
export function evalProgress(stream: NodeJS.WriteStream = process.stderr, label = 'episodes'): EvalProgress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {value}/{total} · {percentage}% · eta {eta_formatted} · {last}`, stream, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    return {
      start: (total, done) => bar.start(total, done, { last: '' }),
      episode: (record, done) => {
        const outcome = infrastructureFailure(record) ?? (record.evaluation.success === true ? 'ok' : 'fail');
        bar.update(done, { last: `${record.key} ${outcome}` });
      },
      stop: () => bar.stop(),
    };
  }
  let lastLine = 0;
  return {
    start: (total, done) => stream.write(`${label}: ${total} to run${done > 0 ? `, ${done} already done (resumed)` : ''}\n`),
    episode: (_record, done, total) => {
      const now = Date.now();
      if (done === total || now - lastLine >= 5000) {
        lastLine = now;
        stream.write(`${label}: ${done}/${total}\n`);
      }
    },
    stop: () => undefined,
  };
}
