"""Which objects a pointer may reach: a flow-insensitive points-to over the program.

Objects are named: ``var:<key>`` for a declared variable (an array, or a scalar
whose address is taken), ``heap:<file>:<line>:<col>:<function>`` for an
allocation site, with ``@<site>:<caller>`` appended each time a function
returns memory it allocated itself (so two calls of an allocation wrapper give
two objects, as ``alloc_1d(n)`` twice in Rodinia's backprop does).
``None`` means "may be any object": nothing that could alias it is proven
distinct. Pointers held in memory (``double **rows``, a struct's pointer field)
take the union of everything stored there anywhere in the program (field-based:
every struct's field ``f`` is one cell), so the answer is an over-approximation,
which is what a proof of independence needs.
"""

from __future__ import annotations

from pycparser import c_ast

from autotune.analysis.allocators import FRESH, REALLOCATORS
from autotune.analysis.names import call_name
from autotune.analysis.proof.decls import derivations, is_fresh, returns_fresh, var_key
from autotune.analysis.proof.intaddr import integer_origin, integer_valued, to_pointer
from autotune.analysis.proof.library import written_args
from autotune.analysis.proof.outparams import address_stores
from autotune.analysis.proof.program import (
    Program,
    Site,
    param_names,
    returns,
)
from autotune.analysis.symbols import Scope, file_info

Objects = frozenset[str] | None
LITERAL = "literal:"  # every string literal: read only (a store to one is undefined)
MAX_DEPTH = 32


class PointsTo:
    """Objects of pointer expressions (cached per node)."""

    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self._cache: dict[int, Objects] = {}
        self._busy: set[int] = set()
        self._cut = False
        self._named_cache: dict[tuple[int, int, str], Objects] = {}
        self._array_members: set[str] | None = None

    def scope(self, site: Site) -> Scope:
        if site.func is not None:
            return Scope(site.func, site.ast)
        return Scope(
            c_ast.FuncDef(c_ast.Decl("", [], [], [], [], None, None, None), [], None), site.ast
        )

    def objects(self, expr: c_ast.Node, site: Site, depth: int = 0) -> Objects:
        """The objects ``expr`` (evaluated in ``site``'s function) may point into."""
        key = id(expr)
        if key in self._cache:
            return self._cache[key]
        if depth > MAX_DEPTH:
            return None
        if key in self._busy:
            # a cycle of copies (p = q; q = p): its other stores are being collected by
            # the query that entered it first; results computed meanwhile are partial
            self._cut = True
            return frozenset()
        self._busy.add(key)
        outer_cut, self._cut = self._cut, False
        try:
            out = self._objects(expr, site, depth)
        finally:
            self._busy.discard(key)
        if not self._cut or not self._busy:
            self._cache[key] = out
        self._cut = self._cut or outer_cut
        if not self._busy:
            self._cut = False
        return out

    def _objects(self, e: c_ast.Node, site: Site, depth: int) -> Objects:
        if isinstance(e, c_ast.Cast):
            scope = self.scope(site)
            if to_pointer(scope, e.to_type) and integer_valued(scope, e.expr):
                return self._from_integer(e.expr, site, depth)  # (T *)(addr & ~63)
            return self.objects(e.expr, Site(e.expr, site.func, site.ast), depth)
        if isinstance(e, c_ast.Constant):
            # a string literal is an object no program may write; NULL and 0 are none
            return frozenset({LITERAL}) if e.type == "string" else frozenset()
        if isinstance(e, c_ast.Decl) and e.name:  # the array an initializer list fills
            _, kind = self.scope(site).find_decl(e.name, e)
            return frozenset({var_key(e, kind, site.func)})
        if isinstance(e, c_ast.ID):
            return self._name(e, site, depth)
        if isinstance(e, c_ast.UnaryOp):
            if e.op == "&":
                return self._address(e.expr, site, depth)
            if e.op in ("++", "--", "p++", "p--"):
                return self.objects(e.expr, site, depth + 1)
            if e.op == "*":
                return self._loaded(e.expr, site, depth)
            return frozenset()
        if isinstance(e, c_ast.BinaryOp):
            if e.op in ("+", "-"):
                return _union(
                    self.objects(e.left, site, depth + 1),
                    self.objects(e.right, site, depth + 1) if e.op == "+" else frozenset(),
                )
            return frozenset()
        if isinstance(e, c_ast.TernaryOp):
            return _union(
                self.objects(e.iftrue, site, depth + 1), self.objects(e.iffalse, site, depth + 1)
            )
        if isinstance(e, c_ast.Assignment):
            return self.objects(e.rvalue, site, depth + 1)
        if isinstance(e, c_ast.FuncCall):
            return self._call(e, site, depth)
        if isinstance(e, c_ast.ArrayRef):
            return self._element(e, site, depth)
        if isinstance(e, c_ast.StructRef):
            return self._field(e, site, depth)
        if isinstance(e, c_ast.ExprList):
            return self.objects(e.exprs[-1], site, depth + 1) if e.exprs else frozenset()
        return None

    def _from_integer(self, e: c_ast.Node, site: Site, depth: int) -> Objects:
        def pointer(x: c_ast.Node, at: Site) -> Objects:
            return self.objects(x, Site(x, at.func, at.ast), depth + 1)

        return integer_origin(e, site, self.prog, pointer, self.scope(site))

    def _name(self, e: c_ast.ID, site: Site, depth: int) -> Objects:
        return self._named(e.name, e, site, depth)

    def variable_objects(
        self, name: str, at: c_ast.Node, func: c_ast.FuncDef, ast: c_ast.FileAST
    ) -> Objects:
        """The objects the variable ``name`` (as seen at ``at`` in ``func``) is or points
        into: for rules that speak of names rather than expressions."""
        key = (id(func), id(at), name)
        if key not in self._named_cache:
            self._named_cache[key] = self._named(name, at, Site(at, func, ast), 0)
        return self._named_cache[key]

    def _named(self, name: str, at: c_ast.Node, site: Site, depth: int) -> Objects:
        scope = self.scope(site)
        decl, kind = scope.find_decl(name, at)
        if decl is None:
            if name in self.prog.funcs:
                return frozenset()  # a function's address: not data
            return None
        derivs = derivations(scope, decl.type)
        if not derivs:
            return frozenset()  # an integer: no object
        if derivs[0] == "array" and kind != "param":
            return frozenset({var_key(decl, kind, site.func)})
        if kind == "param":
            return self.param_objects(site.func, decl.name, depth)
        stored = self._stored(name, decl, kind, site, depth)
        if not self.prog.address_taken_var(name, at, site.func, site.ast):
            return stored
        through = address_stores(self.prog, decl, site) if kind == "local" else None
        if through is None or stored is None:
            return None  # the pointer may be set through its address where no walk sees
        for s in through:  # ``alloc_vector(&x, n)``: ``*out = malloc(...)``
            if not moves_itself(s.node):
                objs = self.objects(s.node, s, depth + 1)
                if objs is None:
                    return None
                stored |= objs
        return stored

    def _stored(self, name: str, decl: c_ast.Decl, kind: str, site: Site, depth: int) -> Objects:
        """Union over every store to this variable (the same declaration)."""
        out: frozenset[str] = frozenset()
        stores = self.prog.var_stores.get(name, [])
        found = False
        for s in stores:
            if kind == "global":
                sdecl, skind = self.scope(s).find_decl(name, s.node)
                if skind != "global":
                    continue
            elif s.func is not site.func:
                continue
            else:
                sdecl, _ = self.scope(s).find_decl(name, s.node)
                if sdecl is not decl and not (decl.init is not None and s.node is decl.init):
                    continue
            found = True
            if moves_itself(s.node):
                continue  # ``p += k``, ``p++``: still inside the objects it pointed into
            objs = self.objects(s.node, s, depth + 1)
            if objs is None:
                return None
            out |= objs
        if kind == "global" and (not found or not self.prog.whole):
            return None  # set elsewhere (another file, a library)
        return out

    def param_objects(self, func: c_ast.FuncDef | None, name: str, depth: int) -> Objects:
        """Objects a pointer parameter may hold: the union over every call site."""
        if func is None:
            return None
        fname = func.decl.name
        if fname in self.prog.address_taken or fname == "main":
            return None
        sites = self.prog.calls.get(fname, [])
        if not sites or not self.prog.all_calls_seen(func):
            return None  # callers outside the files given may pass anything
        idx = param_names(func).index(name) if name in param_names(func) else -1
        if idx < 0:
            return None
        out: frozenset[str] = frozenset()
        for s in sites:
            args = s.node.args.exprs if s.node.args is not None else []
            if idx >= len(args):
                return None
            objs = self.objects(args[idx], s, depth + 1)
            if objs is None:
                return None
            out |= objs
        return out

    def _address(self, e: c_ast.Node, site: Site, depth: int) -> Objects:
        """``&x``, ``&a[i]``, ``&s.f``: the object that holds the lvalue."""
        if isinstance(e, c_ast.ID):
            scope = self.scope(site)
            decl, kind = scope.find_decl(e.name, e)
            if decl is None:
                return frozenset() if e.name in self.prog.funcs else None
            derivs = derivations(scope, decl.type)
            if derivs and derivs[0] == "array" and kind == "param":
                return self.param_objects(site.func, decl.name, depth)
            return frozenset({var_key(decl, kind, site.func)})
        if isinstance(e, c_ast.ArrayRef):
            return self._element_address(e, site, depth)
        if isinstance(e, c_ast.StructRef):
            return self._field_address(e, site, depth)
        if isinstance(e, c_ast.UnaryOp) and e.op == "*":
            return self.objects(e.expr, site, depth + 1)
        return None

    def _element_address(self, e: c_ast.ArrayRef, site: Site, depth: int) -> Objects:
        """The object ``a[i]`` lives in: ``a``'s own storage or what ``a`` points to."""
        return self.objects(e.name, site, depth + 1)

    def _array_member(self, name: str) -> bool:
        """Some struct of the program declares a member ``name`` as an array."""
        if self._array_members is None:
            self._array_members = {
                d.name
                for ast in self.prog.units
                for struct in file_info(ast).struct_defs
                for d in struct.decls or []
                if isinstance(d.type, c_ast.ArrayDecl)
            }
        return name in self._array_members

    def _field_address(self, e: c_ast.StructRef, site: Site, depth: int) -> Objects:
        if e.type == "->":
            return self.objects(e.name, site, depth + 1)
        return self._address(e.name, site, depth)

    def _loaded(self, ptr: c_ast.Node, site: Site, depth: int) -> Objects:
        """``*p`` used as a pointer: what is stored in the objects ``p`` reaches, or,
        when ``*p`` is itself an array (``int (*p)[N][N]``, PolyBench's ``*path``), the
        objects ``p`` reaches: an array is not loaded, it decays to its address."""
        if self._still_array(ptr, 1, site):
            return self.objects(ptr, site, depth + 1)
        base = self.objects(ptr, site, depth + 1)
        return self.contents(base, depth)

    def _still_array(self, e: c_ast.Node, levels: int, site: Site) -> bool:
        """``e`` dereferenced or subscripted ``levels`` more times is an array."""
        root, inner = _root_and_levels(e)
        derivs = self._derivations_of(root, site)
        return (
            derivs is not None
            and len(derivs) > inner + levels
            and (derivs[inner + levels] == "array")
        )

    def _derivations_of(self, root: c_ast.Node, site: Site) -> list[str] | None:
        """The declared type's pointer and array levels of a variable (None: not a
        variable the scope declares)."""
        scope = self.scope(site)
        if isinstance(root, c_ast.Decl):  # an initializer list's own array
            return derivations(scope, root.type)
        if not isinstance(root, c_ast.ID):
            return None
        decl, _ = scope.find_decl(root.name, root)
        return None if decl is None else derivations(scope, decl.type)

    def _element(self, e: c_ast.ArrayRef, site: Site, depth: int) -> Objects:
        """``a[i]`` used as a pointer value: an inner array of ``a`` (no load) or a
        pointer loaded from ``a``'s elements."""
        if self._still_array(e, 0, site):
            return self.objects(_root_and_levels(e)[0], site, depth + 1)  # inside the object
        base = self.objects(e.name, site, depth + 1)
        return self.contents(base, depth)

    def _field(self, e: c_ast.StructRef, site: Site, depth: int) -> Objects:
        """``s.f`` / ``p->f`` as a pointer: field-based union of its stores, or the
        struct's own storage when ``f`` is an array member (no store to it exists)."""
        stores = self.prog.field_stores.get(e.field.name, [])
        array = self._array_member(e.field.name)
        if not array and (not stores or self.prog.opaque_inits):
            # a pointer member set where no store is seen (another file, a list the
            # walk could not match to the struct's members)
            return None
        out: frozenset[str] = frozenset()
        if array:  # the member is the struct's own storage (as any member so named)
            own = self._field_address(e, site, depth)
            if own is None or not stores:
                return own
            out = own
        for s in stores:
            objs = self.objects(s.node, s, depth + 1)
            if objs is None:
                return None
            out |= objs
        return out

    def _call(self, e: c_ast.FuncCall, site: Site, depth: int) -> Objects:
        name = call_name(e)
        if name in FRESH:
            c = e.coord
            fname = site.func.decl.name if site.func is not None else ""
            return frozenset({f"heap:{c.file}:{c.line}:{c.column}:{fname}" if c else "heap:?"})
        if name in REALLOCATORS:  # a new block, or the one it was given
            args = e.args.exprs if e.args is not None else []
            given = self.objects(args[0], site, depth + 1) if args else None
            c = e.coord
            fname = site.func.decl.name if site.func is not None else ""
            own = f"heap:{c.file}:{c.line}:{c.column}:{fname}" if c else "heap:?"
            return _union(frozenset({own}), given)
        entry = self.prog.funcs.get(name or "")
        if entry is None:
            return frozenset() if self._returns_value(name, site) else None
        func, ast = entry
        out: frozenset[str] = frozenset()
        tag = _site_tag(e, site)
        for r in returns(func):
            objs = self.objects(r.expr, Site(r.expr, func, ast), depth + 1)
            if objs is None:
                return None
            if returns_fresh(r.expr, func, ast, self.prog):
                objs = frozenset(_clone(o, name, tag) for o in objs)
            out |= objs  # memory kept in a static or global: one object for every call
        return out

    def _returns_value(self, name: str | None, site: Site) -> bool:
        """A library function whose prototype returns no pointer (``int rand(void)``)."""
        decl = file_info(site.ast).globals.get(name or "")
        if decl is None or not isinstance(decl.type, c_ast.FuncDecl):
            return False
        return not derivations(self.scope(site), decl.type.type)

    def contents(self, base: Objects, depth: int) -> Objects:
        """Pointers stored in the elements of ``base``'s objects: every store of a
        pointer through a base that may reach one of them."""
        if base is None:
            return None
        out: frozenset[str] = frozenset()
        for rhs_site, store_base in self.prog.element_stores:
            if not self._stores_pointer(store_base, rhs_site):
                continue
            objs = self.objects(store_base, rhs_site, depth + 1)
            if objs is None or objs & base or any(same_origin(o, base) for o in objs):
                val = self.objects(rhs_site.node, rhs_site, depth + 1)
                if val is None:
                    return None
                out |= _recontext(val, objs, base)
        return out

    def copied_into(self, base: Objects) -> bool:
        """A library call that may write ``base``'s elements (see ``_written_args``)."""
        for name, sites in self.prog.calls.items():
            for s in sites:
                args = s.node.args.exprs if s.node.args is not None else []
                for arg in written_args(name, args):
                    objs = self.objects(arg, s, 1)
                    if objs is None or objs & base or any(same_origin(o, base) for o in objs):
                        return True
        return False

    def _stores_pointer(self, base: c_ast.Node, site: Site) -> bool:
        """Whether ``base[i] = ...`` (or ``*base = ...``) stores a pointer (True when the
        type cannot be told: then the store counts)."""
        root, levels = _root_and_levels(base) if isinstance(base, c_ast.ArrayRef) else (base, 0)
        for _ in range(8):  # (T *)p, p++, p + k: still p's type
            if isinstance(root, c_ast.Cast):
                if isinstance(root.to_type.type, c_ast.PtrDecl):
                    return isinstance(root.to_type.type.type, c_ast.PtrDecl)
                root = root.expr
            elif isinstance(root, c_ast.UnaryOp) and root.op in ("++", "--", "p++", "p--"):
                root = root.expr
            elif isinstance(root, c_ast.BinaryOp) and root.op in ("+", "-"):
                root = root.left
            else:
                break
        derivs = self._derivations_of(root, site)
        if derivs is None:
            return True
        if not derivs:
            return True  # a typedef'd pointer we cannot see through
        return len(derivs) > levels + 1

    def fresh_rows(self, base: Objects) -> bool:
        """Every pointer stored into ``base``'s elements is a new allocation: distinct
        elements hold distinct objects (the rows of ``float **w``). A library call that
        writes memory it is given (``memcpy(g[1], g[2], ...)``: one level's rows copied
        into another's) stores pointers no assignment shows: then not."""
        if not base or self.copied_into(base):
            return False
        found = False
        for rhs_site, store_base in self.prog.element_stores:
            if not self._stores_pointer(store_base, rhs_site):
                continue
            objs = self.objects(store_base, rhs_site, 1)
            if objs is None:
                return False
            if objs & base or any(same_origin(o, base) for o in objs):
                found = True
                if not is_fresh(rhs_site.node, self.prog):
                    return False
        return found


def _root_and_levels(e: c_ast.Node) -> tuple[c_ast.Node, int]:
    """The variable under subscripts and dereferences (``(*p)[i]``: p, 2 levels)."""
    levels = 0
    node: c_ast.Node = e
    while True:
        if isinstance(node, c_ast.ArrayRef):
            node = node.name
        elif isinstance(node, c_ast.UnaryOp) and node.op == "*":
            node = node.expr
        else:
            return node, levels
        levels += 1


def moves_itself(node: c_ast.Node) -> bool:
    """A store that moves a pointer by arithmetic on itself (``p += k``, ``p++``): C keeps
    the result inside the object it pointed into, but at another place in it."""
    if isinstance(node, c_ast.UnaryOp):
        return node.op in ("++", "--", "p++", "p--")
    return isinstance(node, c_ast.Assignment) and node.op in ("+=", "-=")


def _site_tag(e: c_ast.FuncCall, site: Site) -> str:
    c = e.coord
    caller = site.func.decl.name if site.func is not None else ""
    return f"{c.file}:{c.line}:{c.column}:{caller}" if c else f"?:{caller}"


def _clone(obj: str, callee: str, tag: str) -> str:
    """A heap object allocated by ``callee`` itself is a new object at each call."""
    if obj.startswith("heap:") and obj.rsplit(":", 1)[-1] == callee:
        return f"{obj}@{tag}"
    return obj


def same_origin(obj: str, base: frozenset[str]) -> bool:
    """``obj`` is the un-cloned allocation of some object of ``base`` (stores inside an
    allocation wrapper name the object without the caller's context)."""
    return any(b.startswith(obj + "@") for b in base)


def _recontext(
    vals: frozenset[str], store_objs: frozenset[str] | None, base: frozenset[str]
) -> frozenset[str]:
    """Stores made inside a wrapper, read through a cloned object: give the stored
    fresh objects the same calling context."""
    out = set()
    for v in vals:
        suffixes = [b[len(o) :] for o in (store_objs or ()) for b in base if b.startswith(o + "@")]
        if suffixes and v.startswith("heap:"):
            out.update(v + "@" + s.split("@", 1)[1] if "@" in s else v for s in suffixes)
        else:
            out.add(v)
    return frozenset(out)


def _union(a: Objects, b: Objects) -> Objects:
    if a is None or b is None:
        return None
    return a | b
