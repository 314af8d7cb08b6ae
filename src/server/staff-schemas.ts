import { z } from 'zod';
import { ConstraintSchema, QueueIdSchema, StaffIdSchema, storableText, checkStorableText } from '../core/index.js';

const version = z.number().int().positive();
const checkAll = (texts: readonly string[]) => texts.every((t) => checkStorableText(t).ok);
const strict = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, { error: (i) => (i.code === 'invalid_type' && i.input === undefined ? 'a JSON object is required' : undefined) });

export const LoginBodySchema = strict({ email: storableText(z.string().min(1).max(320)), password: z.string().min(1).max(1024) });
export const ClaimBodySchema = strict({ version });
export const ReplyBodySchema = strict({ text: storableText(z.string().min(1).max(16_000)), version });
export const HandBackBodySchema = strict({
  version,
  notes: storableText(z.string().max(4000)).nullable().default(null),
  constraints: z
    .array(ConstraintSchema)
    .max(20)
    .default([])
    .refine((cs) => cs.every((c) => checkAll([c.note, c.tool, ...Object.keys(c.args), ...Object.values(c.args).map(String)])), {
      message: 'a constraint contains a lone surrogate or NUL',
    }),
});
export const TransferBodySchema = strict({
  to: z.union([QueueIdSchema, StaffIdSchema], { error: 'to: a queue id (queue_…) or a staff id (staff_…)' }),
  mode: z.enum(['cold', 'warm']).default('cold'),
  version,
});
export const CloseBodySchema = strict({ version, reason: storableText(z.string().min(1).max(200)).default('resolved') });
export const MetricsQuerySchema = strict({
  since: z.iso.datetime({ offset: true }).exactOptional(),
  until: z.iso.datetime({ offset: true }).exactOptional(),
});
export const PresenceBodySchema = strict({ presence: z.enum(['available', 'busy', 'away', 'offline']) });
export const DeclineBodySchema = strict({ reason: z.enum(['busy', 'wrong_skill', 'end_of_shift', 'other']).default('other') });
export const OfferParamsSchema = strict({
  id: z.string().regex(/^res_[A-Za-z0-9]{16,64}$/, { message: 'an offer id has the form res_…' }),
});
export const AssistBodySchema = strict({ version, on: z.boolean() });
export const ApprovalBodySchema = strict({
  approved: z.boolean(),
  /** With a rejection: what the agent should do instead (it reads this as the call's result). */
  feedback: storableText(z.string().max(2000)).optional(),
});

// Verdicts on hand-offs (docs/reviews.md).
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
