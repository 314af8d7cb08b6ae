import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';

/**
 * Reads JSON lines from `input`, answers each with one JSON line on `output`, in order. A line
 * that is not JSON, or that `schema` refuses, gets `{"error": "..."}` on its line and the rest go
 * on. A blank line gets an error line too, so output line N always answers input line N.
 */
export async function answerJsonLines<T>(
  input: Readable,
  output: Writable,
  schema: z.ZodType<T>,
  answer: (value: T) => unknown,
): Promise<{ lines: number; errors: number }> {
  let lines = 0;
  let errors = 0;
  const write = (value: unknown) => output.write(`${JSON.stringify(value)}\n`);
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lines += 1;
    if (line.trim() === '') {
      errors += 1;
      write({ error: `line ${lines}: blank line (expected one JSON object per line)` });
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      errors += 1;
      write({ error: `line ${lines}: not valid JSON (${(error as Error).message})` });
      continue;
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      errors += 1;
      write({ error: `line ${lines}: ${z.prettifyError(checked.error).replace(/\n/g, '; ')}` });
      continue;
    }
    try {
      write(answer(checked.data));
    } catch (error) {
      errors += 1;
      write({ error: `line ${lines}: ${(error as Error).message}` });
    }
  }
  return { lines, errors };
}
