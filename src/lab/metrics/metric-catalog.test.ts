import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../domains/load-domain.js';
import { computeMetrics } from './compute.js';
import { metricCatalog } from './metric-catalog.js';

/** Paths of every figure (an object with a `value`) under `metrics`, except the per-kind rates. */
function figurePaths(node: unknown, path: string[] = []): string[] {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return [];
  if ('value' in node) return [path.join('.')];
  if (path[path.length - 1] === 'by_kind') return [];
  return Object.entries(node).flatMap(([k, v]) => figurePaths(v, [...path, k]));
}

describe('metricCatalog', () => {
  it('has an entry, with a definition, for every figure a metrics object holds, and reads each', async () => {
    const metrics = computeMetrics([], { domain: await loadDomain('billing') });
    // A run that measured two trials in two styles (the shape only: the catalogue reads keys from the metrics).
    const shaped = {
      metrics: {
        ...metrics.metrics,
        pass_k: { '1': metrics.metrics.success, '2': metrics.metrics.success },
        by_style: { neutral: metrics.metrics.success, terse: metrics.metrics.success },
      },
    };
    const catalog = metricCatalog([shaped]);
    const paths = catalog.map((e) => e.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of figurePaths(shaped.metrics)) expect(paths, path).toContain(path);
    expect(paths.slice(0, 5)).toEqual(['success', 'pass_k.1', 'pass_k.2', 'by_style.neutral', 'by_style.terse']);
    for (const entry of catalog) {
      expect(entry.definition.length, entry.path).toBeGreaterThan(30);
      expect(entry.read(shaped.metrics), entry.path).not.toBeUndefined();
    }
    expect(catalog.find((e) => e.path === 'handoff.over_escalation')?.better).toBe('lower');
    expect(catalog.find((e) => e.path === 'handoff.recall')?.read(shaped.metrics)).toEqual({
      type: 'rate',
      figure: metrics.metrics.handoff.recall,
    });
  });

  it('lists the styles and ks of every run, a run without one reading null', async () => {
    const metrics = computeMetrics([], { domain: await loadDomain('billing') });
    const a = { metrics: { ...metrics.metrics, by_style: { neutral: metrics.metrics.success } } };
    const b = { metrics: { ...metrics.metrics, by_style: { terse: metrics.metrics.success } } };
    const catalog = metricCatalog([a, b]);
    const terse = catalog.find((e) => e.path === 'by_style.terse');
    expect(terse?.read(a.metrics)).toBeNull();
    expect(terse?.read(b.metrics)).toEqual({ type: 'rate', figure: metrics.metrics.success });
  });
});
