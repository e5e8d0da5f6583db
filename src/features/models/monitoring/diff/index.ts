/** The model page's version diff tab (issue 27): what changed between two versions, row by row. */
export { DiffTab } from './DiffTab';
/** The "why" side panel a click on a predicted value of a SQL result opens. */
export { WhyPanel } from './WhyPanel';
