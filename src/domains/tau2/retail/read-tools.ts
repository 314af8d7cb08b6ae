/** The retail tools that change nothing: look-ups, `calculate` and the transfer. */
import { ToolError, type DomainTool } from '../../domain-tool.js';
import { pythonCalculate } from '../python-calc.js';
import { getItem, getOrder, getProduct, getUser, type RetailDb } from './retail-db.js';
import { orderModel, printModel, printProduct, printProductTypes, printVariant, pythonTypeName, userModel } from './retail-output.js';

/** Python's `str.lower()` as the look-ups apply it; a non-string has no `.lower`. */
function lower(value: unknown): string {
  if (typeof value !== 'string') throw new ToolError(`'${pythonTypeName(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
}

/** `calculate(expression)`. */
export const calculate: DomainTool<RetailDb> = {
  name: 'calculate',
  kind: 'generic',
  description: 'Calculate the result of a mathematical expression.',
  params: ['expression'],
  run: (_db, { expression }) => {
    if (typeof expression !== 'string') throw new ToolError(`'${pythonTypeName(expression)}' object is not iterable`);
    return pythonCalculate(expression);
  },
};

/** `find_user_id_by_email(email)`: case-insensitive; the bare user id. */
export const findUserIdByEmail: DomainTool<RetailDb> = {
  name: 'find_user_id_by_email',
  kind: 'read',
  description: 'Find user id by email. If the user is not found, the function will return an error message.',
  params: ['email'],
  run: (db, { email }) => {
    const wanted = lower(email);
    for (const [userId, user] of Object.entries(db.users)) if (user.email.toLowerCase() === wanted) return userId;
    throw new ToolError('User not found');
  },
};

/** `find_user_id_by_name_zip(first_name, last_name, zip)`: names case-insensitive, zip exact. */
export const findUserIdByNameZip: DomainTool<RetailDb> = {
  name: 'find_user_id_by_name_zip',
  kind: 'read',
  description:
    'Find user id by first name, last name, and zip code. If the user is not found, the function will return an error message. ' +
    'By default, find user id by email, and only call this function if the user is not found by email or cannot remember email.',
  params: ['first_name', 'last_name', 'zip'],
  run: (db, { first_name, last_name, zip }) => {
    for (const [userId, user] of Object.entries(db.users)) {
      if (user.name.first_name.toLowerCase() === lower(first_name) && user.name.last_name.toLowerCase() === lower(last_name)) {
        if (user.address.zip === zip) return userId;
      }
    }
    throw new ToolError('User not found');
  },
};

/** `get_order_details(order_id)`: the order with all 14 fields. */
export const getOrderDetails: DomainTool<RetailDb> = {
  name: 'get_order_details',
  kind: 'read',
  description: 'Get the status and details of an order.',
  params: ['order_id'],
  run: (db, { order_id }) => printModel(orderModel(getOrder(db, order_id))),
};

/** `get_product_details(product_id)`: the product with its variants. */
export const getProductDetails: DomainTool<RetailDb> = {
  name: 'get_product_details',
  kind: 'read',
  description: 'Get the inventory details of a product.',
  params: ['product_id'],
  run: (db, { product_id }) => printProduct(db, getProduct(db, product_id)),
};

/** `get_item_details(item_id)` (current version only): the variant, searched over all products. */
export const getItemDetails: DomainTool<RetailDb> = {
  name: 'get_item_details',
  kind: 'read',
  description: 'Get the inventory details of an item.',
  params: ['item_id'],
  run: (db, { item_id }) => printVariant(getItem(db, item_id)),
};

/** `get_user_details(user_id)`. */
export const getUserDetails: DomainTool<RetailDb> = {
  name: 'get_user_details',
  kind: 'read',
  description: 'Get the details of a user, including their orders.',
  params: ['user_id'],
  run: (db, { user_id }) => printModel(userModel(getUser(db, user_id))),
};

/** `list_all_product_types()`: `{name: product_id}` with sorted keys. */
export const listAllProductTypes: DomainTool<RetailDb> = {
  name: 'list_all_product_types',
  kind: 'read',
  description:
    'List the name and product id of all product types. Each product type has a variety of different items with unique item ids and options. ' +
    'There are only 50 product types in the store.',
  params: [],
  run: (db) => printProductTypes(db),
};

/** `transfer_to_human_agents(summary)`: always `Transfer successful`. */
export const transferToHumanAgents: DomainTool<RetailDb> = {
  name: 'transfer_to_human_agents',
  kind: 'generic',
  description:
    "Transfer the user to a human agent, with a summary of the user's issue. Only transfer if the user explicitly asks for a human agent, " +
    "or given the policy and the available tools, you cannot solve the user's issue.",
  params: ['summary'],
  run: () => 'Transfer successful',
};
