"""statsmodels reference forecasters for `npm run bench -- timeseries` (bench/timeseries.ts): the
peers the engine's forecasts are ranked against, fitted on the same history and forecasting the
same held-out steps. Benchmark only; never needed by `npm test`. Run with Debian's
/usr/bin/python3 (python3-statsmodels).

  statsmodels_peer.py dump <name>   a statsmodels dataset as JSON {columns, rows}
                                    (macrodata, grunfeld, nile, sunspots, elec_equip)
  statsmodels_peer.py fit <job.json>
    job: {"tasks": [{"key", "y": [training values], "m": season, "h": steps, "file"?}]}; prints one JSON
    object {key: {"ets": [...], "sarimax": [...], "theta": [...], "seconds": {...}}}, and writes
    each task's object to its "file" (the bench's cache) as soon as it is fitted.

The peers, each a common way of using statsmodels:
  ets      ETSModel, the form (additive / multiplicative error and season, none / additive /
           damped trend) with the lowest AICc; multiplicative forms only for positive series.
  sarimax  SARIMAX with a small order search by AICc: d by KPSS (0 or 1), D by seasonal strength
           (as auto.arima), p in 0..2, q in 0..1, (P, Q) in {(0,0), (0,1), (1,0)} when seasonal.
  theta    ThetaModel (theta = 2, the seasonality test and multiplicative deseasonalising).
"""

import json
import os
import sys
import time
import warnings
from multiprocessing import Pool

import numpy as np

warnings.filterwarnings("ignore")


def dump(name):
    import statsmodels.api as sm

    if name == "elec_equip":
        from statsmodels.datasets import elec_equip

        d = elec_equip.load_pandas().data
        d = d.reset_index()
        d.columns = ["date", "value"]
        d["date"] = d["date"].dt.strftime("%Y-%m-%d")
    else:
        d = getattr(sm.datasets, name).load_pandas().data
    cols = [str(c) for c in d.columns]
    rows = []
    for r in d.itertuples(index=False):
        rows.append([v.item() if hasattr(v, "item") else v for v in r])
    json.dump({"columns": cols, "rows": rows}, sys.stdout)


def seasonal_strength(y, m):
    from statsmodels.tsa.seasonal import seasonal_decompose

    if m <= 1 or len(y) < 2 * m + 1:
        return 0.0
    d = seasonal_decompose(y, period=m, two_sided=True, extrapolate_trend=0)
    rem = d.resid[~np.isnan(d.resid)]
    sr = (d.seasonal + d.resid)[~np.isnan(d.resid)]
    if np.var(sr) <= 0:
        return 0.0
    return max(0.0, 1 - np.var(rem) / np.var(sr))


def kpss_d(y):
    from statsmodels.tsa.stattools import kpss

    if len(y) < 8 or np.all(y == y[0]):
        return 0
    try:
        stat, p, *_ = kpss(y, regression="c", nlags="auto")
    except Exception:
        return 0
    return 1 if p < 0.05 else 0


def fit_ets(y, m, h):
    from statsmodels.tsa.exponential_smoothing.ets import ETSModel

    positive = bool(np.all(y > 0))
    seasonal = m > 1 and len(y) >= 2 * m + 2
    best = None
    for error in ["add", "mul"] if positive else ["add"]:
        for trend, damped in [(None, False), ("add", False), ("add", True)]:
            for season in [None, "add", "mul"] if seasonal else [None]:
                if season == "mul" and (not positive or error == "add"):
                    continue
                try:
                    res = ETSModel(
                        y,
                        error=error,
                        trend=trend,
                        damped_trend=damped,
                        seasonal=season,
                        seasonal_periods=m if season else None,
                    ).fit(disp=False, maxiter=200)
                    aicc = res.aicc
                    if not np.isfinite(aicc):
                        continue
                    if best is None or aicc < best[0]:
                        best = (aicc, res)
                except Exception:
                    continue
    if best is None:
        return [float(y[-1])] * h
    return [float(v) for v in best[1].forecast(h)]


def fit_sarimax(y, m, h):
    from statsmodels.tsa.statespace.sarimax import SARIMAX

    seasonal = m > 1 and len(y) >= 3 * m + 3
    D = 1 if seasonal and seasonal_strength(y, m) > 0.64 else 0
    x = y[m:] - y[:-m] if D else y
    d = kpss_d(x)
    seas = [(0, 0), (0, 1), (1, 0)] if seasonal else [(0, 0)]
    best = None
    for p in range(3):
        for q in range(2):
            for P, Q in seas:
                trend = "c" if d + D == 0 else ("t" if d + D == 1 else "n")
                try:
                    res = SARIMAX(
                        y,
                        order=(p, d, q),
                        seasonal_order=(P, D, Q, m) if seasonal else (0, 0, 0, 0),
                        trend=trend,
                    ).fit(disp=False, maxiter=100)
                    aicc = res.aicc
                    if not np.isfinite(aicc):
                        continue
                    if best is None or aicc < best[0]:
                        best = (aicc, res)
                except Exception:
                    continue
    if best is None:
        return [float(y[-1])] * h
    return [float(v) for v in best[1].forecast(h)]


def fit_theta(y, m, h):
    from statsmodels.tsa.forecasting.theta import ThetaModel

    try:
        res = ThetaModel(y, period=max(1, m), deseasonalize=m > 1 and len(y) >= 2 * m).fit()
        return [float(v) for v in res.forecast(h)]
    except Exception:
        return [float(y[-1])] * h


def run_task(t):
    y = np.asarray(t["y"], dtype=float)
    m, h = int(t["m"]), int(t["h"])
    out = {"seconds": {}}
    for name, f in [("ets", fit_ets), ("sarimax", fit_sarimax), ("theta", fit_theta)]:
        t0 = time.process_time()
        out[name] = f(y, m, h)
        out["seconds"][name] = time.process_time() - t0
    return t["key"], out


def fit(job_file):
    job = json.load(open(job_file))
    tasks = job["tasks"]
    procs = max(1, min(int(os.environ.get("PEER_PROCESSES", "2")), os.cpu_count() or 1))
    results = {}
    files = {t["key"]: t.get("file") for t in tasks}
    if procs == 1:
        for t in tasks:
            k, v = run_task(t)
            results[k] = v
            save(files.get(k), v, len(results), len(tasks))
    else:
        with Pool(procs) as pool:
            for k, v in pool.imap_unordered(run_task, tasks, chunksize=1):
                results[k] = v
                save(files.get(k), v, len(results), len(tasks))
    json.dump(results, sys.stdout)


def save(path, v, done, total):
    # Each task's forecasts are written to its cache file as it completes (atomically), so a run
    # cut short keeps what it fitted; progress goes to stderr.
    if path:
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(v, f)
        os.replace(tmp, path)
    if done % 10 == 0 or done == total:
        print(f"statsmodels peers: {done} of {total} fitted", file=sys.stderr, flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2])
    else:
        fit(sys.argv[2])
