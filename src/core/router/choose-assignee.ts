import { fits } from './channel-capacity.js';
import type { AssignmentOrder, Channel, ChannelWeights, Presence, RoutingStaff } from './routing-config.js';

/** What `chooseAssignee` needs of a request. */
export interface AssigneeRequest {
  skills: readonly string[];
  channel: Channel;
  /** People who declined it or let an offer time out: never offered it again. */
  excluded: ReadonlySet<string>;
}

/** A person who might take the request, as the router's state has them now. */
export interface AssigneeCandidate {
  staff: RoutingStaff;
  presence: Presence;
  /** When they last received an offer or came on shift (ms); the longest idle is offered first. */
  idleSinceMs: number;
}

/** Capacity units each person holds now (reservations and assignments), by staff id. */
export type CapacityLoad = ReadonlyMap<string, number>;

/** Why nobody was chosen; the first that applied to every candidate, in this order of interest. */
export type NoAssigneeReason = 'no_candidate' | 'no_skill' | 'excluded' | 'not_available' | 'no_capacity';

/** The answer: the person to reserve, or why there is none. */
export type AssigneeChoice = { type: 'chosen'; staffId: string } | { type: 'none'; reason: NoAssigneeReason };

/** Whether a person has every skill the request needs. */
export const hasSkills = (staff: RoutingStaff, skills: readonly string[]): boolean => skills.every((s) => staff.skills.includes(s));

/**
 * The best eligible person for a request, or why nobody is: eligible means every required skill,
 * never excluded (declined or timed out before), presence `available`, and room for one more item of
 * the request's channel. Among the eligible, the longest idle first (`longest_idle`, ties by id) or
 * the one with the most free units (`most_free_capacity`) or the fewest that still fit (`best_fit`),
 * each then longest idle. Pure.
 */
export function chooseAssignee(
  request: AssigneeRequest,
  candidates: readonly AssigneeCandidate[],
  load: CapacityLoad,
  options: { weights: ChannelWeights; order: AssignmentOrder },
): AssigneeChoice {
  let best: AssigneeCandidate | undefined;
  let bestFree = 0;
  // The furthest stage any candidate reached tells why nobody passed.
  let stage = 0;
  for (const candidate of candidates) {
    const { staff } = candidate;
    if (!hasSkills(staff, request.skills)) continue;
    stage = Math.max(stage, 1);
    if (request.excluded.has(staff.id)) continue;
    stage = Math.max(stage, 2);
    if (candidate.presence !== 'available') continue;
    stage = Math.max(stage, 3);
    const used = load.get(staff.id) ?? 0;
    if (!fits(staff.capacity, used, request.channel, options.weights)) continue;
    stage = 4;
    const free = staff.capacity - used;
    if (best === undefined || better(candidate, free, best, bestFree, options.order)) {
      best = candidate;
      bestFree = free;
    }
  }
  if (best !== undefined) return { type: 'chosen', staffId: best.staff.id };
  const reasons: NoAssigneeReason[] = ['no_skill', 'excluded', 'not_available', 'no_capacity'];
  return { type: 'none', reason: candidates.length === 0 ? 'no_candidate' : (reasons[stage] ?? 'no_capacity') };
}

function better(a: AssigneeCandidate, aFree: number, b: AssigneeCandidate, bFree: number, order: AssignmentOrder): boolean {
  if (order === 'most_free_capacity' && aFree !== bFree) return aFree > bFree;
  if (order === 'best_fit' && aFree !== bFree) return aFree < bFree;
  if (a.idleSinceMs !== b.idleSinceMs) return a.idleSinceMs < b.idleSinceMs;
  return a.staff.id < b.staff.id;
}
