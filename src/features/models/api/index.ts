/** The models feature's fetchers (one per endpoint, zod-parsed) and the version records they return. */
export { describeQueryOptions } from './describe';
export { type InstanceFlavor, instanceFlavorQueryOptions } from './flavor';
export { metricNamesQueryOptions, useMetricName } from './metric-names';
export { modelCardPath } from './model-card';
export { activeVersion, isBusyStatus, type ModelVersion, pendingVersion } from './parse';
export { predict, predictMutationOptions, type PredictResult } from './predict';
export { projectsQueryOptions } from './projects';
export {
  queryColumnsQueryOptions,
  rememberModelSource,
  resolveTrainingSource,
  sqlTable,
  trainingSourceQueryOptions,
  trainingStatsQueryOptions,
} from './source';
export { modelStatementMutationOptions } from './statement';
export { modelVersionsQueryOptions } from './versions';
