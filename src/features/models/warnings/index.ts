/** What to check before trusting a model (leaks, identifiers, few rows...): the banner and the words. */
export { ModelWarnings } from './ModelWarnings';
export { RankingCaveat } from './RankingCaveat';
export { suspectReasons } from './warning-text';
