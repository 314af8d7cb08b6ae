import type { Channel, ChannelWeights } from './routing-config.js';

/** An item that holds part of a person's capacity: a pending reservation or an accepted assignment. */
export interface HeldItem {
  channel: Channel;
}

/** Capacity units the items take, by the channel weights. */
export function usedCapacity(items: Iterable<HeldItem>, weights: ChannelWeights): number {
  let used = 0;
  for (const item of items) used += weights[item.channel];
  return used;
}

/** Whether one more item on `channel` fits in `capacity` with `used` units already taken. */
export function fits(capacity: number, used: number, channel: Channel, weights: ChannelWeights): boolean {
  return used + weights[channel] <= capacity;
}

/** How many items of one channel a person can hold at once (capacity 6, weight 2 → 3). */
export function itemsThatFit(capacity: number, channel: Channel, weights: ChannelWeights): number {
  return Math.floor(capacity / weights[channel]);
}
