"""Every file of the program as one table: functions, call sites, stores, OpenMP state.

The proof follows calls into other files (``--extra-source``), finds the
callers of a function that holds an orphaned ``omp for``, and reads which
objects a pointer field or a pointer array may hold; all of that needs the
whole program, which this module collects in one walk per file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from autotune.analysis.astutil import walk
from autotune.analysis.names import call_name
from autotune.analysis.proof.initlists import init_stores
from autotune.analysis.proof.perthread import one_thread_statements, per_thread, region_around
from autotune.analysis.symbols import Scope, file_info
from autotune.frontend.pragmas import parse_omp

# the OpenMP queries whose answer cannot depend on the schedule or the thread count
STEADY_OMP = frozenset(
    "omp_get_wtime omp_get_wtick omp_get_num_procs omp_get_num_devices "
    "omp_get_initial_device omp_is_initial_device".split()
)
OMP_PREFIXES = ("omp_", "__builtin_omp_", "__kmpc_", "GOMP_")
# the queries that read (or print) the run-time schedule, which OMP_SCHEDULE sets
SCHEDULE_READS = frozenset("omp_get_schedule __builtin_omp_get_schedule omp_display_env".split())
# calls that return a new object each time; ``realloc`` is not one: it may return the
# block it was given (its result starts an object, and may be its argument's)


def is_omp_call(name: str) -> bool:
    return name.startswith(OMP_PREFIXES)


def thread_dependent_call(name: str) -> bool:
    """A call whose value or effect depends on the thread, the team or the runtime."""
    return is_omp_call(name) and name not in STEADY_OMP


@dataclass
class Site:
    """A node with the function and translation unit it is in."""

    node: c_ast.Node
    func: c_ast.FuncDef | None
    ast: c_ast.FileAST


@dataclass
class Program:
    """The files of one program, read once for the proof."""

    units: list[c_ast.FileAST]
    funcs: dict[str, tuple[c_ast.FuncDef, c_ast.FileAST]] = field(default_factory=dict)
    calls: dict[str, list[Site]] = field(default_factory=dict)  # callee -> FuncCall sites
    address_taken: set[str] = field(default_factory=set)  # functions used as values
    # library functions used as values (``apply(v, n, sqrt)``): a pointer may hold them too
    library_values: set[str] = field(default_factory=set)
    field_stores: dict[str, list[Site]] = field(default_factory=dict)  # field -> rhs sites
    # an initializer list not matched to a struct's members: pointer members set by it
    # are not in field_stores, so a member never stored to may still point anywhere
    opaque_inits: bool = False
    element_stores: list[tuple[Site, c_ast.Node]] = field(default_factory=list)  # (rhs, base)
    var_stores: dict[str, list[Site]] = field(default_factory=dict)  # name -> rhs sites
    address_of: set[str] = field(
        default_factory=set
    )  # taint_key of variables whose address is taken
    # omp_set_* calls and reads of the run-time schedule: (call, file, line)
    omp_sets: list[tuple[str, str, int]] = field(default_factory=list)
    # directives that read OMP_SCHEDULE: schedule(runtime) (file, line)
    runtime_schedules: list[tuple[str, int]] = field(default_factory=list)
    threadprivate: set[str] = field(default_factory=set)
    # variables (taint_key) that may hold a value depending on the thread; "f:<name>" for
    # functions returning one
    tainted: set[str] = field(default_factory=set)

    @property
    def has_main(self) -> bool:
        return "main" in self.funcs

    complete: bool = True  # every file given was read
    _uses: dict[str, list] | None = None
    # answers about the program's nodes the proofs of several loops ask (keyed by id of
    # a node of these units, which live as long as the program)
    memo: dict = field(default_factory=dict)

    @property
    def whole(self) -> bool:
        """The files hold the whole program (its ``main``, every file read): the call
        sites seen are all the call sites, and the stores seen are all the stores."""
        return self.has_main and self.complete

    def all_calls_seen(self, func: c_ast.FuncDef) -> bool:
        """Every call of ``func`` is among the calls seen: the program is whole, or the
        function is ``static`` (no other file can name it; a build hook tuning one file
        of a program whose other files it only links, as NAS MG's ``mg.c``). Whether its
        address escapes is for the caller to ask (``address_taken``)."""
        if self.whole:
            return True
        if "static" in (func.decl.storage or []):
            return True
        for unit in self.units:
            decl = file_info(unit).globals.get(func.decl.name)
            if decl is not None and "static" in (getattr(decl, "storage", None) or []):
                return True
        return False

    def scope(self, func: c_ast.FuncDef) -> Scope:
        return Scope(func, self.funcs.get(func.decl.name, (func, self.units[0]))[1])

    def address_taken_var(
        self, name: str, at: c_ast.Node, func: c_ast.FuncDef | None, ast: c_ast.FileAST
    ) -> bool:
        return taint_key(name, at, func, ast) in self.address_of

    def copies_may_differ(self, name: str) -> bool:
        """A threadprivate (or ``__thread``) variable whose threads' copies may hold
        different values: the program stores to it somewhere, or takes its address
        (main's ``scale = 3`` sets main's copy alone). Never stored: every copy holds
        its static initializer."""
        key = ("copies differ", name)
        if key not in self.memo:
            self.memo[key] = any(_stores_to(node, ast) for node, _, ast in self.uses(name))
        return self.memo[key]

    def uses(self, name: str) -> list[tuple[c_ast.ID, c_ast.FuncDef, c_ast.FileAST]]:
        """Every mention of ``name`` in the program's functions (indexed once)."""
        if self._uses is None:
            self._uses = {}
            for func, ast in self.funcs.values():
                stack: list[c_ast.Node] = [func.body]
                while stack:
                    n = stack.pop()
                    if isinstance(n, c_ast.ID):
                        self._uses.setdefault(n.name, []).append((n, func, ast))
                    stack.extend(c for _, c in n.children())
        return self._uses.get(name, [])


def build_program(units: list[c_ast.FileAST]) -> Program:
    """Read ``units`` (the file analysed first, then the other files of the program)."""
    prog = Program(units=list(units))
    for ast in units:
        info = file_info(ast)
        prog.threadprivate |= info.threadprivate
        for name, func in info.funcs.items():
            prog.funcs.setdefault(name, (func, ast))
        for ext in ast.ext:
            walker = ProgramWalker(prog, ast)
            if isinstance(ext, c_ast.FuncDef):
                walker.func = ext
                walker.visit(ext.body)
            elif isinstance(ext, c_ast.Decl) and ext.init is not None:
                walker.visit(ext)
    _taint(prog)
    return prog


class ProgramWalker(c_ast.NodeVisitor):
    """One walk of one function (or initializer): calls, stores, addresses, omp_set_*."""

    def __init__(self, prog: Program, ast: c_ast.FileAST) -> None:
        self.prog = prog
        self.ast = ast
        self.func: c_ast.FuncDef | None = None

    def _site(self, node: c_ast.Node) -> Site:
        return Site(node, self.func, self.ast)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> None:
        name = call_name(node)
        if name is not None:
            self.prog.calls.setdefault(name, []).append(self._site(node))
            if name.startswith(("omp_set_", "__builtin_omp_set_")) or name in SCHEDULE_READS:
                line = node.coord.line if node.coord else 0
                self.prog.omp_sets.append((name, str(node.coord.file if node.coord else ""), line))
            if name == "posix_memalign" and self._memalign_store(node):
                return
        else:
            self.visit(node.name)
        if node.args is not None:
            self.visit(node.args)

    def visit_Pragma(self, node: c_ast.Pragma) -> None:
        parsed = parse_omp(node.string or "")
        if parsed is not None and parsed[1].schedule == "runtime":
            coord = node.coord
            self.prog.runtime_schedules.append(
                (str(coord.file if coord else ""), coord.line if coord else 0)
            )

    def _memalign_store(self, node: c_ast.FuncCall) -> bool:
        """``posix_memalign(&p, align, size)`` stores a fresh block in ``p`` and keeps no
        copy of ``&p``: a store of the call to ``p``, not an address that escapes
        (PolyBench's ``xmalloc``)."""
        args = node.args.exprs if node.args is not None else []
        first = args[0] if args else None
        while isinstance(first, c_ast.Cast):
            first = first.expr
        if not (
            isinstance(first, c_ast.UnaryOp)
            and first.op == "&"
            and isinstance(first.expr, c_ast.ID)
        ):
            return False
        self.prog.var_stores.setdefault(first.expr.name, []).append(self._site(node))
        for arg in args[1:]:
            self.visit(arg)
        return True

    def visit_ID(self, node: c_ast.ID) -> None:
        # a function named outside a call position is a function pointer
        info = file_info(self.ast)
        if node.name in self.prog.funcs or node.name in info.funcs:
            self.prog.address_taken.add(node.name)
        elif isinstance(getattr(info.globals.get(node.name), "type", None), c_ast.FuncDecl):
            kind = Scope(self.func, self.ast).find_decl(node.name, node)[1] if self.func else ""
            if kind not in ("local", "param"):  # FT's ``y0``, a local, is no Bessel function
                self.prog.library_values.add(node.name)

    def visit_Decl(self, node: c_ast.Decl) -> None:
        if node.init is not None:
            if node.name:
                self.prog.var_stores.setdefault(node.name, []).append(self._site(node.init))
            self._member_stores(node.type, node.init)
            self._element_inits(node)
            self.visit(node.init)

    def _element_inits(self, node: c_ast.Decl) -> None:
        """``const char *names[] = {"a", "b"}``, ``double *rows[] = {a, b}``: each element
        the list sets is a store into the array (base: the declaration itself)."""
        if not (isinstance(node.type, c_ast.ArrayDecl) and isinstance(node.init, c_ast.InitList)):
            return
        for expr in node.init.exprs or []:
            if isinstance(expr, c_ast.NamedInitializer):
                expr = expr.expr
            if not isinstance(expr, c_ast.InitList):
                self.prog.element_stores.append((self._site(expr), node))

    def visit_CompoundLiteral(self, node: c_ast.CompoundLiteral) -> None:
        self._member_stores(node.type.type, node.init)
        self.generic_visit(node)

    def _member_stores(self, typ: c_ast.Node, init: c_ast.Node) -> None:
        """``{ a + 1, N }`` for a struct: stores to its members, as assignments would be."""
        if not isinstance(init, c_ast.InitList):
            return
        stores, opaque = init_stores(typ, init, self.ast)
        for member, value in stores:
            self.prog.field_stores.setdefault(member, []).append(self._site(value))
        self.prog.opaque_inits |= opaque

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
        if node.op in ("++", "--", "p++", "p--"):  # ``q++`` stores to q: it moves it
            target = node.expr
            while isinstance(target, c_ast.Cast):
                target = target.expr
            if isinstance(target, c_ast.ID):
                self.prog.var_stores.setdefault(target.name, []).append(self._site(node))
            elif isinstance(target, c_ast.StructRef):
                self.prog.field_stores.setdefault(target.field.name, []).append(self._site(node))
        if node.op == "&" and not self._into_pointee(node.expr):
            root = _root_name(node.expr)
            if root:
                self.prog.address_of.add(taint_key(root, node, self.func, self.ast))
        self.generic_visit(node)

    def _into_pointee(self, expr: c_ast.Node) -> bool:
        """``&p[k]``, ``&p->f`` of a pointer ``p``: the address of what p points at
        (``memset(&c[i * m], ...)``), not of p, which no store through it can change."""
        node, step = expr, None
        while isinstance(node, c_ast.ArrayRef | c_ast.StructRef):
            step, node = node, node.name
        if step is None or not isinstance(node, c_ast.ID) or self.func is None:
            return False
        if isinstance(step, c_ast.StructRef):
            return step.type == "->"
        decl, _ = Scope(self.func, self.ast).find_decl(node.name, node)
        t = decl.type if decl is not None else None
        for _ in range(8):  # through typedefs: ``typedef double *row_t``
            if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)):
                break
            names = t.type.names
            target = file_info(self.ast).typedefs.get(names[0]) if len(names) == 1 else None
            if target is None:
                break
            t = target
        return isinstance(t, c_ast.PtrDecl)

    def visit_Assignment(self, node: c_ast.Assignment) -> None:
        lv = node.lvalue
        while isinstance(lv, c_ast.Cast):
            lv = lv.expr
        # a compound store (``p += k``) moves what the variable holds: its site is the
        # whole assignment, never taken for a store of its right-hand side (``1`` no NULL)
        site = self._site(node.rvalue if node.op == "=" else node)
        if isinstance(lv, c_ast.ID):
            self.prog.var_stores.setdefault(lv.name, []).append(site)
        elif isinstance(lv, c_ast.StructRef):
            self.prog.field_stores.setdefault(lv.field.name, []).append(site)
        elif isinstance(lv, c_ast.ArrayRef):
            self.prog.element_stores.append((site, lv.name))
        elif isinstance(lv, c_ast.UnaryOp) and lv.op == "*":
            self.prog.element_stores.append((site, lv.expr))
        self.visit(node.rvalue)
        self.visit(node.lvalue)


def _root_name(node: c_ast.Node) -> str | None:
    while True:
        if isinstance(node, c_ast.ID):
            return node.name
        if isinstance(node, c_ast.ArrayRef | c_ast.StructRef):
            node = node.name
        elif isinstance(node, c_ast.Cast):
            node = node.expr
        elif isinstance(node, c_ast.UnaryOp) and node.op == "*":
            node = node.expr
        else:
            return None


def taint_key(name: str, at: c_ast.Node, func: c_ast.FuncDef | None, ast: c_ast.FileAST) -> str:
    """One key per variable: globals by name, locals and parameters by function."""
    if func is None:
        return f"g:{name}"
    _, kind = Scope(func, ast).find_decl(name, at)
    if kind in ("local", "param"):
        return f"{func.decl.name}:{name}"
    return f"g:{name}"


def thread_dependent(
    node: c_ast.Node | None, prog: Program, func: c_ast.FuncDef | None, ast: c_ast.FileAST
) -> str | None:
    """What makes ``node``'s value (in ``func``) depend on the thread running it, or None."""
    if node is None:
        return None
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.FuncCall):
            name = call_name(n)
            if name is not None and thread_dependent_call(name):
                return f"{name}()"
            if name is not None and f"f:{name}" in prog.tainted:
                return f"{name}() (returns a value that depends on the thread)"
        elif isinstance(n, c_ast.ID):
            if taint_key(n.name, n, func, ast) in prog.tainted:
                return f"{n.name} (holds a value that depends on the thread)"
        if isinstance(n, c_ast.StructRef):
            stack.append(n.name)
            continue
        stack.extend(c for _, c in n.children())
    return None


def _taint(prog: Program) -> None:
    """Variables any of whose stores (or call-site arguments) depend on the thread: a
    fixpoint over the whole program."""
    changed = True
    while changed:
        changed = False
        for name, sites in prog.var_stores.items():
            for s in sites:
                key = taint_key(name, s.node, s.func, s.ast)
                if key in prog.tainted:
                    continue
                if thread_dependent(s.node, prog, s.func, s.ast):
                    prog.tainted.add(key)
                    changed = True
        for callee, sites in prog.calls.items():
            entry = prog.funcs.get(callee)
            if entry is None:
                continue
            params = param_names(entry[0])
            for s in sites:
                args = s.node.args.exprs if s.node.args is not None else []
                for p, a in zip(params, args, strict=False):
                    key = f"{callee}:{p}"
                    if p and key not in prog.tainted and thread_dependent(a, prog, s.func, s.ast):
                        prog.tainted.add(key)
                        changed = True
        for fname, (func, ast) in prog.funcs.items():
            for key in _set_under_thread_tests(prog, func, ast) - prog.tainted:
                prog.tainted.add(key)
                changed = True
            if f"f:{fname}" in prog.tainted:
                continue
            if any(thread_dependent(r.expr, prog, func, ast) for r in returns(func)):
                prog.tainted.add(f"f:{fname}")
                changed = True


BRANCHES = (c_ast.If, c_ast.Switch, c_ast.While, c_ast.DoWhile, c_ast.For, c_ast.TernaryOp)
JUMPS = (c_ast.Break, c_ast.Continue, c_ast.Goto)


def _set_under_thread_tests(prog: Program, func: c_ast.FuncDef, ast: c_ast.FileAST) -> set[str]:
    """Taint keys of the copies of its own a thread sets under a test of the thread
    (``if (tid == 0) scale = 2.0;`` on a region's local: each thread's copy then holds a
    value that depends on the thread, though no thread query flows into it), and
    ``f:<name>`` when ``func`` returns under one. A jump under such a test may skip any
    store of the function: all of them then. So do the copies of their own that a
    master, single or section sets: one thread's."""
    out: set[str] = set()
    scope = Scope(func, ast)
    for node in walk(func.body):
        if not isinstance(node, BRANCHES):
            continue
        if not thread_dependent(node.cond, prog, func, ast):
            continue
        governed = [c for name, c in node.children() if name not in ("cond", "init")]
        inner = [n for g in governed for n in walk(g)]
        if any(isinstance(n, c_ast.Return) for n in inner):
            out.add(f"f:{func.decl.name}")
        jumps = any(isinstance(n, JUMPS) for n in inner)
        if jumps:
            inner = list(walk(func.body))
        around = region_around(func, node)
        for n in inner:
            name = _set_name(n)
            # a shared variable one thread sets is one value for the team after a barrier
            # (before it, a race of the program's own): only each thread's own copies
            if name is not None and per_thread(
                scope, prog.threadprivate, name, n, *(region_around(func, n) if jumps else around)
            ):
                out.add(taint_key(name, n, func, ast))
    for stmt, region_stmt, region, handed in one_thread_statements(func):
        for n in walk(stmt):  # the copy of the one thread that runs it (a master's weight)
            name = _set_name(n)
            if name in handed or not name:
                continue  # single copyprivate(w): every thread's copy gets the value
            if per_thread(scope, prog.threadprivate, name, n, region_stmt, region):
                out.add(taint_key(name, n, func, ast))
    return out


def _set_name(node: c_ast.Node) -> str | None:
    """The variable a statement sets by name: ``x = e``, ``x += e``, ``x++``, ``T x = e``,
    ``c.scale = e`` (a member of the struct ``c``)."""
    if isinstance(node, c_ast.Assignment):
        lv = node.lvalue
        while isinstance(lv, c_ast.StructRef) and lv.type == ".":
            lv = lv.name  # c.scale = 0.5 sets the struct c
        return lv.name if isinstance(lv, c_ast.ID) else None
    if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--"):
        return node.expr.name if isinstance(node.expr, c_ast.ID) else None
    if isinstance(node, c_ast.Decl) and node.init is not None:
        return node.name
    return None


def returns(func: c_ast.FuncDef) -> list[c_ast.Return]:
    out = []
    stack = [func.body]
    while stack:
        n = stack.pop()
        if isinstance(n, c_ast.Return) and n.expr is not None:
            out.append(n)
        stack.extend(c for _, c in n.children())
    return out


def param_names(func: c_ast.FuncDef) -> list[str | None]:
    """Parameter names in order (K&R lists included)."""
    args = getattr(func.decl.type, "args", None)
    if args is None:
        return []
    return [getattr(p, "name", None) for p in args.params]


def _stores_to(node: c_ast.ID, ast: c_ast.FileAST) -> bool:
    """``node`` is (the root of) what an assignment, ``++``/``--`` or ``&`` writes or
    may write through: ``x = e``, ``x[k] += e``, ``x++``, ``&x``."""
    parents = file_info(ast).parents
    child, parent = node, parents.get(id(node))
    while isinstance(parent, c_ast.ArrayRef | c_ast.StructRef) and parent.name is child:
        child, parent = parent, parents.get(id(parent))
    if isinstance(parent, c_ast.Assignment):
        return parent.lvalue is child
    return isinstance(parent, c_ast.UnaryOp) and parent.op in ("++", "--", "p++", "p--", "&")
