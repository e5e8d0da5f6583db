"""statsmodels reference forecasters for `npm run bench -- timeseries` (bench/timeseries.ts): the
peers the engine's forecasts are ranked against, fitted on the same history and forecasting the
same held-out steps. Benchmark only; never needed by `npm test`. Run with Debian's
/usr/bin/python3 (python3-statsmodels).

  statsmodels_peer.py dump <name>   a statsmodels dataset as JSON {columns, rows}
                                    (macrodata, grunfeld, nile, sunspots, elec_equip; the
                                    hold-out sets' elnino, danish_data, interest_inflation, co2:
                                    a dated index becomes a first column "date", NaN null)
  statsmodels_peer.py orders <job.json>
    job: {"tasks": [{"key", "y", "m", "h"}]}; prints {key: {"order": [p, d, q, P, D, Q, trend],
    "m", "params", "forecast", "variants": {trend: {"params", "forecast"}}}}: the SARIMAX peer's
    chosen order and its fit, and the same order with the other trends ('n', 'c', 'ct' once
    differenced): what bench/timeseries-peer-orders.ts fits the engine's ARIMA at
  statsmodels_peer.py etsforms <job.json>
    job: {"tasks": [{"key", "y", "m", "h", "file"?}]}; prints {key: {"estimated": {form: fit},
    "heuristic": {form: fit}}}: ETSModel at every admissible form (as the ets peer searches them)
    with initialization_method 'estimated' and 'heuristic', each fit {"aicc", "llf", "k",
    "params": [alpha, beta, gamma, phi], "l", "b", "s" (the seasonal states, s[j] the one the
    j-th row reads), "forecast"}; what bench/timeseries-ets.ts compares our ETS with form by form
  statsmodels_peer.py etsat <job.json>
    job: {"tasks": [{"key", "y", "m", "at": [{"form", "params", "l", "b", "s"}]}]}; prints {key:
    [llf]}: ETSModel's log-likelihood at given parameters and starting states (ours, evaluated in
    its filter)
  statsmodels_peer.py fit <job.json>
    job: {"tasks": [{"key", "y": [training values], "m": season, "h": steps, "file"?, "cached"?}]};
    prints one JSON object {key: {"ets": [...], "sarimax": [...], "theta": [...], "seconds": {...},
    "failed": {peer: why}, "guard": GUARD}}, and writes each task's object to its "file" (the
    bench's cache) as soon as it is fitted. "cached": forecasts fitted before the guard existed:
    each peer's that passes it is kept, the others are fitted again.

The peers, each a common way of using statsmodels:
  ets      ETSModel, the form (additive / multiplicative error and season, none / additive /
           damped trend) with the lowest AICc; multiplicative forms only for positive series.
  sarimax  SARIMAX with a small order search by AICc: d by KPSS (0 or 1), D by seasonal strength
           (as auto.arima), p in 0..2, q in 0..1, (P, Q) in {(0,0), (0,1), (1,0)} when seasonal.
  theta    ThetaModel (theta = 2, the seasonality test and multiplicative deseasonalising).

A fit whose forecast is not finite or runs away (a value beyond the training values' range by more
than that range: ETS(M,A,A) forecast -4.8e8 for a US employment series of 89,507..96,675, SARIMAX
1.2e18 for one of 14,326..15,569) is refused, as its user would refuse it: the next model by AICc
whose forecast is sane is used instead, and the task's "failed" says which was refused and why.
When none is sane (or none fits), the peer forecasts the last value and "failed" says so; the
bench prints every such case beside its table.
"""

import json
import os
import sys
import time
import warnings
from multiprocessing import Pool

import numpy as np

warnings.filterwarnings("ignore")

# Version of the guard below (the bench passes cached forecasts without it through the guard).
GUARD = 1


def insane(y, f):
    """Why forecast f of training values y is refused (None: it is not)."""
    f = np.asarray(f, dtype=float)
    if not np.all(np.isfinite(f)):
        return "a non-finite forecast"
    lo, hi = float(np.min(y)), float(np.max(y))
    r = hi - lo if hi > lo else max(abs(hi), 1.0)
    worst = f[np.argmax(np.maximum(lo - f, f - hi))]
    if worst < lo - r or worst > hi + r:
        return f"a runaway forecast ({worst:.4g}, training values {lo:.6g}..{hi:.6g})"
    return None


def first_sane(y, h, fits, label):
    """The forecast of the first of (aicc, name, results) by AICc that passes the guard, and why
    the ones before it were refused (None when the best passed)."""
    refused = []
    for _, name, res in sorted(fits, key=lambda x: x[0]):
        try:
            f = [float(v) for v in res.forecast(h)]
        except Exception as e:
            refused.append(f"{name}: forecast failed ({type(e).__name__})")
            continue
        why = insane(y, f)
        if why is None:
            if refused:
                return f, f"{'; '.join(refused)}; used the next by AICc, {name}"
            return f, None
        refused.append(f"{name}: {why}")
    why = "; ".join(refused) if refused else f"no {label} could be fitted"
    return [float(y[-1])] * h, f"{why}; forecast the last value instead"


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
        if hasattr(d.index, "strftime"):
            # Dated rows (danish_data's quarters, co2's weeks): the date as the first column.
            dates = d.index.strftime("%Y-%m-%d")
            d = d.reset_index(drop=True)
            d.insert(0, "date", dates)
    cols = [str(c) for c in d.columns]
    rows = []
    for r in d.itertuples(index=False):
        v = [v.item() if hasattr(v, "item") else v for v in r]
        # A missing value (co2's gaps) as JSON's null, not NaN (which JSON.parse refuses).
        rows.append([None if isinstance(x, float) and x != x else x for x in v])
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


def fit_ets_form(y, m, error, trend, damped, season, init="estimated"):
    """ETSModel fitted at one form (statsmodels' error / trend / season names)."""
    from statsmodels.tsa.exponential_smoothing.ets import ETSModel

    return ETSModel(
        y,
        error=error,
        trend=trend,
        damped_trend=damped,
        seasonal=season,
        seasonal_periods=m if season else None,
        initialization_method=init,
    ).fit(disp=False, maxiter=200)


def fit_ets(y, m, h):
    positive = bool(np.all(y > 0))
    seasonal = m > 1 and len(y) >= 2 * m + 2
    fits = []
    for error in ["add", "mul"] if positive else ["add"]:
        for trend, damped in [(None, False), ("add", False), ("add", True)]:
            for season in [None, "add", "mul"] if seasonal else [None]:
                if season == "mul" and (not positive or error == "add"):
                    continue
                try:
                    res = fit_ets_form(y, m, error, trend, damped, season)
                    if np.isfinite(res.aicc):
                        name = f"ETS({error[0].upper()},{ets_trend(trend, damped)},{season[0].upper() if season else 'N'})"
                        fits.append((res.aicc, name, res))
                except Exception:
                    continue
    return first_sane(y, h, fits, "ETS form")


ETS_FORMS = [
    (error, trend, damped, season)
    for error in ["add", "mul"]
    for trend, damped in [(None, False), ("add", False), ("add", True)]
    for season in [None, "add", "mul"]
    if not (season == "mul" and error == "add")
]


def ets_form_name(error, trend, damped, season):
    s = season[0].upper() if season else "N"
    return f"{error[0].upper()},{ets_trend(trend, damped)},{s}"


def ets_form_of(name):
    e, t, s = name.split(",")
    error = "add" if e == "A" else "mul"
    trend = None if t == "N" else "add"
    season = None if s == "N" else ("add" if s == "A" else "mul")
    return error, trend, t == "Ad", season


def ets_fit_record(res, h):
    f = [float(v) for v in res.forecast(h)]
    s = np.atleast_1d(np.asarray(res.initial_seasonal, dtype=float)) if res.model.has_seasonal else []
    return {
        "aicc": float(res.aicc),
        "llf": float(res.llf),
        "k": int(res.df_model),
        "params": [
            float(res.smoothing_level),
            float(res.smoothing_trend) if res.model.has_trend else 0.0,
            float(res.smoothing_seasonal) if res.model.has_seasonal else 0.0,
            float(res.damping_trend) if res.model.damped_trend else 1.0,
        ],
        "l": float(res.initial_level),
        "b": float(res.initial_trend) if res.model.has_trend else 0.0,
        "s": [float(v) for v in s],
        "forecast": f,
    }


def ets_forms_task(t):
    """Every admissible ETS form fitted with estimated and with heuristic starting states."""
    warnings.simplefilter("ignore")
    y = np.asarray(t["y"], dtype=float)
    m, h = int(t["m"]), int(t["h"])
    positive = bool(np.all(y > 0))
    seasonal = m > 1 and len(y) >= 2 * m + 2
    out = {"estimated": {}, "heuristic": {}}
    for error, trend, damped, season in ETS_FORMS:
        if (error == "mul" or season == "mul") and not positive:
            continue
        if season and not seasonal:
            continue
        name = ets_form_name(error, trend, damped, season)
        for init in ["estimated", "heuristic"]:
            try:
                res = fit_ets_form(y, m, error, trend, damped, season, init)
                if np.isfinite(res.aicc):
                    out[init][name] = ets_fit_record(res, h)
            except Exception:
                continue
    return t["key"], out


def ets_at_task(t):
    """ETSModel's log-likelihood at each given form, parameters and starting states."""
    from statsmodels.tsa.exponential_smoothing.ets import ETSModel

    warnings.simplefilter("ignore")
    y = np.asarray(t["y"], dtype=float)
    m = int(t["m"])
    out = []
    for a in t["at"]:
        error, trend, damped, season = ets_form_of(a["form"])
        try:
            model = ETSModel(
                y,
                error=error,
                trend=trend,
                damped_trend=damped,
                seasonal=season,
                seasonal_periods=m if season else None,
                initialization_method="known",
                initial_level=a["l"],
                initial_trend=a["b"] if trend else None,
                initial_seasonal=np.asarray(a["s"]) if season else None,
            )
            al, be, ga, ph = a["params"]
            p = [al] + ([be] if trend else []) + ([ga] if season else []) + ([ph] if damped else [])
            v = float(model.loglike(np.asarray(p, dtype=float)))
            out.append(v if np.isfinite(v) else None)
        except Exception:
            out.append(None)
    return t["key"], out


def pooled(fn, job_file, save_files=False):
    tasks = json.load(open(job_file))["tasks"]
    procs = max(1, min(int(os.environ.get("PEER_PROCESSES", "2")), os.cpu_count() or 1))
    files = {t["key"]: t.get("file") for t in tasks}
    results = {}
    with Pool(procs) as pool:
        for k, v in pool.imap_unordered(fn, tasks, chunksize=1):
            results[k] = v
            if save_files:
                save(files.get(k), v, len(results), len(tasks))
    json.dump(results, sys.stdout)


def ets_trend(trend, damped):
    return "N" if trend is None else ("Ad" if damped else "A")


def sarimax(y, order, m, trend, maxiter):
    """SARIMAX fitted at order (p, d, q, P, D, Q), with season m (0: none) and the trend."""
    from statsmodels.tsa.statespace.sarimax import SARIMAX

    p, d, q, P, D, Q = order
    seasonal_order = (P, D, Q, m) if m else (0, 0, 0, 0)
    model = SARIMAX(y, order=(p, d, q), seasonal_order=seasonal_order, trend=trend)
    return model.fit(disp=False, maxiter=maxiter)


def sarimax_fits(y, m):
    """The SARIMAX peer's candidates: (aicc, name, results, (p, d, q, P, D, Q, trend)), and
    whether the series is fitted with a seasonal part."""
    seasonal = m > 1 and len(y) >= 3 * m + 3
    D = 1 if seasonal and seasonal_strength(y, m) > 0.64 else 0
    x = y[m:] - y[:-m] if D else y
    d = kpss_d(x)
    seas = [(0, 0), (0, 1), (1, 0)] if seasonal else [(0, 0)]
    fits = []
    for p in range(3):
        for q in range(2):
            for P, Q in seas:
                trend = "c" if d + D == 0 else ("t" if d + D == 1 else "n")
                try:
                    res = sarimax(y, (p, d, q, P, D, Q), m if seasonal else 0, trend, 100)
                    if np.isfinite(res.aicc):
                        s = f"({P},{D},{Q},{m})" if seasonal else ""
                        name = f"SARIMAX({p},{d},{q}){s} trend={trend}"
                        fits.append((res.aicc, name, res, (p, d, q, P, D, Q, trend)))
                except Exception:
                    continue
    return fits, seasonal


def fit_sarimax(y, m, h):
    fits, _ = sarimax_fits(y, m)
    return first_sane(y, h, [f[:3] for f in fits], "SARIMAX order")


def peer_order(t):
    """The SARIMAX peer's chosen order (the first by AICc that passes the guard) and its fit, and
    the same order refitted with the other trends."""
    warnings.simplefilter("ignore")
    y = np.asarray(t["y"], dtype=float)
    m, h = int(t["m"]), int(t["h"])
    fits, seasonal = sarimax_fits(y, m)
    for _, _, res, order in sorted(fits, key=lambda f: f[0]):
        try:
            f = [float(v) for v in res.forecast(h)]
        except Exception:
            continue
        if insane(y, f) is None:
            break
    else:
        return t["key"], None
    d, D = order[1], order[4]
    params = lambda r: {k: float(v) for k, v in zip(r.model.param_names, r.params)}
    variants = {}
    for trend in ["n", "c", "ct"] if d + D == 1 else ["c"] if d + D == 0 else ["n"]:
        try:
            r = sarimax(y, order[:6], m if seasonal else 0, trend, 200)
            variants[trend] = {"params": params(r), "forecast": [float(v) for v in r.forecast(h)]}
        except Exception:
            continue
    out = {"order": list(order), "m": m if seasonal else 1, "params": params(res), "forecast": f}
    return t["key"], {**out, "variants": variants}


def orders(job_file):
    tasks = json.load(open(job_file))["tasks"]
    procs = max(1, min(int(os.environ.get("PEER_PROCESSES", "2")), os.cpu_count() or 1))
    with Pool(procs) as pool:
        json.dump(dict(pool.map(peer_order, tasks, chunksize=1)), sys.stdout)


def fit_theta(y, m, h):
    from statsmodels.tsa.forecasting.theta import ThetaModel

    try:
        res = ThetaModel(y, period=max(1, m), deseasonalize=m > 1 and len(y) >= 2 * m).fit()
        return first_sane(y, h, [(0.0, "Theta", res)], "Theta")
    except Exception:
        return first_sane(y, h, [], "Theta")


def run_task(t):
    # statsmodels' convergence warnings would interleave with the bench's progress.
    warnings.simplefilter("ignore")
    y = np.asarray(t["y"], dtype=float)
    m, h = int(t["m"]), int(t["h"])
    cached = t.get("cached") or {}
    out = {"seconds": dict(cached.get("seconds", {})), "failed": {}, "guard": GUARD}
    for name, f in [("ets", fit_ets), ("sarimax", fit_sarimax), ("theta", fit_theta)]:
        if name in cached and insane(y, cached[name]) is None:
            out[name] = cached[name]
            continue
        t0 = time.process_time()
        out[name], why = f(y, m, h)
        out["seconds"][name] = time.process_time() - t0
        if why:
            out["failed"][name] = why
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
    elif sys.argv[1] == "orders":
        orders(sys.argv[2])
    elif sys.argv[1] == "etsforms":
        pooled(ets_forms_task, sys.argv[2], save_files=True)
    elif sys.argv[1] == "etsat":
        pooled(ets_at_task, sys.argv[2])
    else:
        fit(sys.argv[2])
