import { type DomainTool, ToolError } from '../../domain-tool.js';
import { pythonCalculate } from '../python-calc.js';
import { pythonItems } from './python-semantics.js';
import type { AirlineDb } from './types.js';

/** The airline's generic tools: arithmetic and the hand-off to a human. */

const ALLOWED = new Set('0123456789+-*/(). ');

export const calculate: DomainTool<AirlineDb> = {
  name: 'calculate',
  kind: 'generic',
  description: 'Calculate the result of a mathematical expression.',
  params: ['expression'],
  run: (_db, args) => {
    const expression = args['expression'];
    // `all(char in "…" for char in expression)` iterates whatever was passed.
    if (!pythonItems(expression).every((c) => typeof c === 'string' && ALLOWED.has(c))) {
      throw new ToolError('Invalid characters in expression');
    }
    if (typeof expression !== 'string') throw new ToolError('eval() arg 1 must be a string, bytes or code object');
    return pythonCalculate(expression);
  },
};

export const transferToHumanAgents: DomainTool<AirlineDb> = {
  name: 'transfer_to_human_agents',
  kind: 'generic',
  description: "Transfer the user to a human agent, with a summary of the user's issue.",
  params: ['summary'],
  run: () => 'Transfer successful',
};
