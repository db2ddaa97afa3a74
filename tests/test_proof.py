"""The legality proof, driven as a user would: ``autotune analyze`` and ``autotune
variants`` on C programs written in the style of real codes. Each trap would print
another result under another schedule or thread count (kept as written, no variant);
each real-code pattern is independent and must be proven so (varied)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from autotune.cli.main import main

DATA = Path(__file__).parent / "data" / "c" / "proof"
BOTH = {"schedule", "threads"}

# file -> {loop line: (dimensions kept, words the reason must contain)}
TRAPS = {
    # rows of per-thread partials the program sees one by one (a row alone, fewer rows
    # than the team, two threads on a row, a row rescaled, a maximum over rows, a row in
    # another pointer, the thread number also stored)
    "thread_slots_traps.c": {
        line: (BOTH, "which holds a value that depends on the thread")
        for line in (47, 56, 65, 74, 84, 96, 105)
    },
    # a pointer set through its address to a view one element into another array, and
    # one whose address the program keeps and later stores through
    "out_param_traps.c": {
        36: (BOTH, "at places the proof cannot tell apart between iterations"),
        42: (BOTH, "at places the proof cannot tell apart between iterations"),
    },
    # tables that send two iterations to one element: a repeated entry in a const table,
    # a table the program rewrites (not const: its entries are whatever was stored)
    "const_tables_traps.c": {
        20: (BOTH, "writes the same element of slot from different iterations"),
        24: (BOTH, "at places the proof cannot tell apart between iterations"),
    },
    # selections whose candidate follows the schedule or the team: no tie-break, a merge
    # breaking ties the other way, a tie on a value iterations share (-0.0 and 0.0), a
    # merge by the master alone, a start above every value with the thread's own index
    "selections_traps.c": {
        30: (BOTH, "private variable m is read at line 31 before every path"),
        46: (
            BOTH,
            "accumulates over the iterations a thread runs and is used at line 53",
        ),
        62: (BOTH, "private variable m is read at line 63 before every path"),
        78: (
            BOTH,
            "accumulates over the iterations a thread runs and is used at line 85",
        ),
        94: (BOTH, "reads k, which holds the thread's number or count"),
    },
    # names written where iterations meet: one shared record renamed by all, one slot by
    # two iterations (i / 2), a name member that points into one shared buffer
    "record_strings_traps.c": {
        30: (BOTH, "dependence carried by the loop on last: line 32 (last)"),
        35: (BOTH, "dependence carried by the loop on recs: line 36 (recs[i / 2])"),
        38: (BOTH, "writes labels (line 39: labels[i]; line 39: strcpy())"),
    },
    # helpers that look like allocators: a workspace kept in a static pointer, a
    # file-scope cache, realloc (which may return its block): two names, one block
    "allocator_traps.c": {
        45: (BOTH, "dependence carried by the loop on a: line 46 (a[i + 1]) and line 46 (b[i])"),
        52: (BOTH, "dependence carried by the loop on c: line 53 (c[i + 1]) and line 53 (d[i])"),
        59: (BOTH, "dependence carried by the loop on e: line 60 (e[i + 1]) and line 60 (f[i])"),
    },
    # stores a library call may leave undone: a field the record lacks keeps the previous
    # value in the thread's copy; bytes past snprintf's terminator are an earlier key's
    "partial_stores_traps.c": {
        22: (BOTH, "private variable weight is read at line 24 before every path"),
        29: (BOTH, "key, which each thread keeps across iterations, may be read"),
    },
    # errno tested before the iteration clears it: an earlier iteration's failure shows
    "errno_carry_traps.c": {17: (BOTH, "private variable errno is read at line 18")},
    # a firstprivate table some iterations rewrite: a thread's copy holds its last write
    "firstprivate_table_traps.c": {
        12: (BOTH, "coef, which each thread keeps across iterations, may be read"),
    },
    # the address of a thread's own scratch row kept per item, as a number and as a pointer
    "thread_address_traps.c": {
        17: (BOTH, "uses the address of scratch, which each thread has its own"),
        22: (BOTH, "uses the address of scratch, which each thread has its own"),
    },
    "alias_offset.c": {13: (BOTH, "dependence carried by the loop on a")},
    # atomic builtins whose order shows: a slot handed out, a counter read while others
    # add to it, an add and an or of one word, a slot claimed through a ({ ... }) macro
    "atomic_slot_traps.c": {
        17: (BOTH, "an atomic builtin: what it reads and hands out"),
        24: (BOTH, "dependence carried by the loop on seen"),
        29: (BOTH, "dependence carried by the loop on mask"),
        # the claim as a statement expression ({ ... }): its last call is its value
        34: (BOTH, "an atomic builtin: what it reads and hands out"),
    },
    # one row writer called through two pointers into one grid, a row apart: the offsets
    # each call site binds are two unknowns, so none is set aside as common to both stores
    "row_helper_two_grids.c": {27: (BOTH, "cannot tell apart between iterations")},
    # offsets read from a table of cells that overlap by one (lavaMD's box offsets, as a
    # local, through a pointer set in the loop, in private clauses): a conflict the proof
    # finds possible, not shown, and says so; three of them failed the proof once
    "loaded_offsets.c": {
        23: (BOTH, "may write the same element of x from different iterations"),
        28: (BOTH, "cannot tell apart between iterations"),
        33: (BOTH, "cannot tell apart between iterations"),
        38: (BOTH, "depends on a value the proof does not know (one read from memory"),
    },
    # levels of a grid hierarchy that may be one level or share rows: the same level
    # twice, a level moved after it was set, a global level a helper moves, rows shared
    # between levels, a level also read through a global pointer to the hierarchy, a call
    # a goto reaches again with the levels moved
    "grid_level_traps.c": {
        46: (BOTH, "dependence carried by the loop on u"),
        55: (BOTH, "dependence carried by the loop on u"),
        64: (BOTH, "dependence carried by the loop on u"),
        73: (BOTH, "cannot tell apart between iterations"),
        82: (BOTH, "and reads hier"),
        91: (BOTH, "dependence carried by the loop on u"),  # reached again by a goto
    },
    # rows that are new allocations, then copied by the library onto another's slot (a
    # level's planes memcpy'd from the next level's, a row pointer memmove'd onto its
    # neighbour's): no assignment shows the store; the second was proven before
    "rows_copied_traps.c": {
        14: (BOTH, "cannot tell apart between iterations"),
        40: (BOTH, "writes a (line 42: a[i][c]; line 42: a[i][c])"),
    },
    # a base offset each iteration computes for itself is no parameter: not set aside
    "private_base_trap.c": {17: (BOTH, "cannot tell apart between iterations")},
    # array members of an anonymous struct of a typedef: the last query to reach a node
    # marks it, and a sweep reads the next node's key before that iteration rewrites it
    "anonymous_struct_traps.c": {
        24: (BOTH, "may write the same element of nodes from different iterations"),
        27: (BOTH, "a dependence carried by the loop on nodes"),
    },
    "simd_distance.c": {12: (BOTH, "dependence carried by the loop on v")},
    # boundary tests that keep nothing in the row (a scatter beside the own row, j >= 0,
    # an unsigned j - 1u >= 0), an off-by-one write past c and a read before u
    "boundary_guard_traps.c": {
        30: (BOTH, "dependence carried by the loop on out"),
        38: (BOTH, "subscript that leaves its row"),
        44: (BOTH, "subscript that leaves its row"),
        50: (BOTH, "writes c (line 51: c[i + 1]) outside the 50000 elements"),
        54: (BOTH, "reads u (line 55: u[i - 1]) outside the 50000 elements"),
    },
    # C11 _Atomic objects: x = x + v is a load and a store, a count read back in the
    # loop, an add and a multiply of one word
    "c11_atomic_traps.c": {
        16: (BOTH, "writes the same element of total"),
        20: (BOTH, "dependence carried by the loop on count"),
        25: (BOTH, "dependence carried by the loop on word"),
    },
    # inline assembly: a running sum in a register operand (erased before, so the loop
    # was proven and its variants printed another sum), a barrier, a basic asm under an if
    "inline_asm_traps.c": {
        15: (BOTH, "inline assembly at"),
        20: (BOTH, "inline assembly at"),
        25: (BOTH, "inline assembly at"),
    },
    "thread_queries.c": {
        12: (BOTH, "__builtin_omp_get_thread_num()"),
        15: (BOTH, "omp_get_team_size()"),
        18: (BOTH, "omp_get_ancestor_thread_num()"),
    },
    "tid_param_orphan.c": {12: (BOTH, "reads me")},
    "single_nthreads.c": {15: (BOTH, "reads nthr")},
    "threadprivate_ptr.c": {13: (BOTH, "*c")},
    "static_counter.c": {16: (BOTH, "critical section")},
    "cond_lastprivate.c": {13: (BOTH, "lastprivate(found)")},
    "lastprivate_sum.c": {12: (BOTH, "lastprivate(acc)")},
    "set_schedule.c": {13: (BOTH, "dependence carried by the loop on w")},
    "argmax.c": {13: (BOTH, "makes a decision")},
    # every other element written: the odd one read is not covered (a stride is a fact)
    "stride_scratch.c": {12: (BOTH, "buf, which each thread keeps across iterations")},
    # a helper that returns before filling the row on most calls
    "early_return.c": {21: (BOTH, "row, which each thread keeps across iterations")},
    # a helper that moves its pointer parameter (y++) writes past its own element
    "moving_pointer.c": {17: (BOTH, "writes out")},
    # a static declared in the body is one variable for all iterations
    "static_in_loop.c": {9: (BOTH, "same element of next")},
    # row k of a heap array reached as *path: iteration k writes what the others read
    "heap_floyd.c": {12: (BOTH, "dependence carried by the loop on path")},
    # &scale copied into a pointer the proof cannot follow: out may be scale itself
    "escaped_scalar.c": {18: (BOTH, "and reads scale")},
    # an unsigned char view of a double array: byte i belongs to element i / 8
    "byte_view.c": {15: (BOTH, "two element types")},
    # vector stores and loads wider than the step (SSE2 intrinsics, a may_alias word, a
    # user vector type, the vector pointer an integer intrinsic takes, a lane of a
    # thread's own vector)
    "simd_lane_traps.c": {
        35: (BOTH, "_mm_storeu_pd(): *((__m128d_u *) __P)) touch the same element"),
        38: (BOTH, "_mm_storeu_pd(): *((__m128d_u *) __P)) touch the same element"),
        41: (BOTH, "line 43 (*((word_alias *) (&w[i]))) touch the same element"),
        47: (BOTH, "writes the same element of f"),
        51: (BOTH, "(_mm_storeu_si128(): *__P) touch the same element"),
        # a lane written is the vector written, and read: the other lane carries over
        59: (BOTH, "acc is read at line 60 before every path of the iteration"),
    },
    # one rand_r state per thread, carried from sample to sample (firstprivate)
    "mc_seed_carried.c": {12: (BOTH, "seed is read at line 13 before")},
    # the same storage as rows of 100 and of 50 (a work array under another shape)
    "reshaped_rows.c": {12: (BOTH, "two shapes")},
    # img[i][j + 1] for j up to W - 1: the last store of row i is row i + 1's first
    "row_spill.c": {15: (BOTH, "leaves its row")},
    # an offset stepped beside the inner counter (k = 4 * i, j = 0; ...; j++, k++):
    # windows of 8 that start 4 apart overlap
    "two_counter_traps.c": {15: (BOTH, "writes the same element of a from different iterations")},
    # cell counts a scan at the directive would not see as the iterations do: stored
    # through another name, set before they are read, read every other box, after a
    # continue, after a call that may abort, filled by a nowait loop of the same region
    "cell_lists_traps.c": {
        21: (BOTH, "reads the size max cnt[b] from memory the loop may write"),
        32: (BOTH, "writes the same element of x from different iterations"),
        43: (BOTH, "writes the same element of x from different iterations"),
        52: (BOTH, "writes the same element of x from different iterations"),
        64: (BOTH, "writes the same element of x from different iterations"),
        77: (BOTH, "in a nowait chain"),
        80: (BOTH, "writes the same element of x from different iterations"),
    },
    # views set by setter functions one element in, through names that are not the
    # kernels': a parameter the caller binds to g + 1, a local g + 1, &a[0] of that local
    "member_setter_traps.c": {
        40: (BOTH, "a dependence carried by the loop on g: line 41 (v->data[i])"),
        47: (BOTH, "a dependence carried by the loop on a: line 48 (b->cells[i])"),
    },
    # a thread's own struct or union set member by member: a member set on some items
    # only (a weight, a mantissa), a union set through one member and read through
    # another, a whole copy with one member unset, a member set through a pointer to
    # the copy by a helper: what the iteration leaves unset carries over
    "private_member_traps.c": {
        31: (BOTH, "s is read at line 35 (s.weight) before every path"),
        45: (BOTH, "s is read at line 49 (s.value) before every path"),
        61: (BOTH, "u is read at line 64 (u.v) before every path"),
        75: (BOTH, "s is read at line 81 before every path"),
        98: (BOTH, "s is read at line 102 (s.weight) before every path"),
    },
    # the iteration's own storage read before it is set: sscanf's targets, a formatted
    # key hashed whole, a value set on some items, a scratch row, malloc's block and a
    # wrapper's, a struct member, a switch with no default, a helper's result left unset
    # on one path, a target sscanf's checked count does not cover (each holds what
    # the thread's previous iteration left in that stack slot or freed block)
    "own_storage_traps.c": {
        37: (BOTH, "declared at line 38 without a value, is read at line 40 before every path"),
        48: (BOTH, "key, declared at line 49 without a value, may be read at line 53"),
        62: (BOTH, "last, declared at line 63 without a value, is read at line 66"),
        74: (BOTH, "row, declared at line 75 without a value, may be read at line 80"),
        89: (BOTH, "tmp, made by malloc() at line 90 without a value, may be read at line 96"),
        106: (BOTH, "tmp, made by scratch_row() at line 107 without a value"),
        122: (BOTH, "c, declared at line 123 without a value, is read at line 127"),
        135: (BOTH, "code, declared at line 136 without a value, is read at line 145"),
        163: (BOTH, "y, declared at line 152 without a value, is read at line 157"),
        171: (BOTH, "weight, declared at line 172 without a value, is read at line 174"),
    },
    # the iteration's own strings read past what it wrote: a terminator overwritten, a
    # copy hashed as a whole buffer, a scan whose body writes the string it scans
    "own_strings_traps.c": {
        17: (BOTH, "key, declared at line 18 without a value, may be read at line 21"),
        25: (BOTH, "key, declared at line 26 without a value, may be read at line 30"),
        35: (BOTH, "tag, declared at line 36 without a value, may be read at line 39"),
    },
    # the address of a thread's own storage as text (%p), as bytes (memcpy of a
    # pointer), hashed by a helper
    "address_bytes_traps.c": {
        20: (BOTH, "uses the address of scratch, which each thread has its own"),
        30: (BOTH, "uses the address of cell, which each thread has its own"),
        38: (BOTH, "uses the address of row, which each thread has its own"),
    },
    # views whose pointer members point at shared grids, in a private struct, one
    # declared in the body, an array of row pointers: subscripts reach the grid
    "member_pointer_traps.c": {
        25: (BOTH, "a dependence carried by the loop on w.data: line 28 (w.data[i + 1])"),
        31: (BOTH, "a dependence carried by the loop on h: line 35 (v.data[i])"),
        38: (BOTH, "at places the proof cannot tell apart between iterations"),
    },
    # helpers that look like allocators: a fresh block, or a spare one stored through
    # the pointer's address by another helper; posix_memalign's block, or the spare one
    "cached_wrappers.c": {
        42: (BOTH, "at places the proof cannot tell apart between iterations"),
        58: (BOTH, "at places the proof cannot tell apart between iterations"),
    },
    # views set by initializer lists (designated, compound literal) one element in
    "struct_init_view.c": {  # the view's member starts one element into a: compared
        19: (BOTH, "a dependence carried by the loop on a: line 20 (v.data[i])"),
        26: (BOTH, "a dependence carried by the loop on a: line 27 (v->data[i])"),
    },
    # EP's cleared scratch read back by a helper: the master's leftovers reach the result
    "ep_scratch_read.c": {24: (BOTH, "x keeps the values of the last iteration")},
    # a cursor and a loop counter moved through their address by a helper
    "cursor_by_address.c": {
        24: (BOTH, "may write the same element of out from different iterations"),
        32: (BOTH, "may write the same element of tab from different iterations"),
    },
    # the ordered region publishes a value the unordered part of later iterations reads
    "ordered_leak.c": {14: (BOTH, "dependence carried by the loop on run")},
    # output in order from the ordered region, a progress line outside it
    "ordered_io_outside.c": {12: (BOTH, "calls printf() at line 15")},
    # written in order, naming the thread
    "ordered_thread.c": {9: (BOTH, "omp_get_thread_num()")},
    # an ordered region inside an inner loop (non-conforming): orders nothing
    "ordered_inner.c": {9: (BOTH, "an 'ordered' construct at line 11")},
    # a linear cursor of step 1 while each iteration writes two slots
    "linear_overlap.c": {11: (BOTH, "dependence carried by the loop on buf")},
    # a linear offset the body never advances: gcc's values follow the chunks
    "linear_unmoved.c": {12: (BOTH, "linear(off: 8)")},
    # a search cancelled once a match is found: which iterations run follows the schedule
    "cancel_search.c": {18: (BOTH, "'#pragma omp cancel for' at line 25")},
    # a team that gives up together: 'cancel parallel' in the region ends every loop early
    # (the first loop's per-thread flag, read after it, is found first)
    "cancel_region.c": {
        18: (BOTH, "bad, set at line 21, keeps the value of the last iteration"),
        29: (BOTH, "'#pragma omp cancel parallel' at line 26"),
    },
    # a "swap" leaving both pointers on one array: in place from the second step on; the
    # failure is bounded by the step loop's own bound, and no test of t is a guard
    "swap_same_array.c": {18: (BOTH, "dependence carried by the loop on u")},
    # grid pointers each thread holds, exchanged on the master alone, or on thread 0 alone
    # (firstprivate copies): thread 0 writes the grid the others read
    "swap_per_thread_traps.c": {
        38: (BOTH, "dependence carried by the loop on src"),
        52: (BOTH, "dependence carried by the loop on old"),
    },
    # values each thread sets by testing its number (a weight, a helper's constant, an
    # offset counted up to it): no thread number flows into them
    "thread_branch_traps.c": {
        35: (BOTH, "reads w at line 36"),
        45: (BOTH, "reads width at line 46"),
        56: (BOTH, "reads shift at line 57"),
        67: (BOTH, "reads opts at line 68"),  # a member set: the struct is the thread's
    },
    # values one thread sets alone in its own copy: a master's weight, a masked thread's
    # factor, an orphaned worker's master changing its local step
    "one_thread_copy_traps.c": {
        24: (BOTH, "reads step at line 25"),
        41: (BOTH, "reads w at line 42"),
        54: (BOTH, "reads factor at line 55"),
        69: (BOTH, "reads src at line 70"),  # the master's copy points at another array
        80: (BOTH, "reads in at line 81"),  # the same pointer held in a struct
    },
    # what each thread's iterations left in its copy, read by a later loop: a count of the
    # cells each updated, the last row each touched
    "thread_leftover_traps.c": {
        20: (BOTH, "mine accumulates"),
        25: (BOTH, "reads mine at line 26, which holds what each thread's own iterations"),
        35: (BOTH, "last, set at line 36"),
        38: (BOTH, "reads last at line 39, which holds what each thread's own iterations"),
    },
    # nowait across calls: a flux function ending with 'omp for nowait' and no barrier, then
    # loops of the region and of another function reading its rows
    "nowait_across_calls.c": {
        18: (BOTH, "no barrier after it before its function"),
        25: (BOTH, "update() runs before any barrier"),
        42: (BOTH, "runs after compute_flux()"),
        49: (BOTH, "followed, before any barrier, by update() (called at line 51)"),
        57: (BOTH, "runs after flux_step()"),  # a wrapper calling the flux function last
    },
    # the same through a table of phase functions called by pointer
    "nowait_pointer_call.c": {
        14: (BOTH, "reachable by the call through a pointer at line 36"),
        21: (BOTH, "reachable by the call through a pointer at line 36"),
        34: (BOTH, "followed, before any barrier, by compute_flux()"),
    },
    # flattened indices: k % 8 in rows of 4, k / 2 shared by two iterations, and C's
    # division truncating toward zero (-1 / 2 == 1 / 2)
    "flat_index_traps.c": {
        16: (BOTH, "leaves its row"),
        21: (BOTH, "same element of b"),
        27: (BOTH, "same element of a"),
    },
    # tiles that are not disjoint: BS + 1 elements, a MAX lower bound reaching back, and a
    # "min" whose branches make it a max
    "tiled_traps.c": {
        13: (BOTH, "same element of a"),
        18: (BOTH, "same element of b"),
        23: (BOTH, "same element of a"),
    },
    # shifts and masks: a colour-picked start but every point swept, i >> 1, i & 3
    "bits_traps.c": {
        16: (BOTH, "dependence carried by the loop on u"),
        22: (BOTH, "same element of a"),
        27: (BOTH, "same element of a"),
    },
    # copies reaching other iterations' elements: two rows, a + i of a 2-D array (rows),
    # a flat copy one element too long, a char view
    "copy_traps.c": {
        12: (BOTH, "writes a"),
        16: (BOTH, "writes a"),
        20: (BOTH, "same element of c"),
        24: (BOTH, "writes c"),
    },
    # a scratch histogram cleared only in its first half: the rest carries over
    "scratch_memset_trap.c": {13: (BOTH, "hist, which each thread keeps across iterations")},
    # an offset in a subscript read from memory the loop writes through another name
    "size_alias.c": {12: (BOTH, "reads the size off[1] from memory the loop may write")},
    # a caller's "double buffer" whose two pointers start on one grid: in place
    "pingpong_same.c": {8: (BOTH, "dependence carried by the loop on t")},
    # hashed slots that collide only because unsigned arithmetic wraps: a 32-bit
    # multiplicative hash, a 64-bit Fibonacci hash, a negative offset made unsigned
    "hash_traps.c": {
        12: (BOTH, "same element of owner"),
        17: (BOTH, "same element of seen"),
        22: (BOTH, "same element of back"),
    },
    # checks ending the program at the first bad cell, reporting which: the cell, the
    # value read in a called check, an exit status made of the cell
    "exit_message_traps.c": {
        25: (BOTH, "calls printf() at line 27"),
        33: (BOTH, "calls fprintf() at line 12"),
        38: (BOTH, "status that differs between iterations"),
    },
    # a thread's own scalar set in the loop and read after it: a threadprivate last
    # cell read by a later region, a region's private edge, an orphaned sweep's local
    "leftover_traps.c": {
        16: (BOTH, "last, set at line 18, keeps the value of the last iteration"),
        29: (BOTH, "last_cell, set at line 31, keeps the value"),
        39: (BOTH, "edge, set at line 41, keeps the value"),
    },
    # per-thread arrays read after the loop: an orphaned sweep's buffer, a work array
    # read at the top of a time step (before the loop in the text, after it at run time)
    "leftover_array_traps.c": {
        13: (BOTH, "buf keeps the values of the last iteration each thread ran"),
        30: (BOTH, "w keeps the values of the last iteration each thread ran"),
    },
    # iterations that meet inside library calls: memcmp of the row an earlier iteration
    # cleared, modf's and a helper's pointer carrying a firstprivate value, gcc's
    # __builtin_memcpy of overlapping windows, lgamma setting the signgam read after it,
    # a helper's static buffer returned as memcpy's source
    "library_traps.c": {
        51: (BOTH, "dependence carried by the loop on a: line 52 (memcmp())"),
        58: (BOTH, "private variable ip is read at line 59 before"),
        64: (BOTH, "private variable acc is read at line 65 before"),
        70: (BOTH, "same element of dst from different iterations (line 73: memcpy())"),
        77: (BOTH, "sets the global signgam the program reads"),
        83: (BOTH, "same element of buf from different iterations"),
    },
    # errno read after a loop of logs (the master's errno), slots from __sync_fetch_and_add
    "errno_traps.c": {
        23: (BOTH, "which may set errno, and the program reads errno at"),
        29: (BOTH, "errno_traps.c:31, an atomic builtin"),
    },
    # array reductions whose bodies read the partial copy, update it by another operator,
    # or also write the shared array
    "array_reduction_traps.c": {
        22: (BOTH, "reduction array capped is read at line 23"),
        26: (BOTH, "reduction array scaled is set at line 28"),
        30: (BOTH, "may write the same element of shared_tally"),
    },
    # values main alone stores in its own copy (__thread, _Thread_local, threadprivate),
    # read in the loop directly and through a helper
    "thread_local_traps.c": {
        23: (BOTH, "reads scale at line 24, each thread's own copy"),
        26: (BOTH, "shift, which each thread keeps across iterations"),
    },
    # a comparison counting into a shared total; segments sorted one element too long
    "sort_traps.c": {
        30: (BOTH, "same element of compares from different iterations"),
        38: (BOTH, "same element of v from different iterations (line 39: qsort())"),
    },
    # numbers round-tripped through one shared text buffer (sprintf, then sscanf)
    "format_traps.c": {14: (BOTH, "writes line (line 15: sprintf()")},
    # a damped peak under a lock: the value stored is not the one compared
    "critical_damped.c": {16: (BOTH, "makes a decision at line 19")},
    # perror after a loop of roots prints the master's errno
    "errno_perror.c": {16: (BOTH, "which may set errno, and the program reads errno at")},
    # a descriptor tested with '!fd': descriptor 0 is no failure, errno not open's
    "errno_open.c": {21: (BOTH, "which may set errno, and the program reads errno at")},
    # floating-point exception flags tested after the loop (each thread raises its own)
    "fpe_flags.c": {19: (BOTH, "tests the floating-point exception flags (fetestexcept()")},
    # subscripts that wrap: (unsigned char)(i * 37), a uint16_t ring-buffer slot
    "narrow_index.c": {
        14: (BOTH, "writes bucket"),
        18: (BOTH, "same element of ring"),
    },
    # function pointers that may hold a function with per-thread state: a filter's
    # running average, a table's stage that is that filter, a comparison counting calls
    "callbacks_traps.c": {
        47: (BOTH, "which each thread keeps across iterations"),
        54: (BOTH, "which each thread keeps across iterations"),
        62: (BOTH, "compared accumulates over the iterations"),
    },
    # extremes under a test the schedule shows through: a test reading the extreme, one
    # after the comparison counting how often it runs, a kept pair with no tie-break
    "guarded_extremes_traps.c": {
        17: (BOTH, "top is read at line 18 before every path"),
        23: (BOTH, "low is read at line 24 before every path"),
        33: (BOTH, "mine is read at line 34 before every path"),
    },
    # tiles reaching into the next: one past the tile's end, either of two bounds (||)
    "tiled_bounds_traps.c": {
        15: (BOTH, "writes the same element of v from different iterations"),
        23: (BOTH, "may write the same element of w from different iterations"),
    },
    # slots picked by the thread number where it is read: the last value a thread saw,
    # a slot read alone, per-thread seeds, a slot by parity, fewer slots summed
    "thread_slots_direct_traps.c": {
        line: (BOTH, "calls omp_get_thread_num()") for line in (27, 30, 34, 37, 40)
    },
    # members of struct elements the iterations share: a force from the neighbours'
    # forces, the previous particle's position updated, two members of a union, one
    # particle's random stream drawn by all, a stream two particles share
    "struct_members_traps.c": {
        40: (BOTH, "a dependence carried by the loop on p"),
        44: (BOTH, "line 46 (p[i - 1].x[c])"),
        48: (BOTH, "a dependence carried by the loop on st"),
        52: (BOTH, "writes the same element of p from different iterations (line 25: *state)"),
        55: (BOTH, "writes the same element of p from different iterations (line 25: *state)"),
    },
    # a function found by name at run time (dlsym): the pointer may hold any function
    "callbacks_dlsym.c": {17: (BOTH, "a call through a function pointer")},
    # ... or one a linked library's function returns
    "callbacks_extern.c": {14: (BOTH, "a call through a function pointer")},
    # a map compiled alone: its callers, and what they pass, are in other files
    "callbacks_alone.c": {10: (BOTH, "a call through a function pointer")},
    # members that share bytes or are reached whole: adjacent bit-fields, an anonymous
    # union in the record, a union, a whole record read beside a member written, a
    # record read through a cast to another record type
    "particle_members_traps.c": {
        50: (BOTH, "a dependence carried by the loop on f"),
        55: (BOTH, "a dependence carried by the loop on v"),
        58: (BOTH, "a dependence carried by the loop on u"),
        61: (BOTH, "line 62 (pr[i + 1]) and line 63 (pr[i])"),
        66: (BOTH, "a dependence carried by the loop on pr"),
    },
    # every iteration stores at the one place a search finds in one shared line
    # (strchr, strstr, memchr), or in the one table entry bsearch finds for many keys
    "string_search_traps.c": {
        25: (BOTH, "writes line (line 26: strchr(); line 27: *colon)"),
        31: (BOTH, "writes line (line 32: strstr(); line 33: at[1])"),
        37: (BOTH, "writes table (line 38: bsearch(); line 39: *hit)"),
        43: (BOTH, "writes line (line 44: memchr(); line 45: *semi)"),
    },
    # members swapped like grids that do not stay apart: one also set to the other's
    # grid, two started one element apart in one block (behind a failing address test)
    "member_grids_swap_traps.c": {
        23: (BOTH, "through c->dst and c->src does not overlap"),
        30: (BOTH, "through h->hi and h->lo does not overlap"),
    },
    # a flexible array member's elements from their neighbours, and the header's count
    # stored to by every iteration
    "flexible_members_traps.c": {
        20: (BOTH, "line 21 (f->v[i + 1]) and line 21 (f->v[i])"),
        23: (BOTH, "writes the same element of f from different iterations (line 25: f->n)"),
    },
    # a thread's block kept by a helper in a global the loop reads, one moved by realloc
    "thread_block_escape_traps.c": {
        17: (BOTH, "line 10 (p[k]) and line 9 (p[0])"),
        28: (BOTH, "private variable w is read at line 29"),
    },
    # records read through a pointer that starts inside the first record (by bytes, by
    # doubles): a member of one element through it is another member of the next
    # pointers made from numbers (an address rounded up to a line, a saved address, an
    # address or'ed with 0) that may be the array the loop writes: each pointer's
    # objects are those its number was computed from (proof/intaddr.py)
    # an iteration (or a helper it calls) that stores another pointer where the others
    # read theirs: a variable, a member, through a struct pointer, a whole struct copied
    "moved_pointer_traps.c": {
        47: (BOTH, "dependence carried by the loop on current: line 48 (current)"),
        53: (BOTH, "dependence carried by the loop on current: line 54 (current)"),
        58: (BOTH, "dependence carried by the loop on level: line 59 (level)"),
        64: (BOTH, "writes active (line 65: active->cells; line 31: active->cells)"),
        69: (BOTH, "dependence carried by the loop on level: line 70 (level)"),
    },
    # spans whose pointer member is moved through the span's address, by a union, a
    # whole-span copy (assignment or memcpy), on one branch, or stepped; a callee's copy
    # moved back to the array's start
    "local_spans_traps.c": {
        40: (BOTH, "writes s.data (line 43: s.data[0]; line 43: s.data[0])"),
        46: (BOTH, "writes u.p (line 50: u.p[0]; line 50: u.p[0])"),
        53: (BOTH, "writes s.data (line 56: s.data[0]; line 56: s.data[0])"),
        59: (BOTH, "writes s.data (line 63: s.data[0]; line 63: s.data[0])"),
        66: (BOTH, "writes s.data (line 69: s.data[0]; line 69: s.data[0])"),
        72: (BOTH, "writes s.data (line 75: s.data[0]; line 75: s.data[0])"),
        78: (BOTH, "writes s.data (line 29: s.data[0]; line 29: s.data[0])"),
    },
    "intaddr_traps.c": {
        19: (BOTH, "through level and src does not overlap"),
        43: (BOTH, "through grid and in does not overlap"),
        47: (BOTH, "through field and from does not overlap"),
    },
    "member_views_traps.c": {
        32: (BOTH, "through byte_view and p does not overlap"),
        37: (BOTH, "through double_view and p does not overlap"),
        41: (BOTH, "line 43 (half[i].b[c]) and line 43 (r[i].a[c])"),
    },
    # rows summed by a loop over all of them that still sees them one by one: a total
    # reset in each pass, a running total kept per row, positive rows only, a break
    "thread_slot_sum_traps.c": {
        26: (BOTH, "reads a at line 27, which holds a value that depends on the thread"),
        29: (BOTH, "reads b at line 30, which holds a value that depends on the thread"),
        32: (BOTH, "reads c at line 33, which holds a value that depends on the thread"),
        35: (BOTH, "reads d at line 36, which holds a value that depends on the thread"),
    },
    # rows added each at a place of its own (sum[j++] += row t; a place set in the pass)
    "thread_slot_place_traps.c": {
        19: (BOTH, "reads part at line 19, which holds a value that depends on the thread"),
        21: (BOTH, "reads part2 at line 21, which holds a value that depends on the thread"),
    },
    # a fixed message and exit under a test of the thread's number: only some teams end
    "error_exit_traps.c": {
        17: (BOTH, "line 13 is code a thread runs on its own"),
        34: (BOTH, "line 23 is code a thread runs on its own"),
    },
    # pointers an iteration moves: counted in bytes through a char or an integer view, a
    # cursor sent back to the start by a helper through its address, through a pointer
    # to it, by memcpy, or on one branch, a pointer redirected through an alias before
    # the loop, a 2-D array's bytes walked flat (each a race as written)
    "pointer_moves_traps.c": {
        21: (BOTH, "a dependence carried by the loop on a: line 23 (rec[1])"),
        30: (BOTH, "writes b (line 32: rec[1]; line 32: rec[0]) at places the proof cannot"),
        39: (BOTH, "writes cur (line 43: cur[0]; line 43: cur[0]) at places the proof cannot"),
        50: (BOTH, "writes cur (line 54: cur[0]; line 54: cur[0]) at places the proof cannot"),
        61: (BOTH, "writes cur (line 64: cur[0]; line 64: cur[0]) at places the proof cannot"),
        74: (BOTH, "writes out (line 75: out[i]) and reads g (line 75: g[i + 1])"),
        81: (BOTH, "writes cur (line 85: cur[0]; line 85: cur[0]) at places the proof cannot"),
        94: (BOTH, "writes grid (line 96: q[1]; line 96: q[0]) at places the proof cannot"),
    },
    # boxes whose vectors are not each box's own: a neighbour's vector handed over, a
    # box copied whole, boxes copied by memcpy, vectors from one pool with too short a
    # stride, a helper's static buffer, boxes picked through a table with repeats or by
    # halving the index, holders through two pointers one box apart, one level as the
    # fine and the coarse one, a box reading its neighbour's vector, two cells set to
    # one block through a union's other member (named, or anonymous in the box)
    "box_vectors_traps.c": {
        65: (BOTH, "writes memory (line 67: shared_boxes[b].u1[e]; line 67: shared_boxes"),
        73: (BOTH, "writes the same element of memory from different iterations (line 75"),
        81: (BOTH, "writes the same element of memory from different iterations (line 83"),
        89: (BOTH, "writes memory (line 91: pool_boxes[b].u4[e]; line 91: pool_boxes"),
        97: (BOTH, "writes memory (line 99: helper_boxes[b].u5[e]; line 99: helper_boxes"),
        105: (BOTH, "may write the same element of perm_boxes from different iterations"),
        115: (BOTH, "writes the same element of perm_boxes from different iterations"),
        130: (BOTH, "line 132 (hi[b].u8[e]) and line 132 (lo[b].u8[e]) touch the same"),
        139: (BOTH, "line 141 (coarse->boxes[b + 1].u8[e]) and line 141 (fine->boxes[b]"),
        147: (BOTH, "line 149 (neighbour_boxes[b + 1].u6[e]) and line 149"),
        156: (BOTH, "writes the same element of memory from different iterations (line 158"),
        165: (BOTH, "writes the same element of memory from different iterations (line 167"),
    },
    # cursors a loop moves once a trip that reach the next face's stretch: moved on
    # some trips only, past a continue, two places a trip, one trip too many (counting
    # up and down), moved in the step and in the body
    "pointer_steps_traps.c": {
        18: (BOTH, "writes buf (line 21: *buf; line 21: *buf) at places the proof cannot"),
        31: (BOTH, "writes u (line 35: u[k]; line 38: *(buf++)) at places the proof"),
        46: (BOTH, "writes the same element of b3 from different iterations (line 49"),
        58: (BOTH, "writes the same element of b4 from different iterations (line 61"),
        68: (BOTH, "writes the same element of b5 from different iterations (line 71"),
        78: (BOTH, "writes u (line 81: u[k]; line 81: *(buf++)) at places the proof"),
    },
    # per-thread rows added into a total that keeps them apart (sum[t] += row t)
    "thread_slot_totals_traps.c": {57: (BOTH, "reads partial_len at line 62")},
    # per-thread blocks that are not the thread's own: one block handed to the team by
    # copyprivate, a helper's static workspace, blocks every thread publishes, a block
    # read before the iteration writes it, a block's address kept in the output
    "thread_blocks_traps.c": {
        43: (BOTH, "writes the same element of w from different iterations"),
        53: (BOTH, "writes the same element of w from different iterations"),
        65: (BOTH, "reads bufs (line 67: bufs[0][3])"),
        75: (BOTH, "w, which each thread keeps across iterations, may be read at line 76"),
        86: (BOTH, "private variable w is read at line 88"),
    },
}
# file -> {loop line: dimensions kept (the rest may vary)}
PATTERNS = {
    # spans the iteration declares (an initializer list, designators, member stores):
    # their pointer member points at the iteration's own frame (proof/localmembers.py)
    "local_spans.c": {44: set(), 50: set(), 60: set(), 68: set()},
    # arrays carved out of one block rounded up to a cache line through integers
    # (blackscholes): the pricing loop writes another block (proven), the two loops that
    # write one array of the block and read another vary behind a test of their ranges
    "aligned_blocks.c": {34: set(), 43: set(), 70: set()},
    # a workspace each thread of the region allocates for itself before the loop (with
    # an out-of-memory exit), one named private, one passed to a helper, zeroed
    # per-thread bins merged under critical, an orphaned loop's function's workspace
    # (its thread count is the caller's region's)
    "thread_workspace.c": {37: set(), 54: set(), 67: set(), 82: {"threads"}},
    # one member of each particle written, another member of every particle read:
    # direct-sum forces from positions (a nested struct), a potential through a pointer
    # to the particle, a position moved beside the neighbours' velocities
    "particle_members.c": {27: set(), 51: set(), 67: set()},
    # pointers an iteration moves on its own: a record cursor stepped past its header, a
    # row pointer moved by the stride, records addressed in bytes through a char
    # pointer, a cursor moved back over a guard cell
    "pointer_walks.c": {22: set(), 36: set(), 52: set(), 64: set()},
    # a level of boxes, each with its own vectors (a multigrid's): a scaled copy, an
    # axpy through a pointer to the box, a dot product, a smoother over ghost cells
    "box_vectors.c": {48: set(), 65: set(), 78: set(), 92: set()},
    # cursors moved once a trip: a face packed (*buf++ = 2 * *src++), unpacked with the
    # cursors in the loop's step, a record read into a temporary, a header read *cur++
    "pointer_steps.c": {16: set(), 28: set(), 40: set(), 54: set()},
    # records parsed in parallel: strchr into the record's own row, a copy of it cut by
    # a stored terminator and read again
    "string_search.c": {20: set(), 26: set()},
    # k-means' per-thread rows of partial centres summed into a local array's elements
    "thread_slot_totals.c": {58: {"threads"}},
    # a struct's two grid members swapped after each sweep (by the driver; under single
    # in a region): for one struct they are distinct grids at every moment
    "member_grids_swap.c": {32: set(), 52: set()},
    # calls through pointers that may hold only pure functions of the iteration's
    # elements: a map given sqrt or a helper, a model's right-hand side from a table of
    # operations, a comparison chosen by ?: for qsort
    "callbacks.c": {40: set(), 47: set(), 50: set(), 57: set()},
    # extremes over the entries a test passes, the test reading no extreme: the first
    # index past a threshold, a masked maximum, a feasible minimum, the nearest valid
    # candidate with its index merged under critical
    "guarded_extremes.c": {27: set(), 32: set(), 37: set(), 47: set()},
    # tiles ended by the nearer of two bounds joined by && (either order, < or <=)
    "tiled_bounds.c": {14: set(), 27: set()},
    # per-thread slots indexed by omp_get_thread_num() itself (a combined parallel for,
    # a histogram row per thread) or by a region's thread number, one slot deep
    "thread_slots_direct.c": {24: {"threads"}, 41: {"threads"}, 68: {"threads"}},
    # a field passed as a struct holding a pointer to one of two swapped buffers: the
    # loop writes the buffer, never the struct (its objects told apart by points-to)
    "field_struct.c": {29: set()},
    # particles as an array of structs with array members: a force from the neighbours'
    # positions, an advance through a pointer to the particle, a random walk on each
    # particle's own stream (&q->seed handed to the generator)
    "struct_members.c": {27: set(), 50: set(), 69: set()},
    # a thread's integer share added under critical: from 0 the same total for any team;
    # from 1 each thread adds one more, so the team is kept (the schedule is not); the
    # same for double partials (regrouped by another team, said as a reassociation)
    "partial_sums_team.c": {20: set(), 29: {"threads"}, 39: set(), 48: {"threads"}},
    # errno cleared, set by a parse and tested within one iteration: that iteration's
    "errno_iteration.c": {17: set()},
    # a firstprivate table only read: every thread's copy holds the original's values
    "firstprivate_table.c": {12: set()},
    # a pointer into the thread's scratch used only to reach it; a cast of the loop index
    "private_scratch_pointer.c": {15: set()},
    # NAS MG's V-cycle: level k and level j = k - 1 of a hierarchy whose every level and
    # row is a new allocation, passed to one call: never the same, sharing no row
    "mg_levels.c": {28: set(), 40: set(), 51: set()},
    # a solver in a file without main: its static kernel has no caller in another file
    "static_solver.c": {9: set()},
    # Rodinia b+tree: each query its own offsets, reading nodes of an anonymous struct
    "bplus_query.c": {26: set()},
    # NAS IS's ranking: each thread's own key counts, made cumulative, summed under a
    # critical: an orphaned loop, so the schedule may vary, not the thread count
    "is_rank.c": {29: {"threads"}},
    # hand-vectorised loops stepping by their lanes: each iteration its own elements
    "simd_lanes.c": {31: set(), 38: set(), 46: set(), 50: set(), 55: set()},
    "mg_private_inner.c": {12: set()},
    "firstprivate_read.c": {29: set()},
    "ep_threadprivate.c": {27: {"threads"}},
    "ft_exit_path.c": {25: set()},
    "bt_orphaned.c": {12: {"threads"}, 17: {"threads"}, 21: {"threads"}},
    "srad_rows.c": {21: set()},
    "collapse_triangle.c": {10: {"schedule"}},
    # a[i*size + j] inside the step loop over i: its header bounds i (0 <= i < size)
    "lud_rows.c": {17: set(), 24: set()},
    # PolyBench's allocation (posix_memalign into a local, *C to the kernel) and by-value
    # beta and sizes, which no pointer of the kernel can reach
    "heap_syr2k.c": {27: set()},
    # rand_r with a seed of the sample's own: its whole state is that seed
    "mc_rand_r.c": {11: set()},
    # (size_t)i * M + j and a long loop variable narrowed to int: no wrap at these sizes
    "wide_casts.c": {14: set()},
    # FFT passes over each thread's scratch, sizes fixed when compiled (const locals): the
    # pass loop has constant bounds and is walked pass by pass without a profile run
    "stockham_const.c": {73: set()},
    # reduction(max) of an expression (fabs of a residual, a cast bucket), as solvers
    # report their largest residual
    "max_residual.c": {19: set()},
    # EP's set-up: threadprivate scratch cleared in parallel, handed to a generator that
    # only stores through it, copied in and rewritten before every read
    "ep_cleared_scratch.c": {20: set(), 33: {"threads"}},
    # reduction(&&) and reduction(||) spelled out as ok = ok && cond
    "logical_reductions.c": {16: set(), 19: set()},
    # a view of another array, set by a designated initializer
    "struct_init_disjoint.c": {17: set()},
    # lastprivate(conditional:) keeps the sequentially last value: plain lastprivate
    # set on some iterations only is a trap (cond_lastprivate.c)
    "lastprivate_conditional.c": {16: set()},
    # rows reported in order with a running norm from the ordered region
    "ordered_output.c": {17: set()},
    # pairs packed through a cursor the runtime keeps linear, advanced by its step
    "linear_pack.c": {16: set()},
    # the team size recorded from a master block and through a helper in a single block
    "team_report.c": {22: {"threads"}, 32: {"threads"}},
    # sections handing a value over through a flag: one thread would wait for ever
    "sections_handoff.c": {39: {"threads"}},
    # the same through a plain volatile flag (no flush, no atomic)
    "sections_volatile_flag.c": {34: {"threads"}},
    # a master spinning on a flag a later single sets
    "master_waits_single.c": {30: {"threads"}},
    # one flattened loop over a grid: row and column by k / NY and k % NY
    "flat_index.c": {17: set()},
    # grids swapped by the caller (T *r = result, *t = temp; ... tmp = t; t = r; r = tmp),
    # the sweep reading a boundary value of its input into a local
    "pingpong_calls.c": {10: set()},
    # the same swap with its temporary declared before the loop as NULL
    "pingpong_tmp_null.c": {8: set()},
    # a single's copyprivate, a master's shared store, thread 0's shared store under a
    # test of its number: one value for every thread (the last region asks the thread)
    "broadcast_patterns.c": {29: set(), 40: set(), 52: {"threads"}},
    # cache-blocked loops whose tiles MIN clips at the edge (and MAX at the start)
    "tiled_transpose.c": {18: set(), 25: set()},
    # red-black SOR: each colour's points start at 1 + ((i + colour) & 1), step 2
    "redblack_sor.c": {15: set()},
    # memcpy of a declared array's rows; memset and memcpy at &c[i * m] of a heap array
    "row_copies.c": {26: set(), 32: set()},
    # a private scratch histogram cleared by memset(hist, 0, sizeof hist) at every row
    "scratch_memset.c": {12: set()},
    # unsigned counters: a flattened 5-point update (i - 1 of an unsigned i), and a
    # stride permutation (i * 77u) % N whose product stays below 2^32
    "unsigned_counters.c": {14: set(), 19: set()},
    # region locals every loop sets before reading (BT's xi = 1.0 between two loops)
    "leftover_patterns.c": {15: {"threads"}, 24: {"threads"}, 29: {"threads"}},
    # frexp and modf storing into a private or the iteration's own element; strtol, strlen
    # and memcmp reading the iteration's own row; strcpy and strcat building a label in it;
    # __builtin_popcount and __builtin_expect beside a __builtin_trap on bad input
    "library_patterns.c": {31: set(), 39: set(), 49: set(), 56: set()},
    # reduction(+: hist[:B]), a 2-D section, a pointer section in a helper (OpenMP 4.5)
    "array_reductions.c": {17: set(), 32: set(), 35: set()},
    # errno cleared before strtol and checked after it, as argument parsing does: no
    # loop's failing call can reach that check
    "errno_patterns.c": {31: set()},
    # perror right after fopen failed (a declaration, an assignment; !v and v == NULL):
    # fopen set what it prints
    "errno_fopen.c": {26: set()},
    # a threadprivate copied in by the loop's region, a __thread value never stored to
    "thread_local_patterns.c": {18: set()},
    # sscanf of the iteration's record into its elements, snprintf of its label
    "format_patterns.c": {14: set()},
    # qsort of a median filter's window and of the iteration's row, bsearch in a table
    "sort_patterns.c": {38: set(), 49: set(), 52: set()},
    # a maximum and minimum kept under a lock: an if-test, fmax, a MIN macro
    "critical_extremes.c": {18: set(), 27: set(), 32: set()},
    # counts made with atomic builtins whose result is unused (__sync_fetch_and_add,
    # C11's atomic_fetch_add_explicit, a (void) cast, under an unbraced if)
    "atomic_counters.c": {26: set(), 30: set(), 35: set()},
    # C99 complex arithmetic: I, cexp, cabs, carg, creal, cimag, conj
    "complex_dft.c": {17: set(), 23: set()},
    # C11 _Atomic bins and counters updated with += and ++, also through a pointer
    "c11_atomic_counts.c": {21: set(), 26: set()},
    # '#pragma omp atomic update', with relaxed or seq_cst before or after the clause
    "atomic_update_clauses.c": {23: set(), 30: set()},
    # shifted subscripts under boundary tests: if (j > 0), ?: at the last column, i != 0,
    # && and || before a neighbour is read, the end cells skipped by continue
    "boundary_guards.c": {28: set(), 38: set(), 43: set(), 49: set(), 56: set()},
    # a record built in a local struct (strcpy into its name member, a name from a
    # table of literals) and memcpy'd into its slot; a slot's own name renamed
    "record_strings.c": {23: set(), 31: set()},
    # per-thread candidates merged under critical: an argmax with the lowest row winning
    # ties, an argmin with the highest index winning, a max merged by fmax and an
    # integer max by an if-test (two merges in one critical)
    "selections.c": {28: set(), 47: set(), 64: set()},
    # scatters through const tables of distinct entries: a channel permutation of each
    # pixel, bands into the slots a bit-reversal table names
    "const_tables.c": {24: set(), 28: set()},
    # members an init routine sets to the start of main's allocations, and to a
    # helper's own malloc'd locals: the points-to tells them and the struct apart
    "member_setters.c": {42: set(), 49: set()},
    # offsets stepped beside the column counter, declared in the header and before it
    "two_counters.c": {16: set(), 21: set()},
    # a thread's own struct set whole before it is read: member by member, by one
    # assignment, through frexp's out-parameter (a member no iteration sets keeps the
    # firstprivate copy's value); a union read through the member last stored
    "private_members.c": {28: set(), 41: set(), 55: set(), 67: set()},
    # scratch from allocation wrappers: a checked malloc that exits on failure,
    # posix_memalign behind a helper and called directly: a new block per iteration
    "alloc_wrappers.c": {35: set(), 53: set(), 70: set()},
    # arrays allocated through out-parameters (``*out = malloc``, posix_memalign through
    # a wrapper's parameter, a pointer to pointer handed on): each its own block
    "out_params.c": {45: set(), 48: set()},
    # rows of per-thread partials summed over every row after the region (k-means, a
    # per-thread histogram): the schedule varies, the team (the rows' count) does not
    "thread_slots.c": {53: {"threads"}, 95: {"threads"}},
    # the iteration's own storage set before it is read: a counter by its header, a
    # switch with a default, a struct through its address, by memset, member by member,
    # calloc's zeros, a block filled by memcpy, a row filled by a loop; a helper's table
    # of constants read by a search, on the items that pass a test (XSBench's pick_mat);
    # a record parsed with sscanf's count checked
    "own_storage.c": {39: set(), 62: set(), 75: set(), 87: set(), 131: set(), 142: set()},
    # strings the iteration formats or copies into its own buffers, read up to their
    # terminator (strlen, atof, strcmp, strcat, a scan to '\0'), a strdup copy
    "own_strings.c": {20: set(), 30: set(), 37: set(), 45: set(), 55: set()},
    # the offset of a pointer into the iteration's own window: a number, not an address
    "pointer_offsets.c": {16: set()},
    # the same views, each iteration at its own element of the grid
    "member_pointers.c": {21: set(), 27: set()},
}


def analyze(path: Path, capsys, *extra: str) -> dict[int, dict]:
    assert main(["analyze", str(path), "--json", *extra]) == 0
    return {lp["line"]: lp for lp in json.loads(capsys.readouterr().out)["loops"]}


def variants(path: Path, out: Path, capsys, *extra: str) -> dict[int, list[dict]]:
    """Loop line -> the variants ``autotune variants`` wrote for it (baseline left out)."""
    assert main(["variants", str(path), "-o", str(out), *extra]) == 0
    capsys.readouterr()
    manifest = json.loads((out / "manifest.json").read_text())
    return {
        lp["line"]: [v for v in lp.get("variants", []) if v["key"] != "baseline"]
        for lp in manifest["loops"]
    }


def overlap_warning(lp: dict) -> str:
    """The loop varies behind a run-time test that the memory it reaches through two
    pointers does not overlap (``analysis/overlap.py``): that warning, else ''."""
    if "__INTPTR_TYPE__" not in lp["guard"]:
        return ""
    return next(w for w in lp["warnings"] if "does not overlap" in w)


# traps whose pointers the proof cannot tell apart: they vary behind a test of their
# address ranges, which the trap fails when it runs (one buffer handed out twice)
BEHIND_OVERLAP_TEST = {
    "allocator_traps.c": {45, 52, 59},
    "pingpong_same.c": {8},
    "swap_same_array.c": {18},  # apart at the first step, one array from the second on
    "member_setter_traps.c": {40, 47},
    "member_grids_swap_traps.c": {23, 30},
    "member_views_traps.c": {32, 37},
    "intaddr_traps.c": {19, 43, 47},
}


@pytest.mark.parametrize("name", sorted(TRAPS))
def test_traps_are_kept_with_the_reason_and_get_no_variant(name, tmp_path, capsys):
    """Each trap is kept with its reason, or (its pointers not told apart) varies only
    behind a test of their address ranges, with the reason it would be kept said."""
    loops = analyze(DATA / name, capsys)
    assert sorted(loops) == sorted(TRAPS[name])
    tested = BEHIND_OVERLAP_TEST.get(name, set())
    for line, (kept, words) in TRAPS[name].items():
        lp = loops[line]
        if line in tested:
            assert lp["kept"] == {} and words in overlap_warning(lp), (name, line, lp)
            continue
        assert set(lp["kept"]) == kept, (name, line, lp["kept"])
        assert not lp["tunable"]
        assert words in " ".join(lp["kept"].values()), (name, line, lp["kept"])
    written = variants(DATA / name, tmp_path / "v", capsys)
    assert all(written.get(line, []) == [] for line in TRAPS[name] if line not in tested)
    for line in tested:
        assert written[line], (name, line)
        for v in written[line]:
            assert "__INTPTR_TYPE__" in (tmp_path / "v" / v["file"]).read_text()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BEHIND_OVERLAP_TEST))
def test_traps_behind_an_overlap_test_print_the_original_output(name, tmp_path, capsys):
    """Their variants on 3 threads, built and run where the program's own team is one
    thread (the trap as written races between threads, so only one thread gives it one
    output), print what the original prints: the test fails on the one buffer the trap
    passes twice, and the loop runs as written, on one thread."""
    written = variants(DATA / name, tmp_path / "v", capsys, "--threads", "3")
    env = {**os.environ, "OMP_NUM_THREADS": "1"}

    def output(src: Path) -> str:
        exe = tmp_path / src.stem
        subprocess.run(["gcc", "-O2", "-fopenmp", str(src), "-o", str(exe), "-lm"], check=True)
        return subprocess.run([str(exe)], capture_output=True, text=True, env=env).stdout

    want = output(DATA / name)
    for line in BEHIND_OVERLAP_TEST[name]:
        picked = [v for v in written[line] if v["schedule"] in ("dynamic", "guided")][:3]
        assert picked and all(v["threads"] == 3 for v in picked)
        for v in picked:
            assert output(tmp_path / "v" / v["file"]) == want, (name, line, v["key"])


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_real_code_patterns_are_proven(name, tmp_path, capsys):
    loops = analyze(DATA / name, capsys, "-D", "UNUSED=1")
    for line, kept in PATTERNS[name].items():
        lp = loops[line]
        assert set(lp["kept"]) == kept, (name, line, lp["kept"])
    args = ["--threads", "1,2"]
    if name in (
        "srad_rows.c",
        "aligned_blocks.c",
        "mg_levels.c",
        "static_solver.c",
        "member_setters.c",
        "out_params.c",
        "field_struct.c",
    ):
        return  # sized at run time: variants need a profile run (test_runtime_sizes)
    written = variants(DATA / name, tmp_path / "v", capsys, *args)
    for line, kept in PATTERNS[name].items():
        got = written[line]
        assert got, (name, line)
        assert all(v["schedule"] is None for v in got) == ("schedule" in kept)
        assert all(v["threads"] is None for v in got) == ("threads" in kept)


def test_a_function_in_another_file_is_followed_with_extra_source(tmp_path, capsys):
    main_c, lib_c = DATA / "multi" / "main.c", DATA / "multi" / "lookup.c"
    alone = analyze(main_c, capsys)[12]
    assert set(alone["kept"]) == BOTH
    assert "lookup()" in alone["kept"]["schedule"] and "--extra-source" in alone["kept"]["schedule"]
    whole = analyze(main_c, capsys, "--extra-source", str(lib_c))[12]
    assert whole["kept"] == {} and whole["tunable"]
    assert variants(main_c, tmp_path / "alone", capsys)[12] == []
    written = variants(
        main_c, tmp_path / "whole", capsys, "--extra-source", str(lib_c), "--threads", "1,2"
    )
    assert written[12] and any(v["schedule"] for v in written[12])


def test_a_call_after_a_nowait_loop_is_judged_by_its_file_given_with_extra_source(capsys):
    """A master calling a timer wrapper, whose clock is in another file, between a nowait
    loop and the loop that reads its rows: alone, the clock may touch anything, and the
    reason names it and the option; with the clock's file, the chain of the two loops is
    all that is kept."""
    main_c, timer_c = DATA / "multi" / "timed_sweep.c", DATA / "multi" / "timer.c"
    alone = analyze(main_c, capsys)
    whole = analyze(main_c, capsys, "--extra-source", str(timer_c))
    for line in (26, 31):
        why = alone[line]["kept"]["schedule"]
        assert "wall_time()" in why and "--extra-source" in why, why
        why = whole[line]["kept"]["schedule"]
        assert "nowait chain with lines 26, 31" in why and "--extra-source" not in why, why


def test_the_program_setting_its_schedule_is_measured_variant_by_variant(env, capsys):
    """A program calling omp_set_schedule overrides run-time selection: every variant of
    its independent loop is compiled with its clause, and each prints the same."""
    src = env / "setsched.c"
    src.write_text(
        "#include <stdio.h>\n#include <omp.h>\n#define N 20000\nstatic double a[N];\n"
        "int main(void)\n{\n    omp_set_schedule(omp_sched_dynamic, 7);\n"
        "#pragma omp parallel for schedule(runtime)\n"
        "    for (int i = 0; i < N; i++)\n        a[i] = i * 0.5;\n"
        "    double s = 0;\n    for (int i = 0; i < N; i++)\n        s += a[i];\n"
        '    printf("%.1f\\n", s);\n    return 0;\n}\n'
    )
    (lp,) = analyze(src, capsys).values()
    assert lp["tunable"] and "omp_set_schedule" in " ".join(lp["warnings"])
    rc = main(
        [
            "measure",
            str(src),
            "--schedules",
            "static,dynamic",
            "--chunks=-,8",
            "--threads",
            "2",
            "--repetitions",
            "1",
            "--json",
        ]
    )
    assert rc == 0
    doc = json.loads(capsys.readouterr().out)
    (loop,) = doc["loops"]
    assert loop["compile_mode"] == "per-variant" and loop["binaries"] == 5
    assert {v["status"] for v in loop["variants"]} == {"ok"}


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
@pytest.mark.parametrize(
    "name",
    [
        "bt_orphaned.c",
        "mg_private_inner.c",
        "ft_exit_path.c",
        "lud_rows.c",
        "heap_syr2k.c",
        "lastprivate_conditional.c",
        "ordered_output.c",
        "linear_pack.c",
        "team_report.c",
        "flat_index.c",
        "pingpong_calls.c",
        "tiled_transpose.c",
        "redblack_sor.c",
        "row_copies.c",
        "scratch_memset.c",
        "unsigned_counters.c",
        "leftover_patterns.c",
        "library_patterns.c",
        "array_reductions.c",
        "critical_extremes.c",
        "sort_patterns.c",
        "format_patterns.c",
        "thread_local_patterns.c",
        "broadcast_patterns.c",
        "atomic_counters.c",
        "complex_dft.c",
        "c11_atomic_counts.c",
        "atomic_update_clauses.c",
        "boundary_guards.c",
        "simd_lanes.c",
        "bplus_query.c",
        "is_rank.c",
        "firstprivate_table.c",
        "private_scratch_pointer.c",
        "errno_iteration.c",
        "partial_sums_team.c",
        "record_strings.c",
        "selections.c",
        "const_tables.c",
        "two_counters.c",
        "callbacks.c",
        "guarded_extremes.c",
        "tiled_bounds.c",
        "thread_slots_direct.c",
        "struct_members.c",
        "thread_workspace.c",
        "particle_members.c",
        "string_search.c",
        "thread_slot_totals.c",
        "member_grids_swap.c",
        "pointer_walks.c",
        "box_vectors.c",
        "pointer_steps.c",
        "local_spans.c",
    ],
)
def test_proven_variants_print_what_the_original_prints(name, tmp_path, capsys):
    """Every variant written for a proven loop, compiled and run: the same output."""
    written = variants(DATA / name, tmp_path / "v", capsys, "--threads", "1,3")
    base = tmp_path / "orig"
    subprocess.run(["gcc", "-O1", "-fopenmp", str(DATA / name), "-o", str(base), "-lm"], check=True)
    expected = subprocess.run([str(base)], capture_output=True, text=True, check=True).stdout
    files = [v["file"] for vs in written.values() for v in vs]
    assert files
    for f in files:
        exe = tmp_path / (f + ".out")
        subprocess.run(
            ["gcc", "-O1", "-fopenmp", str(tmp_path / "v" / f), "-o", str(exe), "-lm"],
            check=True,
        )
        got = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
        assert got == expected, f


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
@pytest.mark.parametrize(
    "name",
    [
        "alias_offset.c",
        "cond_lastprivate.c",
        "tid_param_orphan.c",
        "library_traps.c",
        "errno_traps.c",
        "array_reduction_traps.c",
        "atomic_slot_traps.c",
        "inline_asm_traps.c",
        "boundary_guard_traps.c",
        "partial_stores_traps.c",
        "thread_address_traps.c",
        "firstprivate_table_traps.c",
        "errno_carry_traps.c",
        "allocator_traps.c",
        "record_strings_traps.c",
        "selections_traps.c",
        "const_tables_traps.c",
        "cell_lists_traps.c",
        "callbacks_traps.c",
        "guarded_extremes_traps.c",
        "thread_slots_direct_traps.c",
        "struct_members_traps.c",
        "thread_blocks_traps.c",
        "particle_members_traps.c",
        "thread_slot_sum_traps.c",
        "thread_slot_place_traps.c",
        "pointer_moves_traps.c",
        "box_vectors_traps.c",
        "pointer_steps_traps.c",
    ],
)
def test_rank_mode_of_the_build_hook_compiles_traps_as_written(name, tmp_path, capsys):
    """The build hook's rank mode verifies nothing, so it may only ship proven variants:
    a trap is compiled exactly as the user wrote it."""
    from buildhook_support import by_source, hook_env, report, run, wrapper_exe

    shutil.copy(DATA / name, tmp_path / name)
    run(["gcc", "-fopenmp", "-O2", name, "-o", "plain", "-lm"], tmp_path)
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    run([wrapper_exe(), "gcc", "-fopenmp", "-O2", name, "-o", "hooked", "-lm"], tmp_path, env)
    assert (tmp_path / "hooked").read_bytes() == (tmp_path / "plain").read_bytes() or (
        run(["./hooked"], tmp_path).stdout == run(["./plain"], tmp_path).stdout
    )
    loops = by_source(report(Path(env["AUTOTUNE_DB"]), capsys))[name]["loops"]
    assert loops and all(ld["used"] == "original" for ld in loops), loops


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_a_floating_point_max_may_keep_either_zero_and_ships_only_measured(tmp_path, capsys):
    """-0.0 and 0.0 compare equal: which one a max reduction keeps follows the order in
    which partial maxima meet (this program prints 'largest climb -0' as written and '0'
    under some variants). It is noted as reassociating, like a sum, so the build hook's
    rank mode compiles it as written; an integer max is exact and noted nothing."""
    from buildhook_support import by_source, hook_env, report, run, wrapper_exe

    name = "signed_zero_extremes.c"
    loops = analyze(DATA / name, capsys)
    (note,) = loops[26]["reassociates"]
    assert "reduction(max:climb)" in note and "-0.0 and 0.0" in note
    assert loops[26]["tunable"] and loops[31]["tunable"] and loops[31]["reassociates"] == []
    shutil.copy(DATA / name, tmp_path / name)
    plain = run(["gcc", "-fopenmp", "-O2", name, "-o", "plain", "-lm"], tmp_path)
    assert plain.returncode == 0
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    run([wrapper_exe(), "gcc", "-fopenmp", "-O2", name, "-o", "hooked", "-lm"], tmp_path, env)
    assert run(["./hooked"], tmp_path).stdout == run(["./plain"], tmp_path).stdout
    shipped = {
        ld["line"]: ld for ld in by_source(report(Path(env["AUTOTUNE_DB"]), capsys))[name]["loops"]
    }
    assert shipped[26]["used"] == "original", shipped[26]
    assert "reduction(max:climb)" in shipped[26]["reason"]


def test_per_thread_bins_whose_total_shows_the_team_keep_the_thread_count(capsys):
    """Bins merged under critical vary the thread count only when every thread's bins
    start at zero and are only counted into: bins starting at one add the team's size
    (the schedule still varies), a bin set after the loop adds it too, and a merge up
    to the thread's own number depends on who ran what."""
    loops = analyze(DATA / "partial_histogram_traps.c", capsys)
    assert set(loops[21]["kept"]) == {"threads"} and loops[21]["tunable"]
    assert "runs '#pragma omp critical' at line 23" in loops[21]["kept"]["threads"]
    assert set(loops[31]["kept"]) == {"threads"} and loops[31]["tunable"]
    assert set(loops[44]["kept"]) == BOTH and not loops[44]["tunable"]
    assert "private array mine accumulates" in loops[44]["kept"]["schedule"]


def test_what_the_proof_cannot_follow_is_kept_in_one_line(tmp_path, capsys):
    """A function pointer from outside the file and a goto: each loop kept, with the
    construct and where."""
    src = tmp_path / "odd.c"
    src.write_text(
        "#include <stdio.h>\n#define N 100\nstatic double a[N];\n"
        "/* a library's file: whoever calls map passes a function it cannot see */\n"
        "void map(double (*f)(double))\n{\n\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < N; i++)\n        a[i] = f(i);\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < N; i++) {\n        if (i % 7 == 3) goto skip;\n"
        "        a[i] += 1.0;\n    skip:;\n    }\n"
        '    printf("%.1f\\n", a[N - 1]);\n}\n'
    )
    loops = analyze(src, capsys)
    assert (
        f"kept as written: a call through a function pointer at {src}:10"
        in (loops[9]["kept"]["schedule"])
    )
    assert f"kept as written: a goto at {src}:13" in loops[12]["kept"]["schedule"]
    assert "Traceback" not in capsys.readouterr().err
    written = variants(src, tmp_path / "v", capsys)
    assert written[9] == [] and written[12] == []


def test_a_linear_cursor_the_proof_does_not_follow_says_so(tmp_path, capsys):
    """On a loop of step 2 the cursor's value per iteration is not bound: kept, with the
    clause named (not only a private read before it is set)."""
    src = tmp_path / "every_other.c"
    src.write_text(
        "#include <stdio.h>\n#define N 2000\nstatic double buf[N];\n\nint main(void)\n{\n"
        "    int pos = 0;\n#pragma omp parallel for linear(pos : 1)\n"
        "    for (int i = 0; i < N; i += 2) {\n        buf[pos] = i * 0.5;\n"
        "        pos += 1;\n    }\n"
        '    printf("%.1f %d\\n", buf[N / 2 - 1], pos);\n    return 0;\n}\n'
    )
    (lp,) = analyze(src, capsys).values()
    assert not lp["tunable"]
    assert "linear(pos: 1) on a loop whose step is not 1" in lp["kept"]["schedule"]


def test_pointers_from_a_function_of_another_file_name_it(tmp_path, capsys):
    """Fields from new_field(), defined in grid.c: without that file the sweep varies
    only behind a test that u and v do not overlap, and the reason it would be kept
    names the function and what to give; with it, the sweep is proven with no test."""
    proj = Path(__file__).parent / "data" / "buildhook" / "split_alloc"
    (loop,) = analyze(proj / "heat.c", capsys).values()
    why = overlap_warning(loop)
    assert loop["kept"] == {} and "through u and v does not overlap" in why
    assert "u and v may come from new_field(), whose definition is not among" in why
    assert "--extra-source" in why
    (loop,) = analyze(proj / "heat.c", capsys, "--extra-source", str(proj / "grid.c")).values()
    assert loop["kept"] == {} and loop["guard"] == ""  # told apart: no test needed


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_rows_of_a_variable_length_array_are_checked_against_its_length(env, capsys):
    """``double a[n][n]`` sized at run time: the sweep whose neighbours stay in their rows
    is proven and its variants print the original's output; the pass reading a[i][j + 1]
    for j < n (the next row's first element) is kept, and so is a 3-D pass reading
    u[i][j][k + 1] for k < m where every call passes one constant m. The old proof took
    every subscript of a row of unknown length to stay in it and proved the first pass;
    it checked the second against the constant with the bound left symbolic."""
    src = DATA / "vla_rows.c"
    loops = analyze(src, capsys, "--args", "300 spill")
    assert loops[13]["kept"] == {} and loops[13]["tunable"]
    for line in (22, 31):
        assert set(loops[line]["kept"]) == BOTH
        assert "leaves its row" in loops[line]["kept"]["schedule"]
    args = ["measure", str(src), "--args", "300", "--loop", "vla_rows.c:13", "--json"]
    args += ["--schedules", "dynamic,static", "--chunks", "1,7", "--threads", "1,3"]
    assert main([*args, "--repetitions", "1", "--quiet"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["variants"] and {v["status"] for v in loop["variants"]} == {"ok"}


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_a_subscript_below_its_row_at_any_size_is_kept(env, capsys):
    """``b[i][j - 1]`` with ``j`` from 0 in a row of 256, the loops bounded by sizes a
    function receives (DataRaceBench's DRB014): at ``j = 0`` it is the previous row's
    last element, which the previous iteration writes, whatever the sizes are; so in a
    row whose length the analysis does not know (DRB015). The old proof checked a
    constant row only against constant loop bounds, and a row of unknown length not at
    all, and proved both; the sweep that starts at ``j = 1`` stays proven, its variants
    verified."""
    src = DATA / "row_before.c"
    loops = analyze(src, capsys)
    assert loops[17]["kept"] == {} and loops[17]["tunable"]
    assert set(loops[26]["kept"]) == BOTH
    assert "b[i][j - 1]" in loops[26]["kept"]["schedule"]
    assert "leaves its row" in loops[26]["kept"]["schedule"]
    # the same on a grid sized at run time (double (*b)[n]): a row of unknown length
    (loop,) = analyze(DATA / "row_before_runtime.c", capsys, "--args", "100 sweep").values()
    assert set(loop["kept"]) == BOTH and "leaves its row" in loop["kept"]["schedule"]
    args = ["measure", str(src), "--loop", "row_before.c:17", "--json", "--repetitions", "1"]
    args += ["--schedules", "dynamic,static", "--chunks", "1,7", "--threads", "1,3"]
    assert main([*args, "--quiet"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["variants"] and {v["status"] for v in loop["variants"]} == {"ok"}


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_rows_are_checked_at_the_sizes_the_profile_run_measured(env, capsys):
    """``double a[512][512]`` swept to an ``m`` read from the command line: under bounds in
    the sizes subscripts are taken to stay in their rows, so the pass reading a[i][j + 1]
    for j < m was proven, and at the default m = 512 it reads the next row. Checked at
    the measured sizes it is kept; the stencil beside it stays proven, its variants
    verified."""
    src = DATA / "runtime_rows.c"
    loops = analyze(src, capsys, "--args", "512 spill")
    assert loops[20]["kept"] == {} and loops[20]["tunable"]
    assert set(loops[25]["kept"]) == BOTH
    why = loops[25]["kept"]["schedule"]
    assert "at the sizes the profile run measured ((m) == 512)" in why
    assert "leaves its row" in why
    args = ["measure", str(src), "--args", "512", "--loop", "runtime_rows.c:20", "--json"]
    args += ["--schedules", "dynamic", "--chunks", "1,7", "--threads", "1,3"]
    assert main([*args, "--repetitions", "1", "--quiet"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["variants"] and {v["status"] for v in loop["variants"]} == {"ok"}


def test_members_an_init_routine_sets_to_object_starts_need_no_run_time_test(env, capsys):
    """A member an init routine stores is an object's start where every value it can
    store is one: main's allocations bound to the routine's parameters at its one call,
    a helper's locals holding malloc's result. The sweeps need no overlap test, and
    their variants, measured at the program's own size, print the original's output."""
    src = DATA / "member_setters.c"
    loops = analyze(src, capsys)
    for line in (42, 49):
        assert loops[line]["kept"] == {} and overlap_warning(loops[line]) == "", loops[line]
    args = ["measure", str(src), "--loop", "member_setters.c:42", "--loop", "member_setters.c:49"]
    args += ["--schedules", "dynamic", "--chunks", "7", "--threads", "1,3", "--json"]
    assert main([*args, "--repetitions", "1", "--quiet"]) == 0
    measured = json.loads(capsys.readouterr().out)["loops"]
    assert len(measured) == 2
    for loop in measured:
        assert loop["variants"] and {v["status"] for v in loop["variants"]} == {"ok"}


def test_a_field_struct_around_swapped_buffers_varies_and_keeps_the_output(env, capsys):
    """The struct a kernel reads its pointer from is main's own local, which the loop
    never writes (it writes the buffer the pointer holds, one of two swapped): the loop
    varies with no test, and its variants, measured at the program's size (the profile
    run sizes it), print the original's output."""
    src = DATA / "field_struct.c"
    loops = analyze(src, capsys)
    assert loops[29]["kept"] == {} and loops[29]["guard"] == "", loops[29]
    args = ["measure", str(src), "--loop", "field_struct.c:29", "--schedules", "dynamic"]
    args += ["--chunks", "5", "--threads", "1,3", "--json", "--repetitions", "1", "--quiet"]
    assert main(args) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["variants"] and {v["status"] for v in loop["variants"]} == {"ok"}


def test_a_flexible_array_member_sized_by_its_header_varies_and_keeps_the_output(env, capsys):
    """The loop runs to the header's count ``f->n`` and writes the flexible array member
    ``f->v[i]``: another member of the struct, which never reaches the count, and a
    distinct place of it per iteration. It varies with no test, and its variants,
    measured at the size the profile run sees, print the original's output."""
    src = DATA / "flexible_members.c"
    loops = analyze(src, capsys, "--args", "1000")
    assert loops[24]["kept"] == {} and loops[24]["tunable"] and loops[24]["guard"] == ""
    args = ["measure", str(src), "--args", "1000", "--loop", "flexible_members.c:24"]
    args += ["--schedules", "dynamic", "--chunks", "3", "--threads", "1,3", "--json"]
    assert main([*args, "--repetitions", "1", "--quiet"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["variants"] and {v["status"] for v in loop["variants"]} == {"ok"}


def test_scanf_formats_say_what_each_argument_receives():
    """What sscanf stores through each argument its literal format consumes: one object,
    or a string (%s, %[...], %c); a suppressed conversion and %% consume none; a format
    that is not a literal, or uses positional arguments, says nothing (every pointer
    argument is then taken to be written anywhere)."""
    from autotune.analysis.proof.formats import scanned

    assert scanned('"%d %lf %7s"') == ["one", "one", "string"]
    assert scanned('"%*d %[^,],%c %n %%"') == ["string", "string", "one"]
    assert scanned('"%2$d %1$s"') is None
    assert scanned(None) is None
    # printf's %n stores the count printed so far through its argument
    from autotune.analysis.proof.formats import printf_stores

    assert not printf_stores('"%d %5.2f %s 100%%"')
    assert printf_stores('"%d%n"') and printf_stores('"%s%hhn"') and printf_stores(None)


def _run_c(src: Path, exe: Path) -> str:
    subprocess.run(["gcc", "-O1", "-fopenmp", str(src), "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def test_threadprivate_state_read_in_a_later_region_keeps_every_thread_count(tmp_path, capsys):
    """Per-thread random streams seeded in one region and drawn in a later one: a loop
    between them run on fewer threads lets the other threads exit with their streams
    (libgomp), so its thread count stays as written; its schedules still vary, verified."""
    name = DATA / "threadprivate_persist_traps.c"
    expected = _run_c(name, tmp_path / "orig")
    # the hazard is real on this runtime: the loop on two threads prints another result
    two = tmp_path / "two.c"
    text = name.read_text().replace("parallel for num_threads(TEAM)", "parallel for num_threads(2)")
    two.write_text(text)
    assert _run_c(two, tmp_path / "two") != expected
    (lp,) = analyze(name, capsys).values()
    assert "earlier region may have left" in lp["kept"]["threads"] and "schedule" not in lp["kept"]
    written = variants(name, tmp_path / "v", capsys, "--threads", "1,2,3,4", "--chunks", "none,7")
    files = [v for vs in written.values() for v in vs]
    assert files and all(v["threads"] is None for v in files)
    for i, v in enumerate(files):
        assert _run_c(tmp_path / "v" / v["file"], tmp_path / f"x{i}") == expected, v["key"]


def test_threadprivate_data_copied_in_or_read_by_the_initial_thread_keeps_thread_counts_free(
    tmp_path, capsys
):
    """NPB EP's way: the scratch is cleared by a parallel loop, read by the initial thread,
    and copied into the later region (copyin): no region reads a copy left behind."""
    loops = analyze(DATA / "ep_cleared_scratch.c", capsys)
    assert "threads" not in loops[20]["kept"]


@pytest.mark.parametrize(
    "name",
    [
        "swap_per_thread_traps.c",
        "thread_branch_traps.c",
        "one_thread_copy_traps.c",
        "thread_leftover_traps.c",
    ],
)
def test_values_that_differ_between_threads_keep_their_loops(name, tmp_path, capsys):
    """Per-thread copies that differ by thread without a thread number flowing into them:
    grid pointers swapped on thread 0 alone (the old proof varied the second loop: 20 of
    its 23 variants printed another sum), values set under a test of the thread number
    (60 of 66 variants did), values a master or masked thread sets in its own copy (104
    of 110), a source pointer the master points elsewhere in its own copy, what each
    thread's iterations of an earlier loop left in its copy (40 of 44). The hazard on
    this runtime: a schedule handing thread 0 other iterations prints another result."""
    expected = _run_c(DATA / name, tmp_path / "orig")
    edited = tmp_path / "static1.c"
    text = (DATA / name).read_text()
    edited.write_text(text.replace("#pragma omp for\n", "#pragma omp for schedule(static, 1)\n"))
    assert _run_c(edited, tmp_path / "static1") != expected
    loops = analyze(DATA / name, capsys)
    assert loops and all(set(lp["kept"]) == BOTH for lp in loops.values())


def test_region_local_grid_pointers_every_thread_swaps_are_one_double_buffer(env, capsys):
    """Rodinia hotspot3D's time loop: each thread's own grid pointers, swapped by every
    thread after the worksharing loop, the cell index set apart from its declaration.
    Proven for every size (not only the measured one), the footprint known, and every
    measured variant prints what the original prints."""
    name = DATA / "swap_region_locals.c"
    (lp,) = analyze(name, capsys, "--args", "24 6").values()
    assert lp["tunable"] and lp["kept"] == {} and lp["proof_sizes"] == [] and not lp["guard"]
    assert lp["footprint_bytes"] and not any("footprint unknown" in w for w in lp["warnings"])
    rc = main(
        [
            "measure",
            str(name),
            "--args",
            "24 6",
            "--schedules",
            "static,dynamic",
            "--chunks=-,1",
            "--threads",
            "1,3",
            "--repetitions",
            "1",
            "--json",
        ]
    )
    assert rc == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert len(loop["variants"]) >= 6
    assert {v["status"] for v in loop["variants"]} == {"ok"}


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_rows_of_rows_allocated_one_by_one_are_distinct(env, capsys):
    """A ``double ***`` grid allocated plane by plane and row by row (NPB MG's C version
    keeps its levels so): every row is its own allocation, so a smoothing loop over the
    planes is proven; only rows under rows of one level were before. The grid whose
    ghost planes point at the interior planes they mirror is not: its loop over every
    plane writes those planes from two iterations. The proven loop's variants verified."""
    src = DATA / "plane_rows.c"
    loops = analyze(src, capsys, "--args", "24 scale")
    assert loops[38]["kept"] == {} and loops[38]["tunable"]
    assert set(loops[50]["kept"]) == BOTH
    args = ["measure", str(src), "--args", "24", "--loop", "plane_rows.c:38", "--json"]
    args += ["--schedules", "dynamic,static", "--chunks", "1,5", "--threads", "1,3"]
    assert main([*args, "--repetitions", "1", "--quiet"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["variants"] and {v["status"] for v in loop["variants"]} == {"ok"}


def test_a_static_kernel_of_a_file_without_main_is_bound_to_its_callers(capsys):
    """A file given alone, without main (a solver of its own, as a build hook tunes
    it, linking the others): its static kernel is called from this file only, with two
    buffers of its own, and is proven; the exported one may be called from any file
    with one array twice, and varies only behind a test of their address ranges."""
    loops = analyze(DATA / "static_solver.c", capsys)
    assert loops[9]["kept"] == {} and loops[9]["guard"] == ""
    assert loops[16]["kept"] == {}  # only behind a test that in and out do not overlap
    reason = overlap_warning(loops[16])
    assert "through in and out does not overlap" in reason
    assert "in (line 17: in[i - 1]) and out (line 17: out[i]) would touch the same" in reason
    assert "if they point into one array, which the proof cannot rule out" in reason


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_two_levels_of_a_grid_hierarchy_passed_to_one_call_are_told_apart(env, capsys):
    """NAS MG's V-cycle passes level k and level j = k - 1 of its hierarchy to restrict
    and interpolate: two levels, never one, sharing no row. The loops are proven (they
    were kept: any access through one parameter could be one through the other), and
    their variants, run, print what the original prints."""
    src = DATA / "mg_levels.c"
    loops = analyze(src, capsys)
    assert all(loops[line]["kept"] == {} for line in (28, 40))
    args = ["measure", str(src), "--loop", "mg_levels.c:28", "--loop", "mg_levels.c:40"]
    args += ["--schedules", "dynamic,static", "--chunks", "1,5", "--threads", "1,3"]
    assert main([*args, "--repetitions", "1", "--json", "--quiet"]) == 0
    measured = json.loads(capsys.readouterr().out)["loops"]
    assert len(measured) == 2
    for loop in measured:
        assert len(loop["variants"]) == 8
        assert {v["status"] for v in loop["variants"]} == {"ok"}, loop["variants"]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_a_level_passed_as_an_element_of_new_allocations_starts_its_grid(env, capsys):
    """``resid(u[k], r[k], r[k])`` where every ``r[l]`` is a new allocation (NPB MG's
    levels): each argument is the start of its grid, so the in-place residual reads and
    writes one point per iteration and is proven; before, each parameter kept an unknown
    offset of its own. Levels that share a grid (``s[2] = s[1]``) are no new
    allocations: restricting one onto the other stays kept. Variants verified."""
    src = DATA / "level_rows.c"
    loops = analyze(src, capsys, "--args", "restrict")
    assert loops[27]["kept"] == {} and loops[27]["tunable"]
    assert set(loops[38]["kept"]) == BOTH
    # measured without the racy restriction, which would change what the program prints
    args = ["measure", str(src), "--loop", "level_rows.c:27", "--json"]
    args += ["--schedules", "dynamic,static", "--chunks", "1,5", "--threads", "1,3"]
    assert main([*args, "--repetitions", "1", "--quiet"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert loop["variants"] and {v["status"] for v in loop["variants"]} == {"ok"}


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_rows_through_a_pointer_from_an_allocating_helper_are_proven_at_every_size(env, capsys):
    """Rodinia lud's matrix comes back from create_matrix(&m, size): the proof does not
    know where in its object the pointer starts, and ``off + i*size + j`` did not split
    into row and column, so both loops varied only behind ``(size) == 48``. The offset is
    the same in both subscripts of one loop and is set aside: proven for every size, no
    guard, and the variants print what the original prints. Two pointers at offsets of
    their own (a pass writing one row below the rows it reads) vary only behind a test
    that the rows they reach do not overlap."""
    src = DATA / "lud_helper_rows.c"
    loops = analyze(src, capsys, "--args", "48")
    for line in (28, 35):
        assert loops[line]["tunable"] and loops[line]["kept"] == {}, loops[line]
        assert not any("proven only" in w for w in loops[line]["warnings"]), loops[line]
    args = ["measure", str(src), "--args", "40", "--json", "--repetitions", "1", "--quiet"]
    args += ["--schedules", "dynamic", "--chunks", "1,3", "--threads", "2,3"]
    assert main(args) == 0
    measured = json.loads(capsys.readouterr().out)["loops"]
    assert len(measured) == 2
    for loop in measured:
        assert loop["variants"] and {v["status"] for v in loop["variants"]} == {"ok"}, loop
    trap = analyze(DATA / "shifted_rows_trap.c", capsys, "--args", "64")
    # only behind a test that the rows written and the rows read do not overlap, which
    # the profile run finds false: kept as written
    assert "cannot tell apart" in overlap_warning(trap[19]) and trap[19]["guard"]
    assert "its run-time test failed at all" in trap[19]["kept"].get("schedule", ""), trap[19]


def test_a_proof_past_its_time_limit_keeps_the_loop_with_that_reason(monkeypatch, capsys):
    """Each loop's proof has a time limit (10 s unless AUTOTUNE_PROOF_LIMIT_S says
    otherwise): past it the loop is kept as written, said as such, and the file's other
    loops and the command go on."""
    monkeypatch.setenv("AUTOTUNE_PROOF_LIMIT_S", "0.000001")
    loops = analyze(DATA / "selections.c", capsys)
    for lp in loops.values():
        assert set(lp["kept"]) == BOTH and not lp["tunable"]
        assert "would take longer than 1e-06 s (AUTOTUNE_PROOF_LIMIT_S)" in lp["kept"]["schedule"]
    monkeypatch.delenv("AUTOTUNE_PROOF_LIMIT_S")
    assert all(lp["tunable"] for lp in analyze(DATA / "selections.c", capsys).values())


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc with OpenMP")
def test_arrays_returned_through_out_parameters_vary_and_keep_the_output(tmp_path):
    """Sized by a profile run, each loop over arrays a helper allocated through ``&x``
    varies, and its variants, as the tuner writes them, print the original's output."""
    import autotune
    from autotune.textfile import read_source
    from autotune.variants.apply import apply_variants
    from autotune.variants.space import Variant

    path = DATA / "out_params.c"
    session = autotune.Session(db=tmp_path / "s.db", args=["3000", "6"])
    records = [r for r in session.analyze(path).loops if r.line in (45, 48)]
    assert len(records) == 2 and all(r.tunable and not r.kept for r in records)

    def output(src: Path, threads: str) -> str:
        exe = tmp_path / f"{src.stem}.out"
        subprocess.run(["gcc", "-O2", "-fopenmp", str(src), "-o", str(exe), "-lm"], check=True)
        env = {**os.environ, "OMP_NUM_THREADS": threads}
        run = [str(exe), "3000", "6"]
        return subprocess.run(run, capture_output=True, text=True, env=env, check=True).stdout

    want = output(path, "2")
    source = read_source(path)
    for schedule, chunk, threads in (("dynamic", 1, 3), ("guided", 5, 2), ("static", 7, 1)):
        text = apply_variants(source, [(r, Variant(schedule, chunk, threads)) for r in records])
        variant = tmp_path / f"out_params_{schedule}.c"
        variant.write_text(text)
        assert output(variant, "2") == want, schedule
