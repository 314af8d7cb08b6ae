import { z } from 'zod';
import { formatCents, AUTONOMOUS_REFUND_LIMIT_CENTS } from './billing-db.js';
import { BILLING_HANDOFF_REASONS, BILLING_QUEUE_IDS } from './billing-queues.js';

/**
 * Argument schemas of the billing tools, for offering them to a model
 * (`z.toJSONSchema(schema, { io: 'input' })`). They describe the arguments; the tools still run
 * their own checks with their own exact errors, so a call that bypasses the schema fails the same way.
 */

const customerId = () => z.string().describe("The customer's id, such as 'cus_1042'.");
const [firstQueue = 'queue_billing', ...otherQueues] = BILLING_QUEUE_IDS;

/** The billing tools' argument schemas by tool name; keys in each tool's `params` order. */
export const BILLING_TOOL_SCHEMAS: Readonly<Record<string, z.ZodObject>> = {
  find_customer_by_email: z.object({
    email: z.string().describe("The customer's e-mail address."),
  }),
  send_verification_code: z.object({
    customer_id: customerId(),
  }),
  verify_customer: z.object({
    customer_id: customerId(),
    code: z.string().describe('The six-digit one-time code the customer read back, such as "048213".'),
  }),
  get_customer_details: z.object({
    customer_id: customerId(),
  }),
  list_charges: z.object({
    customer_id: customerId(),
  }),
  get_charge_details: z.object({
    charge_id: z.string().describe("The charge's id, such as 'ch_100231'."),
  }),
  refund_charge: z.object({
    charge_id: z.string().describe("The id of the duplicate charge to refund (the one whose duplicate_of is set), such as 'ch_100232'."),
    amount: z
      .number()
      .positive()
      .describe(
        `The charge's full amount in dollars, such as 29.99; at most ${formatCents(AUTONOMOUS_REFUND_LIMIT_CENTS)} (the autonomous limit).`,
      ),
  }),
  list_orders: z.object({
    customer_id: customerId(),
  }),
  get_order_details: z.object({
    order_id: z.string().describe("The order's id, such as 'ord_20417'."),
  }),
  update_email: z.object({
    customer_id: customerId(),
    new_email: z.string().describe('The new e-mail address, as the customer spelled it.'),
  }),
  get_subscription: z.object({
    customer_id: customerId(),
  }),
  list_plans: z.object({}),
  change_plan: z.object({
    customer_id: customerId(),
    plan_id: z.string().describe("The id of the new plan, from list_plans, such as 'plus'."),
  }),
  cancel_subscription: z.object({
    customer_id: customerId(),
  }),
  handoff: z.object({
    target: z.enum([firstQueue, ...otherQueues]).describe('The human queue that takes over.'),
    reason: z.enum(BILLING_HANDOFF_REASONS).describe('Why the conversation is handed off.'),
    summary: z.string().min(1).max(2000).describe('What the customer needs and what has been done, for whoever takes over.'),
  }),
};
