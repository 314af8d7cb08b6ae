import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { buildContextPacket } from '../core/context-packet.js';
import { HandoffReasonSchema, TranscriptItemSchema } from '../core/transcript.js';
import { answerJsonLines } from './jsonl.js';

/**
 * One line of `baton packet --jsonl`: a conversation as `baton decide --jsonl` reads it, plus what
 * only the packet uses: the model's `summary` line, and optionally the hand-off `decision`, a
 * `transcript_ref`, and `read_tools`/`write_tools` to override the read/write inference from names.
 * `domain` and `policy` are accepted so that one file feeds both commands; the packet needs neither.
 */
export const PacketLineSchema = z.object({
  domain: z.string().optional(),
  policy: z.record(z.string(), z.unknown()).optional(),
  messages: z.array(TranscriptItemSchema),
  summary: z.string().optional(),
  decision: z.object({ reason: HandoffReasonSchema, evidence: z.string().nullable().optional() }).optional(),
  transcript_ref: z.string().optional(),
  read_tools: z.array(z.string()).optional(),
  write_tools: z.array(z.string()).optional(),
});
/** One input line of `baton packet --jsonl`. */
export type PacketLine = z.infer<typeof PacketLineSchema>;

/**
 * `baton packet --jsonl`: reads one conversation per line on `input` and writes its context packet
 * (redacted, `schemaVersion: 1`) as one JSON line on `output`, in order. A malformed line gets
 * `{"error": "..."}` on its line and the rest go on.
 */
export function runPacket(input: Readable, output: Writable): Promise<{ lines: number; errors: number }> {
  return answerJsonLines(input, output, PacketLineSchema, (line) =>
    buildContextPacket({
      items: line.messages,
      decision: line.decision,
      summary: line.summary,
      transcriptRef: line.transcript_ref,
      readTools: line.read_tools,
      writeTools: line.write_tools,
    }),
  );
}
