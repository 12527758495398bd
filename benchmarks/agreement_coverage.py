"""Coverage of the agreement coefficients' intervals, by simulation (issue 48).

Each replication draws a design (3 to 5 annotators, 50 to 200 units, 20 % of the
ratings missing at random, each unit keeping one), rates the units on a 1-5 scale
with a skewed distribution of true grades, each annotator off by one now and then
and two of them lenient, and records whether each 95 % interval covers the
coefficient's value in the population of units for those annotators (computed once
per number of annotators on 10^6 complete units). The ICC is read on the complete
table of the same draw (it needs every rating). Bootstrap intervals: BCa with 999
resamples. Prints the coverage with its Monte Carlo standard error.

Run: ``nice python benchmarks/agreement_coverage.py --replications 300``
(about 20 minutes on one core).
"""

import argparse
import time
import warnings

import numpy as np

from sklearn_ordinal.metrics import (
    brennan_prediger,
    conger_kappa,
    fleiss_kappa,
    gwet_ac,
    intraclass_correlation,
    krippendorff_alpha,
    percent_agreement,
)
from sklearn_ordinal.stats import (
    agreement_interval,
    intraclass_correlation_interval,
    krippendorff_alpha_interval,
)

LABELS = [1, 2, 3, 4, 5]
GRADES = [0.05, 0.15, 0.3, 0.35, 0.15]
LENIENCY = np.array([0.0, 0.15, 0.0, 0.25, 0.05])  # chance of rating one grade higher
COEFFICIENTS = {"gwet_ac": gwet_ac, "fleiss_kappa": fleiss_kappa,
                "conger_kappa": conger_kappa, "brennan_prediger": brennan_prediger,
                "percent_agreement": percent_agreement}


def rate(n_annotators, n_units, rng):
    truth = rng.choice(5, size=n_units, p=GRADES) + 1
    noise = rng.choice([-1, 0, 1], size=(n_annotators, n_units), p=[0.15, 0.7, 0.15])
    lenient = rng.random((n_annotators, n_units)) < LENIENCY[:n_annotators, np.newaxis]
    return np.clip(truth + noise + lenient, 1, 5).astype(np.float64)


def population(n_annotators, rng):
    complete = rate(n_annotators, 1_000_000, rng)
    values = {name: function(complete, weights="quadratic", labels=LABELS)
              for name, function in COEFFICIENTS.items()}
    values["krippendorff_alpha"] = krippendorff_alpha(complete, level="ordinal")
    values["icc"] = intraclass_correlation(complete, form="ICC(2,1)")
    return values


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replications", type=int, default=300)
    parser.add_argument("--resamples", type=int, default=999)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    truth = {r: population(r, rng) for r in (3, 4, 5)}
    covered = {}
    start = time.perf_counter()
    warnings.simplefilter("ignore")
    for replication in range(args.replications):
        n_annotators = int(rng.integers(3, 6))
        n_units = int(rng.integers(50, 201))
        complete = rate(n_annotators, n_units, rng)
        data = complete.copy()
        data[rng.random(data.shape) < 0.2] = np.nan
        empty = np.isnan(data).all(axis=0)
        data[0, empty] = complete[0, empty]
        results = {}
        for name in COEFFICIENTS:
            for method in ("normal", "bca"):
                results[name, method] = agreement_interval(
                    data, coefficient=name, weights="quadratic", labels=LABELS,
                    method=method, n_resamples=args.resamples, random_state=replication)
        results["krippendorff_alpha", "bca"] = krippendorff_alpha_interval(
            data, level="ordinal", n_resamples=args.resamples, random_state=replication)
        for method in ("f", "bca"):
            results["icc", method] = intraclass_correlation_interval(
                complete, form="ICC(2,1)", method=method, n_resamples=args.resamples,
                random_state=replication)
        for (name, method), result in results.items():
            low, high = result.confidence_interval
            value = truth[n_annotators][name]
            covered.setdefault((name, method), []).append(low <= value <= high)
        if (replication + 1) % 50 == 0:
            print(f"  {replication + 1} replications, {time.perf_counter() - start:.0f} s",
                  flush=True)
    print(f"\nCoverage of 95 % intervals, {args.replications} replications (3-5 annotators, "
          f"50-200 units, 20 % missing; ICC on the complete table; quadratic weights; "
          f"bootstrap BCa with {args.resamples} resamples)")
    print(f"  {'coefficient':<20s} {'interval':<10s} {'coverage':>9s} {'MC s.e.':>8s}")
    for (name, method), hits in covered.items():
        share = np.mean(hits)
        error = np.sqrt(share * (1 - share) / len(hits))
        print(f"  {name:<20s} {method:<10s} {share:9.3f} {error:8.3f}")
    print(f"  ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
