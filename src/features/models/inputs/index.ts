/** A model's inputs and the rows sent to it: form fields, the predict session, the page's form in the URL, predictions read back. */
export { parseCsvRows } from './csv-paste';
export { intervalPoints, type PredictionView, toPredictionViews } from './explain';
export { encodeForm, formRows, pageFormCodec, type SweepSettings } from './page-form';
export {
  type BodyMode,
  buildPredictBody,
  buildPredictRows,
  type Cell,
  cellText,
  cellToJson,
  type FormField,
  type FormRow,
  isEmptyCell,
  type OptionValue,
  parseNumberText,
  rowFromRecord,
} from './predict-form';
export {
  initialSession,
  type PredictAction,
  predictReducer,
  type PredictSession,
  shownJson,
} from './predict-session';
export { type ModelInputs, useModelInputs } from './use-model-inputs';
