/** The Describe tab: how good the model is in words, its charts, importances, features, candidates. */
export { DescribeTab } from './DescribeTab';
