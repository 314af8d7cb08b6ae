/** A JSON request to a test server: GET without a body, POST with one (unless `method` says), a bearer token and an idempotency key when given. */
export async function json(base: string, path: string, init: { method?: string; body?: unknown; token?: string; key?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers['authorization'] = `Bearer ${init.token}`;
  if (init.key) headers['idempotency-key'] = init.key;
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
