/**
 * tau2-bench's retail tools ported to TypeScript at byte parity with upstream (`RetailTools`).
 * The current version has 16 tools; the first public release (37199f3) lacks `get_item_details`.
 */
import type { DomainTool } from '../../domain-tool.js';
import { exchangeDeliveredOrderItems, modifyPendingOrderItems, returnDeliveredOrderItems } from './item-tools.js';
import { cancelPendingOrder, modifyPendingOrderAddress, modifyPendingOrderPayment, modifyUserAddress } from './order-tools.js';
import {
  calculate,
  findUserIdByEmail,
  findUserIdByNameZip,
  getItemDetails,
  getOrderDetails,
  getProductDetails,
  getUserDetails,
  listAllProductTypes,
  transferToHumanAgents,
} from './read-tools.js';
import type { RetailDb } from './retail-db.js';

export { cloneRetailDb, loadRetailDb, type RetailDb } from './retail-db.js';

/** Which upstream version's toolset: the current one, or the first public release. */
export type RetailToolsVersion = 'current' | 'release-37199f3';

const ALL: readonly DomainTool<RetailDb>[] = [
  calculate,
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  findUserIdByEmail,
  findUserIdByNameZip,
  getOrderDetails,
  getProductDetails,
  getItemDetails,
  getUserDetails,
  listAllProductTypes,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
  transferToHumanAgents,
];

/** The current version's 16 retail tools by name. */
export const RETAIL_TOOLS: ReadonlyMap<string, DomainTool<RetailDb>> = new Map(ALL.map((tool) => [tool.name, tool]));

/** The retail tools of an upstream version by name (the release has no `get_item_details`). */
export function retailTools(version: RetailToolsVersion = 'current'): ReadonlyMap<string, DomainTool<RetailDb>> {
  if (version === 'current') return RETAIL_TOOLS;
  return new Map(ALL.filter((tool) => tool.name !== 'get_item_details').map((tool) => [tool.name, tool]));
}

/** A toolset for `callDomainTool`, named as upstream's class (for Python's TypeError texts). */
export function retailToolset(version: RetailToolsVersion = 'current'): {
  className: string;
  tools: ReadonlyMap<string, DomainTool<RetailDb>>;
} {
  return { className: 'RetailTools', tools: retailTools(version) };
}

/** The current version's toolset for `callDomainTool`. */
export const RETAIL_TOOLSET = retailToolset('current');
