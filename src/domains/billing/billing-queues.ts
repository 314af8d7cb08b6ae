/** The human queues billing hands conversations to, and the reasons a hand-off may give. */
import { DECIDER_REASONS } from '../../core/index.js';
import type { HumanQueue } from '../domain.js';

/** Billing's human queues: one for money decisions, one per topic reserved for humans, one for identity. */
export const BILLING_QUEUES: readonly HumanQueue[] = [
  {
    id: 'queue_billing',
    description:
      'Billing specialists: refunds above the autonomous limit, customers who ask for a person about their bill (a disputed charge, say), requests outside billing, and tool outages.',
    skills: ['refunds', 'disputes', 'billing'],
  },
  {
    id: 'queue_complaints',
    description: 'Customer relations: formal complaints, logged and answered in writing.',
    skills: ['complaints', 'customer_relations'],
  },
  {
    id: 'queue_bereavement',
    description: 'Bereavement team: accounts whose holder has died (closing the account, final bills, refunds to the estate).',
    skills: ['bereavement', 'estates', 'account_closure'],
  },
  {
    id: 'queue_legal',
    description: 'Legal team: customers who threaten or take legal action against the company.',
    skills: ['legal', 'litigation'],
  },
  {
    id: 'queue_account_security',
    description: 'Account security: customers who cannot verify with the one-time code (lost phone, changed number), suspected takeovers.',
    skills: ['identity_verification', 'account_recovery', 'fraud'],
  },
];

/** The queue ids, in `BILLING_QUEUES` order. */
export const BILLING_QUEUE_IDS: readonly string[] = BILLING_QUEUES.map((q) => q.id);

/**
 * The reasons `handoff` accepts: the harness's `MODEL_HANDOFF_REASONS` (the decider's reasons
 * and `agent_decision`), rebuilt from core so a domain does not import the runtime layer; a test
 * keeps the two lists equal.
 */
export const BILLING_HANDOFF_REASONS = [...DECIDER_REASONS, 'agent_decision'] as const;
