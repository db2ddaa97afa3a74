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
from autotune.variants.templating import render

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
    tail = render(  # the timing runtime: templates/structure_epilogue.c.j2
        "structure_epilogue.c.j2",
        n=len(slots),
        ids=", ".join(f'"{i}"' for i in ids),
        keep=", ".join(map(str, keep)),
        tag=SAMPLE_TAG,
    )
    if body and not body.endswith("\n"):
        tail = "\n" + tail
    return render("structure_prelude.c.j2", file=file) + body + tail, slots, notes
