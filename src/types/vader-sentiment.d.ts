/**
 * Types for `vader-sentiment` 1.1.3, a CommonJS bundle without its own: the JavaScript port of
 * VADER (Hutto & Gilbert, 2014). Only what Baton uses is declared. From an ES module, Node gives
 * `module.exports` as the default export: `import vader from 'vader-sentiment'`, then
 * `vader.SentimentIntensityAnalyzer.polarity_scores(text)`. (Declared as a default export rather
 * than `export =`, which this project's `esModuleInterop: false` would refuse to default-import.)
 */
declare module 'vader-sentiment' {
  /** VADER's scores for one text: neg/neu/pos proportions, each in [0, 1], and the compound polarity in [-1, 1]. */
  export interface PolarityScores {
    neg: number;
    neu: number;
    pos: number;
    compound: number;
  }

  /** The analyzer class, used only through its static method. */
  export interface SentimentIntensityAnalyzer {
    polarity_scores(text: string): PolarityScores;
  }

  const vader: { readonly SentimentIntensityAnalyzer: SentimentIntensityAnalyzer };
  export default vader;
}
