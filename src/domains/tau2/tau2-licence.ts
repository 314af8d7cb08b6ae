/**
 * tau2-bench's licence, for whatever Baton hands on that is derived from its data (a released
 * dataset's airline and retail tasks and dialogues): MIT, whose notice must go with every copy of
 * a substantial portion. The airline database is tau-bench's, under the same licence with its own
 * copyright line.
 */
import { TAU2_COMMIT } from './tau2-manifest.js';

export const TAU2_REPOSITORY = 'https://github.com/sierra-research/tau2-bench';
export const TAU_BENCH_REPOSITORY = 'https://github.com/sierra-research/tau-bench';
export const TAU2_COPYRIGHT = 'Copyright (c) 2025 Sierra Research';
export const TAU_BENCH_COPYRIGHT = 'Copyright (c) 2024 Sierra';

/** The MIT permission and warranty notice, as the upstream `LICENSE` files word it. */
export const MIT_NOTICE = `Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`;

/** Where the data came from and its notice, as text to ship beside derived data. */
export function tau2LicenceText(): string {
  return [
    `tau2-bench (${TAU2_REPOSITORY}), commit ${TAU2_COMMIT}: MIT License, ${TAU2_COPYRIGHT}.`,
    `The airline database is from tau-bench (${TAU_BENCH_REPOSITORY}): MIT License, ${TAU_BENCH_COPYRIGHT}.`,
    '',
    'MIT License',
    '',
    TAU2_COPYRIGHT,
    '',
    MIT_NOTICE,
  ].join('\n');
}
