import { z } from 'zod';
import type { ToolItem, TranscriptItem } from './transcript.js';

/** Whether a tool only reads or may change something. */
export const ToolKindSchema = z.enum(['read', 'write']);
/** Whether a tool only reads or may change something. */
export type ToolKind = z.infer<typeof ToolKindSchema>;

// Leading verbs of tools that change nothing a customer would notice. Verification and
// authentication count as reads: they check an identity, they do not change the account.
const READ_VERBS = new Set(
  (
    'get find list search lookup look fetch read query check calculate calc compute show view describe retrieve count ' +
    'estimate preview quote validate verify authenticate think track browse inspect summarize summarise is has can'
  ).split(' '),
);

const firstWord = (name: string) =>
  (
    name
      .split(/[./:]/)
      .at(-1)
      ?.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toLowerCase()
      .split(/[_\-\s]+/)
      .find((w) => w !== '') ?? ''
  ).trim();

/**
 * Read or write, for a tool the domain did not label. Explicit lists win; otherwise the tool's
 * leading verb decides: `get_`, `find_`, `list_`, `search_`, `lookup_`, `check_`, `calculate_`,
 * `verify_`… (snake_case, camelCase or `ns.get_x` alike) are reads, and everything else is a write,
 * because telling a human that something may have changed is the safer mistake.
 */
export function inferToolKind(name: string, lists: { read?: readonly string[]; write?: readonly string[] } = {}): ToolKind {
  if (lists.write?.includes(name)) return 'write';
  if (lists.read?.includes(name)) return 'read';
  return READ_VERBS.has(firstWord(name)) ? 'read' : 'write';
}

/** The hand-off tool itself (`transfer_to_human_agents`, `handoff`): the packet is its result, not one of its actions. */
export function isHandoffTool(name: string): boolean {
  return /^(?:transfer_to_|handoff$|hand_off$|handoff_to_)/i.test(name);
}

const ID_KEYS = new Set(['userid', 'customerid', 'clientid', 'accountid', 'memberid', 'customernumber']);
const EMAIL_KEYS = new Set(['email', 'emailaddress']);
const norm = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

// A tool that finds a customer from what they told the agent (find_user_id_by_email,
// lookup_customer). In the tau2 domains this is the authentication the policy asks for.
const IDENTITY_LOOKUP =
  /^(?:find|lookup|look_up|search|identify)_?(?:user|customer|client|account|member)|^get_?(?:user|customer|client|account|member)s?(?:_id)?_by_/i;
// A tool that checks a secret or a document: verify_otp, authenticate_user, check_otp.
const VERIFICATION =
  /verif|authenticat|(?:^|_)(?:otp|totp|2fa|mfa|kba)(?:_|$)|validate_(?:identity|customer|user|otp|code)|(?:confirm|check)_identity|security_question/i;
// Sending or requesting a code is not checking it.
const NOT_A_CHECK = new Set(['send', 'resend', 'request', 'generate', 'issue', 'create', 'start', 'initiate', 'trigger', 'reset']);
const FAILED_TEXT =
  /\b(?:invalid|incorrect|wrong|expired|mismatch|denied|rejected|failed|does(?: not|n't) match|not (?:verified|valid|authenticated|found|match(?:ed)?))\b/i;
const FAILED_FLAGS = ['verified', 'valid', 'success', 'authenticated', 'match', 'matched', 'ok', 'passed'];

/** Who the customer is, according to the tool log. */
export interface CustomerIdentity {
  id: string | null;
  /** Every distinct id seen, in order; more than one is a question for the human. */
  ids: string[];
  verified: boolean;
  verifiedBy: string | null;
  /** The verification tool that was tried and did not succeed, when none did. */
  failedVerification: string | null;
  /** The tool that started a verification (`send_otp`) that no check completed. */
  pendingVerification: string | null;
}

const isVerification = (name: string) => VERIFICATION.test(name) && !NOT_A_CHECK.has(firstWord(name));
const startsVerification = (name: string) => VERIFICATION.test(name) && NOT_A_CHECK.has(firstWord(name));

/** True when a call reported success and its output does not say otherwise (`{"verified": false}`, "Invalid code"). */
function passed(item: ToolItem): boolean {
  if (!item.ok) return false;
  try {
    const value = JSON.parse(item.output) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const record = value as Record<string, unknown>;
      if (FAILED_FLAGS.some((flag) => record[flag] === false)) return false;
      const status = record['status'] ?? record['result'];
      return !(typeof status === 'string' && FAILED_TEXT.test(status));
    }
  } catch {
    // Not JSON: judge the text.
  }
  return !FAILED_TEXT.test(item.output.slice(0, 200));
}

/**
 * The customer's id, from successful calls: the id a verification or identity lookup returned or
 * was called with, else the first `user_id`/`customer_id` argument or top-level output field,
 * else the e-mail used for a lookup. Verified when a verification tool succeeded; when the log
 * shows no verification at all (none tried, no code sent), a successful identity lookup counts:
 * that is how the tau2 airline and retail policies authenticate.
 */
export function identifyCustomer(
  items: readonly TranscriptItem[],
  authentication?: { mode: 'lookup' | 'check'; identityTools?: readonly string[] | undefined },
): CustomerIdentity {
  const ids: Array<{ id: string; strong: boolean }> = [];
  const emails: string[] = [];
  let verifiedBy: string | null = null;
  let lookedUpBy: string | null = null;
  let failedVerification: string | null = null;
  let startedBy: string | null = null;
  for (const item of items) {
    if (item.role !== 'tool') continue;
    const verification = isVerification(item.name);
    const lookup = IDENTITY_LOOKUP.test(item.name) || (authentication?.identityTools ?? []).includes(item.name);
    if (verification && !passed(item)) failedVerification ??= item.name;
    if (startsVerification(item.name) && item.ok) startedBy ??= item.name;
    if (!item.ok) continue;
    if (verification && passed(item)) verifiedBy = item.name;
    if (lookup && passed(item)) lookedUpBy ??= item.name;
    const strong = verification || lookup;
    for (const [key, value] of Object.entries(item.arguments)) {
      if (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '')) {
        if (ID_KEYS.has(norm(key))) ids.push({ id: String(value).trim(), strong });
        else if (EMAIL_KEYS.has(norm(key)) && lookup) emails.push(String(value).trim());
      }
    }
    const output = item.output.trim();
    if (lookup && /^[\w.@+-]{2,80}$/.test(output)) ids.push({ id: output, strong: true });
    else {
      try {
        const value = JSON.parse(output) as unknown;
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
          for (const [key, v] of Object.entries(value)) {
            if (ID_KEYS.has(norm(key)) && (typeof v === 'string' || typeof v === 'number')) ids.push({ id: String(v), strong });
          }
        }
      } catch {
        // A plain-text output names no id field.
      }
    }
  }
  const distinct = [...new Set(ids.map((x) => x.id))];
  const id = ids.find((x) => x.strong)?.id ?? ids[0]?.id ?? emails[0] ?? null;
  // A lookup stands in for verification only where the domain has none: not after a failed
  // check, and not after a code was sent that nobody checked yet.
  const lookupCounts = authentication ? authentication.mode === 'lookup' : failedVerification === null && startedBy === null;
  const verified = verifiedBy !== null || (lookupCounts && lookedUpBy !== null);
  return {
    id,
    ids: distinct,
    verified,
    verifiedBy: verifiedBy ?? (verified ? lookedUpBy : null),
    failedVerification: verified ? null : failedVerification,
    pendingVerification: verified || failedVerification !== null ? null : startedBy,
  };
}
