/** A time-series model's selected forecaster in a stakeholder's words (DESCRIBE's `selected`). */
const FORECASTERS: Record<string, string> = {
  gbm_direct: 'Gradient boosting, one model per step ahead',
  gbm_recursive: 'Gradient boosting, one step at a time',
  seasonal_naive: 'Repeat last season',
  naive: 'Repeat the last value',
  drift: 'Extend the trend',
  theta: 'Trend and smoothing (Theta)',
  ets: 'Exponential smoothing (ETS)',
  arima: 'Statistical model of the series (ARIMA)',
  tsb: 'Intermittent demand (TSB)',
  combination: 'Average of smoothing, Theta and ARIMA',
  ensemble: 'Average of the forecasters that tied in validation',
  per_series: 'The best forecaster for each series',
};

/** The selected forecaster in words (an unknown one at least without underscores). */
export function forecasterLabel(name: string): string {
  return FORECASTERS[name] ?? name.replace(/_/g, ' ');
}
