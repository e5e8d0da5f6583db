/** The Predict tab: inputs as form, rows, CSV or JSON; Send; the result, its interval and the waterfall of why. */
export { PredictTab } from './PredictTab';
export { ExplainWaterfall } from './ExplainWaterfall';
