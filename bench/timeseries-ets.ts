// Our ETS alone beside statsmodels' ETSModel (the bench's ETS peer) on the bench's series-origins
// (issue 29): per set and origin, `fitEts` searches its form by AICc on each series' training rows
// (all of them, as the peer does; the engine's own ETS is validated on the rows before its cut and
// refitted) and forecasts the held-out HORIZON rows, scored by MASE as bench/timeseries.ts scores
// them. Seconds instead of the bench's minutes for judging a change to stat/ets.ts before the
// engine runs it: the peers come from the bench's cache, so run the bench (or TIMESERIES_PEERS=
// fresh there) once first. Daily series are fitted without the yearly season the engine adds.
// `npx tsx bench/timeseries-ets.ts` (TIMESERIES_SETS as for the bench, `holdout` for the hold-out
// sets; TIMESERIES_ETS_DETAIL=1 prints each series-origin: our form, parameters and MASE beside
// the peer's MASE).

import { etsForecast, etsName, fitEts } from '../server/automl/timeseries/stat/ets';
import { maseScale, peerForecasts, tasksOf } from './timeseries';
import { askedSets } from './timeseries-sets';

process.env.TIMESERIES_PEERS ??= 'cached';
const sets = askedSets();
const detail = process.env.TIMESERIES_ETS_DETAIL === '1';
let logRatio = 0;
let compared = 0;
console.log('set | ours | statsmodels ETS | series-origins | CPU s | our forms');
for (const s of sets) {
  const d = await s.data();
  const tasks = tasksOf(s, d);
  const peers = peerForecasts(tasks, [s]);
  let ours = 0;
  let peer = 0;
  let withPeer = 0;
  let cpu = 0;
  const forms = new Map<string, number>();
  for (const t of tasks) {
    const y = Float64Array.from(t.train);
    const h = t.truth.length;
    const c0 = process.cpuUsage();
    const fit = fitEts(y, 0, y.length - 1, s.period);
    const out = new Float64Array(h).fill(y[y.length - 1]);
    if (fit) etsForecast(fit, y, 0, y.length - 1, h, out, 0);
    const c1 = process.cpuUsage(c0);
    cpu += (c1.user + c1.system) / 1e6;
    const scale = maseScale(t.train, s.period);
    const mase = (f: ArrayLike<number>) => {
      let e = 0;
      for (let k = 0; k < h; k++) e += Math.abs(f[k] - t.truth[k]);
      return e / h / scale;
    };
    const m = mase(out);
    ours += m;
    const name = fit ? etsName(fit) : 'none (last value)';
    forms.set(name, (forms.get(name) ?? 0) + 1);
    const p = peers?.get(`${t.set}#${t.origin}#${t.key}`);
    const pm = p ? mase(p.ets) : NaN;
    if (p) {
      peer += pm;
      withPeer++;
    }
    if (detail) {
      const par = fit
        ? `alpha ${fit.alpha.toFixed(3)} beta ${fit.beta.toFixed(3)} gamma ${fit.gamma.toFixed(3)} phi ${fit.phi.toFixed(3)}`
        : '';
      console.log(
        `  origin ${t.origin} ${t.key}: ${name} ${par} MASE ${m.toFixed(3)}, peer ${pm.toFixed(3)}`,
      );
    }
  }
  const n = tasks.length;
  const peerMean = withPeer === n && n > 0 ? peer / n : NaN;
  if (Number.isFinite(peerMean)) {
    logRatio += Math.log(ours / n / peerMean);
    compared++;
  }
  const used = [...forms].sort((a, b) => b[1] - a[1]).map(([f, c]) => `${f} ${c}`);
  console.log(
    `${s.name} | ${(ours / n).toFixed(4)} | ${Number.isFinite(peerMean) ? peerMean.toFixed(4) : '-'} | ${n} | ${cpu.toFixed(2)} | ${used.join(', ')}`,
  );
}
if (compared > 0) {
  console.log(
    `geometric mean of ours over statsmodels' ETS, ${compared} sets: ${Math.exp(logRatio / compared).toFixed(4)}`,
  );
}
