/** Watching a version after training (issue 27): drift, effects and diff tabs, the "why" panel. */
export { DiffTab } from './diff';
export { DriftTab } from './drift';
export { EffectsTab } from './effects';
export { WhyPanel } from './diff';
