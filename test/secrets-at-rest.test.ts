/**
 * Secrets are never at rest: a conversation that saw a secret of every class (in the customer's
 * messages, the agent's reply, tool arguments, the hand-off summary, a person's reply and notes)
 * leaves none of them in any byte of its SQLite files; a lab run's trajectories, metrics,
 * report, SFT export and dataset export (whose tasks hold the customers' scripts) hold none of
 * the one-time codes its customers typed; and the channels'
 * secrets (WhatsApp's app secret, verify token and access token, a webhook channel's secret) are
 * in no byte of the database and no line of the request log.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StaffId } from '../src/core/index.js';
import type { BillingDb } from '../src/domains/billing/billing-db.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { openStore } from '../src/store/open-store.js';
import { scriptedPolicy } from '../src/testing/scripted-policy.js';
import { ChannelsConfigSchema } from '../src/cli/channels-config.js';
import { signWebhook } from '../src/runtime/channels/signatures.js';
import { startScriptedWhatsAppServer } from '../src/testing/scripted-whatsapp-server.js';
import { channelSecrets, ORDER_TEMPLATE, settled } from './support/channel-runtime.js';
import { notedPolicy, startTestRuntime } from './support/runtime-server.js';

/** One of each class, as a customer or colleague would write it, with the forms that must not survive. */
const SECRETS = {
  card: { said: 'my card is 4111 1111 1111 1111', forms: ['4111 1111 1111 1111', '4111111111111111'] },
  // Three digits alone turn up by chance in ids and times (…:37.737Z): the CVV is looked for where it was said.
  cvv: { said: 'the security code on the back is 737', forms: ['back is 737'] },
  otp: { said: 'the code you sent is 4 8 1 9 2 0', forms: ['4 8 1 9 2 0', '481920'] },
  password: { said: 'my password is hunter2!Xy', forms: ['hunter2!Xy'] },
  key: { said: 'my API key is sk_live_51HxYzAbCdEfGhIjKlMnOp', forms: ['sk_live_51HxYzAbCdEfGhIjKlMnOp'] },
  iban: { said: 'refund it to GB82 WEST 1234 5698 7654 32 please', forms: ['GB82 WEST 1234 5698 7654 32', 'GB82WEST12345698765432'] },
  ssn: { said: 'my SSN is 078-05-1120', forms: ['078-05-1120', '078051120'] },
  nino: { said: 'my National Insurance number is QQ 12 34 56 C', forms: ['QQ 12 34 56 C', 'QQ123456C'] },
} as const;

/** Every file under a folder, as text (binary bytes read as latin1, so any ASCII run is findable). */
function everyByte(dir: string): string {
  let all = '';
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    all += statSync(path).isDirectory() ? everyByte(path) : readFileSync(path).toString('latin1');
  }
  return all;
}

describe('secrets at rest', () => {
  it('no secret of any class survives in the SQLite files of a conversation that saw them all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-secrets-'));
    const store = await openStore({ kind: 'sqlite', path: join(dir, 'baton.sqlite') });
    const db = (await loadDomain('billing')).initialDb as unknown as BillingDb;
    const customer = Object.values(db.customers)[0]!;
    const server = await startTestRuntime('sqlite', {
      store,
      // The agent repeats what it was given, calls a tool with the secrets as arguments, and hands
      // off with a summary that quotes them: the worst an agent could do with them.
      policy: () =>
        scriptedPolicy([
          {
            toolCalls: [{ name: 'verify_customer', arguments: { customer_id: customer.customer_id, code: '481920' } }],
          },
          { reply: 'Thanks. I noted card 4111 1111 1111 1111, code 481920 and your password hunter2!Xy.' },
          {
            toolCalls: [
              {
                name: 'handoff',
                arguments: {
                  target: 'queue_billing',
                  reason: 'customer_request',
                  summary: 'Card 4111111111111111, IBAN GB82WEST12345698765432, SSN 078-05-1120.',
                },
              },
            ],
          },
        ]),
    });
    const { service } = server.runtime;
    const c = await server.open();
    await service.handleCustomerMessage(c.id, {
      text: Object.values(SECRETS)
        .map((s) => s.said)
        .join('. '),
      idempotencyKey: 'k1',
    });
    await service.handleCustomerMessage(c.id, { text: 'Please read me the code again, it was 4 8 1 9 2 0', idempotencyKey: 'k2' });
    const staff = await server.staff('agent', ['billing']);
    const queued = (await store.getConversation(c.id))!;
    const claimed = await service.claim(c.id, staff.id as StaffId, queued.version);
    if (!claimed.ok) throw new Error(claimed.rejection.message);
    const v = claimed.conversation.version;
    await service.reply(c.id, staff.id as StaffId, {
      text: 'I have your IBAN GB82 WEST 1234 5698 7654 32 and SSN 078-05-1120 on file.',
      version: v,
    });
    await service.handBack(c.id, staff.id as StaffId, {
      version: v,
      notes: 'Verified with NI number QQ 12 34 56 C; api key sk_live_51HxYzAbCdEfGhIjKlMnOp rotated.',
      constraints: [],
    });
    const log = JSON.stringify(await store.listEvents(c.id));
    await server.close();

    const bytes = everyByte(dir);
    expect(bytes.length).toBeGreaterThan(0);
    // The conversation is there (so the search is not of an empty file), and every marker with it.
    expect(bytes).toContain(c.id);
    expect(log).toMatch(/\[card ••••1111\]/);
    for (const [kind, { forms }] of Object.entries(SECRETS)) {
      for (const form of forms) expect(bytes.includes(form), `${kind}: ${form}`).toBe(false);
    }
  });

  it('a lab run keeps none of the codes its customers typed, in any file it writes or makes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-lab-secrets-'));
    const run = join(dir, 'run');
    const bin = join(import.meta.dirname, '..', 'bin', 'baton.js');
    const baton = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: dir });
    const evalRun = baton([
      'eval',
      '--domain',
      'billing',
      '--tasks',
      'handoff',
      '--split',
      'dev',
      '--agent',
      'rule',
      '--styles',
      'neutral',
      '--trials',
      '1',
      '--out',
      run,
    ]);
    expect(evalRun.status, evalRun.stderr).toBe(0);
    expect(baton(['report', run, '--out', join(run, 'report.html')]).status).toBe(0);
    expect(baton(['export', 'sft', run, '--out', join(run, 'sft.jsonl')]).status).toBe(0);
    const dataset = baton(['export', 'dataset', run, '--out', join(run, 'dataset')]);
    expect(dataset.status, dataset.stderr).toBe(0);
    const bytes = everyByte(run);
    // Customers did type their codes (the markers show where), and no code is left.
    expect(bytes.match(/\[otp\]/g)?.length ?? 0).toBeGreaterThan(10);
    return loadDomain('billing').then((domain) => {
      const codes = Object.values((domain.initialDb as unknown as BillingDb).customers).map((c) => c.verification_code);
      const left = codes.filter((code) => new RegExp(`(?<![0-9a-fA-F])${code}(?![0-9a-fA-F])`).test(bytes));
      expect(left).toEqual([]);
    });
  }, 300_000);

  it('no channel secret is in the database or the request log, after every route that uses one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-channel-secrets-'));
    const store = await openStore({ kind: 'sqlite', path: join(dir, 'baton.sqlite') });
    const secrets = channelSecrets();
    const wa = await startScriptedWhatsAppServer({
      appSecret: secrets.BATON_WHATSAPP_APP_SECRET,
      accessToken: secrets.BATON_WHATSAPP_ACCESS_TOKEN,
      approvedTemplates: [`${ORDER_TEMPLATE.name}:${ORDER_TEMPLATE.language}`],
    });
    let log = '';
    const receiver = await new Promise<Server>((resolve) => {
      const s = createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200).end());
      });
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
    const server = await startTestRuntime('sqlite', {
      store,
      env: secrets,
      policy: () => notedPolicy(),
      logger: { level: 'info', stream: { write: (line: string) => void (log += line) } },
      config: {
        channels: ChannelsConfigSchema.parse({
          whatsapp: { graphBaseUrl: wa.graphBaseUrl, templates: [ORDER_TEMPLATE] },
          webhooks: [{ id: 'crm', deliverTo: receiverUrl, secretEnv: 'BATON_WEBHOOK_CRM_SECRET' }],
        }),
      },
    });
    wa.setWebhook(`${server.base}/v1/channels/whatsapp/webhook`);
    const handshake = await fetch(
      `${server.base}/v1/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${secrets.BATON_WHATSAPP_VERIFY_TOKEN}&hub.challenge=42`,
    );
    expect(handshake.status).toBe(200);
    const wrong = await fetch(
      `${server.base}/v1/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${secrets.BATON_WHATSAPP_APP_SECRET}&hub.challenge=42`,
    );
    expect(wrong.status).toBe(403);
    expect((await wa.customerWrites({ from: '447700900123', text: 'hello' })).status).toBe(200);
    await settled(server);
    expect(wa.accepted).toHaveLength(1);
    expect((await wa.reportStatus({ wamid: wa.accepted[0]!.wamid, status: 'read' })).status).toBe(200);
    const body = JSON.stringify({ messageId: 'crm-1', from: 'contact-1', text: 'hello from the CRM' });
    const crm = await fetch(`${server.base}/v1/channels/webhooks/crm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-baton-signature': signWebhook(secrets.BATON_WEBHOOK_CRM_SECRET, body, Date.now()) },
      body,
    });
    expect(crm.status).toBe(201);
    await settled(server);
    await server.close();
    await wa.close();
    await new Promise((resolve) => receiver.close(resolve));

    const bytes = everyByte(dir);
    expect(bytes).toContain('delivery.succeeded');
    // The log is not empty: it has the handshake's URL, with the token taken out.
    expect(log).toContain('hub.verify_token=[redacted]');
    for (const [name, value] of Object.entries(secrets)) {
      expect(bytes.includes(value), `${name} in the database`).toBe(false);
      expect(log.includes(value), `${name} in the log`).toBe(false);
    }
  });
});
