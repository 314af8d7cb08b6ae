import { describe, expect, it } from 'vitest';
import { loadServeConfig, ServeConfigError, ServeConfigSchema } from '../src/cli/serve-config.js';
import type { AgentId } from '../src/core/index.js';
import { scriptedPolicy } from '../src/testing/scripted-policy.js';
import { startTestRuntime } from './support/runtime-server.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const file = (content: unknown) => {
  const path = join(mkdtempSync(join(tmpdir(), 'baton-cfg-')), 'baton.config.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

describe('baton.config.json', () => {
  it('defaults to billing with one rule agent', () => {
    expect(loadServeConfig(null)).toEqual(ServeConfigSchema.parse({}));
    expect(loadServeConfig(null).domain).toBe('billing');
  });

  it('names every bad field with its path, and refuses a file that is not JSON or not there', () => {
    const messageOf = (content: unknown) => {
      try {
        loadServeConfig(file(content));
      } catch (error) {
        expect(error).toBeInstanceOf(ServeConfigError);
        return (error as Error).message;
      }
      throw new Error('expected the configuration to be refused');
    };
    const shape = messageOf({ domain: 'pharmacy', ownership: { maxHandoffs: 0 } });
    for (const field of ['domain', 'ownership.maxHandoffs']) expect(shape).toContain(`${field}:`);
    const agents = messageOf({ agents: [{ id: 'front', policy: 'magic' }] });
    for (const field of ['agents.0.id', 'agents.0.policy']) expect(agents).toContain(`${field}:`);
    expect(messageOf({ colour: 'red' })).toMatch(/colour/);
    const graph = messageOf({
      agents: [
        { id: 'agent_front', policy: 'llm', handoffTo: ['agent_front', 'agent_ghost'] },
        { id: 'agent_front', policy: 'rule', handoffTo: ['agent_front'] },
      ],
      defaultAgent: 'agent_nobody',
    });
    for (const field of ['agents.1.id', 'agents.0.handoffTo.0', 'agents.0.handoffTo.1', 'agents.1.handoffTo', 'defaultAgent']) {
      expect(graph).toContain(`${field}:`);
    }
    expect(() => loadServeConfig(file('{ not json'))).toThrow(/not valid JSON/);
    expect(() => loadServeConfig('/nonexistent/baton.config.json')).toThrow(/does not exist/);
  });

  it('runs a router agent in front of a specialist along the configured edge', async () => {
    const router = 'agent_router' as AgentId;
    const billing = 'agent_billing' as AgentId;
    const server = await startTestRuntime('memory', {
      config: {
        agents: [
          { id: router, policy: 'llm', handoffTo: [billing] },
          { id: billing, policy: 'rule', handoffTo: [] },
        ],
      },
      // No model runs here: the router's policy is scripted to route to the specialist.
      policy: (agent) =>
        agent.id === router
          ? scriptedPolicy([
              { toolCalls: [{ name: 'handoff', arguments: { target: billing, reason: 'agent_decision', summary: 'a billing question' } }] },
            ])
          : null,
    });
    try {
      const c = await server.open();
      const outcome = await server.runtime.service.handleCustomerMessage(c.id, { text: 'Which plans do you offer?', idempotencyKey: 'k' });
      expect(outcome).toMatchObject({ type: 'reply', delivered: true });
      const conversation = (await server.store.getConversation(c.id))!;
      expect(conversation).toMatchObject({ state: 'AGENT_ACTIVE', owner: { type: 'agent', id: billing }, agentTransferCount: 1 });
    } finally {
      await server.close();
    }
  });

  it('takes channels with the names of the environment variables that hold their secrets, never the secrets', async () => {
    const refused = (content: unknown) => {
      try {
        loadServeConfig(file(content));
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected the configuration to be refused');
    };
    expect(refused({ channels: { whatsapp: { appSecret: 'shh' } } })).toMatch(
      /channels\.whatsapp\.appSecret: secrets do not go in the configuration file: .*appSecretEnv/,
    );
    expect(refused({ channels: { webhooks: [{ id: 'crm', deliverTo: 'https://crm.example/in', secretEnv: 'X', secret: 's' }] } })).toMatch(
      /channels\.webhooks\.0\.secret: .*secretEnv/,
    );
    const many = refused({
      channels: {
        whatsapp: {
          appSecretEnv: 'lower-case',
          graphBaseUrl: 'ftp://graph',
          templates: [{ name: 'Bad Name', language: 'english', body: 'x' }],
        },
        webhooks: [
          { id: 'crm', deliverTo: 'not a url', secretEnv: 'CRM_SECRET' },
          { id: 'crm', deliverTo: 'https://crm.example/in', secretEnv: 'CRM_SECRET' },
        ],
      },
    });
    for (const field of [
      'channels.whatsapp.appSecretEnv',
      'channels.whatsapp.graphBaseUrl',
      'channels.whatsapp.templates.0.name',
      'channels.whatsapp.templates.0.language',
      'channels.webhooks.0.deliverTo',
      'channels.webhooks.1.id',
    ]) {
      expect(many).toContain(`${field}:`);
    }
    const config = loadServeConfig(
      file({ channels: { whatsapp: {}, webhooks: [{ id: 'crm', deliverTo: 'https://crm.example/in', secretEnv: 'CRM_SECRET' }] } }),
    );
    expect(config.channels?.whatsapp).toMatchObject({
      appSecretEnv: 'BATON_WHATSAPP_APP_SECRET',
      graphBaseUrl: 'https://graph.facebook.com/v21.0',
    });
    // The variables must be set before anything is served, and the error names each one missing.
    await expect(startTestRuntime('memory', { config, env: { BATON_WHATSAPP_APP_SECRET: 'set' } })).rejects.toThrow(
      /BATON_WHATSAPP_VERIFY_TOKEN .*BATON_WHATSAPP_ACCESS_TOKEN .*CRM_SECRET/,
    );
  });
});
