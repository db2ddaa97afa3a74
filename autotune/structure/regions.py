"""Time every node of a structure tree in ONE instrumented build of the user's file.

Each timed node's text span (nodes.TextSpan) is wrapped in a block that
reads the clock before and accumulates after; nested spans nest as blocks.
At exit the program appends to ``$AUTOTUNE_TIMING_FILE`` the contract's line
per node (see docs/timing.md),

    autotune-timing <TAB> id <TAB> wall_s <TAB> cpu_s <TAB> executions

one such line for the whole program (``main``'s node id; from a constructor
before ``main`` to the exit handler), and, for spans that keep samples
(sections), one line per execution:

    autotune-sample <TAB> id <TAB> wall_s

in execution order, so that sample i of every section of one ``sections``
construct comes from the same execution of it. Inserted code goes on new
lines followed by ``#line`` so every user line keeps its number.
"""

from __future__ import annotations

from dataclasses import dataclass

from autotune.structure.nodes import ProgramTree, StructNode
from autotune.variants.instrument import c_string

SAMPLE_TAG = "autotune-sample"


@dataclass
class Slot:
    index: int
    node: StructNode


def timed_slots(tree: ProgramTree) -> tuple[list[Slot], list[str]]:
    """The nodes that get a timer (properly nested spans only) and notes on the rest."""
    candidates = [(n, d) for n, d in tree.root.walk() if n.timed and n.span is not None]
    candidates.sort(key=lambda nd: (nd[0].span.begin, -nd[0].span.end, nd[1]))
    kept: list[StructNode] = []
    stack: list[StructNode] = []
    notes: list[str] = []
    for node, _depth in candidates:
        s = node.span
        while stack and stack[-1].span.end <= s.begin:
            stack.pop()
        if stack and s.end > stack[-1].span.end:
            node.notes.append(f"its text overlaps {stack[-1].id}: not timed")
            notes.append(f"{node.id}: text overlaps {stack[-1].id}: not timed")
            node.span = None
            continue
        kept.append(node)
        stack.append(node)
    order = {id(n): i for i, (n, _) in enumerate(tree.root.walk())}
    kept.sort(key=lambda n: order[id(n)])
    return [Slot(i, n) for i, n in enumerate(kept)], notes


def _begin(k: int, mode: str, line: int, file: str) -> str:
    mark = f"autotune_s_m{k}_"
    if mode == "encounter":
        return (
            f'{{ struct autotune_s_mark_ {mark}; autotune_s_now_(&{mark});\n#line {line} "{file}"\n'
        )
    return (
        f"{{ struct autotune_s_mark_ {mark} = {{0.0, 0.0}};\n#pragma omp barrier\n"
        f"if (omp_get_thread_num() == 0) autotune_s_now_(&{mark});\n"
        f'#line {line} "{file}"\n'
    )


def _end(k: int, mode: str, line: int, file: str) -> str:
    mark = f"autotune_s_m{k}_"
    if mode == "encounter":
        body = f"autotune_s_add_({k}, &{mark}); }}"
    elif mode == "team_block":
        body = (
            f"\n#pragma omp barrier\n"
            f"if (omp_get_thread_num() == 0) autotune_s_add_({k}, &{mark}); }}"
        )
    else:  # team_ws(_nowait): the construct's own end barrier (if any) precedes
        body = f"if (omp_get_thread_num() == 0) autotune_s_add_({k}, &{mark}); }}"
    return f'\n{body}\n#line {line} "{file}"\n'


_PRELUDE = """\
/* autotune structure: timed copy of {file}; helpers are at the end of the file */
extern double omp_get_wtime(void);
extern int omp_get_thread_num(void);
struct autotune_s_mark_ {{ double autotune_wall_s; double autotune_cpu_s; }};
static void autotune_s_now_(struct autotune_s_mark_ *autotune_m) __attribute__((unused));
static void autotune_s_add_(int autotune_k, const struct autotune_s_mark_ *autotune_m)
    __attribute__((unused));
#line 1 "{file}"
"""

_EPILOGUE = """
#line 1 "<autotune structure instrumentation>"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define AUTOTUNE_S_N_ {n}
static const char *const autotune_s_ids_[AUTOTUNE_S_N_ + 1] = {{ {ids} }};
static const int autotune_s_keep_[AUTOTUNE_S_N_ + 1] = {{ {keep} }};
static double autotune_s_wall_[AUTOTUNE_S_N_ + 1], autotune_s_cpu_[AUTOTUNE_S_N_ + 1];
static long autotune_s_execs_[AUTOTUNE_S_N_ + 1];
static double *autotune_s_samples_[AUTOTUNE_S_N_ + 1];
static long autotune_s_count_[AUTOTUNE_S_N_ + 1], autotune_s_cap_[AUTOTUNE_S_N_ + 1];
static struct autotune_s_mark_ autotune_s_start_;

static void autotune_s_now_(struct autotune_s_mark_ *autotune_m)
{{
    autotune_m->autotune_wall_s = omp_get_wtime();
    autotune_m->autotune_cpu_s = (double)clock() / (double)CLOCKS_PER_SEC;
}}

static void autotune_s_add_(int autotune_k, const struct autotune_s_mark_ *autotune_m)
{{
    struct autotune_s_mark_ autotune_e;
    double autotune_w;
    autotune_s_now_(&autotune_e);
    autotune_w = autotune_e.autotune_wall_s - autotune_m->autotune_wall_s;
#pragma omp critical (autotune_s_timing_)
    {{
        autotune_s_wall_[autotune_k] += autotune_w;
        autotune_s_cpu_[autotune_k] += autotune_e.autotune_cpu_s - autotune_m->autotune_cpu_s;
        autotune_s_execs_[autotune_k] += 1;
        if (autotune_s_keep_[autotune_k]) {{
            if (autotune_s_count_[autotune_k] == autotune_s_cap_[autotune_k]) {{
                long autotune_c = autotune_s_cap_[autotune_k];
                autotune_c = autotune_c ? 2 * autotune_c : 64;
                double *autotune_p = (double *)realloc(autotune_s_samples_[autotune_k],
                                                       (size_t)autotune_c * sizeof(double));
                if (autotune_p) {{
                    autotune_s_samples_[autotune_k] = autotune_p;
                    autotune_s_cap_[autotune_k] = autotune_c;
                }}
            }}
            if (autotune_s_count_[autotune_k] < autotune_s_cap_[autotune_k])
                autotune_s_samples_[autotune_k][autotune_s_count_[autotune_k]++] = autotune_w;
        }}
    }}
}}

static void autotune_s_write_(void)
{{
    const char *autotune_path = getenv("AUTOTUNE_TIMING_FILE");
    FILE *autotune_f;
    int autotune_k;
    long autotune_i;
    struct autotune_s_mark_ autotune_e;
    autotune_s_now_(&autotune_e);
    autotune_s_wall_[AUTOTUNE_S_N_] =
        autotune_e.autotune_wall_s - autotune_s_start_.autotune_wall_s;
    autotune_s_cpu_[AUTOTUNE_S_N_] =
        autotune_e.autotune_cpu_s - autotune_s_start_.autotune_cpu_s;
    autotune_s_execs_[AUTOTUNE_S_N_] = 1;
    if (autotune_path == 0 || autotune_path[0] == '\\0')
        return;
    autotune_f = fopen(autotune_path, "a");
    if (autotune_f == 0)
        return;
    for (autotune_k = 0; autotune_k <= AUTOTUNE_S_N_; autotune_k++) {{
        fprintf(autotune_f, "autotune-timing\\t%s\\t%.9e\\t%.9e\\t%ld\\n",
                autotune_s_ids_[autotune_k], autotune_s_wall_[autotune_k],
                autotune_s_cpu_[autotune_k], autotune_s_execs_[autotune_k]);
        for (autotune_i = 0; autotune_i < autotune_s_count_[autotune_k]; autotune_i++)
            fprintf(autotune_f, "{tag}\\t%s\\t%.9e\\n", autotune_s_ids_[autotune_k],
                    autotune_s_samples_[autotune_k][autotune_i]);
    }}
    fclose(autotune_f);
}}

__attribute__((constructor)) static void autotune_s_register_(void)
{{
    autotune_s_now_(&autotune_s_start_);
    atexit(autotune_s_write_);
}}
"""


def instrument(source: str, tree: ProgramTree) -> tuple[str, list[Slot], list[str]]:
    """(timed program text, the timed slots, notes on spans left untimed).

    ``source`` must be the text the tree's spans were found in. The whole
    program is always timed, under the root node's id.
    """
    slots, notes = timed_slots(tree)
    file = c_string(tree.root.file)
    depth = {id(n): d for n, d in tree.root.walk()}
    ops: list[tuple[int, int, int, str]] = []  # (offset, end-before-begin, nesting, text)
    for slot in slots:
        s, d = slot.node.span, depth[id(slot.node)]
        ops.append((s.begin, 1, d, _begin(slot.index, s.mode, s.begin_line, file)))
        ops.append((s.end, 0, -d, _end(slot.index, s.mode, s.end_line, file)))
    ops.sort(key=lambda o: (o[0], o[1], o[2]))
    out: list[str] = []
    pos = 0
    for offset, _, _, text in ops:
        out.append(source[pos:offset])
        out.append(text)
        pos = offset
    out.append(source[pos:])
    body = "".join(out)
    ids = [c_string(s.node.id) for s in slots] + [c_string(tree.root.id)]
    keep = [int(s.node.span.samples) for s in slots] + [0]
    tail = _EPILOGUE.format(
        n=len(slots),
        ids=", ".join(f'"{i}"' for i in ids),
        keep=", ".join(map(str, keep)),
        tag=SAMPLE_TAG,
    )
    if body and not body.endswith("\n"):
        tail = "\n" + tail
    return _PRELUDE.format(file=file) + body + tail, slots, notes
