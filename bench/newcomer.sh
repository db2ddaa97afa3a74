#!/usr/bin/env bash
# The newcomer's path (issue 55): the README's commands and recipes, run as a new user
# would, from a clean clone in a fresh virtualenv with a fresh HOME. Each step prints its
# exit status and the lines a user reads; the script ends with the count of steps whose
# exit status or key line was not the one expected (0 when all is well).
#
#   bash bench/newcomer.sh [REPO]          (default: this checkout; a clone is made)
#
# Needs gcc with OpenMP and make; takes a few minutes (the tune steps measure for real).
set -u
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/newcomer-XXXXXX")
export HOME="$work/home" && mkdir -p "$HOME"
unset AUTOTUNE_DB AUTOTUNE_CACHE_DIR AUTOTUNE_CONFIG XDG_CACHE_HOME
failed=0

step() {  # step NAME EXPECTED_STATUS WORDS... -- COMMAND...
    local name=$1 expected=$2
    shift 2
    local words=()
    while [ "$1" != "--" ]; do words+=("$1"); shift; done
    shift
    local out rc
    out=$("$@" 2>&1)
    rc=$?
    local ok=yes
    [ "$rc" = "$expected" ] || ok=no
    for w in "${words[@]}"; do
        grep -qF -- "$w" <<<"$out" || { ok=no; echo "   missing: $w"; }
    done
    [ $ok = yes ] || failed=$((failed + 1))
    printf '%-4s %-42s exit %s (expected %s)\n' "$ok" "$name" "$rc" "$expected"
    tail -n 3 <<<"$out" | sed 's/^/     | /'
}

git clone -q "$repo" "$work/autotune" && cd "$work/autotune" || exit 2
step "install (README quick start)" 0 "Successfully installed" -- \
    bash -c 'python3 -m venv .venv && . .venv/bin/activate && python -m pip install -e .'
. .venv/bin/activate
step "tune kernels/triangular.c" 0 "tuning took" "runs and decisions stored in" -- \
    autotune tune kernels/triangular.c --busy keep
step "analyze -D N=4000 --json" 0 '"loops"' -- \
    autotune analyze kernels/triangular.c -D N=4000 --json
step "rank --top 5" 0 "predicted" -- autotune rank kernels/triangular.c --top 5
step "tune --apply (the input untouched)" 0 "written to" -- \
    autotune tune kernels/triangular.c --apply "$work/tuned.c" --busy keep
step "tune several files (kernels/*.c)" 0 "skipped" "tuning took" -- \
    bash -c 'autotune tune kernels/*.c --top 1 --repetitions 1 --busy keep'
step "a missing file: one line, exit 2" 2 "nope.c: no such file" -- autotune tune nope.c
cat > "$work/argv.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    double *a = malloc(n * sizeof *a), s = 0.0;
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        a[i] = (i % 7) * 0.5;
    for (int i = 0; i < n; i++)
        s += a[i];
    printf("%.1f\n", s);
    return 0;
}
C
step "analyze without --args hints at it" 0 "--args" -- autotune analyze "$work/argv.c"
step "analyze --args (one profile run)" 0 "profile run of the original" -- \
    autotune analyze "$work/argv.c" --args "200000"
step "scale --args \"{N}\"" 0 "T(n,2)" -- \
    autotune scale "$work/argv.c" --sizes N=100000,200000,400000 --args "{N}" \
    --threads 1,2 --predict N=800000,p=2 --repetitions 1 --quiet
step "variants -o DIR" 0 "manifest" -- \
    autotune variants kernels/triangular.c -o "$work/variants"
step "structure" 0 "program main()" -- autotune structure kernels/triangular.c
step "models" 0 "powerlaw" -- autotune models
mkdir -p "$work/make" && cp kernels/triangular.c "$work/make/prog.c"
printf 'prog: prog.c\n\t$(CC) -O2 -fopenmp prog.c -o prog\n' > "$work/make/Makefile"
step "CC=\"autotune-cc gcc\" make" 0 "prog.c" -- \
    bash -c "cd '$work/make' && make CC='autotune-cc gcc' && ./prog"
step "report-build" 0 "prog.c" -- bash -c "cd '$work/make' && autotune report-build"
step "report -o report.html" 0 "report.html" -- autotune report -o "$work/report.html"
step "the example (examples/experiment)" 0 "model/opt" -- \
    python examples/experiment/experiment.py
echo "newcomer: $failed step(s) not as expected; work folder $work"
exit $((failed > 0))
