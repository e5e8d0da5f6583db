/** What to check before trusting a model (leaks, identifiers, few rows...): the banner and the words. */
export { ModelWarnings } from './ModelWarnings';
