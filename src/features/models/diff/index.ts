/** The model page's version diff tab (issue 27): what changed between two versions, row by row. */
export { DiffTab } from './DiffTab';
