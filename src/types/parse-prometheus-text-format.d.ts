/**
 * Types for `parse-prometheus-text-format` 1.1.1 (a CommonJS bundle without its own), used by the
 * tests to read `/metrics` as Prometheus would. Only what the tests use is declared.
 */
declare module 'parse-prometheus-text-format' {
  interface Sample {
    value: string;
    labels?: Record<string, string>;
  }
  interface MetricFamily {
    name: string;
    help: string;
    type: string;
    metrics: Sample[];
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
