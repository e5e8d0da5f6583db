/** The model page's Evaluation tab (leaderboard, threshold and cost, calibration, interval audit, error slices, groups). */
export { EvaluationTab } from './EvaluationTab';
