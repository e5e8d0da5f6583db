/** A time-series model's views: the forecast chart, the Forecast tab and the what-if scenario. */
export { ForecastPanel } from './ForecastPanel';
export { timeseriesOf } from './timeseries';
