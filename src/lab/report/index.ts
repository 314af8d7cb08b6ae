/** `baton report`: the comparison of runs as one self-contained HTML file, and as a terminal table. */
export * from './html.js';
export * from './load.js';
export * from './plots.js';
export * from './table.js';
