/** Compare two models or versions: metrics, importances and predictions on the same rows. */
export { ComparePage } from './ComparePage';
export { formatModelRef } from './compare';
