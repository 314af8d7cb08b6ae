/**
 * What the simulated customer follows for a plain task: a billing task whose own scenario is a
 * hand-off case or a hard negative has a variant of that kind generated from it ("native"), whose
 * script carries its beats (when to ask for a person, the threat as said); every other task gets
 * its base script, with no twist.
 */
import type { Domain, DomainTask } from '../domains/domain.js';
import { baseScript, nativeKind } from './variants/index.js';
import type { HandoffVariant, UserScript } from './variant.js';

/** The script a customer follows for `task`, given the domain's generated variants. */
export function taskScript(domain: Domain, task: DomainTask, variants: readonly HandoffVariant[]): UserScript {
  const kind = nativeKind(domain.name, task.id);
  const native = kind ? variants.find((v) => v.id === `${domain.name}/${task.id}/${kind}`) : undefined;
  if (kind && !native) throw new Error(`no variant ${domain.name}/${task.id}/${kind}: generate the variants of ${domain.name} first`);
  return native?.script ?? baseScript(domain, task);
}
