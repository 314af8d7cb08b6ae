/** The console's calls to the runtime API: same origin, the session in its HttpOnly cookie, the CSRF token in memory. */

export interface StaffMe {
  id: string;
  email: string;
  name: string;
  role: 'agent' | 'supervisor' | 'admin';
  skills: string[];
}

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T & { error?: { code: string; message: string } };
}

let csrfToken: string | null = null;

export async function call<T = Record<string, unknown>>(
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    return {
      status: 0,
      body: { error: { code: 'offline', message: 'the server cannot be reached: check the connection' } } as ApiAnswer<T>['body'],
    };
  }
  const text = await res.text();
  let parsed: unknown = {};
  try {
    parsed = text === '' ? {} : JSON.parse(text);
  } catch {
    parsed = { error: { code: 'bad_answer', message: `the server answered ${res.status} without JSON` } };
  }
  return { status: res.status, body: parsed as ApiAnswer<T>['body'] };
}

/** Who is signed in (by the cookie), or null. */
export async function whoAmI(): Promise<StaffMe | null> {
  const answer = await call<{ staff: StaffMe; csrfToken?: string }>('GET', '/v1/staff/me');
  if (answer.status !== 200) return null;
  csrfToken = answer.body.csrfToken ?? null;
  return answer.body.staff;
}

export async function signIn(email: string, password: string): Promise<{ ok: true; staff: StaffMe } | { ok: false; message: string }> {
  const answer = await call<{ staff: StaffMe; csrfToken: string }>('POST', '/v1/staff/login', { email, password });
  if (answer.status !== 200) return { ok: false, message: answer.body.error?.message ?? `sign-in failed (${answer.status})` };
  csrfToken = answer.body.csrfToken;
  return { ok: true, staff: answer.body.staff };
}

export async function signOut(): Promise<void> {
  await call('POST', '/v1/staff/logout');
  csrfToken = null;
}
