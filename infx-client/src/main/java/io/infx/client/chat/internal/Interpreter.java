package io.infx.client.chat.internal;

import io.infx.client.chat.internal.Node.*;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Walks a parsed template with jinja2's semantics (scoping, undefined, attribute lookup). */
final class Interpreter {

  /** Variables of one scope; loops and macros open a child scope, {@code if} does not. */
  static final class Scope {
    final Map<String, Object> vars = new HashMap<>();
    final Scope parent;

    Scope(Scope parent) {
      this.parent = parent;
    }

    Object lookup(String name) {
      for (Scope s = this; s != null; s = s.parent) {
        if (s.vars.containsKey(name)) {
          return s.vars.get(name);
        }
      }
      return MISSING;
    }
  }

  static final Object MISSING = new Object();

  private static final class BreakSignal extends RuntimeException {
    BreakSignal() {
      super(null, null, false, false);
    }
  }

  private static final class ContinueSignal extends RuntimeException {
    ContinueSignal() {
      super(null, null, false, false);
    }
  }

  private static final BreakSignal BREAK = new BreakSignal();
  private static final ContinueSignal CONTINUE = new ContinueSignal();

  private final Map<String, Object> globals;
  private int depth;

  Interpreter(Map<String, Object> globals) {
    this.globals = globals;
  }

  String render(List<Stmt> body, Map<String, Object> context) {
    Scope root = new Scope(null);
    root.vars.putAll(context);
    StringBuilder out = new StringBuilder();
    exec(body, root, out);
    return out.toString();
  }

  // ---- statements -------------------------------------------------------------------------

  private void exec(List<Stmt> body, Scope scope, StringBuilder out) {
    for (Stmt s : body) {
      exec(s, scope, out);
    }
  }

  private void exec(Stmt s, Scope scope, StringBuilder out) {
    if (s instanceof Text t) {
      out.append(t.text());
    } else if (s instanceof Output o) {
      Object v = eval(o.expr(), scope);
      out.append(Py.str(v));
    } else if (s instanceof If i) {
      exec(Py.truthy(eval(i.test(), scope)) ? i.body() : i.orElse(), scope, out);
    } else if (s instanceof For f) {
      execFor(f, scope, out);
    } else if (s instanceof Set st) {
      assign(st.target(), eval(st.value(), scope), scope);
    } else if (s instanceof SetBlock sb) {
      StringBuilder inner = new StringBuilder();
      exec(sb.body(), scope, inner);
      Object v = inner.toString();
      if (sb.filter() != null) {
        v = applyFilterChain(sb.filter(), v, scope);
      }
      scope.vars.put(sb.name(), v);
    } else if (s instanceof Macro m) {
      scope.vars.put(m.name(), macro(m, scope));
    } else if (s instanceof CallBlock cb) {
      if (cb.call() == null) {
        exec(cb.body(), scope, out);
      } else {
        Call c = (Call) cb.call();
        PyCallable caller = (a, k) -> {
          StringBuilder inner = new StringBuilder();
          exec(cb.body(), new Scope(scope), inner);
          return inner.toString();
        };
        Map<String, Object> kw = new LinkedHashMap<>();
        List<Object> args = evalArgs(c, scope, kw);
        kw.put("caller", caller);
        out.append(Py.str(call(eval(c.fn(), scope), args, kw, c.line())));
      }
    } else if (s instanceof FilterBlock fb) {
      StringBuilder inner = new StringBuilder();
      exec(fb.body(), scope, inner);
      out.append(Py.str(applyFilterChain(fb.filter(), inner.toString(), scope)));
    } else if (s instanceof Break) {
      throw BREAK;
    } else if (s instanceof Continue) {
      throw CONTINUE;
    } else if (s instanceof ExprStmt e) {
      eval(e.expr(), scope);
    }
  }

  private void execFor(For f, Scope scope, StringBuilder out) {
    Object iterable = eval(f.iter(), scope);
    List<Object> items = Py.iterate(iterable);
    if (f.filter() != null) {
      List<Object> kept = new ArrayList<>();
      for (Object item : items) {
        Scope probe = new Scope(scope);
        assign(f.target(), item, probe);
        if (Py.truthy(eval(f.filter(), probe))) {
          kept.add(item);
        }
      }
      items = kept;
    }
    if (items.isEmpty()) {
      exec(f.orElse(), scope, out);
      return;
    }
    LoopInfo loop = new LoopInfo(items);
    for (int i = 0; i < items.size(); i++) {
      loop.index0 = i;
      Scope body = new Scope(scope);
      body.vars.put("loop", loop);
      assign(f.target(), items.get(i), body);
      try {
        exec(f.body(), body, out);
      } catch (ContinueSignal c) {
        // next item
      } catch (BreakSignal b) {
        break;
      }
    }
  }

  private void assign(Expr target, Object value, Scope scope) {
    if (target instanceof Name n) {
      scope.vars.put(n.name(), value);
    } else if (target instanceof TupleLit t) {
      List<Object> vals = Py.iterate(value);
      if (vals.size() != t.items().size()) {
        throw new TemplateError("ValueError: expected " + t.items().size()
            + " values to unpack, got " + vals.size());
      }
      for (int i = 0; i < vals.size(); i++) {
        assign(t.items().get(i), vals.get(i), scope);
      }
    } else if (target instanceof GetAttr ga) {
      Object obj = eval(ga.obj(), scope);
      if (!(obj instanceof Namespace ns)) {
        throw new TemplateError("TemplateRuntimeError: cannot assign attribute on non-namespace object",
            ga.line());
      }
      ns.attrs.put(ga.attr(), value);
    } else {
      throw new TemplateError("cannot assign to this expression");
    }
  }

  private PyCallable macro(Macro m, Scope defScope) {
    return (args, kwargs) -> {
      if (++depth > 200) {
        depth = 0;
        throw new TemplateError("RecursionError: maximum macro depth exceeded");
      }
      try {
        Scope s = new Scope(defScope);
        int nDefaults = m.defaults().size();
        int firstDefault = m.params().size() - nDefaults;
        Map<String, Object> kw = new LinkedHashMap<>(kwargs);
        for (int i = 0; i < m.params().size(); i++) {
          String p = m.params().get(i);
          Object v;
          if (i < args.size()) {
            v = args.get(i);
          } else if (kw.containsKey(p)) {
            v = kw.remove(p);
          } else if (i >= firstDefault) {
            v = eval(m.defaults().get(i - firstDefault), s);
          } else {
            v = new Undefined("parameter '" + p + "' was not provided");
          }
          s.vars.put(p, v);
        }
        if (kw.containsKey("caller")) {
          s.vars.put("caller", kw.remove("caller"));
        }
        List<Object> varargs = args.size() > m.params().size()
            ? new ArrayList<>(args.subList(m.params().size(), args.size())) : new ArrayList<>();
        s.vars.put("varargs", varargs);
        s.vars.put("kwargs", new LinkedHashMap<Object, Object>(kw));
        StringBuilder out = new StringBuilder();
        exec(m.body(), s, out);
        return out.toString();
      } finally {
        depth--;
      }
    };
  }

  // ---- expressions ------------------------------------------------------------------------

  Object eval(Expr e, Scope scope) {
    if (e instanceof Const c) {
      return c.value();
    }
    if (e instanceof Name n) {
      Object v = scope.lookup(n.name());
      if (v == MISSING) {
        v = globals.containsKey(n.name()) ? globals.get(n.name())
            : new Undefined("'" + n.name() + "' is undefined");
      }
      return v;
    }
    if (e instanceof GetAttr ga) {
      return getattr(eval(ga.obj(), scope), ga.attr());
    }
    if (e instanceof GetItem gi) {
      Object obj = eval(gi.obj(), scope);
      if (gi.key() instanceof Slice sl) {
        return slice(obj, sl, scope);
      }
      return getitem(obj, eval(gi.key(), scope));
    }
    if (e instanceof And a) {
      Object l = eval(a.left(), scope);
      return Py.truthy(l) ? eval(a.right(), scope) : l;
    }
    if (e instanceof Or o) {
      Object l = eval(o.left(), scope);
      return Py.truthy(l) ? l : eval(o.right(), scope);
    }
    if (e instanceof Not n) {
      return !Py.truthy(eval(n.operand(), scope));
    }
    if (e instanceof Cond c) {
      if (Py.truthy(eval(c.test(), scope))) {
        return eval(c.then(), scope);
      }
      return c.orElse() == null ? new Undefined("the inline if-expression evaluated to false and"
          + " no else section was defined.") : eval(c.orElse(), scope);
    }
    if (e instanceof Compare c) {
      Object left = eval(c.first(), scope);
      for (int i = 0; i < c.ops().size(); i++) {
        Object right = eval(c.rest().get(i), scope);
        if (!compare(c.ops().get(i), left, right)) {
          return false;
        }
        left = right;
      }
      return true;
    }
    if (e instanceof Binary b) {
      Object l = eval(b.left(), scope);
      Object r = eval(b.right(), scope);
      if (b.op().equals("~")) {
        return Py.str(l) + Py.str(r);
      }
      return arith(b.op(), l, r);
    }
    if (e instanceof Unary u) {
      Object v = eval(u.operand(), scope);
      if (v instanceof Undefined und) {
        throw und.error();
      }
      if (!Py.isNumber(v)) {
        throw Py.typeError("bad operand type for unary " + u.op() + ": '" + Py.typeName(v) + "'");
      }
      if (u.op().equals("+")) {
        return v instanceof Boolean ? (Object) Py.toLong(v) : v;
      }
      return v instanceof Double d ? (Object) (-d) : (Object) (-Py.toLong(v));
    }
    if (e instanceof ListLit l) {
      List<Object> out = new ArrayList<>();
      for (Expr x : l.items()) {
        out.add(eval(x, scope));
      }
      return out;
    }
    if (e instanceof TupleLit t) {
      List<Object> out = new ArrayList<>();
      for (Expr x : t.items()) {
        out.add(eval(x, scope));
      }
      return new PyTuple(out);
    }
    if (e instanceof DictLit d) {
      Map<Object, Object> out = new LinkedHashMap<>();
      for (int i = 0; i < d.keys().size(); i++) {
        Object k = eval(d.keys().get(i), scope);
        Object existing = Py.findKey(out, k);
        out.put(existing == Py.NO_KEY ? k : existing, eval(d.values().get(i), scope));
      }
      return out;
    }
    if (e instanceof Call c) {
      Map<String, Object> kw = new LinkedHashMap<>();
      List<Object> args = evalArgs(c, scope, kw);
      return call(eval(c.fn(), scope), args, kw, c.line());
    }
    if (e instanceof FilterCall f) {
      Object v = eval(f.value(), scope);
      return filter(f, v, scope);
    }
    if (e instanceof Test t) {
      Object v = eval(t.value(), scope);
      List<Object> args = new ArrayList<>();
      for (Expr x : t.args()) {
        args.add(eval(x, scope));
      }
      if (!Tests.exists(t.name())) {
        throw new TemplateError("TemplateRuntimeError: No test named '" + t.name() + "'.", t.line());
      }
      return Tests.apply(t.name(), v, args) != t.negated();
    }
    throw new TemplateError("cannot evaluate " + e.getClass().getSimpleName());
  }

  private List<Object> evalArgs(Call c, Scope scope, Map<String, Object> kw) {
    List<Object> args = new ArrayList<>();
    for (Expr x : c.args()) {
      args.add(eval(x, scope));
    }
    for (int i = 0; i < c.kwNames().size(); i++) {
      kw.put(c.kwNames().get(i), eval(c.kwValues().get(i), scope));
    }
    return args;
  }

  private Object filter(FilterCall f, Object v, Scope scope) {
    List<Object> args = new ArrayList<>();
    for (Expr x : f.args()) {
      args.add(eval(x, scope));
    }
    Map<String, Object> kw = new LinkedHashMap<>();
    for (int i = 0; i < f.kwNames().size(); i++) {
      kw.put(f.kwNames().get(i), eval(f.kwValues().get(i), scope));
    }
    if (!Filters.exists(f.name())) {
      throw new TemplateError("TemplateRuntimeError: No filter named '" + f.name() + "'.", f.line());
    }
    try {
      return Filters.apply(this, f.name(), v, args, kw);
    } catch (IndexOutOfBoundsException | ClassCastException ex) {
      throw Py.typeError("bad arguments to filter '" + f.name() + "'");
    }
  }

  /** A {@code {% filter %}} or block-set filter chain, applied to {@code v}. */
  private Object applyFilterChain(Expr chain, Object v, Scope scope) {
    FilterCall f = (FilterCall) chain;
    Object in = f.value() == null ? v : applyFilterChain(f.value(), v, scope);
    return filter(f, in, scope);
  }

  private static boolean compare(String op, Object l, Object r) {
    return switch (op) {
      case "==" -> Py.eq(l, r);
      case "!=" -> !Py.eq(l, r);
      case "<" -> Py.compare(l, r, op) < 0;
      case ">" -> Py.compare(l, r, op) > 0;
      case "<=" -> Py.compare(l, r, op) <= 0;
      case ">=" -> Py.compare(l, r, op) >= 0;
      case "in" -> Py.contains(r, l);
      case "notin" -> !Py.contains(r, l);
      default -> throw new TemplateError("unknown operator " + op);
    };
  }

  static Object arith(String op, Object l, Object r) {
    if (l instanceof Undefined u) {
      throw u.error();
    }
    if (r instanceof Undefined u) {
      throw u.error();
    }
    if (Py.isNumber(l) && Py.isNumber(r)) {
      boolean ints = Py.isIntLike(l) && Py.isIntLike(r);
      switch (op) {
        case "+":
          return ints ? (Object) (Py.toLong(l) + Py.toLong(r)) : (Object) (Py.toDouble(l) + Py.toDouble(r));
        case "-":
          return ints ? (Object) (Py.toLong(l) - Py.toLong(r)) : (Object) (Py.toDouble(l) - Py.toDouble(r));
        case "*":
          return ints ? (Object) (Py.toLong(l) * Py.toLong(r)) : (Object) (Py.toDouble(l) * Py.toDouble(r));
        case "/":
          if (Py.toDouble(r) == 0) {
            throw new TemplateError("ZeroDivisionError: division by zero");
          }
          return Py.toDouble(l) / Py.toDouble(r);
        case "//":
          if (Py.toDouble(r) == 0) {
            throw new TemplateError("ZeroDivisionError: integer division or modulo by zero");
          }
          return ints ? (Object) Math.floorDiv(Py.toLong(l), Py.toLong(r))
              : (Object) Math.floor(Py.toDouble(l) / Py.toDouble(r));
        case "%":
          if (Py.toDouble(r) == 0) {
            throw new TemplateError("ZeroDivisionError: integer division or modulo by zero");
          }
          if (ints) {
            return Math.floorMod(Py.toLong(l), Py.toLong(r));
          }
          double a = Py.toDouble(l);
          double b = Py.toDouble(r);
          double m = a % b;
          return m != 0 && (m < 0) != (b < 0) ? m + b : m;
        case "**":
          if (ints && Py.toLong(r) >= 0) {
            return java.math.BigInteger.valueOf(Py.toLong(l)).pow((int) Py.toLong(r)).longValue();
          }
          return Math.pow(Py.toDouble(l), Py.toDouble(r));
        default:
          break;
      }
    }
    if (op.equals("+")) {
      if (l instanceof String a && r instanceof String b) {
        return a + b;
      }
      if (l instanceof List<?> a && r instanceof List<?> b && !(l instanceof PyTuple)) {
        List<Object> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
      }
      if (l instanceof PyTuple a && r instanceof PyTuple b) {
        List<Object> out = new ArrayList<>(a);
        out.addAll(b);
        return new PyTuple(out);
      }
      if (l instanceof String || r instanceof String) {
        throw Py.typeError(l instanceof String
            ? "can only concatenate str (not \"" + Py.typeName(r) + "\") to str"
            : "unsupported operand type(s) for +: '" + Py.typeName(l) + "' and 'str'");
      }
    }
    if (op.equals("*")) {
      if (l instanceof String s && Py.isIntLike(r)) {
        return s.repeat((int) Math.max(0, Py.toLong(r)));
      }
      if (r instanceof String s && Py.isIntLike(l)) {
        return s.repeat((int) Math.max(0, Py.toLong(l)));
      }
      if (l instanceof List<?> a && Py.isIntLike(r)) {
        List<Object> out = new ArrayList<>();
        for (long i = 0; i < Py.toLong(r); i++) {
          out.addAll(a);
        }
        return out;
      }
    }
    if (op.equals("%") && l instanceof String s) {
      return StrFormat.percent(s, r);
    }
    throw Py.typeError("unsupported operand type(s) for " + op + ": '" + Py.typeName(l) + "' and '"
        + Py.typeName(r) + "'");
  }

  private Object call(Object fn, List<Object> args, Map<String, Object> kw, int line) {
    if (fn instanceof PyCallable c) {
      return c.call(args, kw);
    }
    if (fn instanceof Undefined u) {
      throw new TemplateError(u.error().getMessage(), line);
    }
    throw new TemplateError("TypeError: '" + Py.typeName(fn) + "' object is not callable", line);
  }

  /** jinja2 {@code getattr}: the attribute (a method, a namespace field), else the item. */
  Object getattr(Object obj, String name) {
    if (obj instanceof Undefined u) {
      throw u.error();
    }
    if (obj instanceof Namespace ns) {
      return ns.attrs.containsKey(name) ? ns.attrs.get(name)
          : new Undefined("'Namespace' object has no attribute '" + name + "'");
    }
    if (obj instanceof LoopInfo l) {
      return l.attr(name);
    }
    PyCallable m = Methods.bind(obj, name);
    if (m != null) {
      return m;
    }
    if (obj instanceof Map<?, ?> map) {
      Object k = Py.findKey(map, name);
      if (k != Py.NO_KEY) {
        return map.get(k);
      }
    }
    return new Undefined("'" + Py.typeName(obj) + "' object has no attribute '" + name + "'");
  }

  /** jinja2 {@code getitem}: the item, else (for a string key) the attribute. */
  Object getitem(Object obj, Object key) {
    if (obj instanceof Undefined u) {
      throw u.error();
    }
    if (obj instanceof Map<?, ?> map) {
      Object k = Py.findKey(map, key);
      if (k != Py.NO_KEY) {
        return map.get(k);
      }
    } else if ((obj instanceof List || obj instanceof String) && Py.isIntLike(key)) {
      try {
        if (obj instanceof String s) {
          int[] cps = Py.codePoints(s);
          int i = Py.index(Py.toLong(key), cps.length);
          return Py.fromCodePoints(cps, i, i + 1);
        }
        List<?> l = (List<?>) obj;
        return l.get(Py.index(Py.toLong(key), l.size()));
      } catch (IndexOutOfBoundsException e) {
        return new Undefined(Py.typeName(obj) + " index out of range");
      }
    }
    if (key instanceof String s && !(obj instanceof Map)) {
      return getattr(obj, s);
    }
    if (key instanceof String s && obj instanceof Map) {
      PyCallable m = Methods.bind(obj, s);
      if (m != null) {
        return m;
      }
    }
    return new Undefined("'" + Py.typeName(obj) + "' object has no attribute " + Py.repr(key));
  }

  /** A dotted attribute path ({@code "function.name"}) as jinja2's attribute getters resolve it. */
  Object attrPath(Object obj, Object attr) {
    if (!(attr instanceof String s)) {
      return getitem(obj, attr);
    }
    Object cur = obj;
    for (String part : s.split("\\.")) {
      Object key = part.chars().allMatch(Character::isDigit) && !part.isEmpty()
          ? (Object) Long.parseLong(part) : part;
      cur = getitem(cur, key);
    }
    return cur;
  }

  private Object slice(Object obj, Slice sl, Scope scope) {
    if (obj instanceof Undefined u) {
      throw u.error();
    }
    Object startV = sl.start() == null ? null : eval(sl.start(), scope);
    Object stopV = sl.stop() == null ? null : eval(sl.stop(), scope);
    Object stepV = sl.step() == null ? null : eval(sl.step(), scope);
    int n;
    int[] cps = null;
    List<?> list = null;
    if (obj instanceof String s) {
      cps = Py.codePoints(s);
      n = cps.length;
    } else if (obj instanceof List<?> l) {
      list = l;
      n = l.size();
    } else {
      throw Py.typeError("'" + Py.typeName(obj) + "' object is not subscriptable");
    }
    long step = stepV == null ? 1 : Py.toLong(stepV);
    if (step == 0) {
      throw new TemplateError("ValueError: slice step cannot be zero");
    }
    long start;
    long stop;
    if (step > 0) {
      start = startV == null ? 0 : clamp(Py.toLong(startV), n, 0, n);
      stop = stopV == null ? n : clamp(Py.toLong(stopV), n, 0, n);
    } else {
      start = startV == null ? n - 1 : clamp(Py.toLong(startV), n, -1, n - 1);
      stop = stopV == null ? -1 : clamp(Py.toLong(stopV), n, -1, n - 1);
    }
    List<Object> items = new ArrayList<>();
    StringBuilder sb = new StringBuilder();
    for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
      if (cps != null) {
        sb.appendCodePoint(cps[(int) i]);
      } else {
        items.add(list.get((int) i));
      }
    }
    if (cps != null) {
      return sb.toString();
    }
    return obj instanceof PyTuple ? new PyTuple(items) : items;
  }

  private static long clamp(long i, int n, long lo, long hi) {
    long j = i < 0 ? i + n : i;
    return Math.max(lo, Math.min(hi, j));
  }
}
