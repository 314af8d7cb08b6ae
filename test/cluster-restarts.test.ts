/**
 * Two real `baton serve --store postgres` OS processes (bin/baton.js over the build) on one
 * PostgreSQL, under load from scripted customers spread over them, simulated staff taking
 * hand-offs and consoles following conversations on the staff stream: gateways are killed twice
 * with SIGKILL and started again, and every gateway is restarted in turn with SIGTERM (the graceful
 * drain). The final logs in PostgreSQL, against what every client saw: no acknowledged message
 * lost or stored twice, no customer message answered twice, no agent message under a person, no
 * hand-off left pending, every message answered, and every log entry of a followed conversation
 * delivered to its console. The run is `baton bench cluster`'s (src/cli/bench-cluster.ts), at a
 * small scale; it asserts behaviour only, never speed.
 */
import { describe, expect, it } from 'vitest';
import { benchCluster } from '../src/cli/bench-cluster.js';
import { testPostgresUrl } from './support/postgres.js';

describe('gateways on one PostgreSQL across SIGKILLs and a rolling restart', () => {
  it('drops no customer message and no console event, answers each message once, and leaves no hand-off pending', async () => {
    const result = await benchCluster({
      gateways: 2,
      kills: 2,
      rolling: true,
      conversations: 80,
      staff: 3,
      consoles: 2,
      concurrency: 16,
      seed: 7,
      scaling: [],
      scalingConversations: 0,
      handoffEvery: 4,
      turnLeaseMs: 5_000,
      handoffTimeoutMs: 60_000,
      pgUrl: await testPostgresUrl(),
    });
    const { run } = result;
    // The disruptions really happened under load, and the clients really moved between gateways.
    expect(run.gateway_crashes).toEqual([]);
    expect(run.kills).toHaveLength(2);
    expect(run.graceful_restarts.map((r) => r.exit_code)).toEqual([0, 0]);
    expect(run.requests_sent_to_another_gateway).toBeGreaterThan(0);
    expect(run.consoles.reconnects).toBeGreaterThan(0);
    expect(run.consoles.conversations_followed).toBe(40);
    expect(run.consoles.events_in_their_logs).toBeGreaterThan(40 * 5);
    // Every script ran to its end: two customer messages each (a question, then another or "Talk to a person"), all acknowledged and answered.
    expect(run.customer_error_examples).toEqual([]);
    expect(run.refused_posts).toBe(0);
    expect(run.acknowledged_messages).toBe(2 * run.customer_scripts);
    expect(run.unanswered_examples).toEqual([]);
    expect(run.unanswered_messages).toBe(0);
    // People took the hand-offs: each who asked got a person.
    expect(run.asked_for_a_person).toBeGreaterThan(10);
    expect(run.time_to_human_ms.count).toBe(run.asked_for_a_person);
    expect(run.staff.error_examples).toEqual([]);
    expect(run.staff.handed_back).toBe(run.staff.accepted);
    expect(run.still_waiting_examples).toEqual([]);
    // The invariants, from the final logs.
    expect({
      double_replies: run.double_replies,
      lost_messages: run.lost_messages,
      duplicate_messages: run.duplicate_messages,
      agent_messages_while_human_owner: run.agent_messages_while_human_owner,
      stuck_handoff_pending: run.stuck_handoff_pending,
      events_missed_by_consoles: run.events_missed_by_consoles,
      events_received_twice: run.consoles.events_received_twice,
      log_violations: run.log_violation_examples,
    }).toEqual({
      double_replies: 0,
      lost_messages: 0,
      duplicate_messages: 0,
      agent_messages_while_human_owner: 0,
      stuck_handoff_pending: 0,
      events_missed_by_consoles: 0,
      events_received_twice: 0,
      log_violations: [],
    });
  }, 300_000);
});
