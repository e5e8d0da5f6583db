/** The model page's drift tab (issue 27): today's data against the training data. */
export { DriftTab } from './DriftTab';
