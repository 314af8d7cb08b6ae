import { createHash } from 'node:crypto';
import type {} from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import { roleAtLeast, type Clock, type ConversationId, type StaffProfile, type StaffRole } from '../../core/index.js';
import type { Directory } from '../../store/directory.js';
import { HttpError } from '../http-errors.js';
import { sameHash, tokenHash } from './secrets.js';
import { staffForToken } from './staff-accounts.js';

/** The cookie that carries a console's staff session (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'baton_session';
/** The header a cookie-authenticated request that changes anything must carry. */
export const CSRF_HEADER = 'x-csrf-token';

/** What authenticating a request needs. */
export interface CallerDeps {
  directory: Directory;
  clock: Clock;
}

/** A signed-in staff member, and how they proved it. */
export interface StaffCaller {
  staff: StaffProfile;
  via: 'cookie' | 'bearer';
  token: string;
}

/**
 * The CSRF token of a cookie session: derived from the session token, so it needs no storage, and
 * unreadable to another site (the session cookie is HttpOnly and SameSite=Strict; the token is
 * only in response bodies that other origins cannot read).
 */
export const csrfTokenFor = (sessionToken: string): string => createHash('sha256').update(`csrf:${sessionToken}`).digest('hex');

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(header);
  if (!match) throw new HttpError(401, 'unauthenticated', 'the Authorization header must be "Bearer <token>"');
  return match[1]!;
}

/** The staff member calling, or null when the request carries no staff credential. Bad credentials → 401. */
export async function staffCaller(request: FastifyRequest, deps: CallerDeps): Promise<StaffCaller | null> {
  const token = bearer(request);
  if (token !== null) {
    if (!token.startsWith('st_')) return null;
    const staff = await staffForToken(deps.directory, token, deps.clock);
    if (!staff) throw new HttpError(401, 'unauthenticated', 'the session has expired or was signed out: sign in again');
    return { staff, via: 'bearer', token };
  }
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie === undefined) return null;
  const staff = await staffForToken(deps.directory, cookie, deps.clock);
  if (!staff) throw new HttpError(401, 'unauthenticated', 'the session has expired or was signed out: sign in again');
  return { staff, via: 'cookie', token: cookie };
}

/**
 * The staff member calling, with at least `least`'s role: 401 without a staff credential, 403
 * for a customer's credential or a lower role. A cookie session must also send the CSRF header on
 * anything that changes state.
 */
export async function requireStaff(request: FastifyRequest, deps: CallerDeps, least: StaffRole = 'agent'): Promise<StaffCaller> {
  const caller = await staffCaller(request, deps);
  if (!caller) {
    if (request.headers.authorization !== undefined)
      throw new HttpError(403, 'forbidden', 'this route is for staff; a customer token cannot use it');
    throw new HttpError(
      401,
      'unauthenticated',
      'sign in first: POST /v1/staff/login, then send the session cookie or "Authorization: Bearer <token>"',
    );
  }
  if (caller.via === 'cookie' && !SAFE_METHODS.has(request.method)) {
    const sent = request.headers[CSRF_HEADER];
    if (typeof sent !== 'string' || !sameHash(sent, csrfTokenFor(caller.token))) {
      throw new HttpError(403, 'csrf', `a request signed in by cookie must send the ${CSRF_HEADER} header that sign-in returned`);
    }
  }
  if (!roleAtLeast(caller.staff.role, least)) {
    throw new HttpError(403, 'forbidden', `this needs the ${least} role or above; you are ${caller.staff.role}`);
  }
  return caller;
}

/**
 * Checks the customer's token for a conversation: 401 without one, 403 for a staff credential,
 * 404 when it is not this conversation's (the same answer as a conversation that does not
 * exist, so a token tells nothing about other conversations).
 */
export async function requireCustomer(request: FastifyRequest, deps: CallerDeps, conversationId: ConversationId): Promise<void> {
  const token = bearer(request);
  if (token === null) {
    if (request.cookies[SESSION_COOKIE] !== undefined)
      throw new HttpError(403, 'forbidden', "this route is for the conversation's customer");
    throw new HttpError(401, 'unauthenticated', 'send the conversation\'s customer token: "Authorization: Bearer <customerToken>"');
  }
  await checkCustomerToken(deps, conversationId, token);
}

/**
 * Checks a customer token however it came (a header, a WebSocket subprotocol): 403 for a staff
 * token, 404 when it is not this conversation's.
 */
export async function checkCustomerToken(deps: CallerDeps, conversationId: ConversationId, token: string): Promise<void> {
  if (token.startsWith('st_'))
    throw new HttpError(403, 'forbidden', "this route is for the conversation's customer; staff reply with POST …/replies");
  const stored = await deps.directory.customerTokenHash(conversationId);
  if (stored === null || !sameHash(stored, tokenHash(token)))
    throw new HttpError(404, 'not_found', `there is no conversation ${conversationId}`);
}
