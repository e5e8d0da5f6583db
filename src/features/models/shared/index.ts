/** What every room of the models feature shares: navigation, number and metric words, chart sizing, status pieces. */
export { ChartBox, usePaperTheme } from './charts/ChartBox';
export { ColumnBars } from './charts/ColumnBars';
export { Crumbs } from './Crumbs';
export { ImportancesCard } from './charts/ImportancesCard';
export { NotReady, TrainingProgress, versionLabel, VersionSelect } from './ModelStatus';
export { chartAxes, chartFont, type ChartFont } from './charts/chart-style';
export {
  accuracyLabel,
  formatMetric,
  formatRatio,
  metricHigherIsBetter,
  metricLabel,
  metricPhrase,
  metricScale,
  metricValueText,
  pipelineSteps,
  sortImportances,
  stepParts,
} from './describe-model';
export {
  columnFormatter,
  formatNumber,
  formatPercent,
  formatRounded,
  roundedColumnFormatter,
  formatSeconds,
  formatSigned,
  formatSignedRounded,
} from './format-number';
export {
  asTab,
  asVersion,
  MODEL_TABS,
  type ModelsNav,
  type ModelsViewName,
  type ModelTab,
  type ModelTabProps,
} from '../nav';
export { niceDomain, niceStep, niceTicks } from './charts/nice-scale';
export { NumbersTable, type NumbersTableProps } from './charts/NumbersTable';
export { curlSnippet, fetchSnippet } from './snippets';
