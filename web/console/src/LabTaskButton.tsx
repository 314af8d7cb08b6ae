import { useState } from 'react';
import type { StoredEvent } from '../../../src/core/index.js';
import type { StaffMe } from './api.js';
import { call } from './api.js';
import { words } from './describe.js';

interface LabTaskAnswer {
  task?: { kind: string; split: string; should_transfer: boolean; expected_target: string | null; due_turn: number | null };
  added?: { change: string; revision: number } | null;
}

/**
 * "Make a lab task" (supervisors and admins): the reviewed conversation becomes a labelled
 * hand-off task of the production task set (POST /v1/conversations/:id/lab-task,
 * docs/production-tasks.md). Offered once the conversation has a verdict; says what the task is
 * labelled, and whether the server added it to its task set.
 */
export function LabTaskButton({ conversationId, events, me }: { conversationId: string; events: readonly StoredEvent[]; me: StaffMe }) {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  if (me.role === 'agent') return null;
  const reviewed = events.some((e) => e.type === 'review.recorded');
  const make = async () => {
    setBusy(true);
    setSaid(null);
    const answer = await call<LabTaskAnswer>('POST', `/v1/conversations/${conversationId}/lab-task`, {});
    setBusy(false);
    const task = answer.body.task;
    if (answer.status !== 200 || !task) {
      setSaid({ ok: false, text: `Lab task not made: ${answer.body.error?.message ?? `refused (${answer.status})`}` });
      return;
    }
    const label = task.should_transfer
      ? `hand off${task.expected_target ? ` to ${words(task.expected_target)}` : ''}${task.due_turn ? ` from customer turn ${task.due_turn}` : ''}`
      : 'no hand-off';
    const where = answer.body.added
      ? `${answer.body.added.change} in the production task set (revision ${answer.body.added.revision})`
      : 'not added to a task set (the server has none configured)';
    setSaid({ ok: true, text: `Lab task: ${words(task.kind).toLowerCase()}, ${label}, ${task.split} split; ${where}.` });
  };
  return (
    <section className="lab-task" aria-label="Lab task">
      <button type="button" className="secondary" disabled={busy || !reviewed} onClick={() => void make()}>
        Make a lab task
      </button>
      {!reviewed && <p className="hint">Review the conversation first: the task is labelled by the verdict.</p>}
      {said && (
        <p role={said.ok ? 'status' : 'alert'} className={said.ok ? 'done' : 'error'} data-testid="lab-task-result">
          {said.text}
        </p>
      )}
    </section>
  );
}
