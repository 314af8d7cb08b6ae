import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServeConfigSchema } from '../src/cli/serve-config.js';
import { composeServeRuntime } from '../src/cli/serve-runtime.js';
import { noRedaction } from '../src/runtime/service/redactor.js';
import { openStore } from '../src/store/open-store.js';
import { scriptedPolicy } from '../src/testing/scripted-policy.js';
const store = await openStore({ kind: 'sqlite', path: join(mkdtempSync(join(tmpdir(), 'p-')), 's.sqlite') });
const rt = await composeServeRuntime({ store, config: ServeConfigSchema.parse({}), redact: noRedaction, policyOverride: () => scriptedPolicy([{ reply: 'ok' }], { whenExhausted: 'repeat_last' }) });
const t: Record<string, number[]> = { open: [], receive: [], turn: [] };
for (let i = 0; i < 200; i++) {
  let a = performance.now();
  const c = await rt.service.open();
  t.open.push(performance.now() - a);
  a = performance.now();
  const r = await rt.service.receive(c.id, { text: 'Which plans do you offer?', idempotencyKey: 'k' });
  t.receive.push(performance.now() - a);
  a = performance.now();
  if (r.ok) await r.turn;
  t.turn.push(performance.now() - a);
}
for (const [k, v] of Object.entries(t)) { v.sort((x, y) => x - y); console.log(k, v[100]!.toFixed(2), v[198]!.toFixed(2)); }
const a = performance.now(); for (let i = 0; i < 200; i++) store.db.prepare('select 1').get(); console.log('noop', performance.now() - a);
const g = rt.service.gateway;
const ids = [] as string[];
for (let i = 0; i < 200; i++) ids.push((await g.open()).id);
const b: number[] = [];
for (const id of ids) { const a = performance.now(); await g.receive(id as never, { text: 'x', idempotencyKey: 'k' }); await g.send(id as never, { type: 'agent', id: 'agent_support' as never }, 'y'); b.push(performance.now() - a); }
b.sort((x, y) => x - y); console.log('baseline-like', b[100]!.toFixed(2), b[198]!.toFixed(2));
