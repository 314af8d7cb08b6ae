import { z } from 'zod';
import { storableText } from '../core/index.js';

const strict = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, { error: (i) => (i.code === 'invalid_type' && i.input === undefined ? 'a JSON object is required' : undefined) });

const freeText = (max: number) => storableText(z.string().min(1).max(max)).nullable().default(null);
const seq = z.number().int().positive();

/** What every verdict says; `by` and `as` are not among them: the server sets them from the caller. */
const common = {
  needed: z.boolean(),
  dueAt: seq.nullable().default(null),
  reason: freeText(200),
  note: freeText(2000),
};

/** Body of `POST /v1/conversations/:id/reviews`: a verdict on a hand-off (by its seq) or on a kept conversation. */
export const ReviewBodySchema = z.discriminatedUnion(
  'subject',
  [
    strict({
      subject: z.literal('handoff'),
      ...common,
      handoff: seq,
      timing: z.enum(['on_time', 'late']).nullable().default(null),
      packetEnough: z.boolean(),
      askedAgain: freeText(2000),
    }),
    strict({ subject: z.literal('kept'), ...common }),
  ],
  { error: (i) => (i.code === 'invalid_union' ? 'subject: "handoff" (with the seq of its handoff.requested) or "kept"' : undefined) },
);

/** Query of `GET /v1/reviews/sample`. */
export const ReviewSampleQuerySchema = strict({
  since: z.iso.datetime({ offset: true }).exactOptional(),
  until: z.iso.datetime({ offset: true }).exactOptional(),
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1),
  perStratum: z.coerce.number().int().min(1).max(500).default(10),
  onlyUnreviewed: z.enum(['true', 'false']).default('false'),
});
