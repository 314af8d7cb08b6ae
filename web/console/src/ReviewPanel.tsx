import { useEffect, useState, type FormEvent } from 'react';
import type { RecordedReview, ReviewUnit } from '../../../src/core/index.js';
import { call } from './api.js';
import { words } from './describe.js';

/** What `GET /v1/conversations/:id/reviews` answers. */
interface ReviewsAnswer {
  reviews: RecordedReview[];
  subjects: Array<ReviewUnit & { youMayReviewAs: 'owner' | 'supervisor' | null }>;
  customerMessages: Array<{ seq: number; at: string; text: string }>;
}

type Subject = ReviewsAnswer['subjects'][number];
type YesNo = 'yes' | 'no' | '';

const short = (text: string) => (text.length > 70 ? `${text.slice(0, 69)}…` : text);

/** The three questions about one hand-off, or the one about a conversation the agent kept. */
function VerdictForm({
  id,
  subject,
  messages,
  onRecorded,
}: {
  id: string;
  subject: Subject;
  messages: ReviewsAnswer['customerMessages'];
  onRecorded: () => void;
}) {
  const key = subject.subject === 'handoff' ? `h${subject.handoff}` : 'kept';
  const [needed, setNeeded] = useState<YesNo>('');
  const [timing, setTiming] = useState<'' | 'on_time' | 'late'>('');
  const [dueAt, setDueAt] = useState('');
  const [enough, setEnough] = useState<YesNo>('');
  const [askedAgain, setAskedAgain] = useState('');
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const isHandoff = subject.subject === 'handoff';
  // A late hand-off was due at a message before the one it answered (the last before it); a missed one at any message.
  const answered = isHandoff ? (messages.filter((m) => m.seq < subject.handoff).at(-1)?.seq ?? 0) : 0;
  const choices = isHandoff ? messages.filter((m) => m.seq < answered) : messages;
  const wantsDue = needed === 'yes' && (!isHandoff || timing === 'late');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const common = {
      needed: needed === 'yes',
      dueAt: wantsDue && dueAt !== '' ? Number(dueAt) : null,
      reason: needed === 'yes' && reason.trim() !== '' ? reason.trim() : null,
      note: note.trim() === '' ? null : note.trim(),
    };
    const body =
      subject.subject === 'handoff'
        ? {
            subject: 'handoff',
            handoff: subject.handoff,
            ...common,
            timing: needed === 'yes' ? timing : null,
            packetEnough: enough === 'yes',
            askedAgain: enough === 'no' && askedAgain.trim() !== '' ? askedAgain.trim() : null,
          }
        : { subject: 'kept', ...common };
    setBusy(true);
    const answer = await call('POST', `/v1/conversations/${id}/reviews`, body);
    setBusy(false);
    if (answer.status === 201) onRecorded();
    else setError(answer.body.error?.message ?? `the verdict was refused (${answer.status})`);
  };

  const radios = <V extends string>(name: string, legend: string, value: V | '', set: (v: V) => void, options: Array<[V, string]>) => (
    <fieldset className="radios">
      <legend>{legend}</legend>
      {options.map(([v, label]) => (
        <label key={v} className="radio" htmlFor={`${key}-${name}-${v}`}>
          <input id={`${key}-${name}-${v}`} type="radio" name={`${key}-${name}`} checked={value === v} onChange={() => set(v)} required />
          {label}
        </label>
      ))}
    </fieldset>
  );
  const yesNo = (yes: string, no: string): Array<['yes' | 'no', string]> => [
    ['yes', yes],
    ['no', no],
  ];
  const complete =
    needed !== '' && (!isHandoff || enough !== '') && (!isHandoff || needed === 'no' || timing !== '') && (!wantsDue || dueAt !== '');
  const title = isHandoff
    ? `The hand-off for ${words(subject.reason).toLowerCase()} to ${words(subject.queue.replace(/^queue_/, ''))}`
    : 'The agent kept this conversation';
  return (
    <form className="verdict" aria-label={`Review: ${title}`} onSubmit={(e) => void submit(e)} data-testid={`verdict-${key}`}>
      <h3>{title}</h3>
      {radios(
        'needed',
        isHandoff ? 'Was the hand-off needed?' : 'Should this have gone to a person?',
        needed,
        setNeeded,
        yesNo('Yes', 'No'),
      )}
      {needed === 'yes' &&
        isHandoff &&
        radios('timing', 'Was it on time?', timing, setTiming, [
          ['on_time', 'Yes, on time'],
          ...(choices.length > 0 ? [['late', 'No, it should have come earlier'] as ['late', string]] : []),
        ])}
      {wantsDue && (
        <>
          <label htmlFor={`${key}-due`}>
            {isHandoff ? 'At which customer message should it have come?' : 'By which customer message?'}
          </label>
          <select id={`${key}-due`} value={dueAt} required onChange={(e) => setDueAt(e.target.value)}>
            <option value="">Choose a message…</option>
            {choices.map((m) => (
              <option key={m.seq} value={m.seq}>
                {short(m.text)}
              </option>
            ))}
          </select>
        </>
      )}
      {needed === 'yes' && !isHandoff && (
        <>
          <label htmlFor={`${key}-reason`}>Why a person (optional)</label>
          <input
            id={`${key}-reason`}
            type="text"
            maxLength={200}
            value={reason}
            aria-describedby={`${key}-reason-hint`}
            onChange={(e) => setReason(e.target.value)}
          />
          <p className="hint" id={`${key}-reason-hint`}>
            The agent&apos;s name for the reason (customer_request, policy_topic, safety…): the dashboard counts the miss under it.
          </p>
        </>
      )}
      {isHandoff && radios('enough', 'Was the packet enough?', enough, setEnough, yesNo('Yes', 'No, something had to be asked again'))}
      {isHandoff && enough === 'no' && (
        <>
          <label htmlFor={`${key}-asked`}>What had to be asked again?</label>
          <textarea id={`${key}-asked`} maxLength={2000} rows={2} value={askedAgain} onChange={(e) => setAskedAgain(e.target.value)} />
        </>
      )}
      <label htmlFor={`${key}-note`}>Note (optional)</label>
      <textarea id={`${key}-note`} maxLength={2000} rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy || !complete}>
        Record the verdict
      </button>
    </form>
  );
}

/** What a recorded verdict says, in a line. */
function verdictText(r: RecordedReview): string {
  const who = r.as === 'owner' ? 'by the person who took it' : 'by a supervisor';
  if (r.subject === 'kept') return `Kept: ${r.needed ? 'should have gone to a person' : 'rightly kept'} (${who})`;
  const needed = r.needed ? `needed, ${r.timing === 'late' ? 'late' : 'on time'}` : 'not needed';
  return `Hand-off at entry ${r.handoff}: ${needed}; packet ${r.packetEnough ? 'enough' : 'not enough'} (${who})`;
}

/**
 * The review of a conversation (docs/reviews.md): what it can be reviewed for, a form for each
 * subject the signed-in person may review, and the verdicts already given. `revision` re-reads
 * it when the log changes.
 */
export function ReviewPanel({
  id,
  revision = 0,
  showMessages = false,
  onRecorded,
}: {
  id: string;
  revision?: number;
  /** Show what the customer wrote (on the review screen, away from the transcript). */
  showMessages?: boolean;
  onRecorded?: () => void;
}) {
  const [answer, setAnswer] = useState<ReviewsAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [recorded, setRecorded] = useState(0);
  const [done, setDone] = useState(false);
  useEffect(() => {
    let current = true;
    void call<ReviewsAnswer>('GET', `/v1/conversations/${id}/reviews`).then((a) => {
      if (!current) return;
      if (a.status === 200) setAnswer(a.body);
      else setError(a.body.error?.message ?? `the reviews could not be read (${a.status})`);
    });
    return () => {
      current = false;
    };
  }, [id, revision, recorded]);
  if (error)
    return (
      <p role="alert" className="error">
        {error}
      </p>
    );
  if (!answer) return null;
  const mine = answer.subjects.filter((s) => s.youMayReviewAs !== null);
  if (mine.length === 0 && answer.reviews.length === 0) return null;
  return (
    <section className="review" aria-labelledby={`review-${id}`} data-testid="review">
      <h2 id={`review-${id}`}>Review</h2>
      {done && (
        <p role="status" className="done">
          Verdict recorded.
        </p>
      )}
      {showMessages && (
        <>
          <h3>What the customer wrote</h3>
          <ol className="customer-messages" aria-label="What the customer wrote">
            {answer.customerMessages.map((m) => (
              <li key={m.seq}>{m.text}</li>
            ))}
          </ol>
        </>
      )}
      {answer.reviews.length > 0 && (
        <ul className="verdicts" aria-label="Verdicts given">
          {answer.reviews.map((r) => (
            <li key={r.seq}>{verdictText(r)}</li>
          ))}
        </ul>
      )}
      {mine.map((s) => (
        <VerdictForm
          key={`${s.subject}-${s.subject === 'handoff' ? s.handoff : 0}-${recorded}`}
          id={id}
          subject={s}
          messages={answer.customerMessages}
          onRecorded={() => {
            setDone(true);
            setRecorded((n) => n + 1);
            onRecorded?.();
          }}
        />
      ))}
    </section>
  );
}
