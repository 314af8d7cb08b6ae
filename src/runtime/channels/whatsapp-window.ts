import type { ChannelBinding } from '../../store/channel-store.js';

/** WhatsApp's customer-service window: free-form messages only within 24 hours of the customer's last message. */
export const WHATSAPP_WINDOW_MS = 24 * 60 * 60_000;

/** When a conversation's window closes: 24 hours after the customer last wrote; null if they never did. */
export function windowDeadlineOf(lastCustomerAt: string | null): Date | null {
  if (lastCustomerAt === null) return null;
  const at = Date.parse(lastCustomerAt);
  return Number.isFinite(at) ? new Date(at + WHATSAPP_WINDOW_MS) : null;
}

/**
 * Whether a free-form message may leave at `nowMs`. `marginMs` keeps a message from leaving so
 * close to the deadline that it could arrive after it (the check and the provider's clock differ).
 */
export function insideWindow(binding: Pick<ChannelBinding, 'lastCustomerAt'>, nowMs: number, marginMs: number): boolean {
  const deadline = windowDeadlineOf(binding.lastCustomerAt);
  return deadline !== null && nowMs < deadline.getTime() - marginMs;
}
