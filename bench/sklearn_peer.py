"""scikit-learn reference for `npm run bench -- automl` (bench/peers.ts): fits the peer models on
the same rows the engine trains on and prints one JSON line of timings and held-out metrics.
Benchmark only; never needed by `npm test`. Run with Debian's /usr/bin/python3 (python3-sklearn).

  sklearn_peer.py dump <name>   a scikit-learn toy dataset as JSON {columns, rows}
  sklearn_peer.py fit <job.json>
    job: {task, x, y, n, p, train_n, categorical, seed, text?}; x / y are raw little-endian
    float64 files (n x p row-major, NaN = missing; categorical columns hold codes), the first
    train_n rows train and the rest test. `text` (optional): a JSON file of one string per row,
    fitted with TF-IDF + logistic regression instead of gradient boosting.
"""

import json
import sys
import time

import numpy as np


def dump(name):
    from sklearn import datasets

    d = getattr(datasets, "load_" + name)()
    cols = [str(c) for c in getattr(d, "feature_names", range(d.data.shape[1]))]
    regression = name == "diabetes"
    rows = [
        [float(v) for v in r] + [float(t) if regression else int(t)]
        for r, t in zip(d.data, d.target)
    ]
    json.dump({"columns": cols + ["target"], "rows": rows}, sys.stdout)


def metrics(task, y_true, pred, proba):
    from sklearn import metrics as m

    if task == "regression":
        return {"r2": m.r2_score(y_true, pred)}
    out = {
        "balanced_accuracy": m.balanced_accuracy_score(y_true, pred),
        "accuracy": m.accuracy_score(y_true, pred),
    }
    if proba is not None:
        labels = np.arange(proba.shape[1])
        out["log_loss"] = m.log_loss(y_true, np.clip(proba, 1e-15, 1), labels=labels)
    return out


def fit(job_file):
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    job = json.load(open(job_file))
    n, p, ntr = job["n"], job["p"], job["train_n"]
    task = job["task"]
    y = np.fromfile(job["y"], dtype="<f8")
    if task != "regression":
        y = y.astype(int)
    if job.get("text"):
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression

        docs = json.load(open(job["text"]))
        t0 = time.perf_counter()
        vec = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
        xt = vec.fit_transform(docs[:ntr])
        model = LogisticRegression(max_iter=1000, C=10).fit(xt, y[:ntr])
        fit_s = time.perf_counter() - t0
        xs = vec.transform(docs[ntr:])
        pred = model.predict(xs)
        res = metrics(task, y[ntr:], pred, model.predict_proba(xs))
        res.update({"model": "TfidfVectorizer(1-2 grams) + LogisticRegression", "fit_s": fit_s})
        print(json.dumps(res))
        return
    x = np.fromfile(job["x"], dtype="<f8").reshape(n, p)
    cat = np.zeros(p, dtype=bool)
    cat[job["categorical"]] = True
    kw = dict(early_stopping=True, random_state=job["seed"])
    if cat.any():
        kw["categorical_features"] = cat
    model = (HistGradientBoostingRegressor if task == "regression" else HistGradientBoostingClassifier)(**kw)
    t0 = time.perf_counter()
    model.fit(x[:ntr], y[:ntr])
    fit_s = time.perf_counter() - t0
    xt = x[ntr:]
    pred = model.predict(xt)
    proba = model.predict_proba(xt) if task != "regression" else None
    # Throughput on 100k rows (the test rows repeated), one call, as the engine's figure.
    big = np.resize(xt, (100_000, p))
    model.predict(big)
    t0 = time.perf_counter()
    model.predict(big)
    rate = 100_000 / (time.perf_counter() - t0)
    res = metrics(task, y[ntr:], pred, proba)
    res.update({"model": type(model).__name__, "fit_s": fit_s, "iterations": int(model.n_iter_), "predict_rows_s": rate})
    print(json.dumps(res))


if __name__ == "__main__":
    {"dump": dump, "fit": fit}[sys.argv[1]](sys.argv[2])
