/** The parsers and texts of options several commands share. */
import { InvalidArgumentError } from 'commander';

/** `--port`: an integer from 0 (any free port) to 65535. */
export const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535.');
  return n;
};
/** A count of 1 or more. */
export const positive = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer.');
  return n;
};
/** A count of 0 or more. */
export const nonNegative = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected an integer, 0 or more.');
  return n;
};
/** `--seed`: a non-negative integer. */
export const seedOption = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a seed is a non-negative integer.');
  return n;
};

/** `--tau2-dir` and its help. */
export const tau2DirOption = '--tau2-dir <dir>';
export const tau2DirHelp = 'folder with tau2-bench data (else BATON_TAU2_DIR, else the download cache)';
