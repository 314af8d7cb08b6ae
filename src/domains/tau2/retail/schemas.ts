import { z } from 'zod';

/**
 * Argument schemas of the 16 retail tools (the current toolset; the first release lacks
 * `get_item_details`), for offering them to a model as function schemas
 * (`z.toJSONSchema(schema, { io: 'input' })`). Types follow upstream's Python signatures; the
 * descriptions are Baton's own. These schemas only describe the arguments: the tools keep their
 * own upstream validation and error strings, so nothing here is stricter than upstream's types.
 */

const orderId = () => z.string().describe("The order's id, starting with '#', such as '#W2611340'.");
const userId = () => z.string().describe("The user's id, such as 'noah_brown_6181'.");
const paymentMethodId = (what: string) => z.string().describe(`${what}, such as 'credit_card_7815826' or 'gift_card_4374071'.`);
const itemIds = (what: string) => z.array(z.string()).describe(what);

/** The six address fields, in upstream's parameter order. */
const address = (whose: string) => ({
  address1: z.string().describe(`First line of the ${whose} address (street and number).`),
  address2: z.string().describe(`Second line of the ${whose} address (apartment, suite).`),
  city: z.string().describe(`City of the ${whose} address.`),
  state: z.string().describe(`State of the ${whose} address, such as 'CO'.`),
  country: z.string().describe(`Country of the ${whose} address, such as 'USA'.`),
  zip: z.string().describe(`Zip code of the ${whose} address.`),
});

/** The retail tools' argument schemas by tool name; keys in each tool's `params` order. */
export const RETAIL_TOOL_SCHEMAS: Readonly<Record<string, z.ZodObject>> = {
  calculate: z.object({
    expression: z.string().describe("Arithmetic expression using numbers, + - * /, parentheses and spaces, such as '2 * (3 + 4)'."),
  }),
  cancel_pending_order: z.object({
    order_id: orderId(),
    reason: z.string().describe("Why the order is cancelled: either 'no longer needed' or 'ordered by mistake'."),
  }),
  exchange_delivered_order_items: z.object({
    order_id: orderId(),
    item_ids: itemIds('Item ids of the delivered items to exchange; list an id twice to exchange two identical items.'),
    new_item_ids: itemIds('Item ids of the replacements, one per entry of item_ids and in the same order, each of the same product.'),
    payment_method_id: paymentMethodId("Id of the user's payment method that pays or receives the price difference"),
  }),
  find_user_id_by_email: z.object({
    email: z.string().describe("The user's email address."),
  }),
  find_user_id_by_name_zip: z.object({
    first_name: z.string().describe("The user's first name."),
    last_name: z.string().describe("The user's last name."),
    zip: z.string().describe("The zip code of the user's address."),
  }),
  get_order_details: z.object({
    order_id: orderId(),
  }),
  get_product_details: z.object({
    product_id: z.string().describe("The product's id, such as '9523456873' (not an item id)."),
  }),
  get_item_details: z.object({
    item_id: z.string().describe("The item's id: one variant of a product, such as '9612497925'."),
  }),
  get_user_details: z.object({
    user_id: userId(),
  }),
  list_all_product_types: z.object({}),
  modify_pending_order_address: z.object({
    order_id: orderId(),
    ...address('new shipping'),
  }),
  modify_pending_order_items: z.object({
    order_id: orderId(),
    item_ids: itemIds('Item ids of the pending order to change; list an id twice to change two identical items.'),
    new_item_ids: itemIds(
      'Item ids to change them to, one per entry of item_ids and in the same order, each a different item of the same product.',
    ),
    payment_method_id: paymentMethodId("Id of the user's payment method that pays or receives the price difference"),
  }),
  modify_pending_order_payment: z.object({
    order_id: orderId(),
    payment_method_id: paymentMethodId("Id of the user's payment method that should pay for the order instead"),
  }),
  modify_user_address: z.object({
    user_id: userId(),
    ...address("user's new default"),
  }),
  return_delivered_order_items: z.object({
    order_id: orderId(),
    item_ids: itemIds('Item ids of the delivered items to return; list an id twice to return two identical items.'),
    payment_method_id: paymentMethodId(
      "Id of the payment method that receives the refund: the order's original one or a gift card of the user",
    ),
  }),
  transfer_to_human_agents: z.object({
    summary: z.string().describe("A short summary of the user's issue, for the human agent."),
  }),
};
