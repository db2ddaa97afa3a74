"""Reproduce every published case of Lobachev and Loogen (seeds/000) from the printed tables.

For each case: the measured value, the paper's method and relative error, our
estimate with the automatic choice of section 3 done the paper's way (the
method judged on the hidden true value, ``known``), and the honest "real life"
choice (judged on the last known point only). Cases the printed data do not
determine are listed with the reason.

    python bench/paper_tables.py
"""

from __future__ import annotations

import sys
from importlib import resources

from autotune.render import table
from autotune.skeletons.estimators import PAPER_NAMES
from autotune.skeletons.predictor import predict_point
from autotune.skeletons.scalability import farm_imbalance, karp_flatt
from autotune.skeletons.selection import choose
from autotune.skeletons.skeleton import Skeleton
from autotune.skeletons.tables import parse_table


def load(name: str, **where: str):
    text = (resources.files("autotune") / "data" / name).read_text()
    return parse_table(text, name, where or None)


def pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:+.3f}%"


def component(pred, which: str):
    """(choice, measured true value) for T(n), Abar, or the total T(n,p)."""
    if which == "T":
        return pred.t_seq
    return pred.abar


def run_case(tab, skeleton, n, p, known, which, actual_override=None):
    """Estimate with known-value and real-life choice; return (est, err, method) for each."""
    out = {}
    for mode in ("known", "real-life"):
        pred = predict_point(tab, skeleton, n, p, known=known, mode=mode)
        if which == "total":
            both = (
                pred.t_seq.chosen_label
                if pred.direction == "none"
                else f"{pred.t_seq.chosen_label} + {pred.abar.chosen_label}"
            )
            est, method = pred.time, (both if pred.ok else "fail")
            actual = pred.measured
        else:
            c = component(pred, which)
            est, method = (c.value, c.chosen_label) if c.ok else (None, "fail: " + _short(c))
            actual = c.actual if mode == "known" else None
        out[mode] = (est, method, actual, pred)
    actual = actual_override if actual_override is not None else out["known"][2]
    res = {}
    for mode, (est, method, _a, _pred) in out.items():
        err = (est - actual) / actual if (est is not None and actual) else None
        res[mode] = (est, err, method)
    return actual, res


def _short(c) -> str:
    return "more measurements" if "measurements" in c.reason else c.reason[:30]


def main() -> int:
    gauss = load("lobachev_gauss_table1.csv")
    lbm = load("lobachev_lbm_table2.csv")
    kara_u = load("lobachev_karatsuba_table3.csv", set="uniform")
    kara_n = load("lobachev_karatsuba_table3.csv", set="nonuniform")
    rm = load("lobachev_rabin_miller_table4.csv")
    farm, parmap = Skeleton("farm"), Skeleton("parmap")
    dc, it = Skeleton("dc"), Skeleton("iteration")

    # (label, table, skeleton, n, p, known rows, component, paper method, paper error %, note)
    cases = [
        (
            "Gauss T(120)",
            gauss,
            farm,
            120,
            7,
            "n<=100",
            "T",
            "lm(poly)",
            -3.41,
            "all 3 methods differ from the paper: its T(n) is not the printed T(n,1)?",
        ),
        (
            "Gauss Abar(120,7)",
            gauss,
            farm,
            120,
            7,
            "n<=100",
            "A",
            "mean(spline+loess)",
            -0.7294,
            "",
        ),
        (
            "Gauss T(120,7)",
            gauss,
            farm,
            120,
            7,
            "n<=100",
            "total",
            "lm(poly)+mean",
            -1.69,
            "paper: 6.10 s",
        ),
        (
            "LBM Abar(n,262144)",
            lbm,
            parmap,
            None,
            262144,
            "p<=196608",
            "A",
            "lm(poly)",
            "3.16",
            "paper prints 3.16 s, not its error",
        ),
        (
            "LBM T(n,262144)",
            lbm,
            parmap,
            None,
            262144,
            "p<=196608",
            "total",
            "lm(poly)",
            -1.47,
            "paper: 5.196 s",
        ),
        (
            "Karatsuba T(60000)",
            kara_u,
            dc,
            60,
            8,
            "n<=56",
            "total",
            "spline",
            -0.014,
            "Table 3 is 'a snapshot of the data' (fit used unprinted sizes)",
        ),
        (
            "Karatsuba T(64000)",
            kara_u,
            dc,
            64,
            8,
            "n<=60",
            "total",
            "lm(poly)",
            1.9,
            "from n<=60000: then spline errs +2.85% (paper 2.76%)",
        ),
        (
            "Karatsuba T(128000) non-unif.",
            kara_n,
            dc,
            128,
            8,
            "n<=64",
            "total",
            "lm(poly)",
            0.021,
            "all 9 points printed, yet lm(poly) gives 36.41, not 36.67",
        ),
        (
            "Rabin-Miller T(11213)",
            rm,
            it,
            11213,
            8,
            "n<=9689",
            "T",
            "lm(poly)",
            "144.59",
            "paper prints 144.59",
        ),
        (
            "Rabin-Miller Abar(11213,8)",
            rm,
            it,
            11213,
            8,
            "n<=9689",
            "A",
            "mean",
            "3.71",
            "paper prints 3.71",
        ),
        (
            "Rabin-Miller T(11213,8)",
            rm,
            it,
            11213,
            8,
            "n<=9689",
            "total",
            "lm(poly)+mean",
            0.01,
            "paper: 21.78 s",
        ),
    ]
    rows = []
    for label, tab, sk, n, p, known, which, pmethod, perr, note in cases:
        actual, res = run_case(tab, sk, n, p, known, which)
        if isinstance(perr, str):  # the paper prints the value, not the error
            perr = round(100 * (float(perr) / actual - 1), 3)
        k_est, k_err, k_m = res["known"]
        r_est, r_err, r_m = res["real-life"]
        verdict = (
            "-"
            if perr is None or k_err is None
            else (
                "<= paper"
                if abs(100 * k_err) <= abs(perr) + 1e-9
                else "= paper (rounding)"
                if abs(100 * k_err) - abs(perr) < 0.01
                else "worse"
            )
        )
        rows.append(
            [
                label,
                f"{actual:.5g}",
                pmethod,
                "-" if perr is None else f"{perr:+.3f}%",
                k_m,
                "-" if k_est is None else f"{k_est:.5g}",
                pct(k_err),
                verdict,
                r_m,
                pct(r_err),
                note,
            ]
        )
    rows.append(
        [
            "Gauss Abar(100,7) over p",
            "2.1668",
            "mean",
            "-1.682%",
            "n/a",
            "-",
            "-",
            "-",
            "n/a",
            "-",
            "needs T(100,p) for p=2..6: only in a figure, not printed",
        ]
    )
    rows.append(
        [
            "Gauss T(100,7)",
            "3.6038",
            "T(100)+mean",
            "-1.1%",
            "n/a",
            "-",
            "-",
            "-",
            "n/a",
            "-",
            "same: needs Abar(100,p), p=2..6",
        ]
    )
    rows.append(
        [
            "Karatsuba T(60000,8), T(64000,8)",
            "11.0, 11.86",
            "via loess Abar",
            "0.14%, 1.78%",
            "n/a",
            "-",
            "-",
            "-",
            "n/a",
            "-",
            "need the sequential T(n), not printed (our T rows above estimate T(n,8))",
        ]
    )
    print(
        "Published cases: 'known' = section 3 choice judged on the hidden true value "
        "(the paper's procedure), epsilon 2%;"
    )
    print(
        "'real life' = choice judged on the last known point only "
        "(fails -> 'take more measurements').\n"
    )
    table(
        [
            "case",
            "measured",
            "paper method",
            "paper err",
            "auto method",
            "estimate",
            "our err",
            "vs paper",
            "real-life method",
            "real-life err",
            "note",
        ],
        rows,
        out=sys.stdout,
    )

    # LBM: the paper's point that the decomposition matters.
    p_lbm = [float(r.p) for r in lbm.rows if r.p <= 196608]
    t_lbm = [lbm.time(0.0, int(q)) for q in p_lbm]
    direct = choose(
        p_lbm, t_lbm, 262144, series="T(n,p)", axis="p", mode="known", actual=lbm.time(0.0, 262144)
    )
    actual = lbm.time(0.0, 262144)
    print(
        "\nLBM direct estimate of T(n,262144) over p, without the decomposition (paper: best "
        "-31%): "
        + ", ".join(
            f"{r.label} "
            + (pct(r.estimate / actual - 1) if r.estimate is not None else "-")
            + (" (negative: nonsense)" if r.estimate is not None and r.estimate < 0 else "")
            for r in direct.results
            if r.method in PAPER_NAMES
        )
    )

    _method_grid(gauss, kara_u, kara_n)
    _table4(rm)
    _figure7c(rm)
    _rwpt()
    return 0


def _method_grid(gauss, kara_u, kara_n) -> None:
    """Every per-method error the paper prints, beside ours on the printed data."""
    published = [  # (case, table, n, p, known, series, {paper method: paper error %})
        (
            "Gauss T(120)",
            gauss,
            120,
            7,
            "n<=100",
            "T",
            {"spline": -16.17, "loess": -6.605, "lm(poly)": -3.41},
        ),
        (
            "Gauss Abar(120,7)",
            gauss,
            120,
            7,
            "n<=100",
            "A",
            {"spline": -3.601, "loess": 2.143, "mean(loess+spline)": -0.7294},
        ),
        (
            "Karatsuba T(60000)",
            kara_u,
            60,
            8,
            "n<=56",
            "T",
            {"spline": -0.014, "loess": -2.08, "lm": -3.76, "lm(poly)": 1.30},
        ),
        ("Karatsuba T(64000)", kara_u, 64, 8, "n<=60", "T", {"spline": 2.76, "lm(poly)": 1.9}),
        (
            "Karatsuba T(128000) non-unif.",
            kara_n,
            128,
            8,
            "n<=64",
            "T",
            {"spline": 8.984, "lm(poly)": 0.021},
        ),
    ]
    rows = []
    for case, tab, n, p, known, series, paper in published:
        pred = predict_point(tab, "parmap", n, p, known=known, mode="known")
        choice = pred.t_seq if series == "T" else pred.abar
        ours = {r.label: r.error for r in choice.results}
        for method, perr in paper.items():
            rows.append([case, method, pct(ours.get(method)), f"{perr:+.3f}%"])
    print(
        "\nPer-method errors the paper prints, beside ours on the printed data "
        "(a mismatch means the printed data do not determine the case)"
    )
    table(["case", "method", "our err", "paper err"], rows, out=sys.stdout)


def _table4(rm) -> None:
    published = {  # Table 4 bottom: T-method, Abar-method -> (T, Abar, T(n,8), err %)
        "spline": (127.25, {"spline": 3.32, "loess": 3.59, "lmpoly": 3.82, "mean": 3.71}),
        "loess": (136.73, {"spline": 3.32, "loess": 3.59, "lmpoly": 3.82, "mean": 3.71}),
        "lmpoly": (144.59, {"spline": 3.32, "loess": 3.59, "lmpoly": 3.82, "mean": 3.71}),
    }
    paper_err = {
        ("spline", "spline"): -11.70,
        ("spline", "loess"): -10.56,
        ("spline", "lmpoly"): -9.42,
        ("spline", "mean"): -9.94,
        ("loess", "spline"): -6.26,
        ("loess", "loess"): -5.02,
        ("loess", "lmpoly"): -3.98,
        ("loess", "mean"): -4.50,
        ("lmpoly", "spline"): -1.75,
        ("lmpoly", "loess"): -0.50,
        ("lmpoly", "lmpoly"): 0.53,
        ("lmpoly", "mean"): 0.01,
    }
    rows = []
    for tm in ("spline", "loess", "lmpoly"):
        for am in ("spline", "loess", "lmpoly", "mean"):
            pred = predict_point(
                rm, "iteration", 11213, 8, tm, method_abar=am, known="n<=9689", mode="known"
            )
            abar_lab = "mean(loess,lm(poly))" if am == "mean" else PAPER_NAMES[am]
            pt, pa = published[tm][0], published[tm][1][am]
            rows.append(
                [
                    f"{PAPER_NAMES[tm]} + {abar_lab}",
                    f"{pred.t_seq.value:.2f}",
                    f"{pt:.2f}",
                    f"{pred.abar.value:.3f}",
                    f"{pa:.2f}",
                    f"{pred.time:.3f}",
                    pct(pred.error),
                    f"{paper_err[(tm, am)]:+.2f}%",
                ]
            )
    print(
        "\nRabin-Miller Table 4, T(11213,8) = T(n)/8 + Abar(n,8), measured 21.78 "
        "(our mean = the two methods nearest the true Abar)"
    )
    table(
        [
            "T + Abar method",
            "our T(n)",
            "paper T(n)",
            "our Abar",
            "paper Abar",
            "our T(n,8)",
            "our err",
            "paper err",
        ],
        rows,
        out=sys.stdout,
    )
    print(
        "lm(poly) reproduces (144.58 vs 144.59, 3.814 vs 3.82) and loess nearly "
        "(136.57 vs 136.73, 3.60 vs 3.59);"
    )
    print(
        "R's fmm spline on the printed points gives 126.10 / 3.412, not 127.25 / 3.32: "
        "the paper's spline input is not fully printed."
    )


def _figure7c(rm) -> None:
    fig = load_csv_rows("lobachev_rabin_miller_fig7c.csv")
    t_n = rm.time(9689.0, 1)
    rows = []
    for rec in fig:
        p, abar_p = int(rec[0]), float(rec[1])
        f_p = float(rec[2]) if rec[2] else None
        f_from_abar = p * abar_p / ((p - 1) * t_n) if p > 1 else None
        t_np = rm.time(9689.0, p)
        our_abar = None if t_np is None else t_np - t_n / p
        our_f = None if t_np is None else karp_flatt(t_np, t_n, p)
        rows.append(
            [
                p,
                abar_p,
                our_abar,
                f_p,
                f_from_abar,
                our_f,
                pct(None if (f_p is None or f_from_abar is None) else f_from_abar / f_p - 1),
            ]
        )
    print(
        "\nFigure 7(c), Rabin-Miller n = 9689: Abar and serial fraction by p "
        "(T(n) := T(9689,1) = 96.95)"
    )
    table(
        [
            "p",
            "paper Abar",
            "our Abar (Table 4)",
            "paper f",
            "f from paper Abar",
            "our f (Table 4)",
            "f diff",
        ],
        rows,
        out=sys.stdout,
    )
    print(
        "f = p Abar / ((p-1) T(n)) reproduces every printed f from the printed Abar; "
        "only p = 7, 8 have printed times."
    )


def load_csv_rows(name: str) -> list[list[str]]:
    text = (resources.files("autotune") / "data" / name).read_text()
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    return [ln.split(",") for ln in lines[1:]]


def _rwpt() -> None:
    rwpt = load("lobachev_rwpt_table2.csv")
    printed = {int(r[0]): float(r[2]) for r in load_csv_rows("lobachev_rwpt_table2.csv")}
    rows = []
    for r in farm_imbalance(rwpt, tasks=294912):
        rows.append(
            [
                r.p,
                r.measured,
                f"{100 * r.imbalance:g}%",
                f"{printed[r.p]:g}%",
                r.balanced,
                r.static,
                r.abar_balanced,
                r.abar_static,
            ]
        )
    print(
        "\nRWPT static farm, n = 294912 tasks, T(n) := 16384 T(n,16384): imbalance "
        "(n mod p)/p and the busiest PE's ceil(n/p) tasks"
    )
    table(
        [
            "p",
            "T(n,p)",
            "imbalance",
            "printed",
            "T(n)/p",
            "ceil(n/p)T(n)/n",
            "Abar balanced",
            "Abar static",
        ],
        rows,
        out=sys.stdout,
    )
    imb = [r for r in farm_imbalance(rwpt, tasks=294912) if r.imbalance > 0]
    print(
        "Where p does not divide n, the static model explains "
        + ", ".join(f"p={r.p}: {1 - r.abar_static / r.abar_balanced:.0%}" for r in imb)
        + " of the balanced-model penalty."
    )


if __name__ == "__main__":
    raise SystemExit(main())
