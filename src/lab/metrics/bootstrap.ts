/**
 * The lab's intervals: a percentile bootstrap over tasks (task ids resampled with replacement,
 * each drawn task bringing all its episodes with it). The generic bootstrap lives in core, where
 * the runtime's review metrics use it too; this is the lab's name for it.
 */
export * from '../../core/bootstrap.js';
